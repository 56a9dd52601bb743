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
(`Mute`), nor of anyone with a block between the two, either way (`people.blocks_of`).
Sending is limited per person (`within_limit`): a burst, and an hour's worth. Staff may take
chat away from an account until a time (`ChatBan`: it still reads); a reader may report a
message (`ChatReport`), which staff read in the admin with the messages around it and close
(`close_reports`): the message hidden (`hidden_by_staff`) or left as it is; the reporter hears
which, live.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Subquery, Value
from django.utils.translation import gettext

from games import access
from games.lib import clock
from games.lib.chat_presets import PRESETS
from games.lib.limits import within_limit
from games.lib.zones import shown
from games.models import (
    CHAT_TEXT_MAX,
    ChatBan,
    ChatMessage,
    ChatReport,
    Match,
    Mute,
    ReportOutcome,
    Room,
    Seat,
    Table,
)
from games.services import people
from games.services.errors import BadInput, NotAllowed, NotFound, TooSoon
from games.services.events import announce_chat_after_commit, announce_notice_after_commit
from games.services.people import person_named
from games.services.writes import write_transaction

# How many messages a person may send: a burst in a few seconds, and in an hour.
BURST_LIMIT, BURST_SECONDS = 5, 10
HOURLY_LIMIT, HOUR_SECONDS = 60, 3600
# How many of a room's latest messages a page shows.
SHOWN_MESSAGES = 50


@dataclass(frozen=True)
class Standing:
    """What the chat's rules need to know of one person at one match, read once."""

    may_view: bool
    sealed: bool  # `access.is_sealed`: nothing of the table for them, chat included
    seated: bool
    over: bool
    # The match takes free text: its creator's choice, never at a tournament table (every
    # duplicate-deal group is one).
    free_text: bool
    # Until when staff took chat away from them (`ChatBan`), if they have now.
    banned_until: datetime | None = None


def standing(user: access.Viewer, match: Match, seats: list[Seat] | None = None) -> Standing:
    """Read what the rules need: the seats (unless given), then in one query whether the match
    is at a tournament table and until when staff took chat away from the user."""
    seats = list(Seat.objects.filter(match=match)) if seats is None else seats
    # A visitor has no account to take chat from: no row has user 0.
    user_id: int = user.pk if user is not None and user.is_authenticated else 0
    bans = ChatBan.objects.filter(user_id=user_id, until__gt=clock.now()).order_by("-until")
    at_tournament, banned_until = (
        Match.objects.filter(pk=match.pk)
        .annotate(
            at_tournament=Exists(Table.objects.filter(match_id=OuterRef("pk"))),
            banned_until=Subquery(bans.values("until")[:1]),
        )
        .values_list("at_tournament", "banned_until")
        .get()
    )
    return Standing(
        may_view=access.may_view(user, match, seats),
        # Only a tournament table shares its deals (`access.group_open`): no need to ask else.
        sealed=at_tournament and access.is_sealed(user, match, seats),
        seated=access.holds_seat(user, match, seats),
        over=match.is_over,
        free_text=match.free_chat and not at_tournament,
        banned_until=banned_until,
    )


def may_read(standing: Standing, room: str) -> bool:
    """Say whether this person may read this room of the match (see the module)."""
    if not standing.may_view or standing.sealed:
        return False
    if room == Room.PLAYERS:
        return standing.seated or standing.over
    return not standing.seated or standing.over


def writing_room(standing: Standing) -> str:
    """Return the room the person writes in: the players' if seated, else the spectators'."""
    return Room.PLAYERS if standing.seated else Room.SPECTATORS


