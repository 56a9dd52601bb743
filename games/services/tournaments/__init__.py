"""Tournaments: each service is one transaction on the locked tournament row."""

from games.services.tournaments.common import standings_of, table_results
from games.services.tournaments.registration import (
    close_registration,
    open_registration,
    register,
    set_withdrawn,
    withdraw,
)
from games.services.tournaments.round_deadlines import (
    RoundFinish,
    finish_round_by_bots,
    set_deadline,
)
from games.services.tournaments.rounds import (
    Seating,
    close_round,
    finish_tournament,
    seat_next_round,
    start_round,
)

__all__ = [
    "RoundFinish",
    "Seating",
    "close_registration",
    "close_round",
    "finish_round_by_bots",
    "finish_tournament",
    "open_registration",
    "register",
    "seat_next_round",
    "set_deadline",
    "set_withdrawn",
    "standings_of",
    "start_round",
    "table_results",
    "withdraw",
]
