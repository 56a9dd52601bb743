"""The profile's e-mail address: added, changed or removed, always with the password."""

import pytest
from django.core import mail
from django.urls import reverse

from games.models import notification_settings_for
from tests.conftest import PASSWORD
from tests.notify_helpers import CARD, START, run_due_tasks

pytestmark = pytest.mark.django_db


def change(client, email: str, password: str = PASSWORD):
    return client.post(reverse("change_email"), {"email": email, "password": password})


def test_a_player_without_an_address_adds_one_and_can_then_ask_for_emails(client, make_user):
    nemo = make_user("nemo", "Nemo")
    client.force_login(nemo)
    page = client.get(reverse("profile")).text
    assert "add one</a>" in page and 'name="email"' in page
    response = change(client, " nemo@example.com ")
    assert response.status_code == 302 and response["Location"] == reverse("profile")
    nemo.refresh_from_db()
    assert nemo.email == "nemo@example.com"
    assert "Your e-mail address is now nemo@example.com." in client.get(reverse("profile")).text
    emails = client.post(reverse("notification_settings"), {"daily_digest": "on"})
    assert emails.status_code == 302
    assert notification_settings_for(nemo).daily_digest


def test_the_form_shows_the_current_address(client, alice):
    client.force_login(alice)
    assert 'value="alice@example.com"' in client.get(reverse("profile")).text


def assert_refused(response, alice, status: int, reason: str) -> None:
    assert response.status_code == status
    assert reason in response.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_a_wrong_password_changes_nothing(client, alice):
    client.force_login(alice)
    response = change(client, "thief@example.com", "not-her-password")
    assert_refused(response, alice, 400, "That is not your password; the e-mail address is")


def test_no_password_changes_nothing(client, alice):
    client.force_login(alice)
    response = client.post(reverse("change_email"), {"email": "thief@example.com"})
    assert_refused(response, alice, 400, "This field is required.")


@pytest.mark.parametrize("taken", ["bob@example.com", "BOB@Example.com"])
def test_an_address_another_account_uses_is_refused(client, alice, make_user, taken):
    make_user("bob", "Bob", email="bob@example.com")
    client.force_login(alice)
    response = change(client, taken)
    assert_refused(response, alice, 400, "Another account already uses this e-mail address.")


def test_keeping_ones_own_address_in_another_case_is_fine(client, alice):
    client.force_login(alice)
    assert change(client, "Alice@Example.com").status_code == 302
    alice.refresh_from_db()
    assert alice.email == "Alice@Example.com"


def test_a_malformed_address_is_refused(client, alice):
    client.force_login(alice)
    response = change(client, "not an address")
    assert_refused(response, alice, 400, "Enter a valid email address.")


def test_removing_the_address_turns_the_emails_off(client, alice):
    chosen = notification_settings_for(alice)
    chosen.turn_emails = chosen.daily_digest = True
    chosen.save()
    client.force_login(alice)
    response = change(client, "")
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == ""
    chosen.refresh_from_db()
    assert not chosen.turn_emails and not chosen.daily_digest
    page = client.get(reverse("profile")).text
    assert "Your e-mail address has been removed, and with it the e-mails you chose." in page


def test_wrong_passwords_count_towards_the_login_throttle(client, alice, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    client.force_login(alice)
    for _ in range(2):
        assert change(client, "thief@example.com", "guess").status_code == 400
    assert_refused(change(client, "thief@example.com", "guess"), alice, 429, "try again in")
    response = change(client, "alice@new.example.com")  # now even the right password waits
    assert_refused(response, alice, 429, "Too many failed sign-ins")
    assert log_in_elsewhere(client, alice).status_code == 302


def log_in_elsewhere(client, alice):
    """Sign in from another address, which the pause from the first one leaves alone."""
    client.post(reverse("logout"))
    form = {"username": "alice", "password": PASSWORD}
    return client.post(reverse("login"), form, REMOTE_ADDR="203.0.113.9")


def test_it_needs_a_login_and_a_post(client, alice):
    response = change(client, "x@example.com")
    assert response.status_code == 302 and reverse("login") in response["Location"]
    client.force_login(alice)
    assert client.get(reverse("change_email")).status_code == 405


def notices() -> list:
    run_due_tasks(START)
    return [m for m in mail.outbox if "address of your Hearts account" in m.subject]


@pytest.fixture
def committed(client, django_capture_on_commit_callbacks):
    """Change the address, running what the request defers until its transaction commits."""

    def change_and_commit(email: str, password: str = PASSWORD):
        with django_capture_on_commit_callbacks(execute=True):
            return change(client, email, password)

    return change_and_commit


@pytest.mark.parametrize("new", ["alice@elsewhere.example.com", ""])
def test_the_old_address_is_told_of_a_change(client, alice, new, committed):
    client.force_login(alice)
    assert committed(new).status_code == 302
    (notice,) = notices()
    assert notice.to == ["alice@example.com"]
    assert '"alice"' in notice.body and ("removed" if not new else "changed") in notice.body
    assert "change your password" in notice.body
    html = notice.alternatives[0][0]
    assert "your profile page" in html and "Turn all these e-mails off" not in html
    # It names neither where the account went nor any card, and offers no unsubscribing.
    assert "elsewhere" not in notice.body + html
    assert not CARD.search(notice.body)
    assert "List-Unsubscribe" not in notice.extra_headers


def test_no_notice_without_a_change_of_address(client, alice, make_user, committed):
    client.force_login(alice)
    assert committed("ALICE@example.com").status_code == 302  # the same, in capitals
    assert committed("alice@example.com", "wrong").status_code == 400  # refused
    nemo = make_user("nemo", "Nemo")
    client.force_login(nemo)
    assert committed("nemo@example.com").status_code == 302  # none before: nobody to tell
    assert notices() == []
