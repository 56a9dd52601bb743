"""The match page's regions, drawn for set situations, read as their recorded snapshots.

The snapshots in `tests/snapshots/regions/` were written by the string functions the
templates replaced (`games/templatetags/match_regions.py`, removed since), after a comparison
of both over whole matches (`git log -- tests/test_region_templates.py`); each holds a
viewer's three regions, as an answer draws them and as a page does. They are compared after
`tests.region_html.normalise`, so the templates' layout may change but not what a browser
reads. After a deliberate change of the markup, rewrite them with
`REGION_SNAPSHOTS=write pytest tests/test_region_snapshots.py` and read the diff.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from django.template.loader import render_to_string

from games import engine, presenters, services
from games.models import Match, MatchStatus, Profile
from tests.factories import make_match, moon_match
from tests.region_html import normalise, readable
from tests.tournament_helpers import BOT
from tests.tournaments.test_duplicate_deal_secrecy import start_round_of_two_tables

SNAPSHOTS = Path(__file__).parent / "snapshots" / "regions"
TOKEN = "a-fixed-csrf-token"
ESCAPED_NAME = "<script>\"Al\" & 'Bo'</script>"
# (fragment, oob) of each way a region is drawn: an answer's own, a copy out of band, a page.
WAYS = {"answer": (True, False), "out of band": (True, True), "page": (False, False)}

Draw = Callable[[str, dict, bool, bool], str]


def draw_template(name: str, context: dict, fragment: bool, oob: bool) -> str:
    values = {**context, "fragment": fragment, "oob": oob, "csrf_token": TOKEN}
    return render_to_string(f"games/match.html#{name}", values)


def regions(match: Match, user, draw: Draw = draw_template, **extra) -> str:
    """Return a viewer's regions, every way, one after the other, as a snapshot holds them."""
    match = Match.objects.get(pk=match.pk)
    context = presenters.match_context(match, user, **extra)
    names = ("status", "table") if match.status == MatchStatus.OPEN else ("status", "table", "hand")
    parts = []
    for name in names:
        for way, (fragment, oob) in WAYS.items():
            parts.append(f"<!-- {name}, {way} -->\n{readable(draw(name, context, fragment, oob))}")
    # A match's id differs between databases (PostgreSQL does not roll its sequences back),
    # and a tournament's random deals take a varying number of moves to a situation.
    html = re.sub(rf"/matches/{match.pk}/", "/matches/ID/", "".join(parts))
    return re.sub(rf'(since=|name="version" value="){match.version}\b', r"\g<1>V", html)


def decide(match: Match) -> Match:
    """Make the next person's decision through the services (the baseline bot chooses)."""
    match.refresh_from_db()
    seat = match.seats.filter(to_act=True, user__isnull=False, resigned=False).first()
    state = engine.Match.from_snapshot(match.snapshot)
    choice = BOT.choose(state.view(seat.position)).to_dict()
    if choice["type"] == "pass":
        return services.pass_cards(seat.user, match.pk, match.version, choice["cards"])
    if choice["type"] == "play":
        return services.play_card(seat.user, match.pk, match.version, choice["card"])
    return services.choose_moon(seat.user, match.pk, match.version, choice["option"])


def until(match: Match, reached: Callable[[engine.Match], bool]) -> Match:
    """Let people decide until the state is reached or the match is over."""
    for _ in range(500):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            return match
        if reached(engine.Match.from_snapshot(match.snapshot)):
            return match
        decide(match)
    raise AssertionError("never reached")


def situations(make_user, draw: Draw = draw_template) -> dict[str, str]:
    """Return every snapshot's name and its regions, drawn by `draw`."""
    alice, bob = make_user("alice", ESCAPED_NAME), make_user("bob", "Bob")
    watcher = make_user("watcher", "Watcher")
    found: dict[str, str] = {}
    match = make_match(alice, people=[bob], hands=2, seed=4)
    match = until(match, lambda s: s.phase == engine.PASSING and s.passes[0] is not None)
    for user, label in ((alice, "passed"), (bob, "passing"), (watcher, "spectator")):
        found[f"pass-{label}"] = regions(match, user, draw)
    middle = until(match, lambda s: len(s.tricks) >= 3 and len(s.trick) >= 2 and 0 in s.to_act())
    found["play-mid-hand"] = regions(middle, alice, draw)
    found["play-refused"] = regions(middle, alice, draw, error='Not <b>"now"</b>')
    found["play-spectator"] = regions(middle, watcher, draw)
    found["play-waiting"] = regions(middle, bob, draw)
    over = until(middle, lambda s: False)
    found["over"] = regions(over, alice, draw)
    found["over-spectator"] = regions(over, watcher, draw)
    found["moon"] = regions(moon_match(make_user("mona", "Mona"), hands=1), watcher, draw)
    _, (table, _) = start_round_of_two_tables()
    sealed = until(table.match, lambda s: len(s.trick) >= 2)
    for seat in sealed.seats.all():  # the round seats its entrants in a random order
        Profile.objects.filter(user=seat.user).update(display_name=f"Seat {seat.position}")
    found["sealed-spectator"] = regions(sealed, watcher, draw)
    open_match = services.create_match(alice, services.MatchOptions(players=5, bots=2))
    services.join_match(bob, open_match.pk, open_match.invite_code)
    found["open-creator"] = regions(open_match, alice, draw)
    found["open-outsider"] = regions(open_match, watcher, draw)
    return found


def test_the_regions_read_as_their_snapshots(make_user):
    found = situations(make_user)
    if os.environ.get("REGION_SNAPSHOTS") == "write":
        for name, html in found.items():
            (SNAPSHOTS / f"{name}.html").write_text(html)
    recorded = {path.stem: path.read_text() for path in SNAPSHOTS.glob("*.html")}
    assert sorted(recorded) == sorted(found)
    for name, html in found.items():
        assert html == recorded[name], f"{name}: rewrite the snapshots if the change is meant"


def test_the_comparison_keeps_a_space_between_words_and_drops_layout():
    assert normalise("<li>\n  <span>3♣</span>\n  <span>You</span>\n</li>") == (
        "<li><span>3♣</span> <span>You</span></li>"
    )
    assert normalise("<span>3♣</span><span>You</span>") != normalise(
        "<span>3♣</span> <span>You</span>"
    )
    assert normalise("<p>Bob  won</p>") != normalise("<p>Bobwon</p>")
