"""The Friends page: whom a player follows, what each is playing and has played, and blocks.

Seen by the follower alone. A bounded number of queries however many players are followed:
the follows, the blocks, the matches in play with their seats, and the recent results.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import F, Prefetch, QuerySet, Window
from django.db.models.functions import RowNumber

from games.access import may_view
from games.models import Block, Follow, Match, MatchResult, MatchStatus, Seat, display_name_of

from .players import viewable_results

RECENT_RESULTS = 3  # per friend: the page is an overview, their own page has the rest


@dataclass(frozen=True)
class InPlay:
    """A match a friend plays that the viewer may watch; `your_turn`: it waits on the viewer."""

    match: Match
    seats: tuple[Seat, ...]
    your_turn: bool


@dataclass(frozen=True)
class Blocked:
    user: User
    name: str


@dataclass(frozen=True)
class Friend:
    user: User
    name: str
    in_play: tuple[InPlay, ...]
    results: tuple[MatchResult, ...]

    @property
    def waiting_on_you(self) -> tuple[InPlay, ...]:
        """The matches with this friend where it is the viewer's turn."""
        return tuple(game for game in self.in_play if game.your_turn)


def _seats_in_order() -> Prefetch[str, QuerySet[Seat]]:
    return Prefetch(
        "seats", queryset=Seat.objects.select_related("user__profile").order_by("position")
    )


def _in_play(viewer: User, ids: list[int]) -> dict[int, list[InPlay]]:
    """Each friend's matches in play that the viewer may watch (`access.may_view`)."""
    matches = (
        Match.objects.filter(status=MatchStatus.ACTIVE, seats__user_id__in=ids)
        .distinct()
        .select_related("tournament_table__round__tournament")
        .prefetch_related(_seats_in_order())
        .order_by("-updated_at", "-id")
    )
    found: dict[int, list[InPlay]] = {pk: [] for pk in ids}
    for match in matches:
        seats = list(match.seats.all())
        if not may_view(viewer, match, seats):
            continue  # a private match the viewer has no seat at: not theirs to know of
        mine = [s for s in seats if s.user_id == viewer.pk and not s.resigned]
        game = InPlay(match, tuple(seats), your_turn=any(s.to_act for s in mine))
        for seat in seats:
            if seat.user_id in found and not seat.resigned:
                found[seat.user_id].append(game)
    return found


def _results(viewer: User, ids: list[int]) -> dict[int, list[MatchResult]]:
    """Each friend's latest results the viewer may see, `RECENT_RESULTS` at most, in one query."""
    latest = Window(
        RowNumber(),
        partition_by=F("competitor_id"),
        order_by=[F("ended_at").desc(), F("id").desc()],
    )
    rows = (
        viewable_results(MatchResult.objects.filter(competitor__user_id__in=ids), viewer)
        .annotate(latest=latest)
        .filter(latest__lte=RECENT_RESULTS)
        .select_related("competitor")
        .order_by("-ended_at", "-id")
    )
    found: dict[int, list[MatchResult]] = {pk: [] for pk in ids}
    for row in rows:
        if row.competitor.user_id is not None:
            found[row.competitor.user_id].append(row)
    return found


def friends_context(viewer: User) -> dict[str, object]:
    """Return what the viewer's Friends page shows: each followed player, and whom they block."""
    follows = Follow.objects.filter(follower=viewer, followed__is_active=True).select_related(
        "followed__profile"
    )
    users = sorted((f.followed for f in follows), key=lambda u: display_name_of(u).casefold())
    ids = [u.pk for u in users]
    in_play = _in_play(viewer, ids) if ids else {}
    results = _results(viewer, ids) if ids else {}
    friends = [
        Friend(u, display_name_of(u), tuple(in_play[u.pk]), tuple(results[u.pk])) for u in users
    ]
    blocks = Block.objects.filter(blocker=viewer, blocked__is_active=True)
    blocked = [
        Blocked(b.blocked, display_name_of(b.blocked))
        for b in blocks.select_related("blocked__profile")
    ]
    return {
        "friends": friends,
        "waiting": [f for f in friends if f.waiting_on_you],
        "blocked": sorted(blocked, key=lambda b: b.name.casefold()),
    }
