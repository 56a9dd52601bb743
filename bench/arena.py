"""Arena: two bots on the same deals with the seats swapped, and what separates them.

Every deal is played twice: bot A in the even seats and B in the odd ones (A B A B at four
players), then the other way round (B A B A), so each bot holds each seat's cards once. With
`--single`, A sits alone among B players, once in every seat. The score of a deal is B's mean
points per hand minus A's (positive: A took fewer points), and the interval is over the deals.

Run from the repository root, e.g.
`python bench/arena.py --a strong --b baseline --deals 500 --players 4 --jobs 2`.
`--variant omnibus` (3 to 7 players) or `--variant cancellation` (5 to 10) plays a variant (R5);
a Cancellation deal is hand 1 to n in turn, so that every seat deals and leads in turn.
Bots: random, baseline, normal, strong, ismcts (OpenSpiel's IS-MCTS, when installed), and
search variants for measuring, "search:PLAYOUTS[:noinfer][:nopass][:moon][:noise=X][:dread=X]",
and the same search seeing every hand, "oracle:PLAYOUTS[:...]" (bench/oracle.py: an upper
bound, for telling what the search loses by not knowing the cards).

To see why a moon got through: `--moons` lists every hand in which one was shot (deal seed,
table, shooter), and `--trace DEAL:TABLE` replays one of them trick by trick.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.oracle import OracleSearchBot  # noqa: E402
from games.engine import VARIANTS, BadRules, Deal, Decision, Match, RandomBot, RuleSet  # noqa: E402
from games.engine.bots import Bot  # noqa: E402
from games.engine.bots.search import SearchBot, bot_for_level  # noqa: E402
from games.engine.cancellation import CancellationMatch, points_of  # noqa: E402
from games.engine.cards import ALL_CARDS, indices_of  # noqa: E402
from games.engine.phases import MOON, PASSING, PLAYING  # noqa: E402
from games.engine.rules import STANDARD, check_players  # noqa: E402
from games.engine.views import SeatView  # noqa: E402

NAMES = ("random", "baseline", "normal", "strong", "ismcts")
SEARCH_PREFIXES = ("search:", "oracle:")  # search variants and the oracle, with their options
OFF_FLAGS = {"noinfer": "infer", "nopass": "plan_pass"}


def make_bot(name: str, seed: int, players: int) -> Bot:
    """Return a fresh bot by arena name."""
    if name == "random":
        return RandomBot(seed)
    if name == "baseline":
        return bot_for_level("easy", seed)
    if name in ("normal", "strong"):
        return bot_for_level(name, seed)
    if name.startswith(SEARCH_PREFIXES):
        return search_variant(name, seed)
    if name == "ismcts":
        from bench.spiel_bot import IsmctsBot  # an optional extra: imported only when asked for

        return IsmctsBot(seed, players)
    raise SystemExit(f"unknown bot {name!r}: choose from {', '.join(NAMES)}")


def search_variant(name: str, seed: int) -> SearchBot:
    """Return a search bot from "search:PLAYOUTS[:noinfer][:nopass][:moon][:noise=X][:dread=X]",
    or the oracle from "oracle:" and the same options."""
    kind, playouts, *flags = name.split(":")
    options: dict[str, Any] = {}
    for flag in flags:
        if flag.startswith("noise="):
            options["noise"] = float(flag[6:])
        elif flag.startswith("dread="):
            options["moon_dread"] = float(flag[6:])
        elif flag == "moon":
            options["plan_moon"] = True
        elif flag in OFF_FLAGS:
            options[OFF_FLAGS[flag]] = False
        else:
            raise SystemExit(f"unknown search option {flag!r}")
    bot_class = OracleSearchBot if kind == "oracle" else SearchBot
    return bot_class(seed=seed, playouts=int(playouts), **options)


class Timed:
    """A bot wrapper recording how long each decision takes."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.times = times

    def choose(self, view: SeatView) -> Decision:
        start = time.perf_counter()
        decision = self.bot.choose(view)
        self.times.append(time.perf_counter() - start)
        return decision


