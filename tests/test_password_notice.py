"""A new password, whether changed on the profile or set from a reset link, is told by e-mail."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from tests.conftest import PASSWORD
from tests.notify_helpers import START, run_due_tasks

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_limits")]

NEW = "a-brand-new-passphrase"
SUBJECT = "The password of your Hearts account has changed"


def notices() -> list:
    run_due_tasks(START)
    return [message for message in mail.outbox if message.subject == SUBJECT]


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Post, running what the request defers until its transaction commits."""

    def post(client, path: str, data: dict):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(path, data)

    return post


def change_password(client, committed, old: str = PASSWORD):
    data = {"old_password": old, "new_password1": NEW, "new_password2": NEW}
    return committed(client, reverse("password_change"), data)


def test_a_changed_password_is_told_to_the_accounts_address(client, alice, committed):
    client.force_login(alice)
    assert change_password(client, committed).status_code == 302
    (notice,) = notices()
    assert notice.to == ["alice@example.com"]
    assert '"alice"' in notice.body and "has just been changed" in notice.body
    assert reverse("password_reset") in notice.body  # the way back for an owner locked out
    html = notice.alternatives[0][0]
    assert "Turn all these e-mails off" not in html
    assert "List-Unsubscribe" not in notice.extra_headers


def test_a_password_set_from_a_reset_link_is_told_too(client, alice, committed):
    committed(client, reverse("password_reset"), {"email": "alice@example.com"})
    run_due_tasks(START)  # the worker sends the link
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    form_page = client.get(link.group(1), follow=True)
    data = {"new_password1": NEW, "new_password2": NEW}
    assert committed(client, form_page.redirect_chain[-1][0], data).status_code == 302
    (notice,) = notices()
    assert notice.to == ["alice@example.com"]


def test_no_notice_for_a_refused_change_or_an_account_without_an_address(
    client, alice, make_user, committed
):
    client.force_login(alice)
    assert change_password(client, committed, old="not-her-password").status_code == 400
    nemo = make_user("nemo", "Nemo")
    client.force_login(nemo)
    assert change_password(client, committed).status_code == 302  # changed, nowhere to write
    assert notices() == []
