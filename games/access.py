"""Who may look at a match, and how much of it: one rule for every route that shows one.

Two questions, asked by the match page and its partials, the score sheet, the live socket and
the tournament pages alike:

- `may_view`: may this person look at the match at all? A private match is for its seated
  players and staff only (people holding its invite see it through the invite page, before it
  starts); to anyone else it does not exist (404, a refused follow).
- `is_sealed`: must the cards of this match stay hidden from this person? A tournament table
  that shares its deals with other tables of its round (duplicate deals) is sealed to everyone
  but staff and its own players until the round is closed: a spectator who plays, or will play,
  the same deals at another table would otherwise learn what their opponents hold. A sealed
  table shows its seats, totals and status only.
- `deals_revealed`: may a match's deals, the secret they come from and their seeds be known to
  anyone now? Only once no deal they give is in play: the match is over (finished or
  abandoned), and so is every match of its deal group (tables sharing its deals). Until then
  no page, socket, e-mail or admin page shows them (`tests/test_no_leaks.py`).
- `may_see_hand_record`: may this person see a hand's whole record (the deal, the passes,
  every trick), as the hand review, its replay and the match's export show it? The match's
  players once that hand is over (R6.3); everyone who may look at the match once its deals are
  revealed (above).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from games.models import Hand, Match, MatchStatus, Round, RoundStatus, Seat, Table

OVER = (MatchStatus.FINISHED, MatchStatus.ABANDONED)


def holds_seat(user, match: Match | None, seats: list[Seat] | None = None) -> bool:
    """Say whether the user holds (or held, before resigning) a seat in the match."""
    if user is None or not user.is_authenticated:
        return False
    if seats is not None:
        return any(seat.is_held_by(user) for seat in seats)
    return Seat.objects.filter(match=match, user_id=user.pk).exists()


def may_view(user, match: Match, seats: list[Seat] | None = None) -> bool:
    """Say whether the user may look at this match (its page, score sheet and live updates)."""
    if user is None or not user.is_authenticated:
        return False
    if not match.is_private or user.is_staff:
        return True
    return holds_seat(user, match, seats)


def viewable_match(user, pk: int) -> Match | None:
    """Return the match with this id if it exists and the user may look at it, else None."""
    match = Match.objects.filter(pk=pk).first()
    if match is None or not may_view(user, match):
        return None
    return match


def viewable_match_or_404(user, pk: int) -> Match:
    """Return the match for a page about it, or 404 if there is none or it is private to
    others: its id alone must not tell an outsider that it exists."""
    match = viewable_match(user, pk)
    if match is None:
        raise Http404("There is no such match.")
    return match


def shared_deal_groups(round_: Round, tables: Iterable[Table]) -> set[str]:
    """Return the deal groups of a round still open that more than one of its tables plays.

    Until the round is closed, some table of such a group may still be playing a deal another
    has finished, so their cards are not for spectators' eyes.
    """
    if round_.status == RoundStatus.CLOSED:
        return set()
    groups = [table.deal_group for table in tables if table.deal_group]
    return {group for group in groups if groups.count(group) > 1}


def group_open(match: Match) -> bool:
    """Say whether the match shares its deals with other tables of a round not closed yet.

    Until that round closes, whatever such a match's deals gave (its cards, its per-hand
    figures, its result in statistics and ratings) may still tell a player of another table
    about a deal they have to play.
    """
    table = Table.objects.select_related("round").filter(match_id=match.pk).first()
    if table is None or not table.deal_group:
        return False
    group = Table.objects.filter(round_id=table.round_id, deal_group=table.deal_group)
    return table.deal_group in shared_deal_groups(table.round, group)


def sees_sealed_cards(user, seats: list[Seat]) -> bool:
    """Say whether the user sees a sealed table's cards anyway: staff, and its own players."""
    return bool(user is not None and user.is_staff) or holds_seat(user, None, seats)


def is_sealed(user, match: Match, seats: list[Seat] | None = None) -> bool:
    """Say whether the match's cards must stay hidden from this user (see the module)."""
    if match.pk is None:
        return False
    if seats is None:
        seats = list(Seat.objects.filter(match=match))
    if sees_sealed_cards(user, seats):
        return False  # its own players see their table as R6.3 says
    return group_open(match)


def revealed_matches() -> QuerySet[Match]:
    """Return the matches whose deals (their secret, seeds, deals and log) may now be shown.

    A match is revealed once it is over and no table sharing its deals (its deal group, in a
    tournament with duplicate deals) is still to play or playing: the secret is shared, and
    shows every table's deals, played or not.
    """
    group_in_play = Table.objects.filter(
        round_id=OuterRef("tournament_table__round_id"),
        deal_group=OuterRef("tournament_table__deal_group"),
    ).filter(~Q(deal_group=""), Q(match__isnull=True) | ~Q(match__status__in=OVER))
    return Match.objects.filter(~Exists(group_in_play), status__in=OVER)


def deals_revealed(match: Match) -> bool:
    """Say whether the match's secret, seeds and deals may now be shown (see the module)."""
    if match.pk is None or not match.is_over:
        return False  # no query for a match in play, which every move's answer draws
    return revealed_matches().filter(pk=match.pk).exists()


def may_see_hand_record(user, match: Match, hand: Hand, seats: list[Seat] | None = None) -> bool:
    """Say whether the user may see this hand's whole record (see the module).

    Its players see a hand once it is over (R6.3); anyone else who may look at the match only
    once its deals are revealed: the match is over and no table sharing its deals still plays.
    """
    if not may_view(user, match, seats):
        return False
    if hand.finished_at is not None and holds_seat(user, match, seats):
        return True
    return deals_revealed(match)
