"""The table as the viewer sees it: the seats around it, the cards on it, and what just happened.

Everything comes from the engine's view for the viewer's own seat, or from the public view for
anyone else (R6.3): no other seat's hand or pass ever reaches a template.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext, ngettext

from games import engine
from games.lib import clock
from games.lib.card_words import card_words
from games.models import Match, MatchStatus, Seat
from games.models.profiles import away_until as away_until_of
from games.services import clocks

from .players import player_url

if TYPE_CHECKING:
    from .sheet import Line


@dataclass(frozen=True)
class Place:
    """One seat as drawn around the table, seen from the viewer's chair."""

    position: int
    name: str
    is_you: bool
    is_bot: bool
    is_empty: bool
    total: int
    cards_left: int
    to_act: bool
    passed: bool
    played: engine.Card | None
    # Once the match is over: the seat's stored place, and whether it won (never a leaver).
    rank: int | None
    # Where the seat sits on the table's ellipse, as a direction from its centre; the
    # stylesheet scales it to the screen (seats further out than the cards they play).
    cos: float
    sin: float
    # When the decision the seat owes times out (timed matches), and its timeouts in a row.
    deadline: datetime | None = None
    timeouts_in_a_row: int = 0
    # A bot's level, shown beside its name; `thinking`: a bot searching for the card it owes.
    bot_level: str = ""
    thinking: bool = False
    # Where the seat's name leads: its player's page, or its bot level's ("" for an empty seat).
    url: str = ""
    won: bool = False
    left: bool = False  # its person left the match for good (`Seat.has_left`)
    # Until when the seat's player is on vacation, their clock stopped (None: not away here);
    # and, for the viewer's own seat, whether their deadline is near (a warning in the hand).
    away_until: datetime | None = None
    clock_stopped: bool = False
    deadline_near: bool = False
    # An empty seat kept for a challenged person who has not answered: their name.
    kept_for: str = ""

    @property
    def spot(self) -> int:
        """Return the seat's direction from the table's centre in whole degrees (`data-spot`).

        The stylesheet sets `--cos` and `--sin` for each direction a table of 3 to 10 can have,
        so the page needs no `style` attribute, which the Content-Security-Policy forbids.
        """
        return round(math.degrees(math.atan2(self.sin, self.cos))) % 360

    @property
    def who(self) -> str:
        """Return how sentences name this seat: "You" for the viewer."""
        return gettext("You") if self.is_you else self.name


class LastHand(TypedDict):
    """The latest scored hand: its number, and each seat's place with its line of the sheet."""

    number: int
    rows: list[tuple[Place, Line]]


class MatchResult(TypedDict):
    """How a finished match ended, as the page and the live region tell it."""

    headline: str
    standings: list[Place]
    winners: list[Place]
    someone_left: bool


@dataclass(frozen=True)
class Play:
    """A card on the table and who played it; `cancelled`: its twin is in the same trick (R5.2)."""

    place: Place
    card: engine.Card
    cancelled: bool = False


def plays_of(
    plays: Iterable[engine.PlayedCard], by_pos: dict[int, Place], cancelled: Iterable[engine.Card]
) -> list[Play]:
    """Return a trick's cards as shown, each marked if it is one of a cancelled pair."""
    faces = {card.face_text for card in cancelled}
    return [Play(by_pos[p.seat], p.card, p.card.face_text in faces) for p in plays]


def cancelled_so_far(plays: Sequence[engine.PlayedCard]) -> list[engine.Card]:
    """Return the cards of the trick in play whose twin is in it too (R5.2: they cancel)."""
    faces = Counter(p.card.face_text for p in plays)
    return [p.card for p in plays if faces[p.card.face_text] > 1]


def load_seats(match: Match) -> list[Seat]:
    """Return the match's seats in order, with what their names need."""
    return list(match.seats.select_related("user__profile").order_by("position"))


def viewer_seat(seats: Iterable[Seat], user: User | AnonymousUser) -> Seat | None:
    """Return the seat the user plays at, or None for a spectator (resigned players watch)."""
    return next((s for s in seats if s.is_held_by(user) and not s.resigned), None)


def engine_view(
    match: Match, seat: Seat | None, state: engine.Match | None = None
) -> engine.PublicView | None:
    """Return the seat's own view of the match, or the public view for a spectator.

    `state` is the engine state a change just left (see `services.Changed`); else it is
    rebuilt from the stored snapshot.
    """
    if not match.snapshot:
        return None
    state = state or engine.Match.from_snapshot(match.snapshot)
    return state.view(seat.position) if seat is not None else state.public_view()