@dataclass
class DealResult:
    """One deal's tables: the difference, moons made and suffered per side, decision times."""

    diff: float = 0.0
    seat_hands: list[int] = field(default_factory=lambda: [0, 0])
    moons_made: list[int] = field(default_factory=lambda: [0, 0])
    moons_suffered: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    times: list[list[float]] = field(default_factory=lambda: [[], []])
    # Every moon shot: (deal seed, table, shooter's seat, shooter's side 0 = A / 1 = B).
    moons: list[tuple[int, int, int, int]] = field(default_factory=list)


def lineups(players: int, single: bool) -> list[list[int]]:
    """Return the seatings of one deal: for each table, which side (0 = A, 1 = B) sits where."""
    if single:
        return [[0 if s == a else 1 for s in range(players)] for a in range(players)]
    even = [s % 2 for s in range(players)]
    return [even, [1 - side for side in even]]


def play_deal(args: tuple[str, str, int, int, bool, str]) -> DealResult:
    """Play one deal at every seating and return what separates the two sides."""
    name_a, name_b, players, deal_seed, single, variant = args
    result = DealResult()
    sides_points: list[list[int]] = [[], []]
    for table, lineup in enumerate(lineups(players, single)):
        match = play_table(name_a, name_b, players, deal_seed, lineup, result.times, variant)
        row = match.sheet[-1]
        for seat, side in enumerate(lineup):
            sides_points[side].append(row.scores[seat])
            result.seat_hands[side] += 1
            result.points[side] += row.scores[seat]
            if row.moon == seat:
                result.moons_made[side] += 1
            elif row.moon is not None and lineup[row.moon] != side:
                result.moons_suffered[side] += 1
        if row.moon is not None:
            result.moons.append((deal_seed, table, row.moon, lineup[row.moon]))
    result.diff = statistics.fmean(sides_points[1]) - statistics.fmean(sides_points[0])
    return result


def play_table(
    name_a: str,
    name_b: str,
    players: int,
    deal_seed: int,
    lineup: list[int],
    times: list[list[float]],
    variant: str = STANDARD,
    trace: bool = False,
) -> Match:
    """Play one deal at one seating (bots seeded as in every run) and return the match.

    With `trace`, print each seat's cards once the pass is over, then every trick.
    """
    rules = RuleSet(players=players, variant=variant)
    # Every pass direction in turn; with two decks (no pass) every dealer and first leader.
    cycle = players if rules.two_decks else 4 if players == 4 else 2
    hand_no = deal_seed % cycle + 1
    deal = Deal.from_seed(rules, deal_seed)
    names = (name_a, name_b)
    bots: list[Bot] = [
        Timed(make_bot(names[side], deal_seed * 16 + seat, players), times[side])
        for seat, side in enumerate(lineup)
    ]
    match = Match.new(rules)
    match.hand_no = hand_no - 1
    match.start_hand(deal)
    shown = 0
    while match.phase in (PASSING, PLAYING, MOON):
        if trace and match.phase == PLAYING and not match.tricks and not match.trick:
            for seat in range(players):
                who = f"{'AB'[lineup[seat]]}={names[lineup[seat]]}"
                cards = " ".join(str(ALL_CARDS[i]) for i in indices_of(match.hands[seat]))
                print(f"seat {seat} {who:<12} {cards}")
        for seat in match.to_act():
            if isinstance(bots[seat].bot, OracleSearchBot):
                bots[seat].bot.see(match)
            match.apply(bots[seat].choose(match.view(seat)))
        if trace and len(match.tricks) > shown:
            shown = trace_trick(match, shown, lineup)
    if trace:
        row = match.sheet[-1]
        print(f"points {list(row.points)}, scores {list(row.scores)}, moon by {row.moon}")
    return match


def trace_trick(match: Match, shown: int, lineup: list[int]) -> int:
    """Print the tricks from number `shown` on, with the points each seat has taken; return
    how many are shown now.

    In Cancellation a trick may be not won: its cards go to the winner of a later trick
    (`takers`, -1 while they wait); the widow's points are left out, as the players see it.
    """
    takers = match.takers if isinstance(match, CancellationMatch) else None
    for number in range(shown, len(match.tricks)):
        leader, cards, winner = match.tricks[number]
        plays = " ".join(
            f"{(leader + i) % match.n}{'AB'[lineup[(leader + i) % match.n]]}:{ALL_CARDS[c]}"
            for i, c in enumerate(cards)
        )
        taken = [0] * match.n
        for earlier, (_, trick_cards, trick_winner) in enumerate(match.tricks[: number + 1]):
            taker = trick_winner if takers is None else takers[earlier]
            if taker >= 0:
                taken[taker] += sum(points_of(1 << c) for c in trick_cards)
        who = f"seat {winner}" if winner >= 0 else "nobody (its cards wait)"
        print(f"trick {number + 1:2}: {plays}  -> {who}; points so far {taken}")
    return len(match.tricks)


