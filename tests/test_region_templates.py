"""The match page's hot regions drawn by templates read exactly as the strings they replace.

Real matches (3 to 7 seats, people and bots, through the services) are played; at every step,
every region (status line, table, hand) is drawn for every viewer (each person seated, a
spectator, a player who resigned, and a spectator of a sealed duplicate-deal table) by the old
string functions and by the template partials, in each way an answer or a page draws it: as
the answer's own region, as an out-of-band copy, and inside a full page (with its CSRF field).
Both must agree once insignificant whitespace is dropped (`tests.region_html.normalise`).
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterator

import pytest
from django.template import Context
from django.template.loader import render_to_string

from games import engine, presenters, services
from games.models import Match, MatchStatus
from games.templatetags import match_regions
from games.views.matches import render_region
from tests.factories import make_match, moon_match
from tests.region_html import normalise, readable
from tests.tournament_helpers import BOT
from tests.tournaments.test_duplicate_deal_secrecy import start_round_of_two_tables

REGIONS = ("status", "table", "hand")
# How a region is drawn: (fragment, oob). A full page's regions carry the forms' CSRF field.
WAYS = {"answer": (True, False), "out of band": (True, True), "page": (False, False)}
TOKEN = "a-fixed-csrf-token-so-pages-compare"
ESCAPED_NAME = "<script>\"Al\" & 'Bo'</script>"


def old_region(name: str, context: dict, *, fragment: bool, oob: bool) -> str:
    values = Context({**context, "fragment": fragment, "oob": oob, "csrf_token": TOKEN})
    return match_regions.REGIONS[name](values)


def new_region(name: str, context: dict, *, fragment: bool, oob: bool) -> str:
    if fragment:  # as the view draws an answer's regions
        return render_region(name, context, oob=oob)
    values = {**context, "fragment": False, "oob": oob, "csrf_token": TOKEN}
    return render_to_string(f"games/match.html#{name}", values)


class Comparison:
    """Draws every region both ways for each viewer, and counts what it has seen."""

    def __init__(self) -> None:
        self.renderings = 0
        self.seen: Counter[str] = Counter()

    def viewer(self, match: Match, user, label: str, **extra) -> None:
        match = Match.objects.get(pk=match.pk)
        context = presenters.match_context(match, user, **extra)
        self.note(context, label)
        names = REGIONS if match.status != MatchStatus.OPEN else ("status", "table")
        for name in names:
            for way, (fragment, oob) in WAYS.items():
                old = old_region(name, context, fragment=fragment, oob=oob)
                new = new_region(name, context, fragment=fragment, oob=oob)
                self.renderings += 2
                if normalise(old) != normalise(new):
                    pytest.fail(
                        f"{name} ({way}) for {label}, version {match.version}:\n" + diff(old, new)
                    )

    def note(self, context: dict, label: str) -> None:
        self.seen[label] += 1
        self.seen[f"phase {context['phase']}"] += 1
        self.seen[f"status {context['match'].status}"] += 1
        for key in ("sealed", "has_left", "error", "result", "last_trick", "last_hand", "reasons"):
            if context.get(key):
                self.seen[key] += 1
        if context["trick"]:
            self.seen["cards on the table"] += 1
        view = context["view"]
        if view is not None and view.pass_direction == "none":
            self.seen["no pass"] += 1
        if context.get("must_pass") is False and context["phase"] == "passing":
            self.seen["passed, waiting"] += 1


def diff(old: str, new: str) -> str:
    lines = difflib.unified_diff(
        readable(old).splitlines(), readable(new).splitlines(), "strings", "templates", lineterm=""
    )
    return "\n".join(lines)


def decide(match: Match) -> Match | None:
    """Make the next person's decision through the services (the baseline bot chooses)."""
    match.refresh_from_db()
    if match.status != MatchStatus.ACTIVE:
        return None
    seat = match.seats.filter(to_act=True, user__isnull=False, resigned=False).first()
    state = engine.Match.from_snapshot(match.snapshot)
    choice = BOT.choose(state.view(seat.position))
    if choice["type"] == "pass":
        return services.pass_cards(seat.user, match.pk, match.version, choice["cards"])
    if choice["type"] == "play":
        return services.play_card(seat.user, match.pk, match.version, choice["card"])
    return services.choose_moon(seat.user, match.pk, match.version, choice["option"])


