"""Who may look at a match, and how much of it: one rule for every route that shows one.

The questions asked by the match page and its partials, the score sheet, the live socket and
the tournament pages alike:

- `may_view`: may this person look at the match at all? A private match is for its seated
  players and staff only (people holding its invite see it through the invite page, before it
  starts); to anyone else it does not exist (404, a refused follow).
- `group_open`: does this match share its deals with other tables of a round not closed yet?
  A question about the match alone, with no viewer: while it holds, anything that comes from
  the deals (cards, tricks, every hand's points and totals, results) belongs to the tables
  that play them, and to staff.
- `is_sealed`: must the cards of this match, and every figure that comes from them, stay
  hidden from this person? While its group is open (above), a table is sealed to everyone but
  staff and its own players: a player of another table of the group plays, or has played, the
  same deals, and would learn what their opponents hold (a total after a hand tells who took
  the Q♠); anyone else could tell them. Its own players see their own table as R6.3 says, and
  nothing of the others': each table of the group is sealed to the players of the others. A
  sealed table shows its seats and status only, by every route: pages, regions, score sheet,
  exports, hand records, the tournament page, the live socket.
- `deals_revealed`: may a match's deals, the secret they come from and their seeds be known to
  anyone now? Only once no deal they give is in play and none is sealed: the match is over
  (finished or abandoned), so is every match of its deal group (tables sharing its deals), and
  the group is no longer open (its round is closed). Until then no page, socket, e-mail or
  admin page shows them (`tests/test_no_leaks.py`).
- `may_see_hand_record`: may this person see a hand's whole record (the deal, the passes,
  every trick), as the hand review, its replay and the match's export show it? The match's
  players once that hand is over (R6.3); everyone who may look at the match once its deals are
  revealed (above); nobody the table is sealed to.

`tests/tournaments/test_sealed_everywhere.py` asks every route, as every kind of viewer, in
every phase of a round, and checks it answers as these do.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from games.models import Hand, Match, MatchStatus, Round, RoundStatus, Seat, Table

OVER = (MatchStatus.FINISHED, MatchStatus.ABANDONED)

# Whoever asks: a signed-in user, an anonymous visitor, or nobody (a socket without a session).
Viewer: TypeAlias = User | AnonymousUser | None


def holds_seat(user: Viewer, match: Match | None, seats: list[Seat] | None = None) -> bool:
    """Say whether the user holds (or held, before resigning) a seat in the match."""
    if user is None or not user.is_authenticated:
        return False
    if seats is not None:
        return any(seat.is_held_by(user) for seat in seats)
    return Seat.objects.filter(match=match, user_id=user.pk).exists()


def may_view(user: Viewer, match: Match, seats: list[Seat] | None = None) -> bool:
    """Say whether the user may look at this match (its page, score sheet and live updates)."""
    if user is None or not user.is_authenticated:
        return False
    if not match.is_private or user.is_staff:
        return True
    return holds_seat(user, match, seats)


def viewable_match(user: Viewer, pk: int) -> Match | None:
    """Return the match with this id if it exists and the user may look at it, else None."""
    match = Match.objects.filter(pk=pk).first()
    if match is None or not may_view(user, match):
        return None
    return match


def viewable_match_or_404(user: Viewer, pk: int) -> Match:
    """Return the match for a page about it, or 404 if there is none or it is private to
    others: its id alone must not tell an outsider that it exists."""
    match = viewable_match(user, pk)
    if match is None:
        raise Http404("There is no such match.")
    return match


def shared_deal_groups(round_: Round, tables: Iterable[Table]) -> set[str]:
    """Return the deal groups of a round still open that more than one of its tables plays.

    Until the round is closed, some table of such a group may still be playing a deal another
    has finished, so their cards are not for spectators' eyes. The tournament page asks this
    for all of a round's tables at once; `group_open` asks it of one match.
    """
    if round_.status == RoundStatus.CLOSED:
        return set()
    groups = [table.deal_group for table in tables if table.deal_group]
    return {group for group in groups if groups.count(group) > 1}


def _open_siblings() -> QuerySet[Table]:
    """The tables sharing the deals of the match in the outer query, in a round not closed.

    For `Exists(...)` in a query over matches: another table of the same round and deal group
    (a group of one table shares nothing), while that round is not closed.
    """
    return (
        Table.objects.filter(
            round_id=OuterRef("tournament_table__round_id"),
            deal_group=OuterRef("tournament_table__deal_group"),
        )
        .exclude(deal_group="")
        .exclude(match_id=OuterRef("pk"))
        .exclude(round__status=RoundStatus.CLOSED)
    )


def matches_in_open_groups() -> QuerySet[Match]:
    """Return every match for which `group_open` holds: to filter many matches in one query."""
    return Match.objects.filter(Exists(_open_siblings()))


def group_open(match: Match) -> bool:
    """Say whether this match shares its deals with other tables of a round not closed yet.

    A question about the match alone, for every viewer alike: while it holds, whatever comes
    from its deals (cards, points, totals, results) is sealed to all but its own players and
    staff (`is_sealed`), and its deals are not revealed (`deals_revealed`).
    """
    if match.pk is None:
        return False
    return matches_in_open_groups().filter(pk=match.pk).exists()


def sees_sealed_cards(user: Viewer, seats: list[Seat]) -> bool:
    """Say whether the user sees a sealed table's cards anyway: staff, and its own players."""
    return bool(user is not None and user.is_staff) or holds_seat(user, None, seats)


