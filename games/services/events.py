"""Signals sent after committed changes (a match moved on, a player seated); live updates listen.

Neither carries a card: only ids, versions, names and links.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Any, TypedDict

from django.db import transaction
from django.dispatch import Signal

# Sent with: match_id (int), version (int), to_act_user_ids (list[int]), status (str), and
# became_to_act_user_ids (list[int]): those of them who were not already to act before it.
match_changed = Signal()


# The matches' changes committed inside `one_update_per_match` and not announced yet: the
# latest of each match, with everyone who became to act along the way. None outside it.
_held_changes: ContextVar[dict[int, dict[str, Any]] | None] = ContextVar(
    "held_match_changes", default=None
)


def announce_after_commit(
    match_id: int,
    version: int,
    to_act_user_ids: list[int],
    status: str,
    became_to_act_user_ids: list[int] | None = None,
) -> None:
    """Send `match_changed` once the surrounding transaction commits (never if it rolls back)."""
    became = list(to_act_user_ids if became_to_act_user_ids is None else became_to_act_user_ids)
    change = {
        "match_id": match_id,
        "version": version,
        "to_act_user_ids": to_act_user_ids,
        "status": status,
        "became_to_act_user_ids": became,
    }
    transaction.on_commit(lambda: _announce(change))


def _announce(change: dict[str, Any]) -> None:
    held = _held_changes.get()
    if held is None:
        match_changed.send(sender=None, **change)
        return
    earlier = held.get(change["match_id"])
    if earlier is not None:
        # Whoever became to act in an earlier change and is still to act is told once.
        still = set(change["to_act_user_ids"])
        kept = [u for u in earlier["became_to_act_user_ids"] if u in still]
        change["became_to_act_user_ids"] = kept + [
            u for u in change["became_to_act_user_ids"] if u not in kept
        ]
    held[change["match_id"]] = change


@contextmanager
def one_update_per_match() -> Iterator[None]:
    """Announce the changes committed within as one `match_changed` per match, on leaving:
    the latest, as the match then stands.

    For a run of changes made back to back by one process (a task playing several bots'
    cards): a page that hears of the first fetches the match, and by the time its fetch is
    answered the rest are made, so it would fetch again for each. Told once, it fetches once
    and shows them all. Each change is still committed, and versioned, on its own.
    """
    held: dict[int, dict[str, Any]] = {}
    token = _held_changes.set(held)
    try:
        yield
    finally:
        _held_changes.reset(token)
        for change in held.values():
            match_changed.send(sender=None, **change)


# Sent with: match_id (int) and deadlines (list of (seat position, aware datetime)): the
# decisions this change started a clock on.
deadlines_set = Signal()


def announce_deadlines_after_commit(match_id: int, deadlines: list[tuple[int, datetime]]) -> None:
    """Send `deadlines_set` once the surrounding transaction commits."""
    transaction.on_commit(
        lambda: deadlines_set.send(sender=None, match_id=match_id, deadlines=deadlines)
    )


# Sent with: match_id (int): a bot that searches owes the match's next decision (bot_turns.py).
bots_due = Signal()


def announce_bots_due_after_commit(match_id: int) -> None:
    """Send `bots_due` once the surrounding transaction commits."""
    transaction.on_commit(lambda: bots_due.send(sender=None, match_id=match_id))


# Sent with: user_id (int), tournament (str, its name), round (int), table (int) and url (str):
# where the player goes now, their match once the round has started, else the tournament page.
tournament_seated = Signal()


class SeatedNotice(TypedDict):
    """What `tournament_seated` is sent with, for one seated player."""

    user_id: int
    tournament: str
    round: int
    table: int
    url: str


def announce_seated_after_commit(notices: list[SeatedNotice]) -> None:
    """Send `tournament_seated` for each notice once the surrounding transaction commits."""
    transaction.on_commit(
        lambda: [tournament_seated.send(sender=None, **notice) for notice in notices]
    )


# Sent with: match_id (int), user_ids (list[int]): whom to tell, kind (str): "nudge" (the players
# to act were nudged, by `by`, a display name) or "expired" (an open match that never filled
# was given up); text (str): the notice in plain words, naming the match and players only.
match_notice = Signal()


def announce_notice_after_commit(
    match_id: int, user_ids: list[int], kind: str, text: str, by: str = ""
) -> None:
    """Send `match_notice` once the surrounding transaction commits."""
    transaction.on_commit(
        lambda: match_notice.send(
            sender=None, match_id=match_id, user_ids=user_ids, kind=kind, text=text, by=by
        )
    )


# Sent with nothing: the lobby's lists changed (an open match was created or its seats changed,
# or a match started, ended or was given up). Lobby pages fetch their lists anew.
lobby_changed = Signal()


def announce_lobby_after_commit() -> None:
    """Send `lobby_changed` once the surrounding transaction commits."""
    transaction.on_commit(lambda: lobby_changed.send(sender=None))


# Sent with: match_id (int), room (str, "players" or "spectators") and message_id (int): a
# message was posted in that room of the match's chat. No words, no author: each page fetches
# what its viewer may read (the page that already shows that message, its sender's, does not).
chat_posted = Signal()


def announce_chat_after_commit(match_id: int, room: str, message_id: int) -> None:
    """Send `chat_posted` once the surrounding transaction commits."""
    transaction.on_commit(
        lambda: chat_posted.send(sender=None, match_id=match_id, room=room, message_id=message_id)
    )


# Sent with: match_id (int, a finished match), rematch_id (int or None) and seated (list[int]):
# someone answered its "Play again"; once the rematch has started, its id and the people seated
# at it. The finished match's pages draw their panel anew, or go to the rematch.
rematch_answered = Signal()


def announce_rematch_after_commit(
    match_id: int, rematch_id: int | None = None, seated: list[int] | None = None
) -> None:
    """Send `rematch_answered` once the surrounding transaction commits."""
    people = list(seated or [])
    transaction.on_commit(
        lambda: rematch_answered.send(
            sender=None, match_id=match_id, rematch_id=rematch_id, seated=people
        )
    )
