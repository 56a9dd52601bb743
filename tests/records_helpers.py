"""Finished matches for the statistics and ratings tests: short, against bots, or built by hand."""

from __future__ import annotations

from django.db import transaction

from games import engine, services
from games.lib import clock
from games.models import Match, MatchStatus, ScoreLine, Seat
from games.services import records, results
from tests.service_helpers import act


def finished_match(user, *, players: int = 4, hands: int = 1, seed: int = 1, **options) -> Match:
    """Play a match of `hands` hands against bots to its end, the person making the moves."""
    match = services.create_match(
        user, services.MatchOptions(players=players, bots=players - 1, hands=hands, **options)
    )
    Match.objects.filter(pk=match.pk).update(seed=seed)
    for _ in range(2000):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        match = act(user, match, 0)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    return match


def constructed_match(
    holders: list,
    hands: list[list[tuple[int, bool, bool]]],
    *,
    left: tuple[int, ...] = (),
    rated: bool = True,
    private: bool = False,
) -> Match:
    """Store a finished match whose score sheet is given, and record it as its end would.

    `holders`: a user, or a bot level ("easy", "normal", "strong"), per seat. `hands`: per
    hand, per seat, (score, shot the moon, took the Q♠). `left`: seats whose player left.
    """
    n = len(holders)
    creator = next(h for h in holders if not isinstance(h, str))
    with transaction.atomic():
        match = Match.objects.create(
            created_by=creator,
            rules={"players": n, "target": 100, "moon": "ask", "hands": len(hands)},
            status=MatchStatus.FINISHED,
            started_at=clock.now(),
            finished_at=clock.now(),
            rated=rated,
            is_private=private,
            hand_no=len(hands),
        )
        totals = [0] * n
        for number, scores in enumerate(hands, start=1):
            for seat, (score, moon, queen) in enumerate(scores):
                totals[seat] += score
                ScoreLine.objects.create(
                    match=match,
                    hand_number=number,
                    seat=seat,
                    points_taken=max(score, 0),
                    score=score,
                    total=totals[seat],
                    shot_moon=moon,
                    took_queen=queen,
                )
        seats = [
            Seat.objects.create(
                match=match,
                position=position,
                user=None if isinstance(holder, str) else holder,
                controller=Seat.Controller.BOT if isinstance(holder, str) else "person",
                bot_level=holder if isinstance(holder, str) else "easy",
                bot_name="Ada" if isinstance(holder, str) else "",
                resigned=position in left,
                final_total=totals[position],
                rank=place,
            )
            for (position, holder), place in zip(
                enumerate(holders),
                # The result the match's end stores, as `LockedTable` stores it.
                results.places(
                    engine.Outcome.of(totals, []),
                    [p in left and not isinstance(h, str) for p, h in enumerate(holders)],
                ),
                strict=True,
            )
        ]
        records.record_finished_match(match, seats)
    return match
