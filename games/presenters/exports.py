"""A match to take away: its record as JSON, and its score sheet as CSV, for one viewer.

Each holds what this viewer may see of the match on its pages, and nothing more:

- a hand's whole record (its deal, every pass and card, who made each decision) only if
  `games.access.may_see_hand_record` allows it: the match's players once the hand is over,
  everyone who may look at the match once its deals are revealed;
- of any other hand (the one in play, or one over that the viewer may not see yet) what the
  table showed: the cards played to tricks and the moon choice, and for a seated player their
  own dealt cards, their own pass and, once everyone has passed, the cards they received;
- of a sealed table (`games.access.is_sealed`: duplicate deals shared with other tables of a
  round not closed yet) its seats only, as its pages show it: no hand, no total;
- who made each decision (`by`) of the viewer's own seat, and of another seat only where the
  table shows it: a bot's seat plays as a bot to everyone's eyes, but a forced card (it says
  the seat held one legal card), a timeout (shown to the seat's own player only) and a card
  played out automatically (told apart from a forced one only by the log) are the seat's;
- the shuffle's secret only once the deals are revealed (`games.access.deals_revealed`), the
  commitment from the start; never a hand's seed;
- the chat (`chat`): the messages the viewer may read, as the match page shows them
  (`games/presenters/chat.py: chat_record`); a sealed table's record has none.

The record's format is the engine's (`games/engine/records/match_record.py`), so that
`python -m games.engine.replay_check` can replay it.

`tournament_rows` gives staff a tournament's standings and tables as CSV (the admin's
download): names, totals and places only.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from games import engine
from games.access import deals_revealed, is_sealed, may_see_hand_record
from games.engine.records.match_record import FORMAT, Score
from games.models import Action, Hand, Match, MatchStatus, ScoreLine, Seat, Tournament
from games.services.tournaments import standings_of

from .chat import chat_record
from .table import load_seats, viewer_seat
from .tournament import round_lines

SHEET_MOON = ("moon shooter", "moon option")
SHEET_BONUS = "bonus card taker"
SHEET_PLACE = "place"


def _state(match: Match) -> engine.Match | None:
    return engine.Match.from_snapshot(match.snapshot) if match.snapshot else None


def _seat_facts(seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.position,
        "name": seat.name,
        "controller": seat.controller,
        "bot_level": seat.bot_level if seat.is_bot else None,
    }


def _score(lines: list[ScoreLine], bonus: int | None) -> dict[str, Any] | None:
    """Return a hand's score row, as the engine writes it, from its lines of the score sheet."""
    if not lines:
        return None
    lines = sorted(lines, key=lambda line: line.seat)
    shooter = next((line for line in lines if line.shot_moon), None)
    return Score(
        points=tuple(line.points_taken for line in lines),
        scores=tuple(line.score for line in lines),
        totals=tuple(line.total for line in lines),
        moon=shooter.seat if shooter else None,
        option=(shooter.moon_option or None) if shooter else None,
        bonus=bonus,
    ).to_dict()


# Who made a decision, as the table shows it to everyone: a bot's seat is a bot's.
PUBLIC_ACTORS = frozenset({Action.Actor.BOT})


def _decision(action: Action, own: int | None) -> dict[str, Any]:
    """The decision as the engine reads it, with who made it where the table shows that.

    The table tells a seat's own player how each of its decisions was made (the timeouts
    they ran into; a card played for them); of another seat it shows only whether a bot
    holds it. So another seat's decision names a bot and nothing else: `by` is left out.
    """
    decision = action.as_decision().to_dict()
    if action.seat == own or action.actor in PUBLIC_ACTORS:
        decision["by"] = action.actor
    return decision


def _dealt(hand: Hand) -> list[str]:
    hands = hand.deal.get("hands") if isinstance(hand.deal, dict) else None
    return [str(cards) for cards in hands] if isinstance(hands, list) else []


def _whole(hand: Hand, actions: list[Action], own: int | None) -> dict[str, Any]:
    """The hand's deal (its cards only: no seed) and every decision, in order."""
    deal: dict[str, Any] = {"hands": _dealt(hand)}
    widow = hand.deal.get("widow") if isinstance(hand.deal, dict) else None
    if widow:
        deal["widow"] = widow  # R5.2: shown with the deal once the hand may be seen whole
    return {"deal": deal, "decisions": [_decision(action, own) for action in actions]}