def refusal_to_write(standing: Standing, room: str, *, free_text: bool) -> str | None:
    """Say why this person may not write this kind of message in this room (None: they may)."""
    if not may_read(standing, room) or room != writing_room(standing):
        return gettext("You cannot write in this chat.")
    if standing.banned_until is not None:
        return gettext("Staff have taken chat away from you until %(when)s.") % {
            "when": shown(standing.banned_until)
        }
    if free_text and not standing.free_text:
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
    here = standing(user, match)
    room = writing_room(here)
    reason = refusal_to_write(here, room, free_text=not preset)
    if reason is not None:
        raise NotAllowed(reason)
    _check_rate(user)
    with write_transaction():
        message = ChatMessage.objects.create(
            match=match, author=user, room=room, preset=preset, text=text, created_at=clock.now()
        )
        announce_chat_after_commit(match.pk, room, message.pk)
    return message


def latest(
    match: Match,
    room: str,
    reader: access.Viewer,
    limit: int | None = SHOWN_MESSAGES,
    *,
    after: int | None = None,
) -> list[tuple[ChatMessage, bool]]:
    """Return the room's latest messages (all of them with no `limit`; only those with an id
    above `after` if given), oldest first, with their authors, each with whether the reader
    muted its author (the page hides it, and offers to unmute).

    Staff's hidden messages are left out, and those of anyone with a block between the
    author and the reader (`people.blocks_of`): one query, whatever the mutes and blocks.
    """
    rows = ChatMessage.objects.filter(match=match, room=room, hidden_by_staff=False)
    if after is not None:
        rows = rows.filter(pk__gt=after)
    if reader is not None and reader.is_authenticated:
        rows = rows.exclude(author_id__in=people.blocks_of(reader.pk)).annotate(
            muted=Exists(Mute.objects.filter(user_id=reader.pk, muted_id=OuterRef("author_id")))
        )
    else:
        rows = rows.annotate(muted=Value(False))
    shown = rows.select_related("author__profile").order_by("-created_at", "-id")
    return [(row, bool(row.muted)) for row in reversed(shown[:limit])]


def report(user: User, match_id: int, message_id: int) -> None:
    """Tell staff about a message the user may read; reporting it again changes nothing.

    A message the user cannot read (another room, a hidden one, another match's) is no
    message to them (NotFound), as a match they may not see is.
    """
    match = access.viewable_match(user, match_id)
    message = ChatMessage.objects.filter(pk=message_id, match_id=match_id).first()
    if match is None or message is None or message.hidden_by_staff:
        raise NotFound(gettext("There is no such message."))
    if not may_read(standing(user, match), message.room) or message.author_id in set(
        people.blocks_of(user.pk)
    ):
        raise NotFound(gettext("There is no such message."))
    if message.author_id == user.pk:
        raise BadInput(gettext("That message is yours."))
    if not within_limit("chat-report", str(user.pk), HOURLY_LIMIT, HOUR_SECONDS):
        raise TooSoon(gettext("You have sent many reports: wait a while."), HOUR_SECONDS)
    with write_transaction():
        ChatReport.objects.get_or_create(
            message=message, reporter=user, defaults={"created_at": clock.now()}
        )


@write_transaction()
def close_reports(staff: User, message_ids: Collection[int], outcome: str) -> int:
    """Staff's decision on these messages: hidden from everyone, or left as they are.

    Hiding works whether or not anyone reported a message. Every open report of them is
    closed with the outcome, and each reporter hears it (live, in their language) once it is
    committed. Return how many reports were closed.
    """
    if outcome not in (ReportOutcome.HIDDEN, ReportOutcome.KEPT):
        raise BadInput(gettext("Choose whether the messages are hidden or left as they are."))
    if outcome == ReportOutcome.HIDDEN:
        ChatMessage.objects.filter(pk__in=message_ids).update(hidden_by_staff=True)
    still_open = ChatReport.objects.filter(message_id__in=message_ids, outcome=ReportOutcome.OPEN)
    reporters: dict[int, list[int]] = defaultdict(list)  # by match
    for match_id, reporter_id in still_open.values_list("message__match_id", "reporter_id"):
        reporters[match_id].append(reporter_id)
    closed = still_open.update(outcome=outcome, closed_at=clock.now(), closed_by=staff)
    for match_id, told in reporters.items():
        announce_notice_after_commit(match_id, told, f"report_{outcome}", "")
    return closed


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
