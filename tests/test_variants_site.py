"""The variants at the table (R5): the lobby's games played through the pages."""

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games import engine
from games.models import Action, Hand, Match
from games.presenters.table import Place, announcement, cancelled_so_far, plays_of
from games.presenters.tricks import shown_trick
from tests.factories import client_for, make_match, play_to_the_end
from tests.test_score_sheet import ROW_HEADER

CARD_CODES = re.compile(r'data-card="([2-9TJQKA][CDHS]2?)"')


def hand_codes(page: str) -> list[str]:
    hand = page.split('id="hand"', 1)[1]
    return CARD_CODES.findall(hand)


@pytest.mark.parametrize("players", range(5, 11), ids=lambda n: f"players={n}")
def test_R5_2_a_cancellation_match_is_played_to_the_end_through_the_pages(alice, players):
    match = make_match(alice, players=players, bots=players - 1, variant="cancellation", hands=1)
    client = client_for(alice)
    page = client.get(match.get_absolute_url()).text
    assert "Cancellation Hearts (two decks)" in page
    assert "Dealer" in page and "no pass this hand" in page
    widow = engine.RuleSet(players=players, variant="cancellation").widow_size
    if widow:  # its taker known once the first trick is taken (a forced card may have been)
        cards = f"{widow} card{'s' if widow > 1 else ''}"
        assert re.search(f"{cards}, (for whoever takes the first trick|taken by )", page)
    codes = hand_codes(page)
    # Every card of the hand has its own code, a second copy's ending in 2 (R5.2). Forced
    # cards may have been played for her already (the bots play on in the background, so the
    # log is read after the page): every dealt card is in her hand on the page or in the log.
    dealt = Hand.objects.get(match=match, number=1).deal["hands"][0].split()
    played = set(Action.objects.filter(match=match, seat=0).values_list("value", flat=True))
    assert len(codes) == len(set(codes)) and set(codes) <= set(dealt)
    assert set(dealt) - set(codes) <= played
    assert len(dealt) == 104 // players
    for _, response in play_to_the_end({0: client}, match, htmx=True):
        assert response.status_code == 200
    match.refresh_from_db()
    assert match.status == "finished"
    page = client.get(match.get_absolute_url()).text
    assert "Match over" in page or "won the match" in page.lower() or "result-heading" in page
    sheet = client.get(reverse("scores", args=[match.pk])).text
    assert re.findall(ROW_HEADER, sheet) == ["1"]
    # Its one hand replays, step by step, to its end.
    assert client.get(reverse("hand_review", args=[match.pk, 1]) + "?step=999").status_code == 200


@pytest.mark.parametrize("bonus", ["JD", "TD"])
def test_R5_1_the_bonus_card_and_its_taker_are_shown_and_marked_on_the_sheet(alice, bonus):
    match = make_match(alice, bots=3, variant="omnibus", bonus_card=bonus, hands=1)
    client = client_for(alice)
    page = client.get(match.get_absolute_url()).text
    name = "10♦" if bonus == "TD" else "J♦"
    assert f"Omnibus Hearts (bonus card {name})" in page
    assert "not taken yet" in page
    for _, response in play_to_the_end({0: client}, match, htmx=True):
        assert response.status_code == 200
    sheet = client.get(reverse("scores", args=[match.pk])).text
    # Someone took it: every trick of Omnibus Hearts is won.
    assert sheet.count('class="bonus-mark"') == 1 and "Took the bonus card:" in sheet


def test_a_standard_match_shows_no_variant(alice):
    match = make_match(alice, bots=3)
    page = client_for(alice).get(match.get_absolute_url()).text
    assert "<dt>Game</dt>" not in page and "Bonus card" not in page and "Widow" not in page


