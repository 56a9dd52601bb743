"""Sessions in the cache and the database, read ahead, and known to the process that saw them.

Every signed-in request reads its session, and with Redis as the cache that read is a round
trip, the request's first: on a machine that was idle a moment ago it is also its slowest
(`bench/round_trips.py`). Two things here make it cheaper.

Read ahead: the middleware sends the read as soon as the session's key is known, before the
other middleware, the URL's resolution and the form's parsing run; the store reads the answer
when the session is first used, by which time Redis has mostly answered. A request that never
uses its session reads and drops the answer as it leaves, so that the connection goes back to
the pool clean. Without a cache that can do this (the in-memory cache of the default
profile), the read is the usual one.

Known: each process remembers the sessions it last loaded or saved, with the exact
`session_data` of their database row. A request whose own database transaction can check
that the row is still exactly that, and unexpired, may take the session from this memory and
not read it at all (`use_known`; a move on a kept table does, see
`games.services.kept_tables`). The database is the authority: `cached_db` writes the row
before the cache, and deletes it on signing out. So the cache holds each session as
`(session_data, data)`, for whichever process reads it next to know the row too, under keys
of its own (Django's store, reading a plain dict there, would be confused by the pair).

`SESSION_ENGINE = "hearts_site.sessions"` and this module's `SessionMiddleware` in place of
Django's go together.
"""

from __future__ import annotations

import logging
import pickle

from asgiref.sync import sync_to_async
from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware

from hearts_site.recent import Recent

logger = logging.getLogger("django.contrib.sessions")

# More sessions than a busy process has signed in at once; the oldest are forgotten first.
LIMIT = 20_000

# Session key -> (its row's session_data, its data pickled: each use unpickles its own copy).
_known: Recent[str, tuple[str, bytes]] = Recent()


def _remember(session_key: str, session_data: str, data: dict) -> None:
    _known.put(session_key, (session_data, pickle.dumps(data, pickle.HIGHEST_PROTOCOL)), LIMIT)


def forget(session_key: str | None = None) -> None:
    """Forget one session this process knows, or every one."""
    if session_key is None:
        _known.clear()
    else:
        _known.pop(session_key)


class SessionStore(cached_db.SessionStore):
    """Django's cached_db store, read ahead of its first use, or known without reading."""

    cache_key_prefix = "hearts_site.sessions."

    _pending = None  # the cache's answer on its way, if asked for ahead
    _saved_row = None  # the session_data this store last wrote to its row
    # The row's session_data, when the data was taken from this process's memory unread: the
    # request's transaction must check the row still holds it (`use_known`).
    known_row: str | None = None

    def is_known(self) -> bool:
        """Say whether this process knows the session's row, so that it might not read it."""
        return self.session_key is not None and _known.get(self.session_key) is not None

    def use_known(self) -> bool:
        """Take the session's data from this process's memory, if it is there, without reading.

        Only for a request that checks, in its own transaction, that the row's session_data
        is still `known_row` and unexpired, and throws away all it did otherwise
        (`read_again`). Say whether the data was taken.
        """
        if self.session_key is None or hasattr(self, "_session_cache"):
            return False
        entry = _known.get(self.session_key)
        if entry is None:
            return False
        self.drop_read_ahead()
        self.known_row, pickled = entry
        self._session_cache = pickle.loads(pickled)
        return True

    def read_again(self) -> None:
        """Forget the data taken from memory: its next use reads the session afresh."""
        if self.known_row is not None:
            forget(self.session_key)
            self.known_row = None
            self.__dict__.pop("_session_cache", None)

    def read_ahead(self) -> None:
        """Ask the cache for this session's data now; `load` reads the answer."""
        get_later = getattr(self._cache, "get_later", None)
        if (
            get_later is not None
            and self.session_key is not None
            and self._pending is None
            and not hasattr(self, "_session_cache")
        ):
            self._pending = get_later(self.cache_key_prefix + self.session_key)

    def drop_read_ahead(self) -> None:
        """Read and drop an answer asked for ahead and never used."""
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.discard()

    def _cached(self):
        """Return what the cache holds for this session (the answer asked ahead, if any)."""
        pending, self._pending = self._pending, None
        try:
            if pending is not None:
                return pending.result()
            return self._cache.get(self.cache_key)
        except Exception:
            # Some caches raise on invalid keys (Django's #17810), or the connection dropped:
            # the database has every session.
            return None

    def load(self):
        cached = self._cached()
        if isinstance(cached, tuple) and len(cached) == 2:
            session_data, data = cached
            _remember(self.session_key, session_data, data)
            return data
        row = self._get_session_from_db()
        if row is None:
            return {}
        data = self.decode(row.session_data)
        self._cache_set(row.session_data, data, self.get_expiry_age(expiry=row.expire_date))
        _remember(self.session_key, row.session_data, data)
        return data

    def create_model_instance(self, data):
        row = super().create_model_instance(data)
        self._saved_row = row.session_data
        return row

    def save(self, must_create=False):
        if self.session_key is None:
            return self.create()  # which saves, through here, once it has a key
        DatabaseStore.save(self, must_create)  # the row first: the database is the authority
        self._cache_set(self._saved_row, self._session, self.get_expiry_age())
        _remember(self.session_key, self._saved_row, self._session)
        self.known_row = None  # what this request saved is now what the row holds

    def _cache_set(self, session_data: str, data: dict, timeout: int) -> None:
        try:
            self._cache.set(self.cache_key, (session_data, data), timeout)
        except Exception:
            logger.exception("Error saving to cache (%s)", self._cache)

    def delete(self, session_key=None):
        gone = session_key if session_key is not None else self.session_key
        if gone is not None:
            forget(gone)
        super().delete(session_key)

    # Django's async variants of load and save would cache the data in Django's own format.
    async def aload(self):
        return await sync_to_async(self.load)()

    async def asave(self, must_create=False):
        return await sync_to_async(self.save)(must_create)

    async def adelete(self, session_key=None):
        return await sync_to_async(self.delete)(session_key)


class SessionMiddleware(DjangoSessionMiddleware):
    """Django's session middleware, starting the session's read as the request arrives.

    A POST whose session this process knows waits for its view: a view marked
    `may_use_known_session` may take the session from memory and read nothing; any other
    view has the read asked ahead before it runs.
    """

    def process_request(self, request) -> None:
        super().process_request(request)
        session = request.session
        is_known = getattr(session, "is_known", None)
        if request.method == "POST" and is_known is not None and is_known():
            return  # `process_view` reads ahead, unless the view may use what is known
        read_ahead = getattr(session, "read_ahead", None)
        if read_ahead is not None:
            read_ahead()

    def process_view(self, request, view_func, view_args, view_kwargs) -> None:
        if getattr(view_func, "may_use_known_session", False):
            return
        read_ahead = getattr(request.session, "read_ahead", None)
        if read_ahead is not None:
            read_ahead()  # nothing if asked already, or loaded

    def process_response(self, request, response):
        try:
            return super().process_response(request, response)
        finally:
            drop = getattr(request.session, "drop_read_ahead", None)
            if drop is not None:
                drop()
