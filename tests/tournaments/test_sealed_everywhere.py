"""A sealed deal is sealed everywhere until the round closes: one rule, every route.

Two tables of a round share their deals. Each route that shows a card or a figure of a hand
(the match page and its regions, the score sheet and its CSV, the match's record, a hand's
record and its replay steps, this hand's tricks, the verification page and its record, the
tournament page, the live socket's follow) is asked by each kind of viewer (a player of the
table, a player of the sibling table, an outsider, a visitor not signed in, staff) in each
phase of the round (the sibling still playing, both tables finished before the round is
closed, the round closed). What each route shows must be what `games.access` answers for
that viewer: nothing of the cards or the hands' figures while the table is sealed to them,
and the deals, their secret and every hand's record only once they are revealed, which for a
shared deal is once the round is closed.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from games import access
from games.consumers import _may_follow
from games.models import Hand, Match, MatchStatus
from games.services import tournaments as tours
from tests.factories import HTMX, client_for
from tests.tournament_helpers import play_person_seats
from tests.tournaments.test_duplicate_deal_secrecy import (
    move_once,
    shown_cards,
    start_round_of_two_tables,
)

PHASES = ("sibling playing", "both finished", "closed")

# The marks of a hand's figures in a page: a seat's total, the standings' and the score sheet's.
FIGURE_MARKS = ('class="seat-total"', 'class="standing-total"', "sealed-totals", "sheet-total")


def html_shows(response) -> bool:
    """Say whether an HTML answer shows a card or a figure that comes from the cards."""
    if response.status_code != 200:
        return False
    text = response.content.decode()
    return bool(shown_cards(text)) or any(mark in text for mark in FIGURE_MARKS)


def csv_shows(response) -> bool:
    """Say whether the score sheet's CSV has more than its header: a hand's row or totals."""
    if response.status_code != 200:
        return False
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    return len(rows) > 1


def record_shows(response) -> bool:
    """Say whether the match's record holds a hand or the totals."""
    if response.status_code != 200:
        return False
    data = json.loads(response.content)
    return bool(data.get("hands")) or data.get("totals") is not None


def whole_shows(response) -> bool:
    """Say whether a hand's record, or the shuffle's, was given at all."""
    return response.status_code == 200


@dataclass(frozen=True)
class Route:
    """A route about one match: its address, how to read its answer, what the rule allows."""

    name: str
    url: Callable[[Match], str]
    shows: Callable[[object], bool]
    # What `games.access` allows this viewer, for this match: the route must show exactly that.
    allowed: Callable[[object, Match], bool]
    extra: tuple[tuple[str, str], ...] = ()


def sees_table(user, match: Match) -> bool:
    return access.may_view(user, match) and not access.is_sealed(user, match)


def sees_hand_one(user, match: Match) -> bool:
    hand = Hand.objects.get(match=match, number=1)
    return access.may_see_hand_record(user, match, hand)


def sees_deals(user, match: Match) -> bool:
    return access.may_view(user, match) and access.deals_revealed(match)


def url_of(name: str, query: str = "") -> Callable[[Match], str]:
    return lambda match: reverse(name, args=[match.pk]) + query


ROUTES = (
    Route("match page", url_of("match"), html_shows, sees_table),
    Route("match regions", url_of("match"), html_shows, sees_table, tuple(HTMX.items())),
    Route("score sheet", url_of("scores"), html_shows, sees_table),
    Route("score region", url_of("scores"), html_shows, sees_table, tuple(HTMX.items())),
    Route("scores.csv", url_of("scores_csv"), csv_shows, sees_table),
    Route("record.json", url_of("match_record"), record_shows, sees_table),
    Route("tricks", url_of("tricks_so_far"), html_shows, sees_table),
    Route("hand 1", lambda m: reverse("hand_review", args=[m.pk, 1]), whole_shows, sees_hand_one),
    Route(
        "hand 1, step 9",
        lambda m: reverse("hand_review", args=[m.pk, 1]) + "?step=9",
        whole_shows,
        sees_hand_one,
    ),
    Route("verify", url_of("verify_shuffle"), whole_shows, sees_deals),
    Route("verify record", url_of("shuffle_record"), whole_shows, sees_deals),
)


