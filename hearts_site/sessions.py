"""Sessions kept in the cache and the database, whose cache read starts as the request does.

Every signed-in request reads its session, and with Redis as the cache that read is a round
trip, the request's first: on a machine that was idle a moment ago it is also its slowest
(`bench/round_trips.py`). The middleware here sends the read as soon as the session's key is
known, before the other middleware, the URL's resolution and the form's parsing run; the
store reads the answer when the session is first used, by which time Redis has mostly
answered. A request that never uses its session reads and drops the answer as it leaves, so
that the connection goes back to the pool clean. Without a cache that can do this (the
in-memory cache of the default profile), this is Django's `cached_db` engine unchanged.

`SESSION_ENGINE = "hearts_site.sessions"` and this module's `SessionMiddleware` in place of
Django's go together.
"""

from __future__ import annotations

from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware


class SessionStore(cached_db.SessionStore):
    """Django's cached_db store, able to ask the cache for its data ahead of its first use."""

    _pending = None  # the cache's answer on its way, if asked for ahead

    def read_ahead(self) -> None:
        """Ask the cache for this session's data now; `load` reads the answer."""
        get_later = getattr(self._cache, "get_later", None)
        if get_later is not None and self.session_key is not None and self._pending is None:
            self._pending = get_later(self.cache_key_prefix + self.session_key)

    def load(self):
        pending, self._pending = self._pending, None
        if pending is None:
            return super().load()
        try:
            data = pending.result()
        except Exception:
            data = None  # read again the usual way below, which says what is wrong
        if data is None:
            # Not in the cache (or not read): the usual way looks again, then in the database.
            return super().load()
        return data

    def drop_read_ahead(self) -> None:
        """Read and drop an answer asked for ahead and never used."""
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.discard()


class SessionMiddleware(DjangoSessionMiddleware):
    """Django's session middleware, starting the session's read as the request arrives."""

    def process_request(self, request) -> None:
        super().process_request(request)
        read_ahead = getattr(request.session, "read_ahead", None)
        if read_ahead is not None:
            read_ahead()

    def process_response(self, request, response):
        try:
            return super().process_response(request, response)
        finally:
            drop = getattr(request.session, "drop_read_ahead", None)
            if drop is not None:
                drop()
