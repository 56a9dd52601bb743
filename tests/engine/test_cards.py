"""Cards: text form, display helpers, ordering, and card sets."""

from __future__ import annotations

import copy
import pickle

import pytest

from games.engine import ALL_CARDS, CARDS, BadCard, Card, cards_from_mask, mask_of, parse_cards


def test_card_text_round_trips_for_all_52() -> None:
    assert len({str(c) for c in CARDS}) == 52
    for card in CARDS:
        assert Card.parse(str(card)) is card
        assert Card(card.rank, card.suit) is card
        assert Card.from_index(card.index) is card


def test_card_attributes_and_display() -> None:
    queen = Card.parse("QS")
    assert (queen.rank, queen.suit, str(queen)) == ("Q", "S", "QS")
    assert queen.symbol == "Q♠" and queen.words == "Queen of spades"
    assert Card.parse("TD").symbol == "10♦" and Card.parse("TD").words == "Ten of diamonds"
    assert (queen.rank_symbol, queen.suit_symbol, queen.suit_name) == ("Q", "♠", "spades")
    assert Card.parse("TH").rank_symbol == "10"
    assert Card.parse("2C").symbol == "2♣" and Card.parse("AH").symbol == "A♥"
    assert Card.parse("TD").is_red and Card.parse("AH").is_red
    assert not queen.is_red and not Card.parse("2C").is_red
    assert queen.points == 13 and Card.parse("5H").points == 1 and Card.parse("KS").points == 0
    assert repr(queen) == "Card.parse('QS')"


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_a_cards_repr_rebuilds_it(card: Card) -> None:
    assert eval(repr(card), {"Card": Card}) == card


def test_cards_order_by_suit_then_rank() -> None:
    cards = [Card.parse(t) for t in ["AS", "2H", "TD", "KC", "2C", "9D", "JD"]]
    assert [str(c) for c in sorted(cards)] == ["2C", "KC", "9D", "TD", "JD", "2H", "AS"]
    assert Card.parse("2D") > Card.parse("AC")
    assert Card.parse("QS") < Card.parse("KS") <= Card.parse("KS")


def test_cards_are_immutable_values() -> None:
    card = Card.parse("QS")
    with pytest.raises(AttributeError):
        card.rank = "K"  # type: ignore[misc]
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert hash(card) == hash(Card.parse("QS")) and card == Card.parse("QS")
    assert card != "QS"


@pytest.mark.parametrize(
    "text", ["", "Q", "QSS", "1S", "10S", "QX", "ZZ", "♠Q", "qs", "Qs", "tD", " QS", None, 12]
)
def test_card_parse_rejects_anything_else(text: object) -> None:
    with pytest.raises(BadCard) as err:
        Card.parse(text)  # type: ignore[arg-type]
    assert isinstance(err.value, ValueError)
    assert "not a card" in str(err.value)


def test_card_index_bounds() -> None:
    for bad in (-1, 52, "3"):
        with pytest.raises(BadCard):
            Card.from_index(bad)  # type: ignore[arg-type]


def test_card_sets_convert_both_ways() -> None:
    cards = parse_cards("QS 2C TD")
    assert [str(c) for c in cards] == ["QS", "2C", "TD"]
    mask = mask_of(cards)
    assert mask.bit_count() == 3
    assert [str(c) for c in cards_from_mask(mask)] == ["2C", "TD", "QS"]
    assert mask_of(["QS", Card.parse("2C"), "TD"]) == mask
    assert cards_from_mask(0) == ()
