"""The site's pages: a player's matches, the lobby, the match table, and tournaments."""

from games.views.matches import (
    add_bot,
    choose_moon,
    hand_over,
    join,
    leave,
    match_page,
    nudge,
    pass_cards,
    play_card,
    remove_bot,
    resign,
    scores,
    start,
)
from games.views.pages import create_match, home, invite, lobby
from games.views.shuffles import shuffle_record, verify_shuffle
from games.views.tournaments import register, tournament_list, tournament_page, withdraw

__all__ = [
    "add_bot",
    "choose_moon",
    "create_match",
    "hand_over",
    "home",
    "invite",
    "join",
    "leave",
    "lobby",
    "match_page",
    "nudge",
    "pass_cards",
    "play_card",
    "register",
    "remove_bot",
    "resign",
    "scores",
    "shuffle_record",
    "start",
    "tournament_list",
    "tournament_page",
    "verify_shuffle",
    "withdraw",
]
