"""Cards as small immutable values, and card sets as int bitmasks.

Card index = suit * 13 + rank, with suits C, D, H, S (0..3) and ranks 2..A (0..12), so bit i of
an int is card i, sorting indices sorts by suit then rank, and a suit is a contiguous 13-bit run.

Two decks (R5.2, Cancellation Hearts): the second copy of card i is card i + 52, so a two-deck
card set is a 104-bit int whose low 52 bits are the first deck and high 52 bits the second. The
first copy is the ordinary card ("QS"); the second has its own object and code, the face with a
"2" after it ("QS2"), so that two identical cards in one hand or trick can be told apart. Cards
sort by face, then copy (QS, QS2, KS).
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
DECK_SIZE = 52
FULL_DECK = (1 << 52) - 1
TWO_DECKS = (1 << 104) - 1  # R5.2: both copies of every card
BITS = tuple(1 << i for i in range(52))  # BITS[i] is the one-card set of card i
SECOND_COPY_MARK = "2"  # "QS2" is the second copy of the Q♠


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


def code_index(text: str) -> int:
    """Return the index of a card code: "QS" (0..51), or "QS2" for the second copy (52..103)."""
    if isinstance(text, str) and len(text) == 3 and text[2] == SECOND_COPY_MARK:
        return index_of(text[:2]) + DECK_SIZE
    return index_of(text)


class Card:
    """One playing card; the instances are shared, so identity equals equality.

    The 52 cards of one deck are `CARDS`; the second copies of a two-deck game (R5.2) are
    `SECOND_COPIES`, with indices 52..103 and codes like "QS2" (see the module's docstring).
    """

    __slots__ = ("index", "rank", "suit", "text", "order")
    index: int
    rank: str
    suit: str
    text: str  # the card's code: "QS", or "QS2" for a second copy
    order: int  # sorting key: face, then copy

    def __new__(cls, rank: str, suit: str) -> Card:
        return CARDS[index_of(f"{rank}{suit}")]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        face, copy = index % DECK_SIZE, index // DECK_SIZE
        for name, value in (
            ("index", index),
            ("rank", RANKS[face % 13]),
            ("suit", SUITS[face // 13]),
            ("text", RANKS[face % 13] + SUITS[face // 13] + (SECOND_COPY_MARK if copy else "")),
            ("order", face * 2 + copy),
        ):
            object.__setattr__(card, name, value)
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Return the card for a code like "QS" (or "QS2", a second copy); else raise BadCard.

        >>> Card.parse("QS")
        Card.parse('QS')
        >>> card = Card.parse("TH2")
        >>> card.symbol, card.words, card.copy, card.points
        ('10♥', 'Ten of hearts', 2, 1)
        >>> eval(repr(card)) == card
        True
        >>> Card.parse("ZZ")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        games.engine.errors.BadCard: 'ZZ' is not a card: ranks are 2-9, T, J, Q, K, A and suits ...
        """
        return ALL_CARDS[code_index(text)]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Return the card of one deck with the given 0..51 index (ALL_CARDS has both copies)."""
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
        # An expression that rebuilds the card (`eval(repr(card)) == card` with Card in scope),
        # for the second copy too; Card(rank, suit) cannot name a second copy.
        return f"Card.parse({self.text!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other.index == self.index)

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.order < other.order

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.order <= other.order

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.order > other.order

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.order >= other.order

    @property
    def face(self) -> Card:
        """Return the first copy of this card (itself, unless it is a second copy)."""
        return CARDS[self.index % DECK_SIZE]

    @property
    def copy(self) -> int:
        """Return 1 for a card of the first deck, 2 for a second copy (R5.2)."""
        return 1 + self.index // DECK_SIZE

    @property
    def face_text(self) -> str:
        """Return the card's name without its copy: "QS" for both "QS" and "QS2"."""
        return self.rank + self.suit

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
        return 13 if self.index % DECK_SIZE == QS_INDEX else (1 if self.suit == "H" else 0)


CARDS: tuple[Card, ...] = tuple(Card._make(i) for i in range(52))
SECOND_COPIES: tuple[Card, ...] = tuple(Card._make(i) for i in range(52, 104))
ALL_CARDS: tuple[Card, ...] = CARDS + SECOND_COPIES


def _card_at(index: int) -> Card:
    """Return the shared card for an index (used by pickle and copy)."""
    return ALL_CARDS[index]


TEXTS: tuple[str, ...] = tuple(c.text for c in CARDS)
ALL_TEXTS: tuple[str, ...] = tuple(c.text for c in ALL_CARDS)
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
    """Return the cards in a card set, sorted by suit then rank (then copy, with two decks)."""
    if mask >> DECK_SIZE:
        return _two_deck_cards(mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def _two_deck_cards(mask: int) -> tuple[Card, ...]:
    """Return the cards of a two-deck set in face order, the first copy before the second."""
    out = []
    for face in indices_of((mask | mask >> DECK_SIZE) & FULL_DECK):
        if mask >> face & 1:
            out.append(CARDS[face])
        if mask >> (face + DECK_SIZE) & 1:
            out.append(SECOND_COPIES[face])
    return tuple(out)


def mask_of(cards: Iterable[Card | str]) -> int:
    """Return the card set of cards or card codes (duplicates collapse)."""
    mask = 0
    for card in cards:
        mask |= 1 << (card.index if isinstance(card, Card) else code_index(card))
    return mask


def text_of_mask(mask: int) -> str:
    """Return a card set as space-separated card codes ("2C 7C QS", or "QS QS2" with two decks)."""
    if mask >> DECK_SIZE:
        return " ".join(c.text for c in _two_deck_cards(mask))
    return " ".join(TEXTS[i] for i in indices_of(mask))


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Return the cards of "2C 7C QS" or of a list of card texts, in the given order."""
    items = text.split() if isinstance(text, str) else text
    return [c if isinstance(c, Card) else Card.parse(c) for c in items]


def suit_of(index: int) -> int:
    """Return the suit number (0 clubs .. 3 spades) of a card index (either copy)."""
    return index % DECK_SIZE // 13
