"""The site's pages: a player's matches, the lobby, and the match table with its actions."""

from games.views.matches import (
    add_bot,
    choose_moon,
    join,
    leave,
    match_page,
    pass_cards,
    play_card,
    remove_bot,
    resign,
    scores,
    start,
)
from games.views.pages import create_match, home, invite, lobby

__all__ = [
    "add_bot",
    "choose_moon",
    "create_match",
    "home",
    "invite",
    "join",
    "leave",
    "lobby",
    "match_page",
    "pass_cards",
    "play_card",
    "remove_bot",
    "resign",
    "scores",
    "start",
]
