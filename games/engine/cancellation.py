"""Cancellation Hearts (R5.2): two decks, a widow, identical cards cancelling, tricks not won.

The state of a two-deck match is `CancellationMatch`, a `Match` whose card sets are 104-bit
masks (the second copy of card i is card i + 52, see cards.py), so the standard game's state and
its hot paths stay exactly as they were. It keeps the same doors (checked and trusting), the same
decisions, snapshots and replay; what differs is dealing (a widow, the dealer moving left, no
passing), the lead (any card but R3.5-R3.7), the winner (cancelled pairs), tricks not won, and
scoring (52 points, a moon of every copy).

Decisions may name a card plainly ("QS", or the first copy's Card): that plays the first copy
if the seat holds it, else the second. "QS2" (or the second copy's Card) plays the second copy.
Both copies are the same card for every rule, so which copy goes never changes the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from .cards import (
    ALL_CARDS,
    DECK_SIZE,
    FULL_DECK,
    HEARTS_MASK,
    QS_MASK,
    SUIT_MASKS,
    SUIT_NAMES,
    SUITS,
    Card,
    code_index,
)
from .deal import Deal
from .errors import BadDeal, CardNotHeld, EngineError, IllegalMove, WrongPhase
from .phases import HAND_OVER, PLAYING
from .rules import CANCELLATION, RuleSet
from .state import Match, register_variant


def both(mask: int) -> int:
    """Return a one-deck card set with its second copies added."""
    return mask | mask << DECK_SIZE


HEARTS2 = both(HEARTS_MASK)
QUEENS2 = both(QS_MASK)
POINTS2 = HEARTS2 | QUEENS2
NO_HEARTS2 = ~HEARTS2
SUITS2 = tuple(both(m) for m in SUIT_MASKS)
NOT_WON = -1  # the winner recorded for a trick whose every card of the suit led is cancelled


def points_of(mask: int) -> int:
    """Return the points in a two-deck card set: 1 a heart, 13 each Q♠ (R5.2)."""
    return (mask & HEARTS2).bit_count() + 13 * (mask & QUEENS2).bit_count()


def faces(mask: int) -> int:
    """Return the one-deck set of the faces in a two-deck card set."""
    return (mask | mask >> DECK_SIZE) & FULL_DECK


def cancelled_of(trick_mask: int) -> int:
    """Return the cards of a trick that cancel: both copies of every face played twice."""
    return both(trick_mask & trick_mask >> DECK_SIZE & FULL_DECK)


def trick_winner(cards: list[int] | tuple[int, ...], leader: int, n: int) -> int | None:
    """Return the seat whose card wins a complete trick, or None when it is not won (R5.2).

    Identical cards cancel: the trick goes to the highest card of the suit led whose face was
    played once. The face sets of the two decks tell it: a face in both halves is cancelled.
    """
    mask = 0
    for card in cards:
        mask |= 1 << card
    low, high = mask & FULL_DECK, mask >> DECK_SIZE
    live = (low ^ high) & SUIT_MASKS[cards[0] % DECK_SIZE // 13]
    if not live:
        return None
    top = live.bit_length() - 1
    card = top if low >> top & 1 else top + DECK_SIZE
    return (leader + cards.index(card)) % n


def winner_of_trick(rules: RuleSet, leader: int, cards: Sequence[Card]) -> int | None:
    """Return the seat that wins a complete trick under any rule set, or None if it is not won.

    For callers holding cards rather than a match (a trick rebuilt from a log): the highest card
    of the suit led (R3.4), cancelled pairs left out in Cancellation (R5.2).
    """
    indices = [c.index for c in cards]
    if rules.two_decks:
        return trick_winner(indices, leader, rules.players)
    lead = SUIT_MASKS[indices[0] // 13]
    top = max(i for i in indices if 1 << i & lead)
    return (leader + indices.index(top)) % rules.players


class CancellationMatch(Match):
    """A match of Cancellation Hearts (R5.2, R5.4); made by `Match.new` for such a rule set."""

    # R5.2: the moon is every heart and both Q♠, the widow's included.
    ALL_POINTS: ClassVar[int] = POINTS2

    __slots__ = ("widow", "pending", "takers", "widow_taker", "dealer")

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(rules)
        self.widow = 0  # this hand's widow (R5.2)
        self.pending = 0  # cards waiting for the next won trick: the widow, tricks not won
        self.takers: list[int] = []  # per trick, the seat that took its cards (-1: waiting)
        self.widow_taker: int | None = None
        self.dealer = -1

    def copy(self) -> CancellationMatch:
        """Return an independent copy, for search and what-if questions."""
        other = CancellationMatch.__new__(CancellationMatch)
        for name in Match.__slots__ + CancellationMatch.__slots__:
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list) else value)
        return other

    # ----- questions -----

    @property
    def points_taken(self) -> tuple[int, ...]:
        """Return the points each seat has taken this hand, the widow's included (R5.2)."""
        return tuple(points_of(t) for t in self.taken)

    @property
    def points_in_play(self) -> bool:
        """Return True while a heart or a Q♠ is in a hand or on the table."""
        unplayed = self.trick_mask
        for mask in self.hands:
            unplayed |= mask
        return bool(unplayed & POINTS2)

    @property
    def carried(self) -> int:
        """Return the cards of tricks not won that wait for the next won trick (not the widow)."""
        return self.pending & ~self.widow

    def card_index(self, seat: int, card: Card | str) -> int:
        """Return the copy a decision names: a plain name is the first copy if held, else the
        second; "QS2" is the second copy."""
        index = card.index if isinstance(card, Card) else code_index(card)
        if index < DECK_SIZE and not self.hands[seat] >> index & 1:
            return index + DECK_SIZE
        return index

    def legal_mask(self) -> int:
        """Return the legal plays of the seat to act: R3.2, R3.5-R3.7 (R3.1, R3.3 do not apply)."""
        hand = self.hands[self.turn]
        if self.trick:
            return hand & self.lead_mask or hand  # R3.2 follow suit, else anything
        if self.broken:
            return hand
        # R3.5-R3.7: no heart lead before hearts are broken, unless the hand is all hearts;
        # a hand of only Q♠s and hearts leads a Q♠ (R5.4).
        return hand & NO_HEARTS2 or hand

    def why_illegal(self, seat: int, card: Card | str) -> str | None:
        """Return why the seat may not play the card now, in plain words, or None if it may."""
        error = self.illegal_reason(seat, card)
        return error.message if error else None

    def illegal_reason(self, seat: int, card: Card | str) -> EngineError | None:
        """Return the error a play would raise (with its rule), or None if it is legal."""
        try:
            seat = self._seat(seat)
            return self._play_error(seat, self.card_index(seat, card))
        except EngineError as exc:
            return exc

    def _play_error(self, seat: int, card: int) -> EngineError | None:
        seat = self._seat(seat)
        error = self._turn_error(seat)
        if error:
            return error
        bit = 1 << card
        if not self.hands[seat] & bit:
            return CardNotHeld(f"You do not hold the {ALL_CARDS[card].symbol}")
        if bit & self.legal_mask():
            return None
        if self.trick:
            led = SUIT_NAMES[SUITS[self.trick[0] % DECK_SIZE // 13]]
            return IllegalMove(f"You must follow {led}", "R3.2")
        return IllegalMove("Hearts are not broken yet", "R3.5")

    # ----- the checked door -----

    def start_hand(self, deal: Deal) -> None:
        """Begin the next hand with the caller's deal: two decks dealt evenly, the widow left."""
        if self.phase != HAND_OVER:
            raise WrongPhase(self._phase_words("start a hand"))
        if not isinstance(deal, Deal):
            raise BadDeal("start_hand needs a Deal")
        union, total = deal.widow, deal.widow.bit_count()
        for mask in deal.masks:
            union |= mask
            total += mask.bit_count()
        if (
            len(deal.masks) != self.n
            or union != self.deck
            or total != union.bit_count()
            or any(m.bit_count() != self.hand_size for m in deal.masks)
        ):
            raise BadDeal(f"This deal is not two decks dealt evenly to {self.n} players", "R5.2")
        self.start_hand_fast(deal)

    def play(self, seat: int, card: Card | str) -> None:
        """Play a card (either copy, see the module's docstring), or raise why not (R3.8)."""
        seat = self._seat(seat)
        index = self.card_index(seat, card)
        error = self._play_error(seat, index)
        if error is not None:
            raise error
        self.play_fast(index)

    # ----- the trusting door -----

    def start_hand_fast(self, deal: Deal) -> None:
        """Begin the next hand without checking the deal: no pass, the dealer's left leads."""
        self._new_hand(deal)
        self.takers = []
        self.pass_offset = 0
        self.widow = self.pending = deal.widow  # R5.4: the widow goes with trick 1's cards
        self.widow_taker = None
        # R5.4: hand k is dealt by seat (k-1) mod n and led by seat k mod n, with any card.
        self.dealer = self.rules.dealer(self.hand_no)
        self.turn = self.leader = self.left[self.dealer]
        self.first = True
        self.phase = PLAYING

    def play_fast(self, card: int) -> int:
        """Play card index `card` (0..103) for the seat to act, trusting that it is legal.

        Return the legal plays of the next seat to act, or 0 once the hand's tricks are over.
        """
        seat = self.turn
        bit = 1 << card
        self.hands[seat] ^= bit
        trick = self.trick
        trick.append(card)
        self.trick_mask |= bit
        if bit & POINTS2:
            self.broken = True  # R3.5, R5.4: also when played to a trick that is not won
        if len(trick) < self.n:
            if len(trick) == 1:
                self.lead_mask = SUITS2[card % DECK_SIZE // 13]
            self.turn = self.left[seat]
            return self.legal_mask()
        winner = trick_winner(trick, self.leader, self.n)
        last = len(self.tricks) + 1 == self.hand_size
        self.tricks.append((self.leader, tuple(trick), NOT_WON if winner is None else winner))
        self.takers.append(NOT_WON)
        self.pending |= self.trick_mask
        self.trick = []
        self.trick_mask = 0
        self.first = False
        if winner is None and last:
            winner = self.leader  # R5.2: a last trick not won goes to its leader
        if winner is not None:
            self._take(winner)
            self.turn = self.leader = winner
        else:
            self.turn = self.leader  # R5.2: the same player leads again
        if last:
            self._end_hand()
            return 0
        return self.legal_mask()

    def _take(self, seat: int) -> None:
        """Give the waiting cards (this trick's, tricks not won before it, the widow) to a seat."""
        self.taken[seat] |= self.pending
        if self.widow and self.widow_taker is None:
            self.widow_taker = seat
        self.pending = 0
        takers = self.takers
        for i in range(len(takers) - 1, -1, -1):
            if takers[i] != NOT_WON:
                break
            takers[i] = seat


# Match.new, snapshots and replay build this class for Cancellation rule sets; its views are
# registered by cancellation_views.py (the widow stays hidden until the hand ends).
register_variant(CANCELLATION, CancellationMatch)
