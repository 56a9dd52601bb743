"""Moves during a match: pass, play, the moon choice, resigning."""

from collections.abc import Callable

from django.contrib.auth.models import User
from django.utils.translation import gettext

from games import engine
from games.models import Action, Match, MatchStatus, Seat, Table
from games.services.errors import BadInput
from games.services.table import Changed, LockedTable
from games.services.writes import write_transaction


@write_transaction()
def _move(
    user: User, match_id: int, seen_version: int, decision_for: Callable[[int], engine.Decision]
) -> Changed:
    """Run one player's decision: lock, check seat and version, apply, let bots answer, save."""
    table = LockedTable.lock(match_id)
    seat = table.require_seat(user)
    table.require_in_play()
    decision = decision_for(seat.position)
    if table.check_version(seen_version, seat, decision):
        return table.unchanged()  # the same move, sent twice: applied once already
    table.apply(decision, Action.Actor.PERSON)
    table.advance()
    return table.save()


def _cards(texts: list[str]) -> list[engine.Card]:
    try:
        return [engine.Card.parse(text) for text in texts]
    except engine.EngineError as error:
        raise BadInput(error.message) from None


def pass_cards(user: User, match_id: int, seen_version: int, cards: list[str]) -> Changed:
    """Pass three cards (R2); the received cards stay hidden until everyone has passed."""
    chosen = _cards(cards)
    return _move(user, match_id, seen_version, lambda seat: engine.Pass(seat, tuple(chosen)))


def play_card(user: User, match_id: int, seen_version: int, card: str) -> Changed:
    """Play one card (R3); an illegal one is refused with the rule that forbids it."""
    (chosen,) = _cards([card])
    return _move(user, match_id, seen_version, lambda seat: engine.Play(seat, chosen))


def choose_moon(user: User, match_id: int, seen_version: int, option: str) -> Changed:
    """Choose what shooting the moon does: subtract 26 from you, or add 26 to the others (R4.3)."""
    if option not in ("subtract", "add"):
        raise BadInput(
            gettext("Choose to subtract 26 from your total or add 26 to everyone else's.")
        )
    return _move(user, match_id, seen_version, lambda seat: engine.MoonChoice(seat, option))


@write_transaction()
def resign(user: User, match_id: int) -> Changed:
    """Leave a match in play: a bot takes the seat; with no person left, it is abandoned."""
    table = LockedTable.lock(match_id)
    seat = table.require_seat(user)
    table.require_in_play()
    resign_seat(table, seat)
    return table.save()


def resign_seat(table: LockedTable, seat: Seat) -> None:
    """Hand a seat to a bot on a locked table; a match with no person left is abandoned.

    A tournament's match is never abandoned: its bots play it out, so the round gets a result.
    """
    seat.resigned = True
    seat.save(update_fields=["resigned"])
    nobody_left = all(s.is_bot or s.resigned for s in table.seats)
    if nobody_left and not is_tournament_match(table.match):
        table.match.status = MatchStatus.ABANDONED
    else:
        table.advance()


def is_tournament_match(match: Match) -> bool:
    """Say whether the match is a tournament table."""
    return Table.objects.filter(match=match).exists()