def steps(match: Match, limit: int = 2000) -> Iterator[int]:
    """Yield the step number before each decision and once more when the match is over."""
    for step in range(limit):
        yield step
        if decide(match) is None:
            return
    raise AssertionError("the match did not end")


def people_of(match: Match) -> list:
    return [seat.user for seat in match.seats.filter(user__isnull=False).order_by("position")]


@pytest.fixture
def comparison() -> Comparison:
    return Comparison()


@pytest.mark.parametrize(
    ("players", "people", "hands"), [(3, 2, 2), (4, 2, 4), (5, 3, 1), (6, 1, 2), (7, 2, 2)]
)
def test_people_and_spectators_see_the_same_regions_at_every_step(
    comparison, make_user, players, people, hands
):
    names = [ESCAPED_NAME, "Bob", "Chloé"][:people]
    users = [make_user(f"person{i}", name) for i, name in enumerate(names)]
    watcher = make_user("watcher", "Watcher")
    match = make_match(users[0], players=players, people=users[1:], hands=hands, seed=players)
    for step in steps(match):
        for user in people_of(match):
            comparison.viewer(match, user, "person")
        comparison.viewer(match, watcher, "spectator")
        if step % 9 == 4:  # a refused move: its reason above the hand, the ticked cards kept
            hand = engine.Match.from_snapshot(match.snapshot).view(0).hand if match.snapshot else ()
            selected = [str(card) for card in hand[:2]]
            comparison.viewer(
                match, users[0], "refused", error='Not now: <b>"x"</b>', selected=selected
            )
        if people == 3 and step == 20:
            services.resign(users[2], match.pk)
    if people == 3:
        comparison.viewer(match, users[2], "resigned")
    assert comparison.seen["status finished"] and comparison.seen["result"]
    assert comparison.seen["phase passing"] and comparison.seen["phase playing"]
    assert comparison.seen["refused"]
    if people > 1:  # bots pass at once: only another person keeps a player waiting
        assert comparison.seen["passed, waiting"]
    assert comparison.seen["last_trick"] and comparison.seen["last_hand"]
    if players == 4:
        assert comparison.seen["no pass"], "hand 4 of four players passes nothing"
    if people == 3:
        assert comparison.seen["has_left"]
    assert comparison.renderings > 400


def test_the_moon_choice_reads_the_same(comparison, alice, make_user):
    watcher = make_user("watcher", "Watcher")
    match = moon_match(alice, hands=1)
    for _ in steps(match):
        comparison.viewer(match, alice, "person")
        comparison.viewer(match, watcher, "spectator")
    assert comparison.seen["phase moon"] >= 2


def test_a_sealed_table_reads_the_same_to_everyone(comparison, make_user):
    _, (table, other) = start_round_of_two_tables()
    watcher = make_user("watcher", "Watcher")
    entrant = people_of(other.match)[0]  # plays the same deals at the other table
    for _ in steps(table.match):
        comparison.viewer(table.match, watcher, "sealed spectator")
        comparison.viewer(table.match, entrant, "sealed entrant")
        comparison.viewer(table.match, people_of(table.match)[0], "person")
    assert comparison.seen["sealed"] > 20
    assert comparison.seen["sealed spectator"] == comparison.seen["sealed entrant"]


def test_open_and_abandoned_matches_read_the_same(comparison, alice, make_user):
    bob, watcher = make_user("bob", ESCAPED_NAME), make_user("watcher", "Watcher")
    private = services.create_match(alice, services.MatchOptions(players=4, bots=1, private=True))
    match = services.create_match(alice, services.MatchOptions(players=5, bots=2))
    match = services.join_match(bob, match.pk, match.invite_code)
    for user, label in ((alice, "creator"), (bob, "person"), (watcher, "spectator")):
        comparison.viewer(match, user, label)
        comparison.viewer(private, user, label)
    services.leave_match(alice, match.pk)
    for user in (alice, bob, watcher):
        comparison.viewer(match, user, "abandoned")
    assert comparison.seen["status open"] == 6 and comparison.seen["status abandoned"] == 3


def test_the_comparison_sees_a_space_between_words_and_ignores_layout():
    assert normalise("<li>\n  <span>3♣</span>\n  <span>You</span>\n</li>") == (
        "<li><span>3♣</span> <span>You</span></li>"
    )
    assert normalise("<span>3♣</span><span>You</span>") != normalise(
        "<span>3♣</span> <span>You</span>"
    )
    assert normalise("<p>Bob  won</p>") != normalise("<p>Bobwon</p>")