# The phase a sealed table shows for a match in play: no engine phase, so nothing about the
# hand in progress (who leads, who shot the moon) is drawn.
SEALED = "sealed"


def sealed_view(view: engine.PublicView) -> engine.PublicView:
    """Return the spectator's view of a sealed table: seats and status, no card, no figure.

    Everything that comes from the cards goes: the tricks, who is to act (on the first trick
    it names the holder of the 2♣), how many cards each seat holds (it tells who led), the
    points taken, the totals (a total after a hand tells who took the Q♠ in a deal other
    tables play), the score sheet's hands and the hand's record, and the variants' takers of
    the bonus card and the widow and the cards waiting. See `games.access.is_sealed`.
    """
    n = view.players
    return dataclasses.replace(
        view,
        totals=(0,) * n,  # kept off the page by its templates too: a sealed seat has no total
        phase=view.phase if view.is_finished else SEALED,
        to_act=(),
        has_passed=(False,) * n,
        hand_counts=(0,) * n,
        leader=None,
        trick=(),
        tricks=(),
        first_trick=False,
        hearts_broken=False,
        points_taken=(0,) * n,
        sheet=(),
        shooter=None,
        record=None,
        # The variants' facts that come from the cards (R5): who took what, what waits.
        bonus_taker=None,
        widow_taker=None,
        widow=None,
        carried=(),
    )


def away_until(seat: Seat, now: datetime) -> datetime | None:
    """Return when the seat's player is back from vacation, if their clock stands still here."""
    if seat.is_bot or seat.resigned or seat.user_id is None or seat.match.is_over:
        return None
    if not clocks.is_paused_for(seat, seat.match, now):
        return None
    user = seat.user
    assert user is not None  # its id is set
    return away_until_of(user)


def places(seats: Sequence[Seat], me: Seat | None, view: engine.PublicView | None) -> list[Place]:
    """Return the seats in playing order starting from the viewer, who sits at the bottom."""
    n = len(seats)
    now = clock.now()
    anchor = me.position if me else 0
    played = {p.seat: p.card for p in view.trick} if view else {}
    result = []
    for seat in seats:
        slot = (seat.position - anchor) % n
        to_act = view is not None and seat.position in view.to_act
        # The viewer sits at the bottom; play goes to the left, so clockwise on screen.
        angle = math.pi / 2 + 2 * math.pi * slot / n
        cos, sin = math.cos(angle), math.sin(angle)
        result.append(
            Place(
                position=seat.position,
                name=seat.name,
                url=player_url(seat),
                is_you=me is not None and seat.pk == me.pk,
                is_bot=seat.is_bot,
                is_empty=seat.is_empty,
                total=view.totals[seat.position] if view else 0,
                cards_left=view.hand_counts[seat.position] if view else 0,
                to_act=to_act,
                passed=view is not None and view.has_passed[seat.position],
                played=played.get(seat.position),
                rank=seat.rank,
                won=seat.won,
                left=seat.has_left,
                # Only beside a turn the viewer may know of (a sealed view names none).
                deadline=seat.deadline if to_act else None,
                timeouts_in_a_row=seat.timeouts_in_a_row,
                away_until=away_until(seat, now),
                clock_stopped=to_act and seat.paused_left is not None,
                deadline_near=(
                    to_act
                    and me is not None
                    and seat.pk == me.pk
                    and seat.match.is_timed
                    and clocks.deadline_near(seat, seat.match, now)
                ),
                bot_level=seat.get_bot_level_display() if seat.is_bot else "",
                thinking=(
                    to_act
                    and view is not None
                    and view.phase == engine.PLAYING
                    and seat.bot_searches
                ),
                cos=round(cos, 4) + 0.0,  # + 0.0 turns -0.0 into 0.0
                sin=round(sin, 4) + 0.0,
            )
        )
    return sorted(result, key=lambda p: (p.position - anchor) % n)


def last_hand(places: Sequence[Place], lines: Sequence[Line]) -> LastHand | None:
    """Return the points each seat scored in the latest scored hand, or None before any."""
    if not lines:
        return None
    number = lines[-1].hand_number
    by_pos = {p.position: p for p in places}
    rows = [(by_pos[line.seat], line) for line in lines if line.hand_number == number]
    return {"number": number, "rows": rows}


