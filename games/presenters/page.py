"""Everything the match page and its partials show to one person, put together."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy

from games import engine
from games.access import is_sealed
from games.lib import clock
from games.models import (
    ChallengeSeat,
    Match,
    MatchStatus,
    MoonOption,
    Seat,
    display_name_of,
)
from games.services import nudges
from games.services.stalled import silent_since_limit
from games.services.table import Changed

from .hand import hand_cards, pass_info
from .rematch import rematch_panel
from .sheet import Line, score_sheet, sheet_lines
from .shuffle import shuffle_summary
from .table import (
    Place,
    announcement,
    cancelled_so_far,
    engine_view,
    last_hand,
    load_seats,
    places,
    plays_of,
    result_of,
    sealed_view,
    viewer_seat,
)
from .tricks import last_trick
from .variants import variant_facts

SEALED_WORDS = gettext_lazy(
    "Other tables of this round are playing the same deals: the cards played here stay hidden "
    "from spectators until the round is closed."
)


def match_context(
    match: Match,
    user: User | AnonymousUser,
    *,
    changed: Changed | None = None,
    selected: Iterable[str] = (),
    error: str = "",
) -> dict[str, object]:
    """Return everything the match page and its partials show to this user.

    `changed` is what a change to the match just left (`services.Changed`): its seats and
    engine state are used as they are, instead of being read again.
    """
    seats = list(changed.seats) if changed else load_seats(match)
    seat = viewer_seat(seats, user)
    view = engine_view(match, seat, changed.state if changed else None)
    # A spectator of a table whose deals other tables are still playing sees no card.
    sealed = seat is None and view is not None and is_sealed(user, match, seats)
    if sealed:
        view = sealed_view(view)  # type: ignore[arg-type]
    around = places(seats, seat, view)
    if match.status == MatchStatus.OPEN:
        around = _with_kept_seats(match, around)
    by_pos = {p.position: p for p in around}
    me = by_pos[seat.position] if seat else None
    lines = sheet_lines(view)
    return {
        "match": match,
        "version": match.version,
        "places": around,
        "me": me,
        "is_player": seat is not None,
        "is_creator": match.created_by_id == user.pk,
        "has_left": seat is None and any(s.is_held_by(user) for s in seats),
        "left_on_time": seat is None and any(s.is_held_by(user) and s.left_on_time for s in seats),
        "view": view,
        "phase": view.phase if view else None,
        "sealed": sealed,
        "seats": seats,  # read once: the chat's rules ask them too
        # Built only if a template shows it: most moves do not redraw the score sheet.
        "sheet": SimpleLazyObject(lambda: score_sheet(match, around, lines)),
        # Its commitment, and a link to check every deal once the secret is shown: drawn in
        # the heading, which a move's answer draws only once the match is over.
        "shuffle": SimpleLazyObject(lambda: shuffle_summary(match)),
        # Read only by the full page, below the score sheet of a finished match.
        "rematch": SimpleLazyObject(lambda: rematch_panel(match, user)),
        "error": error,
        "empty_seats": [p for p in around if p.is_empty and not p.kept_for],
        "moon_label": MoonOption(match.moon_option).label,
        **_table_facts(match, view, around, by_pos, me, lines, sealed, changed),
        **_hand_facts(view, by_pos, selected),
        **table_actions(match, seats, seat),
    }


def _with_kept_seats(match: Match, around: list[Place]) -> list[Place]:
    """Name, on each seat kept for a challenged person who has not answered, whom it waits for."""
    pending = ChallengeSeat.kept_at(match.pk).select_related("invitee__profile")
    kept = {c.position: display_name_of(c.invitee) for c in pending}
    return [replace(p, kept_for=kept[p.position]) if p.position in kept else p for p in around]


def _table_facts(
    match: Match,
    view: engine.PublicView | None,
    around: list[Place],
    by_pos: dict[int, Place],
    me: Place | None,
    lines: list[Line],
    sealed: bool,
    changed: Changed | None,
) -> dict[str, object]:
    """What lies on the table: the trick, the last trick and hand, the result, the news."""
    summary = last_hand(around, lines)
    # Who won tells which way a deal went: sealed too, until the round closes.
    result = None if sealed else result_of(match, around)
    if sealed:
        closed, news = None, str(SEALED_WORDS)
    else:
        closed = last_trick(match, view, by_pos, changed.closed_trick if changed else None)
        news = announcement(view, by_pos, me, summary, result)
    return {
        "trick": plays_of(view.trick, by_pos, cancelled_so_far(view.trick)) if view else [],
        "variant_facts": variant_facts(view, by_pos),
        "last_trick": closed,
        "last_hand": summary,
        "result": result,
        "announcement": news,
        # The one seat that must decide while cards are played or the moon is chosen.
        "actor": by_pos[view.to_act[0]] if view and len(view.to_act) == 1 else None,
    }


def _hand_facts(
    view: engine.PublicView | None, by_pos: dict[int, Place], selected: Iterable[str]
) -> dict[str, object]:
    """The viewer's own hand and what it must decide; nothing for a spectator."""
    if not isinstance(view, engine.SeatView):
        return {"hand_cards": [], "reasons": [], "pass_info": None}
    cards, reasons = hand_cards(view, by_pos, selected)
    return {
        "hand_cards": cards,
        "reasons": reasons,
        "pass_info": pass_info(view, by_pos),
        "must_pass": view.phase == engine.PASSING and view.passed is None,
        "must_choose_moon": view.phase == engine.MOON and view.shooter == view.seat,
    }


def table_actions(match: Match, seats: list[Seat], mine: Seat | None) -> dict[str, object]:
    """What a seated player may do about the players the match waits for.

    `can_nudge`: someone else, a person, is to act and the player has not nudged in the last
    day (`next_nudge` says until when they may not; the service still refuses a nudge to
    players all on vacation); `silent_seats`: in an untimed match, the
    seats waited on for SILENT_SEAT_DAYS, which the player may hand to a bot.
    """
    if mine is None or match.status != MatchStatus.ACTIVE:
        return {"can_nudge": False, "next_nudge": None, "silent_seats": [], "silent_days": 0}
    waiting_on = [
        s
        for s in seats
        if s.to_act and not s.is_bot and not s.resigned and s.user_id and s.pk != mine.pk
    ]
    now = clock.now()
    next_nudge = (
        nudges.next_nudge_allowed(mine.user_id, match.pk, now)
        if waiting_on and mine.user_id
        else None
    )
    silent = []
    if not match.is_timed:
        limit = silent_since_limit(now)
        silent = [s for s in waiting_on if s.waiting_since and s.waiting_since <= limit]
    return {
        "can_nudge": bool(waiting_on) and next_nudge is None,
        "next_nudge": next_nudge,
        "silent_seats": silent,
        "silent_days": settings.SILENT_SEAT_DAYS,
    }
