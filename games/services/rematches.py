"""Playing a finished match again: the same seats, bots and settings, a new shuffle secret.

Every person seated at a finished match (not a tournament's: its pairings are staff's) is
offered "Play again". Each answer is stored (`RematchAnswer`); once every person has accepted,
the new match starts. Anyone who accepted may also start it at once, bots (of the lobby's
default level) taking the seats of those who declined or have not answered. The new match
names the one it replays (`Match.rematch_of`, unique), and every answer locks the finished
match's row first, so two people accepting at once start exactly one rematch.

Blocks (`people.blocked_between`) are asked twice: accepting is refused to a person with a
block between them and someone who has accepted already, and a block made after both accepted
gives the later one's seat to a bot as the match starts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.contrib.auth.models import User
from django.utils.translation import gettext

from games.lib import clock
from games.lib.names import BOT_NAMES
from games.models import BotLevel, Match, MatchStatus, RematchAnswer, Seat, display_name_of
from games.services import people
from games.services.errors import Conflict, NotAllowed, NotFound
from games.services.events import announce_notice_after_commit, announce_rematch_after_commit
from games.services.lobby import new_match_row
from games.services.match_options import MatchOptions
from games.services.table import LockedTable
from games.services.writes import write_transaction

# The level of a bot taking a person's seat in a rematch: the lobby's own default.
STAND_IN_LEVEL = BotLevel.NORMAL


@dataclass(frozen=True)
class OfferSeat:
    """A person's seat at the finished match, and their answer so far (None: awaited)."""

    seat: Seat
    accepted: bool | None


@dataclass(frozen=True)
class Offer:
    """The offer to play a finished match again, as it stands."""

    seats: list[OfferSeat]
    # The rematch, once it has started.
    rematch: Match | None

    def answer_of(self, user: User) -> bool | None:
        return next((s.accepted for s in self.seats if s.seat.user_id == user.pk), None)

    def is_offered_to(self, user: User) -> bool:
        return any(s.seat.user_id == user.pk for s in self.seats)


def _is_tournament_match(match: Match) -> bool:
    return hasattr(match, "tournament_table")


def offer_of(match: Match) -> Offer | None:
    """Return the offer to play this match again, or None if it has none.

    Only a finished match that no tournament paired has one.
    """
    if match.status != MatchStatus.FINISHED or _is_tournament_match(match):
        return None
    answers = dict(RematchAnswer.objects.filter(match=match).values_list("user_id", "accepted"))
    seats = match.seats.filter(user__isnull=False).select_related("user__profile")
    return Offer(
        seats=[
            OfferSeat(seat, answers.get(seat.user_id))
            for seat in seats.order_by("position")
            if seat.user_id is not None
        ],
        rematch=Match.objects.filter(rematch_of=match).first(),
    )


def _locked_offer(user: User, match_id: int) -> tuple[Match, list[Seat]]:
    """Lock the finished match and return it with its seats, or refuse the user."""
    match = Match.objects.select_for_update(of=("self",)).filter(pk=match_id).first()
    if match is None:
        raise NotFound(gettext("There is no such match."))
    if _is_tournament_match(match):
        raise NotAllowed(gettext("A tournament's matches are not played again: staff pair them."))
    if match.status != MatchStatus.FINISHED:
        raise Conflict(gettext("This match is not over: it can be played again once it is."))
    seats = list(match.seats.select_related("user").order_by("position"))
    if not any(seat.user_id == user.pk for seat in seats):
        raise NotAllowed(gettext("Only the people who played this match can play it again."))
    if Match.objects.filter(rematch_of=match).exists():
        raise Conflict(gettext("This match is already being played again."))
    return match, seats


def _accepters(match: Match) -> list[int]:
    """Return who has accepted, by user id, the first to accept first."""
    yes = RematchAnswer.objects.filter(match=match, accepted=True, user__is_active=True)
    return list(yes.order_by("answered_at", "id").values_list("user_id", flat=True))


def _answer(match: Match, user: User, accepted: bool) -> None:
    RematchAnswer.objects.update_or_create(
        match=match, user=user, defaults={"accepted": accepted, "answered_at": clock.now()}
    )


def _start(creator: User, match: Match, seats: list[Seat]) -> Match:
    """Create the rematch: the accepters where they sat, bots elsewhere; deal its first hand."""
    seated: list[int] = []
    for user_id in _accepters(match):
        # A block made since both accepted: the later one's seat goes to a bot.
        if not people.blocked_with_any(_user_of(seats, user_id), seated):
            seated.append(user_id)
    options = MatchOptions.of_match(match)
    rematch = new_match_row(creator, replace(options, players=len(seats)), rematch_of=match)
    Seat.objects.bulk_create(_seat_like(rematch, seat, seated) for seat in seats)
    table = LockedTable.lock(rematch.pk)
    table.start()
    started = table.save().match
    others = [user_id for user_id in seated if user_id != creator.pk]
    text = gettext("Your rematch has started: match %(match)s.") % {"match": started.pk}
    announce_notice_after_commit(started.pk, others, "rematch", text)
    announce_rematch_after_commit(match.pk, started.pk, seated)
    return started


def _user_of(seats: list[Seat], user_id: int) -> User:
    user = next(seat.user for seat in seats if seat.user_id == user_id)
    assert user is not None
    return user


def _seat_like(rematch: Match, seat: Seat, seated: list[int]) -> Seat:
    """Return the rematch's seat at this seat's position: its person, or a bot."""
    if seat.user_id is not None and seat.user_id in seated:
        return Seat(match=rematch, position=seat.position, user_id=seat.user_id)
    # The same bot at a bot's seat; the lobby's level where a person does not come back.
    level = seat.bot_level if seat.user_id is None else STAND_IN_LEVEL
    return Seat(
        match=rematch,
        position=seat.position,
        controller=Seat.Controller.BOT,
        bot_name=BOT_NAMES[seat.position],
        bot_level=level,
    )


@write_transaction()
def accept(user: User, match_id: int) -> Match | None:
    """Say yes to playing the match again; return the rematch if this yes started it."""
    match, seats = _locked_offer(user, match_id)
    accepted = [uid for uid in _accepters(match) if uid != user.pk]
    people.check_may_sit_with(user, accepted)
    _answer(match, user, accepted=True)
    # A person whose account is gone is not waited for: a bot takes their seat.
    persons = {seat.user.pk for seat in seats if seat.user is not None and seat.user.is_active}
    if persons <= set(_accepters(match)):
        return _start(user, match, seats)
    announce_rematch_after_commit(match.pk)  # the pages of the match show who will play
    if not accepted:  # the first yes: tell the others an answer is awaited
        by = display_name_of(user)
        text = gettext("%(by)s would play match %(match)s again.") % {"by": by, "match": match.pk}
        others = sorted(persons - {user.pk})
        announce_notice_after_commit(match.pk, others, "rematch_offer", text, by=by)
    return None


@write_transaction()
def decline(user: User, match_id: int) -> None:
    """Say no thanks: a bot takes the seat if the others play again."""
    match, _seats = _locked_offer(user, match_id)
    _answer(match, user, accepted=False)
    announce_rematch_after_commit(match.pk)


@write_transaction()
def start_with_bots(user: User, match_id: int) -> Match:
    """Start the rematch now, bots in the seats of those who have not accepted."""
    match, seats = _locked_offer(user, match_id)
    if user.pk not in _accepters(match):
        raise NotAllowed(gettext("Say you will play again first."))
    return _start(user, match, seats)
