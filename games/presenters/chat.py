"""What one viewer may see of a match's chat: the rooms they may read, each room's latest
messages they see, and what they may write (games/services/chat.py holds every rule)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.access import Viewer
from games.lib.chat_presets import PRESETS, preset_words
from games.models import ChatMessage, Match, Mute, Room, Seat, display_name_of
from games.presenters.players import user_url
from games.services import chat


@dataclass(frozen=True)
class ShownMessage:
    """One message as its reader sees it: a phrase in the reader's language, or the words."""

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
    muted_here: list[str]  # names of the people the viewer muted who wrote in this match

    @property
    def shown(self) -> bool:
        return bool(self.rooms)


def _shown(message: ChatMessage, viewer: Viewer) -> ShownMessage:
    return ShownMessage(
        author=display_name_of(message.author),
        author_url=user_url(message.author),
        words=preset_words(message.preset) if message.preset else message.text,
        is_phrase=bool(message.preset),
        mine=viewer is not None and message.author_id == viewer.pk,
        created_at=message.created_at,
    )


def _muted_here(viewer: Viewer, match: Match) -> list[str]:
    if viewer is None or not viewer.is_authenticated:
        return []
    authors = ChatMessage.objects.filter(match=match).values("author_id")
    mutes = Mute.objects.filter(user_id=viewer.pk, muted_id__in=authors).select_related(
        "muted__profile"
    )
    return sorted(display_name_of(mute.muted) for mute in mutes)


def chat_view(match: Match, viewer: Viewer, seats: list[Seat] | None = None) -> ChatView:
    """Return the match's chat as this viewer may see it (no room: nothing to show)."""
    seats = list(Seat.objects.filter(match=match)) if seats is None else seats
    readable = [room for room in Room if chat.may_read(viewer, match, room, seats)]
    hidden = chat.hidden_authors(viewer) if readable else set()
    rooms = [
        ShownRoom(
            room=room.value,
            messages=[_shown(m, viewer) for m in chat.latest(match, room, hidden)],
        )
        for room in readable
    ]
    writes_in: str | None = chat.writing_room(viewer, match, seats)
    if chat.refusal_to_write(viewer, match, str(writes_in), free_text=False, seats=seats):
        writes_in = None
    free_text = writes_in is not None and not chat.refusal_to_write(
        viewer, match, writes_in, free_text=True, seats=seats
    )
    return ChatView(
        match=match,
        rooms=rooms,
        writes_in=writes_in,
        free_text=free_text,
        phrases=[(key, str(words)) for key, words in PRESETS.items()],
        muted_here=_muted_here(viewer, match) if rooms else [],
    )
