"""How long the match page's hot regions take to draw: the status line, the table, the hand.

Sets up a fresh SQLite database, plays a 4-seat match (two people, two bots) to the middle of
a hand (cards on the table, a last trick beside it, a player to play), then draws the three
regions of a card's answer for that player N times, as `games/views/matches.py` does, and
prints the median time of each and of all three. Until commit `276d7da` the old string
functions (`games/templatetags/match_regions.py`) existed, and were timed too, interleaved
with the templates (see bench/README.md); on later commits only the templates are timed.

    python bench/region_render.py                 # DEBUG off (production settings), 3,000 times
    python bench/region_render.py --debug         # DEBUG on, as in development
    python bench/region_render.py --pause 0.3 -n 200   # a pause before each, caches cooling

Django (since 4.1) caches compiled templates whether DEBUG is on or off when no loaders are
configured, as here; DEBUG changes how templates are compiled, not whether they are cached.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REGIONS = (("hand", False), ("table", True), ("status", True))  # a card's answer, in its order


def configure(debug: bool) -> None:
    """Point Django at a fresh SQLite database, with DEBUG as asked, before it is set up."""
    from benchlib import production_env  # beside this script

    env = production_env(os.environ)
    env["DEBUG"] = "1" if debug else "0"
    env["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='hearts-regions-')}/db"
    os.environ.clear()
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "hearts_site.settings"
    sys.path.insert(0, str(ROOT))


def mid_hand_context() -> dict:
    """Return the match page's context for a player to play, mid-hand, cards on the table."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games import engine, presenters, services
    from games.models import Match

    call_command("migrate", verbosity=0)
    users = [get_user_model().objects.create_user(name, password="x") for name in ("ann", "bo")]
    match = services.create_match(users[0], services.MatchOptions(players=4, bots=0))
    Match.objects.filter(pk=match.pk).update(seed=4)
    services.join_match(users[1], match.pk, match.invite_code)
    match = services.start_match(users[0], match.pk).match
    bot = engine.BaselineBot()
    for _ in range(200):
        state = engine.Match.from_snapshot(match.snapshot)
        if len(state.tricks) >= 3 and len(state.trick) >= 2 and 0 in state.to_act():
            match.refresh_from_db()
            return presenters.match_context(match, users[0])
        seat = next(s for s in state.to_act() if s < len(users))
        choice = bot.choose(state.view(seat)).to_dict()
        user, version = users[seat], match.version
        if choice["type"] == "pass":
            match = services.pass_cards(user, match.pk, version, choice["cards"]).match
        else:
            match = services.play_card(user, match.pk, version, choice["card"]).match
    raise AssertionError("never reached the middle of a hand with the first player to play")


def drawers(context: dict) -> dict[str, dict[str, Callable[[], str]]]:
    """Return, per way of drawing (templates, and strings if they exist), each region's call."""
    from django.template import Context

    from games.views.matches import render_region

    ways = {"templates": {n: lambda n=n, o=o: render_region(n, context, oob=o) for n, o in REGIONS}}
    try:
        from games.templatetags.match_regions import REGIONS as STRINGS  # gone since the change
    except ImportError:
        return ways

    def old(name: str, oob: bool) -> str:
        return STRINGS[name](Context({**context, "fragment": True, "oob": oob}))

    ways["strings"] = {n: lambda n=n, o=o: old(n, o) for n, o in REGIONS}
    return ways


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--times", type=int, default=3000)
    parser.add_argument("--debug", action="store_true", help="DEBUG on (default: off)")
    parser.add_argument("--pause", type=float, default=0.0, help="seconds before each answer")
    args = parser.parse_args()
    configure(args.debug)
    import django

    django.setup()
    ways = drawers(mid_hand_context())
    samples = {way: {name: [] for name, _ in REGIONS} for way in ways}
    for _ in range(args.times):
        for way, regions in ways.items():  # interleaved: both see the same machine
            if args.pause:
                time.sleep(args.pause)
            for name, draw in regions.items():
                began = time.perf_counter()
                draw()
                samples[way][name].append(time.perf_counter() - began)
    print(f"DEBUG {'on' if args.debug else 'off'}, {args.times} answers, pause {args.pause} s")
    print(f"{'':10} " + " ".join(f"{name:>9}" for name, _ in REGIONS) + "  all three (µs, median)")
    for way, regions in samples.items():
        medians = [statistics.median(times) * 1e6 for times in regions.values()]
        totals = [sum(times) * 1e6 for times in zip(*regions.values(), strict=True)]
        cells = " ".join(f"{m:9.1f}" for m in medians)
        print(f"{way:10} {cells}  {statistics.median(totals):9.1f}")


if __name__ == "__main__":
    main()
