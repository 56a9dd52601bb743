"""Every form takes what its page offers, and refuses only with a clear message on the page.

Query parameters and form fields go through Django forms, whose integer fields take ASCII digits
alone ("²" passes `str.isdigit()` but not `int()`); seat positions are bounded by the match's
own seat count (ten at a Cancellation table); the lobby offers no time control it refuses.
"""

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Match, MatchStatus, Seat
from games.models.matches import MAX_BANK_SECONDS
from games.services import clocks
from tests.factories import HTMX, client_for, make_match, seat_of
from tests.records_helpers import finished_match
from tests.service_helpers import act, unchanged

NO_SUCH_SEAT = "There is no such seat at this table."


def replay_region(html: str) -> str:
    start = html.index('id="replay"')
    return html[start : html.index("</section>", start)]


# ----- the replay's step, and other query parameters -----


@pytest.mark.parametrize("step", ["²", "٣", "１", "-1", "1e3", "x", "9" * 40])
def test_a_replay_step_that_is_not_ascii_digits_shows_the_start_never_a_server_error(alice, step):
    match = finished_match(alice, hands=1, seed=5)
    url = reverse("hand_review", args=[match.pk, 1])
    client = client_for(alice)
    start = replay_region(client.get(url, {"step": "0"}).text)
    for headers in ({}, HTMX):
        response = client.get(url, {"step": step}, **headers)
        assert response.status_code == 200, step
        assert replay_region(response.text) == start


@pytest.mark.parametrize("size", ["²", "٤", "４", "0", "11", "x"])
def test_a_leaderboard_size_that_is_not_offered_is_refused_on_the_page(db, size):
    response = Client().get(reverse("leaderboard"), {"players": size})
    assert response.status_code == 400
    assert "Choose a table size" in response.text


# ----- joining a private match -----


@pytest.mark.parametrize("code", ["été", "\x00", "x" * 32, "é" * 32, "Ⅻ"])
def test_any_text_as_invite_code_is_refused_as_a_wrong_code_is(alice, bob, code):
    """An outsider with a wrong code hears "not found", as for any private match they cannot see."""
    match = make_match(alice, start=False, private=True)
    public = make_match(alice, start=False, players=5)
    before = unchanged(match)
    url = reverse("join_match", args=[match.pk])
    for headers in ({}, HTMX):
        assert client_for(bob).post(url, {"invite_code": code}, **headers).status_code == 404
    assert unchanged(match) == before
    assert not Seat.objects.filter(match=match, user=bob).exists()
    # A seated player is told why, in the page (a NUL is refused by the form itself).
    response = client_for(alice).post(url, {"invite_code": code})
    assert response.status_code == (400 if "\x00" in code else 409)
    assert ("Null characters" if "\x00" in code else "You already have a seat") in response.text
    assert unchanged(match) == before
    # A public match needs no code: whatever is sent, the seat is taken (a NUL is refused).
    joined = client_for(bob).post(reverse("join_match", args=[public.pk]), {"invite_code": code})
    if "\x00" in code:
        assert joined.status_code == 400 and "Null characters are not allowed" in joined.text
    else:
        assert joined.status_code == 302
        assert Seat.objects.filter(match=public, user=bob).exists()


def test_a_wrong_code_of_any_text_never_opens_the_match(alice, bob):
    match = make_match(alice, start=False, private=True)
    for code in ("été", "", match.invite_code + "é", match.invite_code[:-1], "\x00"):
        with pytest.raises(services.NotAllowed):
            services.join_match(bob, match.pk, code)
    assert services.join_match(bob, match.pk, match.invite_code).match.pk == match.pk


def test_the_invite_code_of_the_link_still_joins(alice, bob):
    match = make_match(alice, start=False, private=True)
    response = client_for(bob).post(
        reverse("join_match", args=[match.pk]), {"invite_code": match.invite_code}
    )
    assert response.status_code == 302
    assert Seat.objects.filter(match=match, user=bob).exists()


# ----- seats 7 to 9 of a ten-seat Cancellation table -----


@pytest.fixture
def ten_seats(alice) -> Match:
    return make_match(alice, start=False, players=10, variant="cancellation")


