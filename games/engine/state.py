"""The match: hands, passing, tricks, scoring and totals, with a checked and a trusting door."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, TypeVar

from .cards import (
    ALL_CARDS,
    CARDS,
    HEARTS_MASK,
    POINTS_MASK,
    QS_MASK,
    SUIT_MASKS,
    SUIT_NAMES,
    SUITS,
    Card,
    cards_from_mask,
    index_of,
)
from .deal import Deal
from .decisions import Decision, MoonChoice, Pass, Play
from .errors import (
    BadDeal,
    BadDecision,
    BadMoonChoice,
    BadPass,
    CardNotHeld,
    EngineError,
    IllegalMove,
    NotYourTurn,
    WrongPhase,
)
from .outcome import Outcome
from .phases import FINISHED as FINISHED
from .phases import HAND_OVER as HAND_OVER
from .phases import MOON as MOON
from .phases import PASSING as PASSING
from .phases import PHASES as PHASES
from .phases import PLAYING as PLAYING
from .rules import RuleSet
from .scoring import ScoreRow as ScoreRow
from .scoring import hand_scores
from .views import PublicView, SeatView

MOON_CHOICES = ("subtract", "add")
PASS_SIZE = 3
NO_POINTS = ~POINTS_MASK
NO_HEARTS = ~HEARTS_MASK


def _card_index(card: Card | str) -> int:
    return card.index if isinstance(card, Card) else index_of(card)


def following(hand: int, lead_mask: int, first: bool) -> int:
    """Return the legal plays of a hand after a trick's lead (R3.2, R3.3)."""
    legal = hand & lead_mask
    if legal:
        return legal  # R3.2 follow suit
    if first:
        return hand & NO_POINTS or hand  # R3.3
    return hand


