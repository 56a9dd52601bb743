"""Cards as small immutable values, and card sets as int bitmasks.

Card index = suit * 13 + rank, with suits C, D, H, S (0..3) and ranks 2..A (0..12), so bit i of
an int is card i, sorting indices sorts by suit then rank, and a suit is a contiguous 13-bit run.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import BadCard

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven", "8": "Eight",
    "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace",
}  # fmt: skip
RANK_SYMBOLS = {r: ("10" if r == "T" else r) for r in RANKS}

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
HEARTS_MASK = SUIT_MASKS[HEARTS]
QS_INDEX = SPADES * 13 + RANKS.index("Q")
QS_MASK = 1 << QS_INDEX
POINTS_MASK = HEARTS_MASK | QS_MASK
FULL_DECK = (1 << 52) - 1
BITS = tuple(1 << i for i in range(52))  # BITS[i] is the one-card set of card i


def index_of(text: str) -> int:
    """Return the index of a card written as rank then suit ("QS", "TD")."""
    if not isinstance(text, str) or len(text) != 2:
        raise BadCard(f"{text!r} is not a card: write rank then suit in capitals, like QS or TD")
    r, s = RANKS.find(text[0]), SUITS.find(text[1])
    if r < 0 or s < 0:
        raise BadCard(
            f"{text!r} is not a card: ranks are 2-9, T, J, Q, K, A and suits C, D, H, S,"
            " in capitals"
        )
    return s * 13 + r


class Card:
    """One playing card; the 52 instances are shared, so identity equals equality."""

    __slots__ = ("index", "rank", "suit", "text")
    index: int
    rank: str
    suit: str
    text: str

    def __new__(cls, rank: str, suit: str) -> Card:
        return CARDS[index_of(f"{rank}{suit}")]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        for name, value in (
            ("index", index),
            ("rank", RANKS[index % 13]),
            ("suit", SUITS[index // 13]),
            ("text", RANKS[index % 13] + SUITS[index // 13]),
        ):
            object.__setattr__(card, name, value)
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Return the card for text like "QS"; raise BadCard for anything else."""
        return CARDS[index_of(text)]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Return the card with the given 0..51 index."""
        if not isinstance(index, int) or not 0 <= index < 52:
            raise BadCard(f"{index!r} is not a card index (0-51)")
        return CARDS[index]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # A plain function, not a bound classmethod: some libraries re-register method pickling.
        return (_card_at, (self.index,))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other.index == self.index)

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    @property
    def mask(self) -> int:
        """Return the one-bit card set holding this card."""
        return 1 << self.index

    @property
    def symbol(self) -> str:
        """Return the display form, like "Q♠" or "10♦"."""
        return RANK_SYMBOLS[self.rank] + SUIT_SYMBOLS[self.suit]

    @property
    def rank_symbol(self) -> str:
        """Return the rank as printed on the card, like "10" or "Q"."""
        return RANK_SYMBOLS[self.rank]

    @property
    def suit_symbol(self) -> str:
        """Return the suit sign, like "♠"."""
        return SUIT_SYMBOLS[self.suit]

    @property
    def suit_name(self) -> str:
        """Return the suit in words, like "spades"."""
        return SUIT_NAMES[self.suit]

    @property
    def words(self) -> str:
        """Return the spoken form, like "Queen of spades"."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    @property
    def is_red(self) -> bool:
        """Return True for diamonds and hearts."""
        return self.suit in "DH"

    @property
    def points(self) -> int:
        """Return the penalty points this card carries (R4.2)."""
        return 13 if self.index == QS_INDEX else (1 if self.suit == "H" else 0)


CARDS: tuple[Card, ...] = tuple(Card._make(i) for i in range(52))


def _card_at(index: int) -> Card:
    """Return the shared card for an index (used by pickle and copy)."""
    return CARDS[index]


TEXTS: tuple[str, ...] = tuple(c.text for c in CARDS)
QUEEN_OF_SPADES = CARDS[QS_INDEX]


def indices_of(mask: int) -> list[int]:
    """Return the card indices in a card set, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cards_from_mask(mask: int) -> tuple[Card, ...]:
    """Return the cards in a card set, sorted by suit then rank."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def mask_of(cards: Iterable[Card | str]) -> int:
    """Return the card set of cards or card texts (duplicates collapse)."""
    mask = 0
    for card in cards:
        mask |= 1 << (card.index if isinstance(card, Card) else index_of(card))
    return mask


def text_of_mask(mask: int) -> str:
    """Return a card set as space-separated card texts ("2C 7C QS")."""
    return " ".join(TEXTS[i] for i in indices_of(mask))


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Return the cards of "2C 7C QS" or of a list of card texts, in the given order."""
    items = text.split() if isinstance(text, str) else text
    return [c if isinstance(c, Card) else Card.parse(c) for c in items]


def suit_of(index: int) -> int:
    """Return the suit number (0 clubs .. 3 spades) of a card index."""
    return index // 13
