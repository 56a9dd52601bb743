"""Password reset by e-mail, from the request to logging in with the new password."""

import re

from django.core import mail
from django.urls import reverse

from tests.conftest import PASSWORD


def test_it_sends_a_link_that_sets_a_new_password(client, alice):
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.url == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.subject == "Reset your Hearts password"
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", message.body).group(1)

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


def test_it_does_not_reveal_whether_an_address_has_an_account(client, db):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []


def test_a_used_or_forged_link_says_it_no_longer_works(client, alice):
    response = client.get("/accounts/password/reset/MQ/not-a-token/")
    assert response.status_code == 200
    assert "This link no longer works" in response.text
