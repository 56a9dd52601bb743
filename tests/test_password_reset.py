"""Password reset by e-mail: queued for the worker, counted, never telling who has an account."""

import re

import pytest
from django.core import mail
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.notifications.tasks import send_password_reset
from tests.conftest import PASSWORD
from tests.notify_helpers import START, run_due_tasks

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_limits")]


@pytest.fixture
def ask(client, django_capture_on_commit_callbacks):
    """Ask for a reset, running what the request defers until its transaction commits."""

    def ask_for(email: str, address: str = "198.51.100.7"):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)

    return ask_for


def queued() -> list[list]:
    """Return the addresses of the queued reset tasks, one list of arguments each."""
    rows = DBTaskResult.objects.filter(task_path=send_password_reset.module_path)
    return [row.args_kwargs["args"] for row in rows.order_by("enqueued_at")]


def links() -> list[str]:
    run_due_tasks(START)
    pattern = r"https?://[^/]+(/accounts/password/reset/\S+/)"
    return [re.search(pattern, m.body).group(1) for m in mail.outbox]


def test_it_queues_the_mail_and_the_worker_sends_a_link_that_sets_a_new_password(
    client, alice, ask
):
    response = ask("alice@example.com")
    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []  # nothing sent while the request waited
    assert queued() == [["alice@example.com"]]
    (link,) = links()
    message = mail.outbox[0]
    assert message.subject == "Reset your Hearts password"
    assert message.to == ["alice@example.com"]
    assert message.body.startswith("Hello Alice,")

    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.text
    new = "a-brand-new-passphrase"
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}
    )
    assert done.url == reverse("password_reset_complete")
    assert log_in(client, new).status_code == 302
    client.post(reverse("logout"))
    assert log_in(client, PASSWORD).status_code == 400


def log_in(client, password: str):
    return client.post(reverse("login"), {"username": "alice", "password": password})


def test_a_known_and_an_unknown_address_take_the_same_path(client, alice, ask):
    known = ask("alice@example.com")
    unknown = ask("nobody@example.com")
    assert (known.status_code, known.url) == (unknown.status_code, unknown.url)
    assert queued() == [["alice@example.com"], ["nobody@example.com"]]
    assert len(links()) == 1  # the worker, not the page, finds that nobody uses the second


def test_an_address_asked_for_too_often_gets_the_same_answer_and_no_mail(alice, ask, settings):
    settings.PASSWORD_RESET_LIMIT = 3
    answers = [ask(email) for email in ["alice@example.com", "ALICE@example.com"] * 2]
    assert {(a.status_code, a.url) for a in answers} == {(302, reverse("password_reset_done"))}
    assert len(queued()) == 3
    assert len(links()) == 3
    assert ask("nobody@example.com").status_code == 302  # another address is counted apart
    assert len(queued()) == 4


def test_an_account_gets_no_more_links_than_the_limit_whatever_address_was_asked(
    alice, ask, settings
):
    settings.PASSWORD_RESET_LIMIT = 2
    ask("alice@example.com")
    ask("alice@example.com")
    assert len(links()) == 2
    alice.email = "alice@new.example.com"
    alice.save()
    ask("alice@new.example.com")
    assert len(queued()) == 3  # a new address, counted apart
    assert len(links()) == 2  # but the same account


def test_a_client_asking_too_often_is_told_to_wait(alice, ask, settings):
    settings.PASSWORD_RESET_CLIENT_LIMIT = 2
    ask("one@example.com")
    ask("two@example.com")
    response = ask("alice@example.com")
    assert response.status_code == 429
    assert "Too many password resets were asked for from your connection" in response.text
    assert len(queued()) == 2
    assert ask("alice@example.com", address="203.0.113.9").status_code == 302


def test_a_used_or_forged_link_says_it_no_longer_works(client, alice):
    response = client.get("/accounts/password/reset/MQ/not-a-token/")
    assert response.status_code == 200
    assert "This link no longer works" in response.text
