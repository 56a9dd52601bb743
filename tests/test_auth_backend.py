"""The site's auth backend: the signed-in user read in plain SQL, and sessions from before it."""

import importlib

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.cached_db import SessionStore
from django.test import Client

from games.accounts.backends import PATH, ModelBackend

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0005_sessions_name_the_games_backend")


def test_the_backend_finds_the_user_the_orm_finds(alice):
    user = ModelBackend().get_user(alice.pk)
    assert user == alice
    assert (user.username, user.password, user.is_active) == (
        alice.username,
        alice.password,
        alice.is_active,
    )
    assert user.last_login == alice.last_login and user.date_joined == alice.date_joined


def test_it_finds_no_one_for_an_unknown_or_inactive_user(alice):
    assert ModelBackend().get_user(alice.pk + 100) is None
    alice.is_active = False
    alice.save()
    assert ModelBackend().get_user(alice.pk) is None


def test_a_signed_in_player_is_known_on_every_page(alice):
    client = Client()
    client.force_login(alice)
    assert client.session[BACKEND_SESSION_KEY] == PATH
    assert client.get("/").context["user"] == alice


def session_signed_in_by(user, backend: str) -> SessionStore:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = backend
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return session


def client_with(session: SessionStore) -> Client:
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    return client


def test_a_session_from_before_the_backend_is_still_signed_in_after_the_migration(alice):
    session = session_signed_in_by(alice, migration.DJANGO)
    assert client_with(session).get("/lobby/").status_code == 302  # Django no longer lists it
    migration.forwards(apps, None)
    response = client_with(session).get("/lobby/")
    assert response.status_code == 200 and response.context["user"] == alice
    assert SessionStore(session.session_key).load()[BACKEND_SESSION_KEY] == PATH


def test_the_migration_backwards_names_django_s_backend_again(alice, settings):
    session = session_signed_in_by(alice, PATH)
    migration.backwards(apps, None)
    assert SessionStore(session.session_key).load()[BACKEND_SESSION_KEY] == migration.DJANGO
    settings.AUTHENTICATION_BACKENDS = [migration.DJANGO]
    response = client_with(session).get("/lobby/")
    assert response.status_code == 200 and response.context["user"] == alice
