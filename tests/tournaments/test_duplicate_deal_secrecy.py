"""Duplicate deals keep their secrets: no card of a shared deal reaches another table's eyes.

Tables of one size in a round play the same deals seat for seat. A player at table 1 who could
watch table 2 would learn what their own opponents hold; so, until the round is closed, a
table of a shared deal group shows spectators (other entrants and outsiders alike) its seats
and status only, by every route: no total either, since a total after a hand tells who took
the Q♠. Its own players see it as R6.3 says, and staff see it. `test_sealed_everywhere.py`
asks every route as every kind of viewer.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.engine.cards import CARDS
from games.models import Match, MatchStatus, Table, Tournament
from games.services import tournaments as tours
from tests.async_helpers import run_async
from tests.factories import HTMX, client_for
from tests.live_helpers import connect, receive_until
from tests.tournament_helpers import BOT, enter, make_players, make_tournament, play_round

# Any sign of a card in a page: a card element, a form value, or a card named in words.
CARD_MARKERS = tuple((f'data-card="{card}"', f'value="{card}"', card.words) for card in CARDS)


ROUTES = {"pass": "pass_cards", "play": "play_card", "moon": "choose_moon"}


def shown_cards(html: str) -> list[str]:
    """Return every marker of a card that the page shows."""
    return [marker for markers in CARD_MARKERS for marker in markers if marker in html]


def start_round_of_two_tables() -> tuple[Tournament, list[Table]]:
    """Eight entrants at two tables of four sharing their deals; the round under way."""
    tournament = make_tournament(hands=1)
    users = make_players(8)
    enter(tournament, users)
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, by=users[0])
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("number"))
    assert tables[0].deal_group and tables[0].deal_group == tables[1].deal_group
    return tournament, tables


@pytest.fixture
def round_of_two_tables(db):
    return start_round_of_two_tables()


def person_at(match: Match, position: int):
    return match.seats.get(position=position).user


def move_once(match: Match) -> bool:
    """Make the next person's decision through the views; say False once the match is over."""
    match.refresh_from_db()
    if match.status != MatchStatus.ACTIVE:
        return False
    seat = match.seats.filter(to_act=True, user__isnull=False, resigned=False).first()
    state = engine.Match.from_snapshot(match.snapshot)
    decision = BOT.choose(state.view(seat.position)).to_dict()
    client = client_for(seat.user)
    url = reverse(ROUTES[decision["type"]], args=[match.pk])
    data: dict = {"version": match.version}
    if decision["type"] == "pass":
        data["cards"] = [str(card) for card in decision["cards"]]
    elif decision["type"] == "play":
        data["card"] = str(decision["card"])
    else:
        data["option"] = decision["option"]
    assert client.post(url, data, **HTMX).status_code == 200
    return True


def test_spectators_of_a_shared_deal_see_no_card_at_any_step(round_of_two_tables, make_user):
    tournament, (table1, table2) = round_of_two_tables
    match = table1.match
    inside = client_for(person_at(table2.match, 0))  # plays the same deals at table 2
    outside = client_for(make_user("watcher", "Watcher"))
    anonymous = Client()
    own = client_for(person_at(match, 0))
    pages = {
        "page": (reverse("match", args=[match.pk]), {}),
        "regions": (reverse("match", args=[match.pk]), HTMX),
        "score sheet": (reverse("scores", args=[match.pk]), {}),
        "score region": (reverse("scores", args=[match.pk]), HTMX),
        "tournament": (reverse("tournament", args=[tournament.slug]), {}),
    }
    steps = 0
    own_saw_cards = False
    while move_once(match):
        steps += 1
        for who, client in (("entrant", inside), ("outsider", outside)):
            for name, (url, extra) in pages.items():
                response = client.get(url, **extra)
                assert response.status_code == 200, (who, name)
                assert shown_cards(response.text) == [], f"step {steps}: {name} to the {who}"
        if steps % 5 == 0:
            response = anonymous.get(pages["tournament"][0])
            assert shown_cards(response.text) == [], "tournament page, signed out"
        own_saw_cards |= bool(shown_cards(own.get(pages["page"][0]).text))
    assert steps > 10
    assert own_saw_cards, "the table's own players still see their cards"
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    # Finished, but table 2 has not played the deal yet: still sealed.
    page = inside.get(pages["score sheet"][0]).text
    assert shown_cards(page) == [] and "once the round is closed" in page


