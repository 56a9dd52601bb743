"""Sweep benchmark: finding and timing out the overdue decisions among many running clocks.

    python bench/sweep_bench.py                       # 100,000 running clocks, 1,000 overdue
    python bench/sweep_bench.py --running 20000 --due 200 --due-kind pass

Builds a fresh SQLite file with production settings (DEBUG off) holding `--running` seats
whose clock runs (each owes a decision in a timed match), `--due` of them past their deadline.
The rows are bulk-created as copies of two matches played through the services: one still
passing (all four seats owe their pass, none due) and one in play (one seat owes a card).
The overdue seats are in copies of the second, so each timeout is the strong bot searching
for a card, the worst case (`--due-kind pass` makes them passes, which take no search).

Every running clock's own `time_out_seat` task is queued as the site queues it, the overdue
ones ready to run (the worker was down through their deadlines). Then it measures, on the
running site's own code:
  (a) the sweep's selection, `timeouts.due`, median of `--repeat` runs, and its query plan;
  (b) one sweep, `queue_missed_timeouts`, when every overdue decision's task is waiting (it
      queues none), median of `--repeat` runs;
  (c) one sweep when every overdue decision's task was lost (it queues one for each), rolled
      back each run;
  (d) the worker's part: running the overdue tasks, each deciding its seat, with the time per
      timeout and how much of it the bot's search took.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BATCH = 5000  # rows per INSERT batch: well under SQLite's limit on bound parameters


def configure(due: int) -> Path:
    """Point Django at a fresh SQLite file with production settings, before it is set up."""
    from benchlib import production_env  # beside this script

    database = Path(tempfile.mkdtemp(prefix="hearts-sweep-")) / "db.sqlite3"
    env = production_env(os.environ)
    env["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.clear()
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "hearts_site.settings"
    os.environ["SWEEP_BATCH"] = str(due)  # one sweep looks at every overdue decision
    sys.path.insert(0, str(ROOT))
    return database


def people(count: int) -> list:
    from django.contrib.auth import get_user_model

    model = get_user_model()
    return [model.objects.create_user(f"player{n}", password=None) for n in range(count)]


def passing_match(players: list):
    """A timed four-person match whose four seats all owe their pass."""
    from games import services

    options = services.MatchOptions(players=4, decision_seconds=86400)
    match = services.create_match(players[0], options)
    for person in players[1:]:
        match = services.join_match(person, match.pk, match.invite_code).match
    match.refresh_from_db()
    assert match.status == "active", match.status
    return match


def match_in_play(players: list):
    """A timed four-person match past the pass, one seat owing a card."""
    from games import engine, services

    match = passing_match(players)
    for position, person in enumerate(players):
        match.refresh_from_db()
        hand = engine.Match.from_snapshot(match.snapshot).view(position).hand
        services.pass_cards(person, match.pk, match.version, [str(c) for c in hand[:3]])
    match.refresh_from_db()
    return match


def copy_match(template, copies: int) -> list[int]:
    """Bulk-create `copies` copies of the match (row, hand in play, seats); return their ids."""
    from django.db import connection, transaction

    from games.models import Hand, Match, Seat

    skip = {"id", "invite_code", "current_hand_id", "created_at", "updated_at"}
    fields = {
        f.attname: getattr(template, f.attname)
        for f in Match._meta.concrete_fields
        if f.attname not in skip
    }
    hand = template.current_hand
    seats = list(Seat.objects.filter(match=template).order_by("position"))
    seat_fields = [
        {f.attname: getattr(s, f.attname) for f in Seat._meta.concrete_fields if f.attname != "id"}
        for s in seats
    ]
    ids: list[int] = []
    with transaction.atomic():
        for start in range(0, copies, BATCH):
            made = Match.objects.bulk_create(
                [Match(**fields) for _ in range(min(BATCH, copies - start))]
            )
            batch_ids = [m.pk for m in made]
            Hand.objects.bulk_create(
                Hand(
                    match_id=pk,
                    number=hand.number,
                    pass_direction=hand.pass_direction,
                    deal=hand.deal,
                    seed=hand.seed,
                )
                for pk in batch_ids
            )
            Seat.objects.bulk_create(
                Seat(**{**values, "match_id": pk}) for pk in batch_ids for values in seat_fields
            )
            ids += batch_ids
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE games_match SET current_hand_id = (SELECT h.id FROM games_hand h "
                "WHERE h.match_id = games_match.id AND h.number = games_match.hand_no) "
                "WHERE current_hand_id IS NULL"
            )
    return ids


def set_deadlines(match_ids: list[int], now, *, due: bool, rng: random.Random) -> None:
    """Give the seats that owe a decision in these matches deadlines: passed, or to come."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        for start in range(0, len(match_ids), BATCH):
            chunk = match_ids[start : start + BATCH]
            rows = []
            for pk in chunk:
                # Overdue by up to a sweep's interval; or due within the next fortnight.
                offset = -rng.uniform(1, 60) if due else rng.uniform(60, 14 * 86400)
                deadline = now + timedelta(seconds=offset)
                rows.append((connection.ops.adapt_datetimefield_value(deadline), pk))
            cursor.executemany(
                "UPDATE games_seat SET deadline = %s WHERE match_id = %s AND deadline IS NOT NULL",
                rows,
            )


def query_plan(call) -> tuple[str, list[str]]:
    """Run `call`, catching its one query; return the SQL and SQLite's plan for it."""
    from django.db import connection

    caught: list[tuple[str, tuple]] = []

    def catch(execute, sql, params, many, context):
        caught.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(catch):
        call()
    ((sql, params),) = caught
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        plan = [row[-1] for row in cursor.fetchall()]
    return sql, plan