@pytest.mark.parametrize("position", [6, 7, 8, 9])
def test_a_bot_comes_and_goes_at_every_seat_of_a_ten_seat_table(alice, ten_seats, position):
    client = client_for(alice)
    assert f"Add a bot to seat {position + 1}<" in client.get(ten_seats.get_absolute_url()).text
    added = client.post(
        reverse("add_bot", args=[ten_seats.pk]), {"position": position, "level": "easy"}
    )
    assert added.status_code == 302
    seat = Seat.objects.get(match=ten_seats, position=position)
    assert seat.is_bot and seat.bot_level == "easy"
    removed = client.post(reverse("remove_bot", args=[ten_seats.pk]), {"position": position})
    assert removed.status_code == 302
    assert not Seat.objects.get(match=ten_seats, position=position).is_bot


@pytest.mark.parametrize("name", ["add_bot", "remove_bot"])
@pytest.mark.parametrize("position", ["10", "11", "-1", "²", "٩", "99999999999999999999"])
def test_a_seat_beyond_the_table_is_refused_with_a_message(alice, ten_seats, name, position):
    before = unchanged(ten_seats)
    response = client_for(alice).post(reverse(name, args=[ten_seats.pk]), {"position": position})
    assert response.status_code == 400
    assert NO_SUCH_SEAT in response.text
    assert unchanged(ten_seats) == before


def test_a_smaller_table_refuses_a_seat_a_larger_one_has(alice):
    match = make_match(alice, start=False, players=5, variant="cancellation")
    before = unchanged(match)
    response = client_for(alice).post(reverse("add_bot", args=[match.pk]), {"position": 7})
    assert response.status_code == 400 and NO_SUCH_SEAT in response.text
    assert unchanged(match) == before


def test_the_silent_tenth_seat_of_an_untimed_match_can_be_handed_over(alice, make_user, clock):
    people = [make_user(f"player{n}") for n in range(1, 10)]
    match = make_match(alice, people=people, players=10, variant="cancellation")
    everyone = [alice, *people]
    silent = people[-1]
    assert seat_of(match, silent) == 9
    # Everyone moves until the match waits on the last seat alone.
    while not Seat.objects.get(match=match, position=9).to_act:
        waiting = Seat.objects.filter(match=match, to_act=True).exclude(position=9).first()
        assert waiting is not None
        act(everyone[waiting.position], match, waiting.position)
    clock.advance(days=31)
    assert "Hand Player9's seat to a bot" in client_for(alice).get(match.get_absolute_url()).text
    response = client_for(alice).post(reverse("hand_over", args=[match.pk]), {"position": 9})
    assert response.status_code == 302
    seat = Seat.objects.get(match=match, position=9)
    assert seat.resigned and seat.left_on_time
    before = unchanged(match)
    beyond = client_for(alice).post(reverse("hand_over", args=[match.pk]), {"position": 10}, **HTMX)
    assert beyond.status_code == 400 and NO_SUCH_SEAT in beyond.text
    assert unchanged(match) == before


# ----- the lobby's time control -----


def _create(alice, **fields):
    data = {"players": 4, "target": 100, "moon": "ask", "bots": 3, **fields}
    return client_for(alice).post(reverse("create_match"), data)


def test_the_longest_allowance_with_the_largest_bank_offered_is_accepted(alice):
    longest = max(seconds for seconds, _label in clocks.DECISION_PRESETS)
    largest = max(allowances for allowances, _label in clocks.BANK_PRESETS)
    response = _create(alice, decision_seconds=longest, bank=largest)
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.get(created_by=alice)
    assert match.status == MatchStatus.ACTIVE
    assert match.decision_seconds == longest
    assert match.bank_seconds == MAX_BANK_SECONDS  # the bank holds at most 30 days


@pytest.mark.parametrize("decision", [seconds for seconds, _label in clocks.DECISION_PRESETS])
@pytest.mark.parametrize("bank", [allowances for allowances, _label in clocks.BANK_PRESETS])
def test_every_time_control_the_lobby_offers_is_accepted(alice, decision, bank):
    assert _create(alice, decision_seconds=decision, bank=bank).status_code == 302


def test_the_lobby_states_the_bank_s_limit_beside_the_field(alice):
    page = client_for(alice).get(reverse("lobby")).text
    assert "at most 30 days" in page
