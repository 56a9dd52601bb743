"""Sessions this process knows: a move on a kept table takes its session unread, its row checked.

Each process remembers the sessions it last loaded or saved, with their rows' exact data
(`hearts_site.sessions`). On PostgreSQL, a move on a kept table uses that memory instead of
reading the session, and the move's first statement checks the row is still as remembered and
unexpired (`games_expect_session`). Signed out, expired or changed anywhere else: the move is
made again with the session read afresh, and never on the strength of the memory alone.
"""

from datetime import timedelta

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Match
from games.services import kept_tables
from hearts_site import sessions
from tests.factories import HTMX, action_count, make_match, move_now, next_move

SESSION_GUARD = "games_expect_session"
LOCKED_READ = "FOR UPDATE OF"
on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="kept tables and sessions check rows on PostgreSQL"
)


# ----- the store's memory ----------------------------------------------------------------


def saved_session(**data) -> sessions.SessionStore:
    store = sessions.SessionStore()
    store.update(data)
    store.save()
    return store


def row_data(session_key: str) -> str:
    return Session.objects.get(pk=session_key).session_data


@pytest.mark.django_db
def test_a_saved_session_is_known_with_exactly_its_rows_data():
    store = saved_session(theme="dark")
    known = sessions.SessionStore(store.session_key)
    assert known.use_known()
    assert known["theme"] == "dark" and known.known_row == row_data(store.session_key)


@pytest.mark.django_db
def test_each_use_of_a_known_session_has_a_copy_of_its_own():
    store = saved_session(cards=["QS"])
    first = sessions.SessionStore(store.session_key)
    assert first.use_known()
    first["cards"].append("AH")  # changed in place, never saved
    second = sessions.SessionStore(store.session_key)
    assert second.use_known() and second["cards"] == ["QS"]


@pytest.mark.django_db
def test_a_session_read_from_the_cache_or_the_database_becomes_known():
    store = saved_session(theme="dark")
    sessions.forget()
    assert sessions.SessionStore(store.session_key)["theme"] == "dark"  # from the cache
    assert sessions.SessionStore(store.session_key).is_known()
    sessions.forget()
    caches["default"].clear()
    assert sessions.SessionStore(store.session_key)["theme"] == "dark"  # from the database
    known = sessions.SessionStore(store.session_key)
    assert known.use_known() and known.known_row == row_data(store.session_key)


@pytest.mark.django_db
def test_a_session_saved_again_is_known_as_saved_last():
    store = saved_session(theme="dark")
    store["theme"] = "light"
    store.save()
    known = sessions.SessionStore(store.session_key)
    assert known.use_known() and known["theme"] == "light"
    assert known.known_row == row_data(store.session_key)


@pytest.mark.django_db
def test_a_session_deleted_or_flushed_here_is_forgotten():
    deleted, flushed = saved_session(theme="dark"), saved_session(theme="light")
    key = flushed.session_key
    deleted.delete()
    flushed.flush()
    assert not sessions.SessionStore(deleted.session_key).is_known()
    assert not sessions.SessionStore(key).is_known()
    assert not sessions.SessionStore(key).use_known()


@pytest.mark.django_db
def test_the_oldest_sessions_are_forgotten_past_the_limit(monkeypatch):
    monkeypatch.setattr(sessions, "LIMIT", 3)
    stores = [saved_session(n=n) for n in range(4)]
    assert [sessions.SessionStore(s.session_key).is_known() for s in stores] == [
        False,
        True,
        True,
        True,
    ]


@pytest.mark.django_db
def test_a_session_already_loaded_or_unknown_is_not_taken_from_memory():
    store = saved_session(theme="dark")
    loaded = sessions.SessionStore(store.session_key)
    assert loaded["theme"] == "dark"
    assert not loaded.use_known() and loaded.known_row is None
    sessions.forget()
    assert not sessions.SessionStore(store.session_key).use_known()


@pytest.mark.django_db
def test_djangos_own_store_and_this_one_never_read_each_others_cache():
    ours = saved_session(theme="dark")
    theirs = cached_db.SessionStore(ours.session_key)
    assert theirs["theme"] == "dark"  # from the row: the pair cached under our keys is not its
    theirs["theme"] = "light"
    theirs.save()
    sessions.forget()
    assert sessions.SessionStore(ours.session_key)["theme"] == "dark"  # our cache, as we left it
    caches["default"].delete(sessions.SessionStore.cache_key_prefix + ours.session_key)
    assert sessions.SessionStore(ours.session_key)["theme"] == "light"


# ----- moves -------------------------------------------------------------------------------


@pytest.fixture
def loads(monkeypatch) -> list[str]:
    """Record the session keys whose data was loaded (from the cache or the database)."""
    loaded: list[str] = []
    load = sessions.SessionStore.load

    def counting_load(self):
        loaded.append(self.session_key)
        return load(self)

    monkeypatch.setattr(sessions.SessionStore, "load", counting_load)
    return loaded