def is_sealed(user: Viewer, match: Match, seats: list[Seat] | None = None) -> bool:
    """Say whether the match's cards and figures must stay hidden from this user (see the module).

    The one rule every route showing a card, a trick or a hand's points asks.
    """
    if match.pk is None:
        return False
    if seats is None:
        seats = list(Seat.objects.filter(match=match))
    if sees_sealed_cards(user, seats):
        return False  # its own players see their table as R6.3 says; staff see every table
    return group_open(match)


def revealed_matches() -> QuerySet[Match]:
    """Return the matches whose deals (their secret, seeds, deals and log) may now be shown.

    A match is revealed once it is over and no table sharing its deals (its deal group, in a
    tournament with duplicate deals) is still to play or playing: the secret is shared, and
    shows every table's deals, played or not. A group of several tables waits for its round
    to close too (`group_open`), as the seal does: until then a table's deals are sealed to
    the other tables' players, and revealing them would undo it.
    """
    group_in_play = Table.objects.filter(
        round_id=OuterRef("tournament_table__round_id"),
        deal_group=OuterRef("tournament_table__deal_group"),
    ).filter(~Q(deal_group=""), Q(match__isnull=True) | ~Q(match__status__in=OVER))
    return Match.objects.filter(~Exists(group_in_play), ~Exists(_open_siblings()), status__in=OVER)


def deals_revealed(match: Match) -> bool:
    """Say whether the match's secret, seeds and deals may now be shown (see the module)."""
    if match.pk is None or not match.is_over:
        return False  # no query for a match in play, which every move's answer draws
    return revealed_matches().filter(pk=match.pk).exists()


def may_see_hand_record(
    user: Viewer, match: Match, hand: Hand, seats: list[Seat] | None = None
) -> bool:
    """Say whether the user may see this hand's whole record (see the module).

    Its players see a hand once it is over (R6.3); anyone else who may look at the match only
    once its deals are revealed: the match is over, no table sharing its deals still plays,
    and their round is closed. Nobody the table is sealed to, whatever else holds.
    """
    if not may_view(user, match, seats):
        return False
    if seats is None:
        seats = list(Seat.objects.filter(match=match))
    if is_sealed(user, match, seats):
        return False
    if hand.finished_at is not None and holds_seat(user, match, seats):
        return True
    return deals_revealed(match)
