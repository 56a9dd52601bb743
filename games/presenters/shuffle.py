"""Shuffles anyone can verify, as the match page and its verification page show them.

Before the match's deals are revealed (`games.access.deals_revealed`) only the commitment is
ever given here: `Verification` and `record_json` refuse a match not revealed, so no template
or download can be handed its secret, its seeds or a deal not played in the open.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from games import engine
from games.access import deals_revealed
from games.engine.records import shuffle
from games.models import Hand, Match, Seat

NOT_COMMITTED = gettext_lazy(
    "This match was dealt before shuffles were committed: its deals came from a seed nobody "
    "saw before play, so they cannot be verified."
)
NOT_OVER = gettext_lazy(
    "The secret is shown once the match is over; until then, only its commitment."
)
GROUP_NOT_OVER = gettext_lazy(
    "This match is over, but other tables of its round play the same deals: the secret is "
    "shown once the round is closed."
)


class NotRevealed(Exception):
    """The match's secret may not be shown (yet, or ever): `message` says why."""

    def __init__(self, message: str, *, committed: bool) -> None:
        super().__init__(message)
        self.message = message
        self.committed = committed


@dataclass(frozen=True)
class ShuffleSummary:
    """What the match page says of its shuffle: the commitment, and whether it can be checked."""

    commitment: str
    revealed: bool

    @property
    def verifiable(self) -> bool:
        return bool(self.commitment)


def shuffle_summary(match: Match) -> ShuffleSummary:
    """Return the match page's shuffle line (one query, only once the match is over)."""
    if not match.has_secret:
        return ShuffleSummary("", revealed=False)
    return ShuffleSummary(match.commitment, deals_revealed(match))


def require_revealed(match: Match) -> None:
    """Refuse, saying why, unless the match's secret may be shown now."""
    if not match.has_secret:
        raise NotRevealed(str(NOT_COMMITTED), committed=False)
    if not deals_revealed(match):
        raise NotRevealed(str(NOT_OVER if not match.is_over else GROUP_NOT_OVER), committed=True)


@dataclass(frozen=True)
class SeatCards:
    name: str
    played: str  # the seat's cards as dealt, in the engine's text form ("2C 5C … AS")
    rebuilt: str  # the same seat's cards in the deal rebuilt from the secret


@dataclass(frozen=True)
class HandRow:
    """One hand: its seed from the secret, the deal played and rebuilt, and whether they match."""

    number: int
    seed: int
    matches: bool
    explicit: bool  # dealt from a deal set before the match, not from the secret
    problem: str  # why the stored deal could not be read, if it could not
    seats: tuple[SeatCards, ...]


@dataclass(frozen=True)
class Verification:
    """The verification page: commitment, secret, and every hand played checked."""

    match: Match
    commitment: str
    secret: str
    computed_commitment: str
    hands: tuple[HandRow, ...]

    @property
    def commitment_ok(self) -> bool:
        return self.computed_commitment == self.commitment

    @property
    def all_ok(self) -> bool:
        return self.commitment_ok and all(hand.matches for hand in self.hands)


def _cards(deal: engine.Deal | None, seat: int) -> str:
    return " ".join(str(card) for card in deal.hands[seat]) if deal else ""


def _hand_row(match: Match, rules: engine.RuleSet, hand: Hand, names: list[str]) -> HandRow:
    rebuilt = shuffle.deal_for(rules, match.secret, hand.number)
    played: engine.Deal | None = None
    problem = ""
    try:
        played = engine.Deal.from_dict(rules, hand.deal)
    except engine.EngineError as error:
        problem = error.message
    seats = tuple(
        SeatCards(names[seat], _cards(played, seat), _cards(rebuilt, seat))
        for seat in range(rules.players)
    )
    return HandRow(
        number=hand.number,
        seed=shuffle.hand_seed(match.secret, hand.number),
        matches=played is not None and played == rebuilt,
        explicit=hand.number <= len(match.deals),
        problem=problem,
        seats=seats,
    )


def verification(match: Match) -> Verification:
    """Return the verification of a revealed match; raise NotRevealed otherwise."""
    require_revealed(match)
    rules = match.rule_set
    names = [seat.name for seat in Seat.objects.filter(match=match).select_related("user")]
    hands = Hand.objects.filter(match=match).order_by("number")
    return Verification(
        match=match,
        commitment=match.commitment,
        secret=match.secret,
        computed_commitment=shuffle.commitment(match.secret),
        hands=tuple(_hand_row(match, rules, hand, names) for hand in hands),
    )


def record_json(match: Match) -> dict[str, Any]:
    """Return the match's shuffle record, the file `python -m games.engine.verify` checks.

    The deals are written as stored, not as rebuilt: the file says what was played.
    """
    require_revealed(match)
    hands = Hand.objects.filter(match=match).order_by("number")
    return {
        "format": shuffle.FORMAT,
        "match": match.pk,
        "rules": match.rules,
        "commitment": match.commitment,
        "secret": match.secret,
        "hands": [
            {"number": hand.number, "deal": {"hands": _stored_hands(hand)}} for hand in hands
        ],
    }


def _stored_hands(hand: Hand) -> object:
    return hand.deal.get("hands") if isinstance(hand.deal, dict) else None