class Match:
    """The whole state of a match; every change goes through pass/play/moon or their fast twins.

    A hand from the deal to the first card (the same deal always comes from the same seed):

    >>> from games.engine import Deal, RuleSet
    >>> match = Match.new(RuleSet(players=4))
    >>> match.phase, match.to_act()
    (<Phase.HAND_OVER: 'hand_over'>, ())
    >>> match.start_hand(Deal.from_seed(match.rules, 7))
    >>> match.phase, match.pass_direction, match.to_act()
    (<Phase.PASSING: 'passing'>, 'left', (0, 1, 2, 3))
    >>> for seat in range(4):
    ...     match.pass_cards(seat, match.hand(seat)[-3:])
    >>> match.phase, match.turn
    (<Phase.PLAYING: 'playing'>, 0)
    >>> match.play(0, "2C")
    >>> match.turn, match.legal_plays(1)
    (1, (Card.parse('AC'),))
    """

    # The cards whoever takes them all has shot the moon with (R4.2; a variant may have more).
    ALL_POINTS: ClassVar[int] = POINTS_MASK

    __slots__ = (
        "rules", "n", "hand_size", "opening", "deck", "hand_no", "phase", "deal", "pass_offset",
        "passes", "received", "hands", "turn", "leader", "trick", "trick_mask", "lead_mask",
        "tricks", "taken", "broken", "first", "shooter", "sheet", "totals", "waiting", "left",
        "bonus",
    )  # fmt: skip

    def __init__(self, rules: RuleSet | None = None) -> None:
        rules = rules if rules is not None else RuleSet()
        if not isinstance(rules, RuleSet):
            raise TypeError("Match needs a RuleSet")
        if rules.two_decks and type(self) is Match:
            # Two decks need their own state (cancellation.py); Match.new picks it.
            raise TypeError("Use Match.new(rules) for Cancellation Hearts")
        self.rules = rules
        self.n = rules.players
        self.hand_size = rules.hand_size
        self.opening = rules.opening_card_index
        self.deck = rules.deck_mask
        self.hand_no = 0
        self.phase = HAND_OVER
        self.deal: Deal | None = None
        self.pass_offset = 0
        self.passes: list[int | None] = [None] * self.n
        self.received: list[int] = [0] * self.n
        self.hands: list[int] = [0] * self.n
        self.turn = -1
        self.leader = -1
        self.trick: list[int] = []
        self.trick_mask = 0
        self.lead_mask = 0
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.taken: list[int] = [0] * self.n
        self.broken = False
        self.first = False
        self.shooter: int | None = None
        self.sheet: list[ScoreRow] = []
        self.totals: list[int] = [0] * self.n
        self.waiting = 0  # seats yet to pass
        self.left = tuple((s + 1) % self.n for s in range(self.n))  # R1.5: play goes left
        self.bonus = rules.bonus_mask  # R5.1: the Omnibus bonus card, 0 in the other games

    @classmethod
    def new(cls, rules: RuleSet | None = None) -> Match:
        """Return a match waiting for the deal of hand 1 (a CancellationMatch for R5.2)."""
        if rules is not None and isinstance(rules, RuleSet) and rules.variant in _VARIANTS:
            return _VARIANTS[rules.variant](rules)
        return cls(rules)

    def copy(self) -> Match:
        """Return an independent copy, for search and what-if questions."""
        other = Match.__new__(Match)
        for name in Match.__slots__:
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list) else value)
        return other

    # ----- questions -----

    @property
    def is_finished(self) -> bool:
        """Return True once a total has reached the target, or the last hand is scored (R4.7)."""
        return self.phase == FINISHED

    @property
    def winners(self) -> tuple[int, ...]:
        """Return the seats with the lowest total once finished (co-winners share), else ()."""
        if self.phase != FINISHED:
            return ()
        low = min(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == low)

    def outcome(self) -> Outcome:
        """Return how the finished match ended (places by totals only); WrongPhase before.

        >>> from games.engine import Deal, RuleSet, random_playout
        >>> import random
        >>> match, rng = Match.new(RuleSet(players=3, hands=1)), random.Random(5)
        >>> match.start_hand(Deal.from_seed(match.rules, 5))
        >>> random_playout(match, rng)
        >>> outcome = match.outcome()
        >>> outcome.totals == tuple(match.totals) and outcome.winners == match.winners
        True
        >>> sorted(outcome.places)[0], sum(outcome.moons) == (match.sheet[0].moon is not None)
        (1, True)
        """
        if self.phase != FINISHED:
            raise WrongPhase("The match is not over: it has no outcome yet")
        return Outcome.of(self.totals, self.sheet)

    @property
    def hearts_broken(self) -> bool:
        """Return True once a heart or the Q♠ has been played this hand (R3.5)."""
        return self.broken

    @property
    def pass_direction(self) -> str:
        """Return where this hand's passes go: "left", "right", "across" or "none"."""
        return self.rules.pass_direction(self.hand_no) if self.hand_no else "none"

    @property
    def points_taken(self) -> tuple[int, ...]:
        """Return the points each seat has taken in tricks this hand (R4.2)."""
        taken = self.taken
        return tuple([(t & HEARTS_MASK).bit_count() + (13 if t & QS_MASK else 0) for t in taken])

    @property
    def bonus_taker(self) -> int | None:
        """Return the seat that has taken the Omnibus bonus card this hand (R5.1), or None."""
        bonus = self.bonus
        if bonus:
            for seat, taken in enumerate(self.taken):
                if taken & bonus:
                    return seat
        return None

    @property
    def points_in_play(self) -> bool:
        """Return True while a heart or the Q♠ is in a hand or on the table: play still matters."""
        unplayed = self.trick_mask
        for mask in self.hands:
            unplayed |= mask
        return bool(unplayed & POINTS_MASK)

    def to_act(self) -> tuple[int, ...]:
        """Return the seats that must decide now."""
        if self.phase == PLAYING:
            return (self.turn,)
        if self.phase == PASSING:
            return tuple([s for s, passed in enumerate(self.passes) if passed is None])
        if self.phase == MOON:
            return (self.shooter,)  # type: ignore[return-value]
        return ()

    def hand(self, seat: int) -> tuple[Card, ...]:
        """Return the cards a seat holds now, sorted."""
        return cards_from_mask(self.hands[self._seat(seat)])

    def legal_mask(self) -> int:
        """Return the legal plays of the seat to act as a card set (R3.1-R3.7)."""
        hand = self.hands[self.turn]
        if self.trick:
            return following(hand, self.lead_mask, self.first)
        if self.first:
            return hand & (1 << self.opening)  # R3.1
        if self.broken:
            return hand
        return hand & NO_HEARTS or hand  # R3.5, R3.6 (Q♠ is not a heart), R3.7

    def legal_plays(self, seat: int) -> tuple[Card, ...]:
        """Return the cards the seat may play now; () when it is not the seat's turn to play.

        >>> from games.engine import Deal, Match, RuleSet
        >>> match = Match.new(RuleSet(players=4))
        >>> match.start_hand(Deal.from_seed(match.rules, 7))
        >>> for seat in range(4):
        ...     match.pass_cards(seat, match.hand(seat)[-3:])
        >>> match.legal_plays(0)  # R3.1: the 2♣ leads the first trick
        (Card.parse('2C'),)
        >>> match.legal_plays(1)  # not its turn
        ()
        """
        if self.phase != PLAYING or self._seat(seat) != self.turn:
            return ()
        return cards_from_mask(self.legal_mask())

    def why_illegal(self, seat: int, card: Card | str) -> str | None:
        """Return why the seat may not play the card now, in plain words, or None if it may.

        >>> from games.engine import Deal, Match, RuleSet
        >>> match = Match.new(RuleSet(players=4))
        >>> match.start_hand(Deal.from_seed(match.rules, 7))
        >>> for seat in range(4):
        ...     match.pass_cards(seat, match.hand(seat)[-3:])
        >>> match.why_illegal(0, "AS")
        'You do not hold the A♠'
        >>> match.play(0, "2C")
        >>> match.why_illegal(1, "KS"), match.why_illegal(1, "AC")
        ('You must follow clubs', None)
        """
        try:
            error = self._play_error(seat, _card_index(card))
        except EngineError as exc:
            return exc.message
        return error.message if error else None

    def illegal_reason(self, seat: int, card: Card | str) -> EngineError | None:
        """Return the error a play would raise (with its rule), or None if it is legal."""
        try:
            return self._play_error(seat, _card_index(card))
        except EngineError as exc:
            return exc

    def card_index(self, seat: int, card: Card | str) -> int:
        """Return the index of the card a decision names (two decks: the copy the seat holds)."""
        return _card_index(card)

    def _seat(self, seat: int) -> int:
        if type(seat) is not int or not 0 <= seat < self.n:
            raise NotYourTurn(f"There is no seat {seat!r} at this table")
        return seat

    def _turn_error(self, seat: int) -> EngineError | None:
        """Return why `seat` may not play a card now (R1.5), or None if it is its turn."""
        if self.phase != PLAYING:
            return WrongPhase(self._phase_words("play a card"))
        if seat != self.turn:
            return NotYourTurn(f"It is seat {self.turn}'s turn to play", "R1.5")
        return None

    def _play_error(self, seat: int, card: int) -> EngineError | None:
        seat = self._seat(seat)
        error = self._turn_error(seat)
        if error:
            return error
        hand = self.hands[seat]
        bit = 1 << card
        if not hand & bit:
            return CardNotHeld(f"You do not hold the {ALL_CARDS[card].symbol}")
        if bit & self.legal_mask():
            return None
        if self.trick:
            if hand & self.lead_mask:
                led = SUIT_NAMES[SUITS[self.trick[0] // 13]]
                return IllegalMove(f"You must follow {led}", "R3.2")
            return IllegalMove(
                "No points on the first trick: play a card that is not a heart or the Q♠", "R3.3"
            )
        if self.first:
            return IllegalMove(
                f"The {CARDS[self.opening].symbol} must lead the first trick", "R3.1"
            )
        return IllegalMove("Hearts are not broken yet", "R3.5")

    def _phase_words(self, action: str) -> str:
        now = {
            PASSING: "cards are being passed",
            PLAYING: "cards are being played",
            MOON: "the moon choice is awaited",
            HAND_OVER: "the hand is over",
            FINISHED: "the match is over",
        }[self.phase]
        return f"You cannot {action} now: {now}"

    # ----- the checked door -----

    def start_hand(self, deal: Deal) -> None:
        """Begin the next hand with the caller's deal (R6.1, R6.2)."""
        if self.phase != HAND_OVER:
            raise WrongPhase(self._phase_words("start a hand"))
        if not isinstance(deal, Deal):
            raise BadDeal("start_hand needs a Deal")
        masks = deal.masks
        union = 0
        for mask in masks:
            union |= mask
        if (
            len(masks) != self.n
            or union != self.deck
            or any(m.bit_count() != self.hand_size for m in masks)
        ):
            raise BadDeal(f"This deal is not a {self.n}-player deck dealt evenly")
        self.start_hand_fast(deal)

    def pass_cards(self, seat: int, cards: Iterable[Card | str]) -> None:
        """Pass three cards from a seat's hand (R2.1, R2.5); received cards stay hidden (R2.2)."""
        seat = self._seat(seat)
        if self.phase != PASSING:
            raise WrongPhase(self._phase_words("pass cards"), "R2.1")
        if self.passes[seat] is not None:
            raise NotYourTurn("You have already passed this hand", "R2.1")
        items: list[Card | str]
        if isinstance(cards, str):
            items = list(cards.split())  # "QS AH KH" is accepted too
        else:
            items = [cards] if isinstance(cards, Card) else list(cards)
        indices = [_card_index(c) for c in items]
        if len(indices) != PASS_SIZE:
            raise BadPass(f"Pass exactly three cards, not {len(indices)}")
        mask = 0
        for i in indices:
            mask |= 1 << i
        if mask.bit_count() != PASS_SIZE:
            raise BadPass("Pass three different cards")
        missing = mask & ~self.hands[seat]
        if missing:
            card = ALL_CARDS[(missing & -missing).bit_length() - 1]
            raise CardNotHeld(f"You do not hold the {card.symbol}", "R2.5")
        self.pass_fast(seat, mask)

    def play(self, seat: int, card: Card | str) -> None:
        """Play a card for a seat, or raise the error naming the rule that forbids it (R3.8).

        >>> from games.engine import Deal, Match, RuleSet
        >>> match = Match.new(RuleSet(players=4))
        >>> match.start_hand(Deal.from_seed(match.rules, 7))
        >>> for seat in range(4):
        ...     match.pass_cards(seat, match.hand(seat)[-3:])
        >>> match.play(0, "2C")
        >>> match.play(1, "KS")
        Traceback (most recent call last):
        ...
        games.engine.errors.IllegalMove: You must follow clubs
        >>> match.illegal_reason(1, "KS").rule  # the error names its rule; the state is unchanged
        'R3.2'
        >>> match.play(1, "AC")
        >>> [(played.seat, str(played.card)) for played in match.public_view().trick]
        [(0, '2C'), (1, 'AC')]
        """
        index = _card_index(card)
        error = self._play_error(seat, index)
        if error is not None:
            raise error
        self.play_fast(index)

    def choose_moon(self, seat: int, option: str) -> None:
        """Apply the shooter's moon choice, "subtract" or "add" (R4.3)."""
        seat = self._seat(seat)
        if self.phase != MOON:
            raise WrongPhase(self._phase_words("choose a moon option"), "R4.3")
        if seat != self.shooter:
            raise NotYourTurn(f"Only seat {self.shooter}, who shot the moon, chooses", "R4.3")
        if option not in MOON_CHOICES:
            raise BadMoonChoice(f"Choose subtract or add, not {option!r}")
        self.moon_fast(option)

    # ----- the trusting door: same state changes, no checks -----

    def start_hand_fast(self, deal: Deal) -> None:
        """Begin the next hand without checking the deal."""
        self._new_hand(deal)
        self.pass_offset = self.rules.pass_offset(self.hand_no)
        if self.pass_offset:
            self.phase = PASSING
            self.waiting = self.n
            self.turn = -1
        else:
            self._begin_play()

    def _new_hand(self, deal: Deal) -> None:
        """Count the next hand and deal it, clearing the last hand's passes, tricks and points."""
        n = self.n
        self.hand_no += 1
        self.deal = deal
        self.hands = list(deal.masks)
        self.passes = [None] * n
        self.received = [0] * n
        self.taken = [0] * n
        self.tricks = []
        self.trick = []
        self.trick_mask = 0
        self.lead_mask = 0
        self.broken = False
        self.shooter = None

    def pass_fast(self, seat: int, mask: int) -> None:
        """Record a seat's pass; once every seat has passed, hand the cards over."""
        self.hands[seat] &= ~mask
        self.passes[seat] = mask
        self.waiting -= 1
        if self.waiting:
            return
        n, off, hands, received = self.n, self.pass_offset, self.hands, self.received
        for s, passed in enumerate(self.passes):
            assert passed is not None  # play begins once every seat has passed
            to = (s + off) % n
            hands[to] |= passed
            received[to] = passed
        self._begin_play()

    def _begin_play(self) -> None:
        bit = 1 << self.opening
        leader = 0
        while not self.hands[leader] & bit:
            leader += 1
        self.turn = self.leader = leader
        self.first = True
        self.phase = PLAYING

    def play_fast(self, card: int) -> int:
        """Play card index `card` for the seat to act, trusting that it is legal.

        Return the legal plays of the next seat to act, as legal_mask() would then, or 0 once
        the hand's last trick is taken: a playout needs one call per card, not two. They are
        worked out here, where the branch taken already tells whether a trick is under way.
        """
        seat = self.turn
        bit = 1 << card
        hands = self.hands
        hands[seat] ^= bit
        trick = self.trick
        trick.append(card)
        self.trick_mask |= bit
        if bit & POINTS_MASK:
            self.broken = True  # R3.5: a heart or the Q♠ breaks hearts
        leader = self.leader
        if seat == leader:
            self.lead_mask = SUIT_MASKS[card // 13]
        # Play goes left (R1.5); the trick is complete when that comes back to its leader,
        # a test cheaper than counting the cards played.
        seat = self.left[seat]
        if seat != leader:
            self.turn = seat
            return following(hands[seat], self.lead_mask, self.first)
        # R3.4: the highest card of the suit led is the top bit of the trick within that suit.
        top = (self.trick_mask & self.lead_mask).bit_length() - 1
        winner = (leader + trick.index(top)) % self.n
        self.taken[winner] |= self.trick_mask
        tricks = self.tricks
        tricks.append((leader, tuple(trick), winner))
        self.trick = []
        self.trick_mask = 0
        self.turn = self.leader = winner
        self.first = False
        if len(tricks) == self.hand_size:
            self._end_hand()
            return 0
        hand = hands[winner]
        if self.broken:
            return hand
        return hand & NO_HEARTS or hand  # R3.5, R3.6 (Q♠ is not a heart), R3.7

    def _end_hand(self) -> None:
        self.turn = -1
        for seat, taken in enumerate(self.taken):
            if taken & self.ALL_POINTS == self.ALL_POINTS:
                self.shooter = seat
                option = self.rules.moon
                if option == "ask":
                    self.phase = MOON
                    return
                self.moon_fast(option)
                return
        self._score(None, None)

    def moon_fast(self, option: str) -> None:
        """Apply a moon choice for the shooter without checks."""
        self._score(self.shooter, option)

    def _score(self, shooter: int | None, option: str | None) -> None:
        points = self.points_taken
        # R4.3: all the points to the shooter become minus them for the shooter, or plus them
        # for everyone else; R5.1/R5.4: the bonus card's -10 is added after that choice.
        bonus = self.bonus_taker if self.bonus else None
        scores = hand_scores(points, shooter, option, self.rules.moon_points, bonus)
        for s, v in enumerate(scores):
            self.totals[s] += v
        self.sheet.append(
            ScoreRow(tuple(points), tuple(scores), tuple(self.totals), shooter, option, bonus)
        )
        self.phase = FINISHED if self.rules.is_over(self.hand_no, self.totals) else HAND_OVER

    # ----- decisions, views, snapshots (see record.py and views.py) -----

    def apply(self, decision: Decision) -> None:
        """Apply a seat's decision through the checked door.

        >>> from games.engine import Deal, Pass, Play, RuleSet
        >>> match = Match.new(RuleSet(players=4))
        >>> match.start_hand(Deal.from_seed(match.rules, 7))
        >>> match.apply(Pass(0, match.hand(0)[-3:]))
        >>> match.apply(Play(1, Card.parse("2C")))
        Traceback (most recent call last):
        ...
        games.engine.errors.WrongPhase: You cannot play a card now: cards are being passed
        """
        if isinstance(decision, Play):
            self.play(decision.seat, decision.card)
        elif isinstance(decision, Pass):
            self.pass_cards(decision.seat, decision.cards)
        elif isinstance(decision, MoonChoice):
            self.choose_moon(decision.seat, decision.option)
        else:
            raise BadDecision(f"Not a decision: {decision!r:.40}")

    def apply_unchecked(self, decision: Decision) -> None:
        """Apply a seat's decision through the trusting door."""
        if isinstance(decision, Play):
            self.play_fast(self.card_index(decision.seat, decision.card))
        elif isinstance(decision, Pass):
            mask = 0
            for card in decision.cards:
                mask |= 1 << self.card_index(decision.seat, card)
            self.pass_fast(decision.seat, mask)
        elif isinstance(decision, MoonChoice):
            self.moon_fast(decision.option)
        else:
            raise BadDecision(f"Not a decision: {decision!r:.40}")

    def snapshot(self) -> dict[str, Any]:
        """Return the compact JSON-serialisable state."""
        return LENT.snapshot(self)

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Match:
        """Return the match a snapshot describes (checked: a bad one raises BadSnapshot)."""
        return LENT.from_snapshot(data)

    def view(self, seat: int) -> SeatView:
        """Return what one seat may know (R6.3)."""
        return _viewers(type(self))[0](self, self._seat(seat))

    def public_view(self) -> PublicView:
        """Return what a spectator may know (R6.3)."""
        return _viewers(type(self))[1](self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Match {self.n}p hand {self.hand_no} {self.phase} totals {self.totals}"
            f" to act {list(self.to_act())}>"
        )


# ----- what the other modules lend to Match -----
# The variants, the views and the snapshots all need Match, and Match hands work to them. So that
# state.py imports none of them (no import circle), each registers itself here when it is
# imported, and `games/engine/__init__.py` imports every one: any use of the engine has them.

M = TypeVar("M", bound=Match)
SeatViewer = Callable[[Any, int], SeatView]
PublicViewer = Callable[[Any], PublicView]

_VARIANTS: dict[str, type[Match]] = {}
_VIEWERS: dict[type[Match], tuple[SeatViewer, PublicViewer]] = {}


def register_variant(variant: str, cls: type[Match]) -> None:
    """Make `Match.new` (and so snapshots and replay) build `cls` for rule sets of `variant`."""
    _VARIANTS[variant] = cls


def register_views(
    cls: type[M], seat_view: Callable[[M, int], SeatView], public_view: Callable[[M], PublicView]
) -> None:
    """Make `view` and `public_view` of `cls` (and of its subclasses) call these builders."""
    _VIEWERS[cls] = (seat_view, public_view)


def _viewers(cls: type[Match]) -> tuple[SeatViewer, PublicViewer]:
    try:
        return _VIEWERS[cls]
    except KeyError:
        # A subclass no builder registered for is viewed as its nearest registered base.
        for base in cls.__mro__:
            if base in _VIEWERS:
                _VIEWERS[cls] = _VIEWERS[base]
                return _VIEWERS[cls]
        raise


def _not_lent(*args: object) -> Any:
    raise RuntimeError("games.engine.record is not imported: import games.engine")


class _Lent:
    """The snapshot functions record.py lends to Match (see `lend_record`)."""

    def __init__(self) -> None:
        self.snapshot: Callable[[Match], dict[str, Any]] = _not_lent
        self.from_snapshot: Callable[[dict[str, Any]], Match] = _not_lent


LENT = _Lent()


def lend_record(
    snapshot: Callable[[Match], dict[str, Any]],
    from_snapshot: Callable[[dict[str, Any]], Match],
) -> None:
    """Make `Match.snapshot` and `from_snapshot` call record.py's functions."""
    LENT.snapshot, LENT.from_snapshot = snapshot, from_snapshot
