"""Bots that search play in the background: nobody's request waits on a search.

A bot of level normal or strong looks for its card by playing out sampled deals (tens of
milliseconds, `games/engine/bots/search.py`). When one is to play, the change that made it so
stops there and marks the match (`Match.bots_due_since`); once it commits, a worker plays the
card (`play_bot_card`; the queued tasks of `games/background/bot_runner.py`), and the
sweep queues it again for a table left waiting too long (its task lost).

Each card is searched for outside any transaction, on the table as last committed, then
applied under the match's lock like any move, if the match is still at the version the search
saw: the search holds no lock (on SQLite, no other match waits for it), and a card is never
applied to a table that changed meanwhile. Each card is its own change, with its own version
and live update, so the others see the bots play one card at a time.
"""

from __future__ import annotations

from datetime import datetime

from games import engine
from games.models import Action, Match, MatchStatus, Seat
from games.services import states
from games.services.table import LockedTable
from games.services.writes import write_transaction

# More cards than any match can need between two persons' turns: a guard, never reached.
MOST_CARDS = 1000


def _searched_card(match: Match, table_seats: list[Seat]) -> tuple[int, engine.Decision] | None:
    """Search, outside any transaction, for the card a bot owes on this committed table."""
    if match.status != MatchStatus.ACTIVE or match.bots_due_since is None or not match.snapshot:
        return None
    state = states.load(match.pk, match.snapshot)
    if state.phase != engine.PLAYING:
        return None
    seat = table_seats[state.turn]
    level = seat.playing_level
    if level is None or not seat.bot_searches:
        return None
    # The match's bot seed (`services/shuffles.py`): no deal can be computed from it.
    bot = engine.bot_for_level(level, seed=match.seed)
    return state.turn, bot.choose(state.view(state.turn))


def play_bot_card(match_id: int) -> bool:
    """Play the card a searching bot owes in the match, if one does; say whether one was played.

    Returns False when no bot owes a card (a person is to act, or the match ended) and also
    when the table changed while the bot searched: the caller asks again, and the bot searches
    the table as it now stands.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return False
    seats = list(match.seats.order_by("position"))
    found = _searched_card(match, seats)
    if found is None:
        return False
    position, decision = found
    with write_transaction():
        table = LockedTable.lock(match_id)
        if table.match.version != match.version or table.searching_bot_to_play() != position:
            return True  # changed meanwhile: search again on the new table
        table.apply(decision, Action.Actor.BOT)
        table.advance()
        table.save()
    return True


def play_bots(match_id: int) -> int:
    """Play every card searching bots owe in the match until a person must act; return how many."""
    played = 0
    while played < MOST_CARDS and play_bot_card(match_id):
        played += 1
    return played


def owed(match_id: int) -> bool:
    """Say whether the match is marked as waiting on a searching bot."""
    return Match.objects.filter(pk=match_id, bots_due_since__isnull=False).exists()


def waiting(before: datetime, limit: int) -> list[int]:
    """Return the matches waiting on a searching bot since before `before`, longest first.

    One range read on the partial index `match_bots_due`: only such matches have the mark.
    """
    rows = (
        Match.objects.filter(bots_due_since__lt=before)
        .order_by("bots_due_since")
        .values_list("pk", flat=True)[:limit]
    )
    return list(rows)
