"""Moves read their rows and sessions are Django's own: drop what the shortcuts needed.

- The PostgreSQL functions that checked a kept copy of a table (0006) and of a session (0007)
  are dropped: every move now reads its rows under the lock.
- Live sessions that name the site's former auth backend now name Django's, the one in
  AUTHENTICATION_BACKENDS again, so that nobody is signed out.
"""

from django.conf import settings
from django.core.cache import caches
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.utils import timezone

BACKEND_KEY = "_auth_user_backend"
DJANGO = "django.contrib.auth.backends.ModelBackend"
GAMES = "games.accounts.backends.ModelBackend"
# Where the former session store cached sessions, Django's beside it.
FORMER_CACHE_PREFIX = "hearts_site.sessions."
DROPPED = (
    "games_expect_table(bigint, integer, text, boolean, boolean, text)",
    "games_expect_session(text, text)",
)


def _rename(apps: StateApps, old: str, new: str) -> None:
    from django.contrib.sessions.backends import cached_db

    Session = apps.get_model("sessions", "Session")
    store = cached_db.SessionStore()
    cache = caches[settings.SESSION_CACHE_ALIAS]
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        data = store.decode(session.session_data)
        if data.get(BACKEND_KEY) != old:
            continue
        data[BACKEND_KEY] = new
        session.session_data = store.encode(data)
        session.save(update_fields=["session_data"])
        for prefix in (cached_db.KEY_PREFIX, FORMER_CACHE_PREFIX):
            cache.delete(prefix + session.session_key)


def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for function in DROPPED:
            schema_editor.execute(f"DROP FUNCTION IF EXISTS {function}")
    _rename(apps, GAMES, DJANGO)


def backwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _rename(apps, DJANGO, GAMES)  # the functions come back with the code that used them


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_forced_play_is_each_players_choice"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