@pytest.fixture
def table(alice):
    """Alice signed in, and her started match against three bots: its table is kept."""
    client = Client()
    client.force_login(alice)
    return make_match(alice), client


def session_checks(statements) -> int:
    return sum(SESSION_GUARD in sql for sql in statements)


def signed_out(response) -> bool:
    return response.status_code == 302 and reverse("login") in response["Location"]


def session_key(client: Client) -> str:
    return client.cookies["sessionid"].value


def drop_cached(key: str) -> None:
    """As another process's change leaves it here: the row changed, this process's cache not."""
    caches["default"].delete(sessions.SessionStore.cache_key_prefix + key)


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_move_on_a_kept_table_reads_no_session_and_checks_its_row(table, loads):
    match, client = table
    response, statements = move_now(client, match)
    assert response.status_code == 200
    assert loads == [] and session_checks(statements) == 1
    assert sum(LOCKED_READ in sql for sql in statements) == 0
    assert not any("django_session" in sql for sql in statements)  # checked inside the guard
    assert Match.objects.get(pk=match.pk).version == match.version + 1


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_whole_hand_of_moves_reads_the_session_never(table, loads):
    match, client = table
    for _ in range(10):
        response, statements = move_now(client, match)
        assert response.status_code == 200 and session_checks(statements) == 1
    assert loads == []


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_signed_out_elsewhere_the_move_moves_nothing_and_asks_to_sign_in(table, loads):
    match, client = table
    key = session_key(client)
    Session.objects.filter(pk=key).delete()  # signed out in another process
    drop_cached(key)
    before, version = action_count(match), Match.objects.get(pk=match.pk).version
    response, statements = move_now(client, match)
    assert signed_out(response)
    assert session_checks(statements) == 1 and loads == [key]  # refused, then read afresh
    assert action_count(match) == before and Match.objects.get(pk=match.pk).version == version
    assert not sessions.SessionStore(key).is_known()


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_an_expired_session_moves_nothing(table):
    match, client = table
    key = session_key(client)
    Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    drop_cached(key)  # the cache keeps a session no longer than its row says
    before = action_count(match)
    response, _ = move_now(client, match)
    assert signed_out(response)
    assert action_count(match) == before


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_session_changed_elsewhere_is_read_again_and_the_move_made_on_it(table, loads):
    match, client = table
    key = session_key(client)
    store = sessions.SessionStore(key)
    changed = {**cached_db.SessionStore(key).load(), "theme": "dark"}
    Session.objects.filter(pk=key).update(session_data=store.encode(changed))
    drop_cached(key)
    response, statements = move_now(client, match)
    assert response.status_code == 200
    assert session_checks(statements) == 1 and loads == [key]
    assert Match.objects.get(pk=match.pk).version == match.version + 1
    known = sessions.SessionStore(key)
    assert known.use_known() and known["theme"] == "dark"
    assert known.known_row == row_data(key)


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_signed_out_here_an_old_cookie_moves_nothing(table, alice):
    match, client = table
    old_cookie = Client()
    old_cookie.cookies["sessionid"] = session_key(client)
    client.post(reverse("logout"))
    before = action_count(match)
    response, _ = move_now(old_cookie, match)
    assert signed_out(response) and action_count(match) == before


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_move_on_a_table_not_kept_reads_its_session(table, loads):
    match, client = table
    kept_tables.forget()
    response, statements = move_now(client, match)
    assert response.status_code == 200
    assert loads == [session_key(client)] and session_checks(statements) == 0


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_second_tab_sending_the_same_move_reads_its_session(table, loads):
    match, client = table
    match.refresh_from_db()
    move = next_move(match, 0)
    first = client.post(move.url, move.data, **HTMX)
    assert first.status_code == 200 and loads == []
    with CaptureQueriesContext(connection) as queries:
        second = client.post(move.url, move.data, **HTMX)  # its version is no longer kept
    assert second.status_code == 200 and loads == [session_key(client)]
    assert session_checks(q["sql"] for q in queries.captured_queries) == 0


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_process_that_only_read_the_session_from_the_cache_knows_it(table, loads):
    match, client = table
    sessions.forget()  # as in another process: it never saved nor loaded this session
    assert client.get(reverse("match", args=[match.pk])).status_code == 200
    assert loads == [session_key(client)]
    response, statements = move_now(client, match)
    assert response.status_code == 200
    assert loads == [session_key(client)] and session_checks(statements) == 1


@pytest.mark.skipif(connection.vendor == "postgresql", reason="SQLite keeps no tables")
@pytest.mark.django_db
def test_on_sqlite_every_move_reads_its_session(table, loads):
    match, client = table
    response, _ = move_now(client, match)
    assert response.status_code == 200 and loads == [session_key(client)]
    assert client.session[SESSION_KEY]
