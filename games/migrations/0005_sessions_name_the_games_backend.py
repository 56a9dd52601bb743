"""Sessions signed in before the site had its own auth backend now name it, so none is lost.

Django accepts a session only while the backend it names is in AUTHENTICATION_BACKENDS.
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
# Where the site's own store caches sessions (`hearts_site.sessions`), Django's beside it.
SITE_CACHE_PREFIX = "hearts_site.sessions."


def _rename(apps: StateApps, old: str, new: str) -> None:
    from django.contrib.sessions.backends import cached_db

    Session = apps.get_model("sessions", "Session")
    store = cached_db.SessionStore()
    cache = caches[settings.SESSION_CACHE_ALIAS]
    live = Session.objects.filter(expire_date__gt=timezone.now())
    for session in live.iterator():
        data = store.decode(session.session_data)
        if data.get(BACKEND_KEY) != old:
            continue
        data[BACKEND_KEY] = new
        session.session_data = store.encode(data)
        session.save(update_fields=["session_data"])
        # The cached copy still names the old backend; the next request reads the row.
        for prefix in (cached_db.KEY_PREFIX, SITE_CACHE_PREFIX):
            cache.delete(prefix + session.session_key)


def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _rename(apps, DJANGO, GAMES)


def backwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _rename(apps, GAMES, DJANGO)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_merge_0003_notifications_0003_tournaments"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