def test_the_sealed_table_shows_seats_and_status_only(round_of_two_tables, make_user):
    tournament, (table1, _) = round_of_two_tables
    match = table1.match
    for _ in range(8):
        move_once(match)
    page = client_for(make_user("watcher", "Watcher")).get(match.get_absolute_url()).text
    for seat in match.seats.all():
        assert seat.name in page
    assert "In play" in page
    assert "stay hidden" in page and "until the round is closed" in page
    assert 'class="trick-card"' not in page and "last-trick" not in page
    assert "to play</strong>" not in page and "to lead" not in page  # who acts names the 2♣
    assert not re.search(r'class="seat-cards"', page)  # cards left tell who led
    assert 'class="seat-total"' not in page  # a total after a hand tells who took the Q♠


def test_the_tournament_page_does_not_say_who_is_to_act_at_a_sealed_table(
    round_of_two_tables, make_user
):
    tournament, (table1, table2) = round_of_two_tables
    url = reverse("tournament", args=[tournament.slug])
    outsider = client_for(make_user("watcher", "Watcher")).get(url).text
    assert "to act:" not in outsider
    assert "Honour rule" in outsider
    # A player sees who is to act at their own table only.
    player = person_at(table1.match, 0)
    page = client_for(player).get(url).text
    assert page.count("to act:") + page.count("bots to move") == 1


def test_staff_see_the_cards_of_a_sealed_table(round_of_two_tables, make_user):
    _, (table1, _) = round_of_two_tables
    for _ in range(6):
        move_once(table1.match)
    staff = client_for(make_user("boss", "Boss", is_staff=True))
    assert shown_cards(staff.get(table1.match.get_absolute_url()).text)


def test_the_seal_lifts_when_the_round_is_closed(round_of_two_tables, make_user):
    tournament, (table1, _) = round_of_two_tables
    play_round(tournament)
    watcher = client_for(make_user("watcher", "Watcher"))
    assert shown_cards(watcher.get(reverse("scores", args=[table1.match.pk])).text) == []
    tours.close_round(tournament.pk)
    sheet = watcher.get(reverse("scores", args=[table1.match.pk])).text
    assert "once the round is closed" not in sheet and "sheet-total" in sheet
    assert shown_cards(watcher.get(table1.match.get_absolute_url()).text), "the last trick"


def test_tables_without_a_shared_deal_are_not_sealed(make_user):
    tournament = make_tournament(hands=1, duplicate_deals=False)
    enter(tournament, make_players(8))
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, by=make_user("boss", "Boss", is_staff=True))
    match = Table.objects.filter(round__tournament=tournament).first().match
    for _ in range(8):
        move_once(match)
    page = client_for(make_user("watcher", "Watcher")).get(match.get_absolute_url()).text
    assert "until the round is closed" not in page


@pytest.mark.django_db(transaction=True)
def test_a_sealed_follow_names_nobody_to_act(make_user):
    _, (table, _) = start_round_of_two_tables()
    match = table.match
    watcher = make_user("watcher", "Watcher")
    player = match.seats.filter(to_act=True, user__isnull=False).first().user

    async def scenario() -> tuple[dict, dict]:
        sealed, _ = await connect(watcher)
        await sealed.send_json_to({"follow": match.pk})
        (frame,) = await receive_until(sealed, lambda events: events[-1]["type"] == "following")
        own, _ = await connect(player)
        await own.send_json_to({"follow": match.pk})
        events = await receive_until(own, lambda events: events[-1]["type"] == "following")
        await sealed.disconnect()
        await own.disconnect()
        return frame, events[-1]

    sealed, own = run_async(scenario)
    assert sealed["to_act"] == []
    assert own["to_act"], "the table's own players hear who is to act"
