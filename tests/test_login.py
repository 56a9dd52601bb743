"""Logging in and out, with failed logins throttled."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.conftest import PASSWORD


@pytest.fixture(autouse=True)
def fresh_throttle():
    cache.clear()
    yield
    cache.clear()


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


def test_it_throttles_after_repeated_failures_even_with_the_right_password(client, alice, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    for _ in range(3):
        assert (
            client.post(reverse("login"), {"username": "alice", "password": "x"}).status_code == 400
        )
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 429
    assert "Too many failed logins" in response.text
    assert "_auth_user_id" not in client.session


def test_the_throttle_counts_per_address_across_usernames(client, alice, make_user, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    make_user("bob")
    for name in ["x1", "x2", "x3"]:
        client.post(reverse("login"), {"username": name, "password": "x"})
    response = client.post(reverse("login"), {"username": "bob", "password": PASSWORD})
    assert response.status_code == 429


def test_a_successful_login_clears_the_username_counter(client, alice, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    client.post(reverse("login"), {"username": "alice", "password": "x"})
    client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    client.post(reverse("logout"))
    cache.delete("login-fail:addr:127.0.0.1")
    for _ in range(2):
        client.post(reverse("login"), {"username": "alice", "password": "x"})
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302


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
