"""The rules page: plain words for players, every figure the same as the engine's.

The expected figures are found here from the engine's deals and matches, not through the
view's code, so that the page and the table cannot drift apart unnoticed.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.models import MoonOption
from games.services import clocks
from tests.factories import client_for

ANCHORS = [
    "aim", "deal", "passing", "playing", "first-trick", "leading-hearts", "scoring", "moon",
    "match-end", "variant-omnibus", "variant-cancellation", "timed",
]  # fmt: skip


def main_of(html: str) -> str:
    """Return the page's own content: the <main> element, without the site's shell."""
    return html[html.index("<main") : html.index("</main>")]


def row(html: str, table: str, players: int) -> str:
    body = html[html.index(f'data-deal-table="{table}"') :]
    body = body[: body.index("</table>")]
    return re.search(rf'<tr data-players="{players}">(.*?)</tr>', body, re.S)[1]


def cell(row_html: str, name: str) -> str:
    return re.search(rf"<td {name}>(.*?)</td>", row_html, re.S)[1]


@pytest.fixture
def page(db) -> str:
    response = Client().get(reverse("rules"))
    assert response.status_code == 200
    return response.content.decode()


def test_the_rules_answer_visitors_and_players_alike(db, alice):
    assert reverse("rules") == "/rules/"
    for client in (Client(), client_for(alice)):
        response = client.get("/rules/")
        assert response.status_code == 200
        assert "How to play Hearts" in response.content.decode()
    assert Client().post("/rules/").status_code == 405


def test_players_see_no_rule_numbers(page):
    assert not re.search(r"\bR\d", main_of(page))


def test_every_part_has_an_anchor_the_table_can_link_to(page):
    for anchor in ANCHORS:
        assert f'id="{anchor}"' in page, anchor
        assert f'href="#{anchor}"' in page or anchor in ("first-trick", "leading-hearts"), anchor


def test_each_variant_has_its_own_section(page):
    for anchor, name in (
        ("variant-omnibus", "Omnibus Hearts"),
        ("variant-cancellation", "Cancellation Hearts"),
    ):
        section = page[page.index(f'id="{anchor}"') :]
        section = section[: section.index("</section>")]
        assert f">{name}</h2>" in section


def dealt(rules: engine.RuleSet) -> engine.Deal:
    return engine.Deal.from_seed(rules, 7)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_deal_table_shows_the_cards_the_engine_deals(page, players):
    deal = dealt(engine.RuleSet(players=players))
    in_play = set()
    for hand in deal.hands:
        in_play |= {card.text for card in hand}
    removed = sorted(card.text for card in engine.CARDS if card.text not in in_play)
    line = row(page, "standard", players)
    assert sorted(re.findall(r'data-card="(\w+)"', cell(line, "data-removed"))) == removed
    if not removed:
        assert "none" in cell(line, "data-removed")
    assert int(cell(line, "data-cards-each")) == len(deal.hands[0]) == 52 // players
    assert {len(hand) for hand in deal.hands} == {len(deal.hands[0])}
    # Every heart and the Q♠ stay in: 26 points in every hand.
    assert sum(engine.Card.parse(text).points for text in in_play) == 26


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_card_shown_to_lead_is_the_only_card_the_engine_lets_lead(page, players):
    match = engine.Match.new(engine.RuleSet(players=players))
    match.start_hand(dealt(match.rules))
    for seat in range(players):
        match.pass_cards(seat, match.hand(seat)[:3])
    (leader,) = match.to_act()
    (opening,) = match.legal_plays(leader)
    line = row(page, "standard", players)
    assert re.findall(r'data-card="(\w+)"', cell(line, "data-opening")) == [opening.text]
    clubs_in_play = [c for hand in dealt(match.rules).hands for c in hand if c.suit == "C"]
    assert opening == min(clubs_in_play)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_passing_table_follows_the_rules(page, players):
    body = page[page.index("data-passing-table") :]
    body = body[: body.index("</table>")]
    line = re.search(rf'<tr data-players="{players}">(.*?)</tr>', body, re.S)[1]
    shown = re.findall(r'data-direction="(\w+)"', line)
    # Four players: left, right, across, no pass; every other size: left, right, and again.
    expected = ["left", "right", "across", "none"] if players == 4 else ["left", "right"] * 2
    assert shown == expected
    rules = engine.RuleSet(players=players)
    assert [rules.pass_direction(hand) for hand in range(1, 9)] == expected * 2
    assert "From hand 5 on, the same order starts again." in page


@pytest.mark.parametrize("players", range(5, 11))
def test_the_cancellation_table_shows_the_cards_and_the_widow(page, players):
    rules = engine.RuleSet(players=players, variant=engine.CANCELLATION)
    deal = dealt(rules)
    line = row(page, "cancellation", players)
    each = len(deal.hands[0])
    assert int(cell(line, "data-cards-each")) == each == 104 // players
    assert int(cell(line, "data-widow")) == len(deal.widow_cards) == 104 - each * players


def test_the_tables_list_exactly_the_sizes_each_game_allows(page):
    for table, variant in (("standard", engine.STANDARD), ("cancellation", engine.CANCELLATION)):
        body = page[page.index(f'data-deal-table="{table}"') :]
        body = body[: body.index("</table>")]
        sizes = [int(n) for n in re.findall(r'<tr data-players="(\d+)">', body)]
        assert sizes == list(engine.players_allowed(variant))
    assert list(engine.players_allowed(engine.OMNIBUS)) == list(range(3, 8))
    assert "for 3 to 7 players (up to 10 in Cancellation Hearts)" in page


def test_the_moon_options_are_named_as_the_lobby_and_the_match_page_name_them(page):
    options = page[page.index("data-moon-options") :]
    options = options[: options.index("</ul>")]
    for option in MoonOption:
        assert str(option.label) in options, option


def test_the_points_match_the_engine(page):
    qs, heart = engine.Card.parse("QS"), engine.Card.parse("2H")
    assert (qs.points, heart.points) == (13, 1)
    assert "scores 1 point for each heart they took, and 13 for the" in page
    assert "That makes 26 points in every hand." in page
    assert engine.RuleSet().moon_points == 26
    assert "subtract 26 from their own total" in page
    two_decks = engine.RuleSet(players=5, variant=engine.CANCELLATION)
    assert two_decks.moon_points == 52
    assert "every hand has 52 points" in page
    assert "52 off their own total, or 52 added to everyone else" in page


def test_omnibus_scores_as_the_engine_scores_it(page):
    section = page[page.index('id="variant-omnibus"') :]
    section = section[: section.index("</section>")]
    cards = re.findall(r'data-card="(\w+)"', section)
    assert cards[:2] == ["JD", "TD"] and engine.BONUS_CARDS == ("JD", "TD")
    assert engine.RuleSet(variant=engine.OMNIBUS).bonus_card == "JD"
    # The bonus card is never taken out of the deck.
    for players in engine.players_allowed(engine.OMNIBUS):
        rules = engine.RuleSet(players=players, variant=engine.OMNIBUS)
        in_play = {c.text for hand in dealt(rules).hands for c in hand}
        assert {"JD", "TD"} <= in_play
    assert "Whoever takes it scores −10" in section
    assert "scores −36 if they subtract, or −10 if they add" in section
    assert "the player who took it scores −10 if the shooter subtracts, or +16 if" in section


def test_the_match_end_figures_are_the_engines(page):
    with pytest.raises(engine.BadRules):
        engine.RuleSet(target=24)
    with pytest.raises(engine.BadRules):
        engine.RuleSet(target=501)
    with pytest.raises(engine.BadRules):
        engine.RuleSet(hands=51)
    assert engine.RuleSet(target=25).target == 25 and engine.RuleSet(hands=50).hands == 50
    assert engine.RuleSet().target == 100
    assert "100 points, unless the match was created with another (from 25 to 500)" in page
    assert "a fixed number of hands, from 1 to 50" in page
    assert "they share the win" in page


def test_the_clock_is_described_as_it_runs(page):
    section = page[page.index('id="timed"') :]
    section = section[: section.index("</section>")]
    assert clocks.BANK_REFILL_SHARE == 0.25 and "a quarter of the time you did not use" in section
    assert "from a minute to 14 days" in section
    assert "After 2 timeouts in a row, a bot takes your seat" in section
    assert clocks.DECISION_PRESETS[0][0] == 60 and clocks.DECISION_PRESETS[-1][0] == 14 * 86400


CARD = re.compile(r'<span class="playing-card[^"]*" data-card="\w+">.*?</span></span>')


def test_cards_standing_alone_are_named_for_screen_readers(page):
    cards = CARD.findall(main_of(page))
    assert len(cards) > 10
    for card in cards:
        assert 'aria-hidden="true"' in card and 'class="visually-hidden"' in card, card
