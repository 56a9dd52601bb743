"""The live socket: a user's turn notices on every page, and the changes of the match on screen."""

import json
from typing import TypedDict

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.auth.models import User

from games.access import is_sealed, viewable_match
from games.lib import clock, metrics
from games.lib.converters import MAX_ID
from games.lib.db_threads import in_db_thread
from games.lib.socket_slots import socket_slot
from games.live import LOBBY_GROUP, match_group, start_relay, user_group
from games.models import Match, Seat
from games.notifications import seen

# What a page hears of an event; `sent` may be missing from a process not yet updated.
UPDATE_FIELDS = ("type", "match", "version", "status", "to_act", "sent")
NOTICE_FIELDS = ("type", "match", "version", "sent")


class MatchState(TypedDict):
    """Where a match stands: its version, its status and who must act."""

    match: int
    version: int
    status: str
    to_act: list[int]


@in_db_thread
def _may_follow(user: User, match_id: int) -> tuple[bool, bool]:
    """Say whether the match exists and the user may watch it, and whether it is sealed to them.

    A sealed table's frames name nobody to act: on a first trick that names the holder of
    the 2♣, a card the same seat holds at the other tables of its deals (`games.access`).
    """
    match = viewable_match(user, match_id)
    if match is None:
        return False, False
    return True, is_sealed(user, match)


@in_db_thread
def _current(match_id: int) -> MatchState:
    """Return the match's version, status and who must act, as they stand now."""
    row = Match.objects.filter(pk=match_id).values_list("version", "status").first()
    # A match deleted this very moment (by an admin) reads as version 0, acted on by nobody.
    version, status = row or (0, "")
    to_act = Seat.objects.filter(match_id=match_id, to_act=True, user__isnull=False)
    users = sorted(to_act.values_list("user_id", flat=True)) if row else []
    return {"match": match_id, "version": version, "status": status, "to_act": users}


# channels ships no type information: its consumer classes are Any to mypy.
class LiveConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """One socket per page: joins its user's group at once, and the match it is asked to follow."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close()  # before accept(): the handshake is refused
            return
        self.slot = socket_slot(self.scope)
        if not await self.slot.take():
            await self.close()  # too many open already: a runaway script, not a person's tabs
            return
        self.user_group = user_group(user.pk)
        self.followed: str | None = None
        await self.channel_layer.group_add(self.user_group, self.channel_name)
        await self.accept()
        metrics.LIVE_SOCKETS.inc()
        self.counted = True
        # The workers' events come to this process's sockets through the relay, if it needs one.
        start_relay(from_a_server="server" in self.scope)
        # A page open on the site counts as being seen: it shows turn notices as they come.
        now = clock.now()
        if seen.due(user.pk, now):
            await in_db_thread(seen.write)(user.pk, now)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "counted", False):
            metrics.LIVE_SOCKETS.dec()
            self.counted = False
        if (slot := getattr(self, "slot", None)) is not None:
            await slot.give_back()
        lobby = LOBBY_GROUP if getattr(self, "in_lobby", False) else None
        for group in (getattr(self, "user_group", None), getattr(self, "followed", None), lobby):
            if group:
                await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content: object, **kwargs: object) -> None:
        if isinstance(content, dict) and content.get("lobby") is True:
            # The lobby page: told when its lists change (events name no match and no card).
            await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
            self.in_lobby = True
            await self.send_json({"type": "lobby.following"})
            return
        match_id = content.get("follow") if isinstance(content, dict) else None
        # bool is an int in Python; `{"follow": true}` is no match id, nor is an int (JSON's
        # are unbounded) that no id column holds: it never reaches the database.
        if (
            not isinstance(match_id, int)
            or isinstance(match_id, bool)
            or not 0 < match_id <= MAX_ID
        ):
            await self.send_json(
                {"type": "error", "error": 'Send {"follow": <match id>} or {"lobby": true}.'}
            )
            return
        allowed, sealed = await _may_follow(self.scope["user"], match_id)
        if not allowed:
            await self.send_json(
                {"type": "error", "follow": match_id, "error": "There is no such match."}
            )
            return
        group = match_group(match_id)
        if self.followed and self.followed != group:
            # A page shows one match: following another one leaves the first.
            await self.channel_layer.group_discard(self.followed, self.channel_name)
        self.followed = group
        self.sealed = sealed
        await self.channel_layer.group_add(group, self.channel_name)
        # Read after joining, so no change falls between this answer and the first event: a
        # page rendered (or reconnected) before it compares versions and catches up.
        await self.send_json(self._shown({"type": "following", **await _current(match_id)}))

    def _shown(self, frame: dict[str, object]) -> dict[str, object]:
        """Return a frame about the followed match as this page may see it."""
        if getattr(self, "sealed", False):
            frame["to_act"] = []
        return frame

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: object
    ) -> None:
        # A malformed frame is answered, not allowed to close the socket with a traceback.
        try:
            content = json.loads(text_data) if text_data else None
        except ValueError:
            content = None
        await self.receive_json(content)

    async def match_updated(self, event: dict[str, object]) -> None:
        """Pass a change of the followed match on to the page."""
        frame = {key: event[key] for key in UPDATE_FIELDS if key in event}
        await self.send_json(self._shown(frame))

    async def chat_updated(self, event: dict[str, object]) -> None:
        """Tell the page that the followed match's chat has a new message (which room, and the
        message's id: never its words or author).

        A table sealed to this page has no chat for it (`services.chat.may_read`): nothing told.
        """
        if not getattr(self, "sealed", False):
            keys = ("type", "match", "room", "message")
            await self.send_json({key: event[key] for key in keys})

    async def rematch_updated(self, event: dict[str, object]) -> None:
        """Tell the page that the followed (finished) match's "Play again" was answered, and
        once it has started, the rematch and who sits at it (ids only, as `to_act` names)."""
        keys = ("type", "match", "rematch", "seated")
        await self.send_json({key: event[key] for key in keys})

    async def turn_notify(self, event: dict[str, object]) -> None:
        """Tell the page that its user must act in a match."""
        await self.send_json({key: event[key] for key in NOTICE_FIELDS if key in event})

    async def match_notice(self, event: dict[str, object]) -> None:
        """Tell the page of a notice about one of its user's matches (a nudge, say); a
        challenge's leads to the Challenges page (`url`) and says how many challenges now wait
        for the user's answer (`challenges`), for the navigation's count."""
        keys = ("type", "match", "kind", "text", "url", "challenges")
        await self.send_json({key: event[key] for key in keys if key in event})

    async def tournament_seated(self, event: dict[str, object]) -> None:
        """Tell the page where its user is seated in a tournament's round."""
        keys = ("type", "tournament", "round", "table", "url")
        await self.send_json({key: event[key] for key in keys})

    async def lobby_changed(self, event: dict[str, object]) -> None:
        """Tell the lobby page that its lists changed."""
        await self.send_json({"type": "lobby.changed"})