def _partial(
    hand: Hand, actions: list[Action], rules: engine.RuleSet, mine: Seat | None
) -> dict[str, Any]:
    """What the table showed of the hand to this viewer (R6.3), and nothing more."""
    own = mine.position if mine is not None else None
    shown = [
        _decision(action, own)
        for action in actions
        if action.kind != Action.Kind.PASS or action.seat == own
    ]
    part: dict[str, Any] = {"decisions": shown}
    if own is None:
        return part
    dealt = _dealt(hand)
    yours: dict[str, Any] = {"seat": own, "dealt": dealt[own] if own < len(dealt) else ""}
    offset = rules.pass_offset(hand.number)
    passes = {action.seat: action.value for action in actions if action.kind == Action.Kind.PASS}
    if offset and len(passes) == rules.players:  # handed over once everyone has passed (R2.2)
        yours["received"] = passes[(own - offset) % rules.players]
    part["your_hand"] = yours
    return part


def _totals(match: Match, state: engine.Match | None) -> list[int]:
    return list(state.totals) if state is not None else [0] * match.players


def match_record(match: Match, user: User | AnonymousUser) -> dict[str, Any]:
    """Return the match's record as this viewer may download it (see the module)."""
    seats = load_seats(match)
    mine = viewer_seat(seats, user)
    state = _state(match)
    sealed = mine is None and state is not None and is_sealed(user, match, seats)
    record: dict[str, Any] = {
        "format": FORMAT,
        "match": match.pk,
        "status": match.status,
        "rules": match.rules,
        "seats": [_seat_facts(seat) for seat in seats],
        "viewer_seat": mine.position if mine is not None else None,
        "sealed": sealed,
        # A sealed table's totals come from deals others play: none (the engine reads null).
        "totals": None if sealed else _totals(match, state),
    }
    if match.has_secret:
        record["commitment"] = match.commitment
    if sealed:
        record["hands"] = []  # no card of a table whose deals others are playing
        return record
    if deals_revealed(match):
        record["secret"] = match.secret
    record["hands"] = _hands(match, seats, mine, state, user)
    record["result"] = _result(match, seats)
    # The chat as the viewer may read it (a sealed table's, above, is none of theirs).
    record["chat"] = chat_record(match, user, seats)
    return record


def _result(match: Match, seats: list[Seat]) -> list[dict[str, Any]] | None:
    """The finished match's result as it stored it (`games/services/results.py`), by seat."""
    if match.status != MatchStatus.FINISHED:
        return None
    return [{"seat": s.position, "place": s.rank, "left": s.has_left, "won": s.won} for s in seats]


def _hands(
    match: Match,
    seats: list[Seat],
    mine: Seat | None,
    state: engine.Match | None,
    user: User | AnonymousUser,
) -> list[dict[str, Any]]:
    rules = match.rule_set
    actions: dict[int, list[Action]] = defaultdict(list)
    for action in Action.objects.filter(match=match).order_by("hand__number", "seq"):
        actions[action.hand_id].append(action)
    lines: dict[int, list[ScoreLine]] = defaultdict(list)
    for line in ScoreLine.objects.filter(match=match):
        lines[line.hand_number].append(line)
    sheet = state.sheet if state is not None else []
    own = mine.position if mine is not None else None
    hands = []
    for hand in Hand.objects.filter(match=match).order_by("number"):
        complete = may_see_hand_record(user, match, hand, seats)
        bonus = sheet[hand.number - 1].bonus if hand.number <= len(sheet) else None
        entry: dict[str, Any] = {
            "number": hand.number,
            "pass_direction": hand.pass_direction,
            "complete": complete,
            "from_secret": match.has_secret and hand.number > len(match.deals),
        }
        hand_actions = actions[hand.pk]
        if complete:
            entry.update(_whole(hand, hand_actions, own))
        else:
            entry.update(_partial(hand, hand_actions, rules, mine))
        entry["score"] = _score(lines[hand.number], bonus)
        hands.append(entry)
    return hands


# ----- the score sheet as CSV -----

