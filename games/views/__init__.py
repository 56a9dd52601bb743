"""The site's pages: a player's matches, the lobby, the match table, and tournaments."""

from games.views.app import manifest, offline, service_worker
from games.views.challenges import accept, cancel, challenge_list, decline, name_suggestions
from games.views.chat import chat_region, mute, report, say, unmute
from games.views.exports import match_record, scores_csv
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
from games.views.people import block, follow, friends, unblock, unfollow
from games.views.players import bot_page, leaderboard, player_page
from games.views.rematches import no_thanks, play_again, play_now, rematch_with_bots
from games.views.review import hand_review, tricks_so_far
from games.views.rules import rules_page
from games.views.shuffles import shuffle_record, verify_shuffle
from games.views.tournaments import register, tournament_list, tournament_page, withdraw

__all__ = [
    "manifest",
    "offline",
    "service_worker",
    "chat_region",
    "mute",
    "report",
    "say",
    "unmute",
    "accept",
    "cancel",
    "challenge_list",
    "decline",
    "name_suggestions",
    "block",
    "follow",
    "friends",
    "unblock",
    "unfollow",
    "add_bot",
    "bot_page",
    "choose_moon",
    "create_match",
    "hand_over",
    "hand_review",
    "home",
    "invite",
    "join",
    "leaderboard",
    "leave",
    "lobby",
    "match_page",
    "match_record",
    "no_thanks",
    "nudge",
    "pass_cards",
    "play_again",
    "play_card",
    "play_now",
    "player_page",
    "register",
    "rematch_with_bots",
    "remove_bot",
    "resign",
    "rules_page",
    "scores",
    "scores_csv",
    "shuffle_record",
    "start",
    "tournament_list",
    "tournament_page",
    "tricks_so_far",
    "verify_shuffle",
    "withdraw",
]
