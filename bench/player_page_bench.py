"""Player page benchmark: a player with 10,000 finished matches, and the records at a match's end.

    python bench/player_page_bench.py                       # 10,000 matches, 30 renders
    python bench/player_page_bench.py --matches 2000 --repeat 50

Builds a fresh SQLite file with production settings (DEBUG off, cached templates) holding one
person and `--matches` finished four-seat matches against bots of each level, bulk-created
(match row, seats with their final totals, `--hands` hands of score lines: random scores, a
moon now and then, the Q♠ taken by one seat each hand); one match in ten is private, one in
five unrated. Then it measures, on the site's own code:
  (a) the match-end update: `games.services.records.record_finished_match` for every match, in
      the order they ended, each in a transaction of its own as at a match's end (statistics,
      ratings, results: what `LockedTable.save` adds to the transaction that ends a match);
      median and p90 over all the matches, wall time and this thread's CPU time (the machine
      is shared: when others load it, the wall time grows and the CPU time hardly). Goal: ≤ 10 ms.
  (b) the player page (`/players/<name>/`) of that person, rendered in process through Django's
      test client for a signed-in stranger (private matches filtered out), median of
      `--repeat` renders after one warm-up, and the queries one render makes. Goal: ≤ 100 ms.
      The number of queries does not grow with the matches: tests/test_player_pages.py says so.
  (c) the same for the page of the strong bots, who played in every match.
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
BATCH = 2000


def configure() -> Path:
    """Point Django at a fresh SQLite file with production settings, before it is set up."""
    from benchlib import production_env  # beside this script

    database = Path(tempfile.mkdtemp(prefix="hearts-players-")) / "db.sqlite3"
    env = production_env(os.environ)
    env["DATABASE_URL"] = f"sqlite:///{database}"
    env["ALLOWED_HOSTS"] = "testserver"  # Django's test client
    os.environ.clear()
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "hearts_site.settings"
    sys.path.insert(0, str(ROOT))
    return database


def build(matches: int, hands: int, rng: random.Random) -> tuple[object, list[int]]:
    """Create the person and the finished matches; return the person and the match ids."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from games.engine import Outcome
    from games.models import Match, ScoreLine, Seat
    from games.services import results

    user = get_user_model().objects.create_user("marathon", password=None)
    user.profile.display_name = "Marathon"
    user.profile.save()
    start = timezone.now() - timedelta(days=matches)
    levels = ("easy", "normal", "strong")
    ids: list[int] = []
    with transaction.atomic():
        for first in range(0, matches, BATCH):
            count = min(BATCH, matches - first)
            made = Match.objects.bulk_create(
                Match(
                    created_by=user,
                    rules={"players": 4, "target": 100, "moon": "ask", "hands": hands},
                    status="finished",
                    started_at=start + timedelta(days=first + k),
                    finished_at=start + timedelta(days=first + k, hours=2),
                    is_private=(first + k) % 10 == 0,
                    rated=(first + k) % 5 != 0,
                    hand_no=hands,
                )
                for k in range(count)
            )
            lines, seats = [], []
            for match in made:
                totals = [0] * 4
                for number in range(1, hands + 1):
                    shooter = rng.randrange(4) if rng.random() < 0.05 else None
                    queen = shooter if shooter is not None else rng.randrange(4)
                    for seat in range(4):
                        if shooter is not None:
                            score = 0 if seat == shooter else 26
                        else:
                            score = rng.randrange(0, 10) + (13 if seat == queen else 0)
                        totals[seat] += score
                        lines.append(
                            ScoreLine(
                                match_id=match.pk,
                                hand_number=number,
                                seat=seat,
                                points_taken=score,
                                score=score,
                                total=totals[seat],
                                shot_moon=seat == shooter,
                                took_queen=seat == queen,
                            )
                        )
                ranks = results.places(Outcome.of(totals, []), [False] * 4)  # nobody leaves here
                seats.append(
                    Seat(
                        match_id=match.pk,
                        position=0,
                        user=user,
                        final_total=totals[0],
                        rank=ranks[0],
                    )
                )
                seats += [
                    Seat(
                        match_id=match.pk,
                        position=p,
                        controller="bot",
                        bot_name=f"Bot {p + 1}",
                        bot_level=levels[p - 1],
                        final_total=totals[p],
                        rank=ranks[p],
                    )
                    for p in range(1, 4)
                ]
            ScoreLine.objects.bulk_create(lines, batch_size=BATCH)
            Seat.objects.bulk_create(seats, batch_size=BATCH)
            ids += [m.pk for m in made]
    return user, ids


def record_all(ids: list[int]) -> tuple[list[float], list[float]]:
    """Record every match as its end would, in order; return each call's milliseconds, wall
    and CPU (the machine is shared: the CPU time is what another process cannot lengthen)."""
    from django.db import transaction

    from games.models import Match, Seat
    from games.services.records import record_finished_match

    times, cpu = [], []
    for pk in ids:
        match = Match.objects.get(pk=pk)
        seats = list(Seat.objects.filter(match=match).select_related("user__profile"))
        with transaction.atomic():
            began, began_cpu = time.perf_counter(), time.thread_time()
            record_finished_match(match, seats)
            times.append((time.perf_counter() - began) * 1000)
            cpu.append((time.thread_time() - began_cpu) * 1000)
    return times, cpu


def time_page(client, url: str, repeat: int) -> tuple[list[float], list[float], int]:
    """Render a page `repeat` times after a warm-up; return the milliseconds (wall, CPU) and
    the queries one render makes."""
    from django.db import connection

    queries: list[str] = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    # (CaptureQueriesContext counts nothing here: with DEBUG off its log stays empty.)
    with connection.execute_wrapper(count):
        response = client.get(url)
    assert response.status_code == 200, response.status_code
    times, cpu = [], []
    for _ in range(repeat):
        began, began_cpu = time.perf_counter(), time.thread_time()
        response = client.get(url)
        times.append((time.perf_counter() - began) * 1000)
        cpu.append((time.thread_time() - began_cpu) * 1000)
        assert response.status_code == 200
    return times, cpu, len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    database = configure()

    import django

    django.setup()
    from benchlib import percentile
    from django.core.management import call_command
    from django.test import Client, override_settings

    call_command("migrate", verbosity=0)
    rng = random.Random(34)
    began = time.perf_counter()
    _, ids = build(args.matches, args.hands, rng)
    print(
        f"built {len(ids):,} finished matches in {time.perf_counter() - began:.1f} s ({database})"
    )

    record_ms, record_cpu = record_all(ids)
    print(
        f"(a) record_finished_match: median {statistics.median(record_ms):.2f} ms, "
        f"p90 {percentile(record_ms, 0.9):.2f} ms over {len(record_ms):,} matches; "
        f"CPU median {statistics.median(record_cpu):.2f} ms"
    )

    from django.contrib.auth import get_user_model

    stranger = get_user_model().objects.create_user("stranger", password=None)
    client = Client()
    client.force_login(stranger)
    # Static files by plain URL: the manifest needs collectstatic, which the bench does not run.
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=storages):
        for label, url in (
            ("(b) /players/Marathon/", "/players/Marathon/"),
            ("(c) /bots/strong/", "/bots/strong/"),
        ):
            page_ms, page_cpu, queries = time_page(client, url, args.repeat)
            print(
                f"{label}: median {statistics.median(page_ms):.1f} ms, "
                f"p90 {percentile(page_ms, 0.9):.1f} ms over {args.repeat} renders; "
                f"CPU median {statistics.median(page_cpu):.1f} ms; {queries} queries"
            )


if __name__ == "__main__":
    main()
