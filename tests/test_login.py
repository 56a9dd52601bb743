"""Logging in and out (failed logins pausing: test_login_lockout.py)."""

from django.urls import reverse

from tests.conftest import PASSWORD


def test_it_logs_in_and_shows_the_display_name(client, alice):
    response = client.post(
        reverse("login"), {"username": "alice", "password": PASSWORD}, follow=True
    )
    assert response.status_code == 200
    assert response.context["user"] == alice
    assert 'data-testid="display-name">Alice<' in response.text


def test_it_rejects_a_wrong_password_with_a_clear_message(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 400
    assert "Please enter a correct username and password" in response.text
    assert not response.wsgi_request.user.is_authenticated


def test_logout_needs_a_post_and_ends_the_session(client, alice):
    client.force_login(alice)
    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_pages_that_need_a_user_send_visitors_to_log_in_and_back(client, alice):
    response = client.get(reverse("lobby"))
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next=/lobby/"
    response = client.post(
        response.url, {"username": "alice", "password": PASSWORD, "next": "/lobby/"}
    )
    assert response.url == "/lobby/"
