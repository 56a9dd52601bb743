"""Table chat: who may read and write which room of a match, sending a message, muting.

Two rooms per match (`Room`): its players', and its spectators'. The rules, each in one
function that every page, route and export asks:

- `may_read`: the players' room is for the seated players, and once the match is over for
  everyone who may look at it; the spectators' room is for everyone who may look at the match
  and holds no seat there, and once the match is over for its players too. Nothing of a table
  sealed to the viewer (`access.is_sealed`: a duplicate-deal table of a round still open): its
  words may tell a deal other tables are playing.
- `refusal_to_write`: why this person may not write this kind of message in this room now
  (None: they may). One writes in the room one reads during play: the seated in the players',
  the others in the spectators'. Free text needs the match's `free_chat` and is never taken at
  a tournament table (every duplicate-deal group is one): phrases only there.

Whose messages a reader sees: not those staff hid, nor those of anyone the reader muted
(`Mute`), nor of anyone with a block between the two, either way (`people.blocked_ids`).
Sending is limited per person (`within_limit`): a burst, and an hour's worth.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.utils.translation import gettext

from games import access
from games.lib import clock
from games.lib.chat_presets import PRESETS
from games.lib.limits import within_limit
from games.models import CHAT_TEXT_MAX, ChatMessage, Match, Mute, Room, Seat, Table
from games.services.errors import BadInput, NotAllowed, NotFound, TooSoon
from games.services.events import announce_chat_after_commit
from games.services.people import blocked_ids, person_named
from games.services.writes import write_transaction

# How many messages a person may send: a burst in a few seconds, and in an hour.
BURST_LIMIT, BURST_SECONDS = 5, 10
HOURLY_LIMIT, HOUR_SECONDS = 60, 3600
# How many of a room's latest messages a page shows.
SHOWN_MESSAGES = 50


def _seats(match: Match, seats: list[Seat] | None) -> list[Seat]:
    return list(Seat.objects.filter(match=match)) if seats is None else seats


def may_read(user: access.Viewer, match: Match, room: str, seats: list[Seat] | None = None) -> bool:
    """Say whether the user may read this room of the match (see the module)."""
    seats = _seats(match, seats)
    if not access.may_view(user, match, seats) or access.is_sealed(user, match, seats):
        return False
    seated = access.holds_seat(user, match, seats)
    if room == Room.PLAYERS:
        return seated or match.is_over
    return not seated or match.is_over


def writing_room(user: access.Viewer, match: Match, seats: list[Seat] | None = None) -> str:
    """Return the room the user writes in: the players' if seated, else the spectators'."""
    return Room.PLAYERS if access.holds_seat(user, match, _seats(match, seats)) else Room.SPECTATORS


def takes_free_text(match: Match) -> bool:
    """Say whether the match's chat takes free text: its creator's choice, never at a tournament
    table (duplicate-deal groups are all tournament tables)."""
    return match.free_chat and not Table.objects.filter(match=match).exists()


def refusal_to_write(
    user: access.Viewer,
    match: Match,
    room: str,
    *,
    free_text: bool,
    seats: list[Seat] | None = None,
) -> str | None:
    """Say why the user may not write this kind of message in this room (None: they may)."""
    seats = _seats(match, seats)
    if not may_read(user, match, room, seats) or room != writing_room(user, match, seats):
        return gettext("You cannot write in this chat.")
    if free_text and not takes_free_text(match):
        return gettext("This table's chat takes preset phrases only.")
    return None


def clean_text(text: str) -> str:
    """Return the text as it would be stored, or refuse it with the reason."""
    text = text.strip()
    if not text:
        raise BadInput(gettext("Write a message, or choose a phrase."))
    if len(text) > CHAT_TEXT_MAX:
        raise BadInput(
            gettext("A message holds at most %(most)d characters; this one has %(count)d.")
            % {"most": CHAT_TEXT_MAX, "count": len(text)}
        )
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in text):
        raise BadInput(gettext("A message cannot hold control characters (line breaks, tabs)."))
    return text


def _check_rate(user: User) -> None:
    key = str(user.pk)
    burst = within_limit("chat-burst", key, BURST_LIMIT, BURST_SECONDS)
    hourly = within_limit("chat-hour", key, HOURLY_LIMIT, HOUR_SECONDS)
    if not burst:
        raise TooSoon(
            gettext("You are sending messages too fast: wait a few seconds."), BURST_SECONDS
        )
    if not hourly:
        raise TooSoon(
            gettext("You have sent as many messages as an hour allows: wait a while."),
            HOUR_SECONDS,
        )


def send(user: User, match_id: int, *, preset: str = "", text: str = "") -> ChatMessage:
    """Post a phrase (its key) or free text to the room the user writes in at the match.

    Refused: a match the user may not see (NotFound), a chat they may not write in
    (NotAllowed), bad input (BadInput), too many messages (TooSoon). The match is unchanged
    either way: a message is no move, and the match's version stays.
    """
    match = access.viewable_match(user, match_id)
    if match is None:
        raise NotFound(gettext("There is no such match."))
    if preset and text:
        raise BadInput(gettext("Send a phrase or your own words, not both."))
    if preset and preset not in PRESETS:
        raise BadInput(gettext("Choose one of the phrases offered."))
    if not preset:
        text = clean_text(text)
    seats = _seats(match, None)
    room = writing_room(user, match, seats)
    reason = refusal_to_write(user, match, room, free_text=not preset, seats=seats)
    if reason is not None:
        raise NotAllowed(reason)
    _check_rate(user)
    with write_transaction():
        message = ChatMessage.objects.create(
            match=match, author=user, room=room, preset=preset, text=text, created_at=clock.now()
        )
        announce_chat_after_commit(match.pk, room)
    return message


def hidden_authors(user: access.Viewer) -> set[int]:
    """Return the ids of the people whose messages the user does not see: muted or blocked."""
    if user is None or not user.is_authenticated:
        return set()
    muted = set(Mute.objects.filter(user_id=user.pk).values_list("muted_id", flat=True))
    return muted | blocked_ids(user)


def latest(match: Match, room: str, hidden: Iterable[int]) -> list[ChatMessage]:
    """Return the room's latest messages a reader sees, oldest first, with their authors."""
    shown = (
        ChatMessage.objects.filter(match=match, room=room, hidden_by_staff=False)
        .exclude(author_id__in=list(hidden))
        .select_related("author__profile")
        .order_by("-created_at", "-id")[:SHOWN_MESSAGES]
    )
    return list(reversed(shown))


def _other(user: User, name: str) -> User:
    other = person_named(name)
    if other is None:
        raise NotFound(gettext("There is no player of that name."))
    if other.pk == user.pk:
        raise BadInput(gettext("That is you: choose another player."))
    return other


@write_transaction()
def mute(user: User, name: str) -> None:
    """Stop reading this person's messages, in every match; muting again changes nothing."""
    other = _other(user, name)
    Mute.objects.get_or_create(user=user, muted=other, defaults={"created_at": clock.now()})


@write_transaction()
def unmute(user: User, name: str) -> None:
    """Read this person's messages again."""
    Mute.objects.filter(user=user, muted=_other(user, name)).delete()
