"""The link in every e-mail turns them off, signed out; only a POST changes anything."""

import re

import pytest
from django.test import Client
from django.urls import resolve, reverse

from games.notifications.mail import unsubscribe_token, user_id_from_token
from games.notifications.tasks import ensure_digest_scheduled
from tests.factories import make_match
from tests.notify_helpers import messages_to, opt_in, run_due_tasks, settings_of


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://hearts.example.com"


@pytest.fixture
def bob(make_user):
    bob = make_user("bob", "Bob", email="bob@example.com")
    opt_in(bob, turn_emails=True, daily_digest=True)
    return bob


@pytest.fixture
def digest(clock, alice, bob):
    """Send bob a digest (a match waits for him) and return it."""
    make_match(alice, people=[bob])
    ensure_digest_scheduled()
    run_due_tasks(clock.now())
    [message] = messages_to(bob)
    return message


def unsubscribe_link(message) -> str:
    """Return the link in the message's `List-Unsubscribe` header."""
    return re.fullmatch(r"<(.+)>", message.extra_headers["List-Unsubscribe"]).group(1)


def path_of(url: str) -> str:
    assert url.startswith("https://hearts.example.com/")
    return url.removeprefix("https://hearts.example.com")


def both_on(user) -> bool:
    found = settings_of(user)
    return found.turn_emails and found.daily_digest


def test_every_email_has_the_link_and_the_one_click_headers(digest, bob):
    # The token carries the second it was signed, so the link is read from the message and
    # checked by what it says, not compared with one signed here a moment later.
    link = unsubscribe_link(digest)
    found = resolve(path_of(link))
    assert found.url_name == "unsubscribe"
    assert user_id_from_token(found.kwargs["token"]) == bob.pk
    assert digest.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in digest.body
    assert f'href="{link}"' in digest.alternatives[0][0]
    # The headers survive into the message as sent.
    sent = digest.message()
    assert sent["List-Unsubscribe"] == f"<{link}>"


def test_the_link_asks_first_and_changes_nothing_on_get(digest, bob):
    link = unsubscribe_link(digest)
    response = Client().get(path_of(link))
    assert response.status_code == 200
    assert "Turn all e-mails off" in response.text
    assert both_on(bob)


def test_the_confirmation_turns_every_email_off_signed_out(digest, bob):
    link = unsubscribe_link(digest)
    # A signed-out browser, with CSRF checks as in production: the token is the credential.
    response = Client(enforce_csrf_checks=True).post(path_of(link))
    assert response.status_code == 200
    assert "E-mails turned off" in response.text
    found = settings_of(bob)
    assert not found.turn_emails and not found.daily_digest


def test_a_mail_clients_one_click_post_turns_them_off(bob):
    path = reverse("unsubscribe", args=[unsubscribe_token(bob.pk)])
    response = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert not settings_of(bob).turn_emails
    assert not settings_of(bob).daily_digest


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_tampered_token_is_refused(bob, alice, method):
    token = unsubscribe_token(bob.pk)
    forged = unsubscribe_token(alice.pk).split(":")[0] + ":" + token.split(":", 1)[1]
    for bad in (token[:-2] + "xy", forged, "nonsense"):
        response = getattr(Client(), method)(reverse("unsubscribe", args=[bad]))
        assert response.status_code == 400
        assert "Link not recognised" in response.text
    assert both_on(bob)


def test_a_link_for_a_deleted_account_is_not_found(bob):
    path = reverse("unsubscribe", args=[unsubscribe_token(bob.pk)])
    bob.delete()
    assert Client().post(path).status_code == 404


def test_other_methods_are_refused(bob):
    path = reverse("unsubscribe", args=[unsubscribe_token(bob.pk)])
    assert Client().put(path).status_code == 405
    assert both_on(bob)
