"""What one viewer may see of a match's chat: the rooms they may read, each room's latest
messages they see, and what they may write (games/services/chat.py holds every rule)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.access import Viewer
from games.lib.chat_presets import PRESETS, preset_words
from games.models import ChatMessage, Match, Room, Seat, display_name_of
from games.presenters.players import user_url
from games.services import chat


@dataclass(frozen=True)
class ShownMessage:
    """One message as its reader sees it: a phrase in the reader's language, or the words."""

    id: int
    author: str
    author_url: str
    words: str
    is_phrase: bool
    mine: bool
    created_at: datetime


@dataclass(frozen=True)
class ShownRoom:
    """One room the viewer reads, its messages oldest first."""

    room: str  # "players" or "spectators": the template names it
    messages: list[ShownMessage]


@dataclass(frozen=True)
class ChatView:
    """The chat region: the rooms shown, where the viewer writes, and whom they muted here."""

    match: Match
    rooms: list[ShownRoom]
    writes_in: str | None  # the room the form posts to; None: no form
    free_text: bool  # the form offers a text box
    phrases: list[tuple[str, str]]  # (key, words in the reader's language)
    # Names of the people the viewer muted among the latest messages here, to unmute.
    muted_here: list[str]
    refusal: str | None  # why a reader may not write here, if it is theirs to know

    @property
    def shown(self) -> bool:
        return bool(self.rooms)

    @property
    def shown_messages(self) -> int:
        """How many of a room's latest messages the page keeps (live.js drops older ones)."""
        return chat.SHOWN_MESSAGES


def _shown(message: ChatMessage, viewer: Viewer) -> ShownMessage:
    return ShownMessage(
        id=message.pk,
        author=display_name_of(message.author),
        author_url=user_url(message.author),
        words=preset_words(message.preset) if message.preset else message.text,
        is_phrase=bool(message.preset),
        mine=viewer is not None and message.author_id == viewer.pk,
        created_at=message.created_at,
    )


@dataclass(frozen=True)
class ChatNews:
    """What a page showing the chat lacks: each room's messages newer than those it shows
    (rooms the viewer may read only; a room with none is left out)."""

    match: Match
    rooms: list[ShownRoom]


@dataclass(frozen=True)
class _Read:
    rooms: list[ShownRoom]
    muted: set[str]  # names of the muted among the messages' authors
    complete: bool  # False: more than SHOWN_MESSAGES came after `after`, and not all are here


def _read(match: Match, viewer: Viewer, here: chat.Standing, *, after: int | None = None) -> _Read:
    """The one place for the messages this viewer reads: every room they may read
    (`chat.may_read`), its latest messages (those with an id above `after` if given) but for
    staff's hidden ones and the blocked (`chat.latest`), and the names of the muted among their
    authors, whose messages are left out.

    One query per room read.
    """
    rooms, muted = [], set()
    # Asked for what came after a message: one more than a page shows tells a gap too wide.
    limit = chat.SHOWN_MESSAGES if after is None else chat.SHOWN_MESSAGES + 1
    for room in Room:
        if not chat.may_read(here, room):
            continue
        rows = chat.latest(match, room, viewer, limit, after=after)
        if len(rows) > chat.SHOWN_MESSAGES:
            return _Read(rooms=[], muted=set(), complete=False)
        messages = []
        for message, is_muted in rows:
            if is_muted:
                muted.add(display_name_of(message.author))
            else:
                messages.append(_shown(message, viewer))
        rooms.append(ShownRoom(room=room.value, messages=messages))
    return _Read(rooms=rooms, muted=muted, complete=True)


def chat_news(match: Match, viewer: Viewer, after: int) -> ChatNews | None:
    """Return the messages newer than message `after` this viewer may read, by room, for a page
    that shows the chat up to that message; None when more came than a page shows (the page
    then takes the whole region).

    As many queries as the whole region's (`chat_view`), or fewer: the messages are few.
    Only what is new is told: a message staff hid meanwhile, or one whose author the viewer
    muted elsewhere, stays on a page that already shows it until the region is fetched whole
    (the viewer's own mute or unmute answers it whole; staff hide rarely).
    """
    read = _read(match, viewer, chat.standing(viewer, match), after=after)
    if not read.complete:
        return None
    return ChatNews(match=match, rooms=[room for room in read.rooms if room.messages])


def chat_view(match: Match, viewer: Viewer, seats: list[Seat] | None = None) -> ChatView:
    """Return the match's chat as this viewer may see it (no room: nothing to show).

    A few queries whatever the messages: the seats unless given, the tournament table, and
    one per room read (the match page's cost, `tests/test_queries.py`).
    """
    here = chat.standing(viewer, match, seats)
    read = _read(match, viewer, here)
    writes_in: str | None = chat.writing_room(here)
    # Why the viewer may not write where they would (staff took chat away): said on the page.
    refusal = chat.refusal_to_write(here, str(writes_in), free_text=False)
    if refusal:
        writes_in = None
    return ChatView(
        match=match,
        rooms=read.rooms,
        writes_in=writes_in,
        free_text=writes_in is not None
        and not chat.refusal_to_write(here, writes_in, free_text=True),
        phrases=[(key, str(words)) for key, words in PRESETS.items()],
        muted_here=sorted(read.muted),
        refusal=refusal if read.rooms and here.banned_until else None,
    )


def chat_record(match: Match, viewer: Viewer, seats: list[Seat]) -> list[dict[str, str]]:
    """Return every message the viewer may read, for the match's record: as the page shows
    them (no muted or blocked author, nothing staff hid), a phrase by its key and its words in
    the viewer's language, oldest first, room by room."""
    here = chat.standing(viewer, match, seats)
    record = []
    for room in Room:
        if not chat.may_read(here, room):
            continue
        for message, is_muted in chat.latest(match, room, viewer, limit=None):
            if is_muted:
                continue
            entry = {
                "room": room.value,
                "author": display_name_of(message.author),
                "at": message.created_at.isoformat(),
            }
            if message.preset:
                entry |= {"phrase": message.preset, "words": preset_words(message.preset)}
            else:
                entry["text"] = message.text
            record.append(entry)
    return record