def result_of(match: Match, places: Sequence[Place]) -> MatchResult | None:
    """Return the winner or co-winners and the standings of a finished match (R4.6)."""
    if match.status != MatchStatus.FINISHED:
        return None
    standings = sorted(places, key=lambda p: (p.rank or 99, p.position))
    winners = [p for p in standings if p.won]
    names = [p.who for p in winners]
    if not names:  # every seat was a person's, and every one of them left
        headline = gettext("Everyone left the match: bots finished it, and nobody wins.")
    elif len(names) == 1:
        headline = (
            gettext("You win the match!")
            if winners[0].is_you
            else gettext("%(name)s wins the match.") % {"name": names[0]}
        )
    else:
        headline = gettext("%(names)s and %(last)s share the win.") % {
            "names": ", ".join(names[:-1]),
            "last": names[-1],
        }
    return {
        "headline": headline,
        "standings": standings,
        "winners": winners,
        "someone_left": any(p.left for p in standings),
    }


def announcement(
    view: engine.PublicView | None,
    by_pos: dict[int, Place],
    me: Place | None,
    last_hand: LastHand | None,
    result: MatchResult | None,
) -> str:
    """Say in words what just happened and who is to act, for the live region."""
    if view is None:
        return ""
    parts = _hand_over_words(view, last_hand)
    if view.tricks and view.phase == engine.PLAYING:
        parts += _last_trick_words(view, by_pos)
    if view.trick:
        parts.append(", ".join(_played(by_pos, p) for p in view.trick) + ".")
    parts += _next_words(view, by_pos, me, result)
    return " ".join(parts)


def _hand_over_words(view: engine.PublicView, last_hand: LastHand | None) -> list[str]:
    """The hand just scored, between hands and once the match is over."""
    between_hands = not view.tricks and not view.trick
    if not last_hand or not (between_hands or view.phase == engine.FINISHED):
        return []
    points = ", ".join(f"{place.who} {line.score}" for place, line in last_hand["rows"])
    return [
        gettext("Hand %(number)s is over: %(points)s.")
        % {"number": last_hand["number"], "points": points}
    ]


def _last_trick_words(view: engine.PublicView, by_pos: dict[int, Place]) -> list[str]:
    """The trick just completed (its cards, once the next has none yet) and who took it."""
    trick = view.tricks[-1]
    parts = [] if view.trick else [", ".join(_played(by_pos, p) for p in trick.plays) + "."]
    if trick.winner is None:
        # R5.2: every card of the suit led cancelled; the same player leads again.
        parts.append(
            gettext(
                "Nobody won the trick: every card of the suit led was cancelled, and its "
                "cards wait for the next trick's winner."
            )
        )
    elif not view.trick:
        winner = by_pos[trick.winner].who
        parts.append(
            gettext("%(name)s won the trick, taking %(points)s.")
            % {"name": winner, "points": _points_in_words(trick.points)}
        )
    else:
        parts.append(gettext("%(name)s won the last trick.") % {"name": by_pos[trick.winner].who})
    return parts


def _next_words(
    view: engine.PublicView, by_pos: dict[int, Place], me: Place | None, result: MatchResult | None
) -> list[str]:
    """Who is to act now and on what, or how the match ended."""
    if view.phase == engine.PLAYING:
        actor = by_pos[view.to_act[0]]
        if actor.is_you:
            return [gettext("Your turn to play.")]
        return [gettext("%(name)s is to play.") % {"name": actor.name}]
    if view.phase == engine.PASSING:
        if me is not None and me.position in view.to_act:
            return [gettext("Hand %(hand)s: choose three cards to pass.") % {"hand": view.hand_no}]
        return [gettext("Hand %(hand)s: waiting for the others to pass.") % {"hand": view.hand_no}]
    if view.phase == engine.MOON:
        assert view.shooter is not None  # the moon phase is the shooter's
        shooter = by_pos[view.shooter]
        if shooter.is_you:
            return [gettext("You shot the moon: choose what it does.")]
        return [
            gettext("%(name)s shot the moon and is choosing what it does.") % {"name": shooter.name}
        ]
    return [result["headline"]] if result else []


def _points_in_words(points: int) -> str:
    if points == 0:
        return gettext("no points")
    return ngettext("%(count)d point", "%(count)d points", points) % {"count": points}


def _played(by_pos: dict[int, Place], play: engine.PlayedCard) -> str:
    return gettext("%(name)s played %(card)s") % {
        "name": by_pos[play.seat].who,
        "card": card_words(play.card),
    }