def percentile(values: Sequence[float], q: float) -> float:
    """Return the q-th quantile (0..1) of the values, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the arena and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="strong", help=f"bot A: {', '.join(NAMES)}")
    parser.add_argument("--b", default="baseline", help="bot B (the reference)")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--variant",
        default=STANDARD,
        choices=VARIANTS,
        help="the game (R5): standard and omnibus seat 3 to 7, cancellation 5 to 10",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes (one per core)")
    parser.add_argument("--single", action="store_true", help="A alone among B players")
    parser.add_argument(
        "--moons",
        action="store_true",
        help="list every hand in which the moon was shot: deal seed, table, shooter's seat and"
        " side, as --trace takes them",
    )
    parser.add_argument(
        "--trace",
        metavar="DEAL:TABLE",
        help="play only this deal seed at this table (0 = the first seating) with the same"
        " bots and seeds as a full run, printing the hands after the pass and every trick",
    )
    args = parser.parse_args(argv)
    for name in (args.a, args.b):
        if name not in NAMES and not name.startswith(SEARCH_PREFIXES):
            parser.error(f"unknown bot {name!r}: choose from {', '.join(NAMES)}")
    try:
        check_players(args.players, args.variant)
    except BadRules as exc:
        parser.error(exc.message)
    if args.trace:
        try:
            deal_seed, table = (int(part) for part in args.trace.split(":"))
            lineup = lineups(args.players, args.single)[table]
        except (ValueError, IndexError):
            parser.error(f"--trace takes DEAL:TABLE as --moons lists them, not {args.trace!r}")
        play_table(
            args.a, args.b, args.players, deal_seed, lineup, [[], []], args.variant, trace=True
        )
        return 0
    seeds = random.Random(args.seed).sample(range(1, 1 << 30), args.deals)
    tasks = [(args.a, args.b, args.players, s, args.single, args.variant) for s in seeds]
    start = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(play_deal, tasks, chunksize=1)
    else:
        results = [play_deal(t) for t in tasks]
    elapsed = time.perf_counter() - start
    report(args, results, elapsed)
    return 0


def report(args: argparse.Namespace, results: list[DealResult], elapsed: float) -> None:
    """Print the difference with its 95% interval, moon rates and decision times."""
    diffs = [r.diff for r in results]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan
    seating = "A alone among B" if args.single else "A and B alternating, swapped"
    print(
        f"{args.deals} deals x {len(lineups(args.players, args.single))} tables,"
        f" {args.players} players, {args.variant} ({seating}), seed {args.seed},"
        f" {elapsed:.0f} s"
    )
    print(
        f"A={args.a} takes {mean:+.2f} points per hand fewer than B={args.b}"
        f" (95% CI {mean - half:+.2f} .. {mean + half:+.2f})"
    )
    for side, name in enumerate((args.a, args.b)):
        hands = sum(r.seat_hands[side] for r in results)
        points = sum(r.points[side] for r in results)
        made = sum(r.moons_made[side] for r in results)
        suffered = sum(r.moons_suffered[side] for r in results)
        times = [t for r in results for t in r.times[side]]
        print(
            f"  {'AB'[side]}={name:<8} {points / hands:6.2f} points/hand over {hands} seat-hands;"
            f" moons made {100 * made / hands:.2f}%, suffered {100 * suffered / hands:.2f}%;"
            f" decision p50 {1000 * percentile(times, 0.5):.1f} ms,"
            f" p99 {1000 * percentile(times, 0.99):.1f} ms ({len(times)} decisions)"
        )
    if args.moons:
        moons = sorted(m for r in results for m in r.moons)
        print(f"moons shot ({len(moons)}), as --trace DEAL:TABLE:")
        for deal_seed, table, seat, side in moons:
            print(f"  {deal_seed}:{table} seat {seat} ({'AB'[side]}={(args.a, args.b)[side]})")


if __name__ == "__main__":
    sys.exit(main())
