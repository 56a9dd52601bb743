"""Signing up: a new account logs straight in; bad input is answered with a clear message."""

from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.conftest import PASSWORD


def signup_data(**overrides):
    data = {
        "username": "newbie",
        "display_name": "New Player",
        "email": "",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    data.update(overrides)
    return data


def test_it_creates_an_account_with_a_display_name_and_logs_in(client, db):
    response = client.post(reverse("signup"), signup_data(), follow=True)
    assert response.status_code == 200
    user = get_user_model().objects.get(username="newbie")
    assert user.profile.display_name == "New Player"
    assert response.context["user"] == user
    assert "Welcome, New Player!" in response.text


def test_it_returns_to_the_page_the_user_wanted(client, db):
    response = client.post(reverse("signup"), signup_data(next="/lobby/"))
    assert response.status_code == 302
    assert response.url == "/lobby/"


def test_it_ignores_a_next_address_on_another_site(client, db):
    response = client.post(reverse("signup"), signup_data(next="https://evil.example/"))
    assert response.url == reverse("home")


def test_it_rejects_a_duplicate_username(client, alice):
    response = client.post(reverse("signup"), signup_data(username="alice"))
    assert response.status_code == 400
    assert "A user with that username already exists." in response.text
    assert get_user_model().objects.count() == 1


def test_it_rejects_a_weak_password(client, db):
    response = client.post(reverse("signup"), signup_data(password1="123", password2="123"))
    assert response.status_code == 400
    assert "This password is too short" in response.text
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_it_rejects_mismatched_passwords(client, db):
    response = client.post(reverse("signup"), signup_data(password2=PASSWORD + "x"))
    assert response.status_code == 400
    assert "The two password fields didn" in response.text


def test_it_rejects_an_email_already_in_use(client, alice):
    response = client.post(reverse("signup"), signup_data(email="ALICE@example.com"))
    assert response.status_code == 400
    assert "already exists" in response.text


def test_it_requires_a_display_name(client, db):
    response = client.post(reverse("signup"), signup_data(display_name=""))
    assert response.status_code == 400
    assert "This field is required." in response.text