def median_ms(call, repeat: int) -> tuple[float, float]:
    timings = []
    for _ in range(repeat):
        began = time.perf_counter()
        call()
        timings.append((time.perf_counter() - began) * 1000)
    return statistics.median(timings), min(timings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--running", type=int, default=100_000, help="seats whose clock runs")
    parser.add_argument("--due", type=int, default=1_000, help="of which past their deadline")
    parser.add_argument("--due-kind", choices=["play", "pass"], default="play")
    parser.add_argument("--repeat", type=int, default=50, help="runs of (a) and (b)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    database = configure(args.due)

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction
    from django_tasks_db.models import DBTaskResult

    from games.background.deadlines import (
        queue_missed_timeouts,
        time_out_seat,
        timeouts_on_their_way,
    )
    from games.lib import clock
    from games.models import Action, Seat
    from games.services import timeouts
    from games.services.table import TIMEOUT_BOT

    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    began = time.perf_counter()
    players = people(4)
    waiting = passing_match(players)  # four running clocks a copy
    playing = match_in_play(players) if args.due_kind == "play" else passing_match(players)
    per_due_match = 1 if args.due_kind == "play" else 4
    due_matches = -(-args.due // per_due_match)
    waiting_matches = (args.running - due_matches * per_due_match) // 4
    due_ids = copy_match(playing, due_matches)
    waiting_ids = copy_match(waiting, waiting_matches)
    now = clock.now()
    set_deadlines(due_ids, now, due=True, rng=rng)
    set_deadlines(waiting_ids, now, due=False, rng=rng)
    # The templates themselves: their deadlines out of the way.
    Seat.objects.filter(match__in=[waiting.pk, playing.pk]).update(deadline=None)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    running = Seat.objects.filter(deadline__isnull=False).count()
    overdue = Seat.objects.filter(deadline__lte=now).count()
    built = time.perf_counter() - began
    print(f"SQLite {database}, built in {built:.1f} s")
    print(f"{Seat.objects.count():,} seats, {running:,} with a running clock, {overdue:,} overdue")
    print(f"overdue decisions: {args.due_kind}")

    # (a) The selection.
    limit = overdue
    sql, plan = query_plan(lambda: timeouts.due(now, limit))
    selected = timeouts.due(now, limit)
    assert len(selected) == overdue, (len(selected), overdue)
    median, best = median_ms(lambda: timeouts.due(now, limit), args.repeat)
    print(f"\n(a) timeouts.due(now, {limit}): median {median:.2f} ms, best {best:.2f} ms")
    print(f"    {sql}")
    for line in plan:
        print(f"    plan: {line}")

    # Every running clock's own task, queued as the site queues it when the clock starts: the
    # overdue ones ready (the worker was down through their deadlines), the others to come.
    clocks = Seat.objects.filter(deadline__isnull=False).order_by("deadline")
    with transaction.atomic():
        for match_id, position, deadline in clocks.values_list("match_id", "position", "deadline"):
            time_out_seat.using(run_after=deadline).enqueue(
                match_id=match_id, position=position, deadline=deadline.isoformat()
            )
    timeout_tasks = DBTaskResult.objects.filter(task_path=time_out_seat.module_path)
    print(f"{timeout_tasks.count():,} time_out_seat tasks queued, {overdue:,} of them ready")

    # (b) One sweep after the worker was down: every overdue decision has its task waiting.
    assert queue_missed_timeouts(now) == 0
    median, best = median_ms(lambda: queue_missed_timeouts(now), args.repeat)
    print(f"\n(b) queue_missed_timeouts(), every task waiting: queued 0 of {overdue:,}")
    print(f"    median {median:.2f} ms, best {best:.2f} ms")
    sql, plan = query_plan(timeouts_on_their_way)
    print(f"    the tasks on their way: {sql}")
    for line in plan:
        print(f"    plan: {line}")

    # (c) One sweep after the tasks were lost: it queues one for each, rolled back each run.
    def sweep_after_loss() -> float:
        with transaction.atomic():
            timeout_tasks.filter(run_after__lte=now).delete()
            began = time.perf_counter()
            assert queue_missed_timeouts(now) == overdue
            took = time.perf_counter() - began
            transaction.set_rollback(True)
        return took * 1000

    timings = [sweep_after_loss() for _ in range(max(3, args.repeat // 10))]
    print(f"\n(c) queue_missed_timeouts(), every task lost: queued {overdue:,}")
    print(f"    median {statistics.median(timings):.1f} ms, best {min(timings):.1f} ms")

    # (d) The worker's part, not the sweep's: deciding every overdue decision, one task each.
    searching = [0.0]
    choose = TIMEOUT_BOT.choose

    def timed_choose(view):
        started = time.perf_counter()
        try:
            return choose(view)
        finally:
            searching[0] += time.perf_counter() - started

    TIMEOUT_BOT.choose = timed_choose  # type: ignore[method-assign]
    ready = list(timeout_tasks.filter(run_after__lte=now).values_list("args_kwargs", flat=True))
    began = time.perf_counter()
    done = sum(time_out_seat.call(**args_kwargs["kwargs"]) for args_kwargs in ready)
    took = time.perf_counter() - began
    logged = Action.objects.filter(actor=Action.Actor.TIMEOUT).count()
    assert done == logged == overdue, (done, logged, overdue)
    assert not Seat.objects.filter(deadline__lte=now).exists()
    print(f"\n(d) the worker running the {done:,} tasks: {took * 1000:,.0f} ms")
    print(
        f"    {took / done * 1000:.1f} ms a timeout, of which the bot's choice "
        f"{searching[0] / done * 1000:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