def set_up(phase: str, make_user) -> tuple[object, Match, Match, dict[str, tuple[object, Client]]]:
    """Play the round to the phase; return its tournament, both matches and the viewers."""
    tournament, (table1, table2) = start_round_of_two_tables()
    first, second = table1.match, table2.match
    play_person_seats(first)
    if phase == "sibling playing":
        for _ in range(6):  # table 2 is under way in the deal table 1 has finished
            move_once(second)
    else:
        play_person_seats(second)
    if phase == "closed":
        tours.close_round(tournament.pk)
    for match in (first, second):
        match.refresh_from_db()
    assert first.status == MatchStatus.FINISHED
    assert (second.status == MatchStatus.ACTIVE) is (phase == "sibling playing")
    own = first.seats.get(position=0).user
    sibling = second.seats.get(position=0).user
    outsider = make_user("watcher", "Watcher")
    staff = make_user("boss", "Boss", is_staff=True)
    viewers = {
        "own player": (own, client_for(own)),
        "sibling player": (sibling, client_for(sibling)),
        "outsider": (outsider, client_for(outsider)),
        "visitor": (AnonymousUser(), Client()),
        "staff": (staff, client_for(staff)),
    }
    return tournament, first, second, viewers


# What the one rule says, phase by phase, of table 1 (over) for each viewer: sealed or not.
SEALED = {
    "sibling playing": {"sibling player", "outsider", "visitor"},
    "both finished": {"sibling player", "outsider", "visitor"},
    "closed": set(),
}


@pytest.mark.parametrize("phase", PHASES)
def test_every_route_shows_each_viewer_what_the_one_rule_allows(phase, make_user, db):
    tournament, first, second, viewers = set_up(phase, make_user)
    for who, (user, _) in viewers.items():
        assert access.is_sealed(user, first) is (who in SEALED[phase]), (phase, who)
    mismatches = []
    for route in ROUTES:
        for who, (user, client) in viewers.items():
            response = client.get(route.url(first), **dict(route.extra))
            assert response.status_code < 500, (route.name, who)
            allowed = route.allowed(user, first)
            if access.is_sealed(user, first):
                assert not allowed, f"{route.name}: the rule lets a sealed viewer ({who}) in"
            if route.shows(response) is not allowed:
                mismatches.append(f"{route.name} to the {who}: shows {not allowed}")
    assert not mismatches, f"{phase}: " + "; ".join(mismatches)
    assert access.deals_revealed(first) is (phase == "closed")


@pytest.mark.parametrize("phase", PHASES)
def test_the_tournament_page_says_a_sealed_tables_result_to_nobody_else(phase, make_user, db):
    tournament, first, second, viewers = set_up(phase, make_user)
    url = reverse("tournament", args=[tournament.slug])
    winner = first.seats.filter(rank=1).order_by("position").first()
    result = f"{winner.name} ({winner.final_total})"
    for who, (user, client) in viewers.items():
        page = client.get(url).content.decode()
        assert not shown_cards(page), (phase, who)
        assert (result in page) is not access.is_sealed(user, first), (phase, who)


@pytest.mark.parametrize("phase", PHASES)
def test_the_live_socket_follows_the_one_rule(phase, make_user, db):
    """A sealed follow hears versions and status only, nobody to act (see the consumer)."""
    _, first, second, viewers = set_up(phase, make_user)
    for who, (user, _) in viewers.items():
        if not user.is_authenticated:
            continue  # the socket refuses a visitor at the handshake
        for match in (first, second):
            expected = (access.may_view(user, match), access.is_sealed(user, match))
            assert _may_follow.func(user, match.pk) == expected, (phase, who, match.pk)


def test_the_sibling_tables_hand_in_play_is_sealed_to_a_finished_tables_players(make_user, db):
    """Table 1 is over; its players may not watch table 2 play the deal they have played."""
    _, first, second, viewers = set_up("sibling playing", make_user)
    own, client = viewers["own player"]
    assert access.is_sealed(own, second)
    for route in ROUTES[:7]:
        response = client.get(route.url(second), **dict(route.extra))
        assert not route.shows(response), route.name


def test_group_open_is_a_question_about_the_match_alone(make_user, db):
    tournament, first, second, _ = set_up("both finished", make_user)
    assert access.group_open(first) and access.group_open(second)
    tours.close_round(tournament.pk)
    assert not access.group_open(first) and not access.group_open(second)