# A cell a spreadsheet would read as a formula: a player's name may begin with any of these.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(rows: list[list[Any]]) -> list[list[Any]]:
    """Return the rows with every text cell a spreadsheet would run as a formula quoted.

    A name such as "=HYPERLINK(…)" is written "'=HYPERLINK(…)": shown as typed, never run.
    Numbers are left as they are (a negative score is a number, not a formula).
    """
    return [
        [
            f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell
            for cell in row
        ]
        for row in rows
    ]


def score_rows(match: Match, user: User | AnonymousUser) -> list[list[Any]]:
    """Return the score sheet as CSV rows: what `/matches/<id>/scores/` shows this viewer.

    A header, then per hand: for each seat the points taken, the hand's score and the running
    total; the moon's shooter and option; in Omnibus Hearts the bonus card's taker. A sealed
    table gives the header only, as its score sheet shows no hand and no total.
    """
    seats = load_seats(match)
    names = [seat.name for seat in seats]
    header: list[Any] = ["hand"]
    for name in names:
        header += [f"{name}: points taken", f"{name}: hand score", f"{name}: total"]
    header += SHEET_MOON
    omnibus = match.variant == engine.OMNIBUS
    if omnibus:
        header.append(SHEET_BONUS)
    rows = [header]
    state = _state(match)
    if state is None:
        return spreadsheet_safe(rows)
    if viewer_seat(seats, user) is None and is_sealed(user, match, seats):
        return spreadsheet_safe(rows)  # as its score sheet: no hand and no total
    view = state.public_view()  # the score sheet is the same for every seat (R6.3)
    for number, row in enumerate(view.sheet, start=1):
        cells: list[Any] = [number]
        for seat in range(len(seats)):
            cells += [row.points[seat], row.scores[seat], row.totals[seat]]
        cells += [names[row.moon] if row.moon is not None else "", row.moon_option or ""]
        if omnibus:
            cells.append(names[row.bonus] if row.bonus is not None else "")
        rows.append(cells)
    if match.status == MatchStatus.FINISHED:  # the stored result: places, leavers after
        places = [cell for seat in seats for cell in ("", "", seat.rank)]
        rows.append([SHEET_PLACE, *places, *[""] * (len(SHEET_MOON) + omnibus)])
    return spreadsheet_safe(rows)


# ----- a tournament's results and standings as CSV, for staff -----

STANDINGS_HEADER = [
    "place", "player", "placement points", "matchpoints", "matchpoints available",
    "matchpoint percent", "points", "rounds", "withdrawn",
]  # fmt: skip
TABLES_HEADER = [
    "round", "round status", "table", "match", "status", "seat", "player", "final total",
    "place at the table",
]  # fmt: skip


def tournament_rows(tournament: Tournament) -> list[list[Any]]:
    """Return a tournament's standings and every round's tables as CSV rows, for staff.

    The standings are the page's (after the closed rounds, with its tie-breaks); each table
    gives its players in seat order with their final totals once its match is over. Only
    public facts: names, totals and places, never a card.
    """
    rows: list[list[Any]] = [["tournament", tournament.name], [], ["standings"]]
    rows.append(STANDINGS_HEADER)
    for line in standings_of(tournament):
        standing = line.standing
        percent = standing.matchpoint_percent
        rows.append(
            [
                standing.rank,
                line.entry.name,
                round(standing.placement, 2),
                round(standing.matchpoints, 2),
                standing.available,
                "" if percent is None else round(percent, 1),
                standing.points,
                standing.rounds,
                "yes" if line.entry.withdrawn else "",
            ]
        )
    rows += [[], ["tables"], TABLES_HEADER]
    for round_line in round_lines(tournament):
        round_ = round_line.round
        for table_line in round_line.tables:
            table = table_line.table
            match = table_line.match
            by_position = {seat.position: seat for seat in match.seats.all()} if match else {}
            for table_seat in sorted(table.seats.all(), key=lambda seat: seat.position):
                seat = by_position.get(table_seat.position)
                total = table_seat.total
                if total is None and seat is not None and match is not None and match.is_over:
                    total = seat.final_total
                rows.append(
                    [
                        round_.number,
                        round_.get_status_display(),
                        table.number,
                        match.pk if match else "",
                        table_line.status,
                        table_seat.position + 1,
                        table_seat.entry.name,
                        "" if total is None else total,
                        seat.rank if seat is not None and seat.rank is not None else "",
                    ]
                )
    return spreadsheet_safe(rows)