def places(n: int) -> dict[int, Place]:
    from types import SimpleNamespace

    from games.presenters.table import places as seat_places

    seats = [
        SimpleNamespace(
            position=p, name=f"Seat {p}", is_bot=True, bot_level="easy",
            get_bot_level_display=lambda: "easy", resigned=False, is_empty=False, rank=None,
            won=False,
            pk=None, deadline=None, timeouts_in_a_row=0,
        )
        for p in range(n)
    ]  # fmt: skip
    return {place.position: place for place in seat_places(seats, None, None)}


def played(*cards: tuple[int, str]) -> tuple[engine.PlayedCard, ...]:
    return tuple(engine.PlayedCard(seat, engine.Card.parse(code)) for seat, code in cards)


def test_R5_2_twins_in_the_trick_in_play_are_marked_cancelled():
    plays = played((0, "QH"), (1, "QH2"), (2, "2H"), (3, "5C"), (4, "5C2"))
    marked = plays_of(plays, places(5), cancelled_so_far(plays))
    assert [p.cancelled for p in marked] == [True, True, False, True, True]


def test_R5_2_a_trick_nobody_won_is_told_and_its_cards_wait():
    by_pos = places(5)
    trick = engine.TrickView(
        leader=0,
        plays=played((0, "9S"), (1, "9S2"), (2, "2H"), (3, "KD"), (4, "4C")),
        winner=None,
        points=1,
        cancelled=(engine.Card.parse("9S"), engine.Card.parse("9S2")),
        taker=None,
    )
    shown = shown_trick(trick, by_pos, hand=None, number=3)
    assert shown["winner"] is None and shown["taker"] is None
    assert [p.cancelled for p in shown["plays"]] == [True, True, False, False, False]
    html = render_to_string("games/_table.html", {"last_trick": shown, "places": []})
    assert "Nobody won it: every card of the suit led was cancelled." in html
    assert "Its cards (1 point) wait for the next trick's winner." in html
    assert html.count("cancelled</span>") == 2


def test_R5_2_the_announcement_says_a_trick_was_not_won(alice):
    match = make_match(alice, players=5, bots=4, variant="cancellation", hands=1)
    view = engine.Match.from_snapshot(match.snapshot).public_view()
    trick = engine.TrickView(
        leader=1,
        plays=played((1, "9S"), (2, "9S2"), (3, "2H"), (4, "KD"), (0, "4C")),
        winner=None,
        points=1,
        cancelled=(engine.Card.parse("9S"), engine.Card.parse("9S2")),
    )
    import dataclasses

    view = dataclasses.replace(view, phase=engine.PLAYING, tricks=(trick,), trick=(), to_act=(1,))
    said = announcement(view, places(5), None, None, None)
    assert "Nobody won the trick: every card of the suit led was cancelled" in said


def test_R5_the_lobby_lists_the_game_of_an_open_match(alice, bob):
    match = make_match(alice, start=False, players=6, variant="cancellation")
    assert isinstance(match, Match)
    html = client_for(bob).get(reverse("lobby")).text
    listed = html.split('id="open-matches"')[1].split("</section>")[0]
    assert "Cancellation Hearts" in listed


@pytest.mark.parametrize("variant", ["omnibus", "cancellation"])
def test_R5_a_finished_variant_match_is_recorded_and_rebuilt_alike(alice, variant):
    from django.core.management import call_command

    from games.models import ScoreLine

    players = 5 if variant == "cancellation" else 4
    match = make_match(alice, players=players, bots=players - 1, variant=variant, hands=1)
    for _ in play_to_the_end({0: client_for(alice)}, match, htmx=True):
        pass
    lines = ScoreLine.objects.filter(match=match)
    # Somebody took a Q♠: every card is taken, a trick nobody won by the next winner or leader.
    assert sum(bool(line.took_queen) for line in lines) == 1

    def player_page() -> str:
        page = client_for(alice).get(reverse("player", args=["Alice"])).text
        return re.sub(r"\s+", " ", page.split("<main", 1)[1].split("</main>", 1)[0])

    before = player_page()
    assert f'href="/matches/{match.pk}/"' in before  # among her recent matches
    call_command("rebuild_stats", verbosity=0)
    assert player_page() == before
