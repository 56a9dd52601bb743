"""Moves at the table through the views: plain forms, htmx partials, and every refusal."""

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.models import Match, ScoreLine
from tests.factories import (
    HTMX,
    action_count,
    client_for,
    make_match,
    moon_match,
    play_to_the_end,
    playing_match,
    seat_of,
    state_of,
)


@pytest.fixture
def bob(make_user):
    return make_user("bob", "Bob")


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


def play_url(match: Match) -> str:
    return reverse("play_card", args=[match.pk])


def pass_url(match: Match) -> str:
    return reverse("pass_cards", args=[match.pk])


def pass_first_three(client: Client, match: Match, position: int = 0):
    view = state_of(match).view(position)
    cards = [str(c) for c in view.hand[:3]]
    return client.post(pass_url(match), {"version": match.version, "cards": cards})


def assert_unchanged(match: Match, version: int, actions: int) -> None:
    match.refresh_from_db()
    assert match.version == version
    assert action_count(match) == actions


def an_illegal_card(match: Match, position: int = 0) -> engine.CardOption | None:
    view = state_of(match).view(position)
    return next((o for o in view.options if not o.legal), None)


# ----- playing and passing -----


def test_it_passes_three_cards_and_redirects_to_the_table(alice_client, alice):
    match = make_match(alice)
    before = action_count(match)
    response = pass_first_three(alice_client, match)
    assert response.status_code == 302
    assert response.url == match.get_absolute_url()
    assert state_of(match).view(0).passed is not None
    assert action_count(match) > before


def test_it_plays_a_legal_card_and_redirects_to_the_table(alice_client, alice):
    match = playing_match(alice, alice_client)
    card = str(state_of(match).view(0).legal[0])
    response = alice_client.post(play_url(match), {"version": match.version, "card": card})
    assert response.status_code == 302
    assert card not in [str(c) for c in state_of(match).view(0).hand]


def test_with_htmx_it_swaps_the_hand_and_sends_table_and_status_out_of_band(alice_client, alice):
    match = playing_match(alice, alice_client)
    card = str(state_of(match).view(0).legal[0])
    response = alice_client.post(play_url(match), {"version": match.version, "card": card}, **HTMX)
    assert response.status_code == 200
    html = response.text
    assert html.lstrip().startswith('<section id="hand"')
    table = html.split('<section id="table"')[1].split(">")[0]
    assert 'hx-swap-oob="true"' in table
    assert 'id="status"' in html and 'hx-swap-oob="innerHTML"' in html
    assert "<html" not in html
    match.refresh_from_db()
    assert f'name="version" value="{match.version}"' in html


def test_an_htmx_pass_shows_the_waiting_hand(make_user, alice):
    bob = make_user("bob", "Bob")
    match = make_match(alice, people=[bob])
    client = client_for(alice)
    view = state_of(match).view(0)
    cards = [str(c) for c in view.hand[:3]]
    response = client.post(pass_url(match), {"version": match.version, "cards": cards}, **HTMX)
    assert response.status_code == 200
    assert "You passed" in response.text
    assert "Waiting for Bob to pass" in response.text
    assert 'name="cards"' not in response.text  # no pass form left


# ----- refusals: the reason, the right status, the match unchanged -----


def test_it_rejects_a_card_out_of_turn(make_user, alice):
    bob = make_user("bob", "Bob")
    match = make_match(alice, people=[bob], seed=5)
    clients = {0: client_for(alice), 1: client_for(bob)}
    for position, client in clients.items():
        pass_first_three(client, match, position)
    match.refresh_from_db()
    state = state_of(match)
    waiting = next(p for p in clients if p not in state.to_act())
    card = str(state.view(waiting).hand[0])
    version, actions = match.version, action_count(match)
    response = clients[waiting].post(play_url(match), {"version": version, "card": card}, **HTMX)
    assert response.status_code == 409
    assert "turn" in response.text
    assert 'role="alert"' in response.text
    assert_unchanged(match, version, actions)


def test_it_rejects_an_illegal_card_naming_the_rule(alice_client, alice):
    for seed in range(11, 60):
        match = playing_match(alice, alice_client, seed=seed)
        option = an_illegal_card(match)
        if option is not None:
            break
    else:
        pytest.skip("no deal with an illegal card")
    version, actions = match.version, action_count(match)
    response = alice_client.post(
        play_url(match), {"version": version, "card": str(option.card)}, **HTMX
    )
    assert response.status_code == 400
    assert option.reason in response.text
    assert_unchanged(match, version, actions)


def test_without_htmx_a_refusal_renders_the_page_with_the_message_and_status(alice_client, alice):
    match = playing_match(alice, alice_client)
    version, actions = match.version, action_count(match)
    response = alice_client.post(play_url(match), {"version": version, "card": "ZZ"})
    assert response.status_code == 400
    assert "That is not a card." in response.text
    assert "<html" in response.text and 'class="message message-error"' in response.text
    assert_unchanged(match, version, actions)


def test_it_rejects_a_card_not_held(alice_client, alice):
    match = playing_match(alice, alice_client)
    held = {str(c) for c in state_of(match).view(0).hand}
    other = next(str(c) for c in engine.CARDS if str(c) not in held)
    version, actions = match.version, action_count(match)
    response = alice_client.post(play_url(match), {"version": version, "card": other}, **HTMX)
    assert response.status_code == 400
    assert "You do not hold" in response.text
    assert_unchanged(match, version, actions)


@pytest.mark.parametrize("card", ["", "ZZ", "1C", "QSS", "🂡"])
def test_it_rejects_unknown_card_text(alice_client, alice, card):
    match = playing_match(alice, alice_client)
    version, actions = match.version, action_count(match)
    response = alice_client.post(play_url(match), {"version": version, "card": card}, **HTMX)
    assert response.status_code == 400
    assert_unchanged(match, version, actions)


@pytest.mark.parametrize("version", [None, "", "abc", "-1", "1.5", "99999999999999999999"])
def test_it_rejects_a_missing_or_garbage_version(alice_client, alice, version):
    match = playing_match(alice, alice_client)
    card = str(state_of(match).view(0).legal[0])
    data = {"card": card} if version is None else {"card": card, "version": version}
    before, actions = match.version, action_count(match)
    response = alice_client.post(play_url(match), data, **HTMX)
    assert response.status_code == 400
    assert "out of date" in response.text
    assert_unchanged(match, before, actions)


@pytest.mark.parametrize("count", [0, 1, 2, 4])
def test_it_rejects_a_pass_of_the_wrong_number_of_cards(alice_client, alice, count):
    match = make_match(alice)
    cards = [str(c) for c in state_of(match).view(0).hand[:count]]
    version, actions = match.version, action_count(match)
    response = alice_client.post(pass_url(match), {"version": version, "cards": cards}, **HTMX)
    assert response.status_code == 400
    assert "three cards" in response.text
    assert_unchanged(match, version, actions)


def test_it_rejects_a_pass_of_cards_not_held(alice_client, alice):
    match = make_match(alice)
    held = {str(c) for c in state_of(match).view(0).hand}
    others = [str(c) for c in engine.CARDS if str(c) not in held][:3]
    version, actions = match.version, action_count(match)
    response = alice_client.post(pass_url(match), {"version": version, "cards": others}, **HTMX)
    assert response.status_code == 400
    assert "You do not hold" in response.text
    assert_unchanged(match, version, actions)


def test_it_rejects_a_play_while_cards_are_being_passed(alice_client, alice):
    match = make_match(alice)
    card = str(state_of(match).view(0).hand[0])
    version, actions = match.version, action_count(match)
    response = alice_client.post(play_url(match), {"version": version, "card": card}, **HTMX)
    assert response.status_code == 409
    assert "cards are being passed" in response.text
    assert_unchanged(match, version, actions)


def test_a_stale_version_gets_409_and_the_current_table(alice_client, alice):
    match = playing_match(alice, alice_client)
    view = state_of(match).view(0)
    old = match.version - 1
    actions = action_count(match)
    response = alice_client.post(
        play_url(match), {"version": old, "card": str(view.legal[0])}, **HTMX
    )
    assert response.status_code == 409
    assert "The table has changed" in response.text
    assert f'name="version" value="{match.version}"' in response.text
    assert 'id="table"' in response.text
    assert_unchanged(match, match.version, actions)


def test_players_who_pass_on_the_table_they_loaded_are_all_applied(make_user, alice):
    """Passing is simultaneous (R2): each pass made on the same table is applied."""
    people = [alice] + [make_user(name, name.title()) for name in ("bob", "carol", "dave")]
    match = make_match(alice, people=people[1:])
    loaded = match.version
    hands = {seat: state_of(match).view(seat).hand[:3] for seat in range(4)}
    for seat, person in enumerate(people):
        cards = [str(c) for c in hands[seat]]
        response = client_for(person).post(
            pass_url(match), {"version": loaded, "cards": cards}, **HTMX
        )
        assert response.status_code == 200, response.text
    state = state_of(match)
    assert state.phase == engine.PLAYING
    assert all(state.view(seat).passed == tuple(sorted(hands[seat])) for seat in range(4))


def test_a_second_pass_from_another_tab_is_refused_with_the_table_as_it_stands(make_user, alice):
    """Her own pass changed her hand: that is a reason to refuse, unlike another seat's."""
    bob = make_user("bob", "Bob")
    match = make_match(alice, people=[bob])
    loaded = match.version
    first = state_of(match).view(0).hand[:3]
    pass_first_three(client_for(alice), match, 0)
    cards = [str(c) for c in state_of(match).view(0).hand[-3:]]
    client = client_for(alice)
    response = client.post(pass_url(match), {"version": loaded, "cards": cards}, **HTMX)
    assert response.status_code == 409
    assert "The table has changed" in response.text
    assert "waiting for the others to pass" in response.text
    assert state_of(match).view(0).passed == tuple(first)


def test_two_identical_submissions_apply_once(alice_client, alice):
    match = playing_match(alice, alice_client)
    data = {"version": match.version, "card": str(state_of(match).view(0).legal[0])}
    first = alice_client.post(play_url(match), data, **HTMX)
    match.refresh_from_db()
    version, actions = match.version, action_count(match)
    second = alice_client.post(play_url(match), data, **HTMX)
    assert first.status_code == second.status_code == 200
    assert_unchanged(match, version, actions)


def test_two_identical_passes_apply_once(alice_client, alice):
    match = make_match(alice)
    cards = [str(c) for c in state_of(match).view(0).hand[:3]]
    data = {"version": match.version, "cards": cards}
    assert alice_client.post(pass_url(match), data).status_code == 302
    match.refresh_from_db()
    version, actions = match.version, action_count(match)
    assert alice_client.post(pass_url(match), data).status_code == 302
    assert_unchanged(match, version, actions)


def test_a_spectator_cannot_play(make_user, alice):
    match = make_match(alice)
    carol = make_user("carol", "Carol")
    card = str(state_of(match).view(0).hand[0])
    version, actions = match.version, action_count(match)
    response = client_for(carol).post(play_url(match), {"version": version, "card": card}, **HTMX)
    assert response.status_code == 403
    assert "You are not playing in this match" in response.text
    assert_unchanged(match, version, actions)


def test_an_unknown_match_is_404(alice_client, db):
    response = alice_client.post(reverse("play_card", args=[999]), {"version": 1, "card": "2C"})
    assert response.status_code == 404


def test_a_finished_match_refuses_moves(alice_client, alice):
    match = make_match(alice, target=25)
    list(play_to_the_end({0: alice_client}, match))
    match.refresh_from_db()
    assert match.status == "finished"
    version, actions = match.version, action_count(match)
    response = alice_client.post(play_url(match), {"version": version, "card": "2C"}, **HTMX)
    assert response.status_code == 409
    assert "This match is over" in response.text
    assert_unchanged(match, version, actions)
    # A tab left open on the table learns from the refusal that the match is over.
    assert_heading_says_finished(response.text)


def heading_region(html: str) -> str:
    return html.split('<header id="match-head"')[1].split("</header>")[0]


def assert_heading_says_finished(html: str) -> None:
    """The answer swaps the heading in, saying "Finished", and empties the resign form."""
    heading = heading_region(html)
    assert 'hx-swap-oob="true"' in heading and ">Finished</span>" in heading
    leave = html.split('<div id="leave-match"')[1].split("</div>")[0]
    assert 'hx-swap-oob="true"' in leave and "Resign" not in leave


def test_the_card_that_ends_the_match_swaps_in_its_heading_and_drops_the_resign_form(
    alice_client, alice
):
    match = make_match(alice, hands=1)
    page = alice_client.get(match.get_absolute_url()).text
    assert ">In play</span>" in heading_region(page) and "Resign and let a bot" in page
    responses = [response for _, response in play_to_the_end({0: alice_client}, match, htmx=True)]
    match.refresh_from_db()
    assert match.status == "finished"
    assert_heading_says_finished(responses[-1].text)
    # While the match goes on, the answers leave the heading alone.
    assert not any('id="match-head"' in response.text for response in responses[:-1])


def test_a_page_catching_up_on_a_finished_match_gets_its_heading(alice_client, alice):
    match = make_match(alice, hands=1)
    list(play_to_the_end({0: alice_client}, match, htmx=True))
    response = alice_client.get(match.get_absolute_url(), **HTMX)
    assert response.status_code == 200
    assert_heading_says_finished(response.text)


def test_anonymous_posts_are_sent_to_log_in(client, alice):
    match = make_match(alice)
    version, actions = match.version, action_count(match)
    response = client.post(play_url(match), {"version": version, "card": "2C"})
    assert response.status_code == 302
    assert reverse("login") in response.url
    assert_unchanged(match, version, actions)


@pytest.mark.parametrize(
    "name", ["play_card", "pass_cards", "choose_moon", "resign", "start_match"]
)
def test_actions_refuse_get(alice_client, alice, name):
    match = make_match(alice)
    assert alice_client.get(reverse(name, args=[match.pk])).status_code == 405


# ----- the moon, resigning, a whole match -----


def test_the_shooter_chooses_the_moon_option(alice_client, alice):
    match = moon_match(alice)
    page = alice_client.get(match.get_absolute_url())
    assert "Subtract 26 from my score" in page.text
    assert "Add 26 to everyone else's" in page.text
    response = alice_client.post(
        reverse("choose_moon", args=[match.pk]),
        {"version": match.version, "option": "subtract"},
        **HTMX,
    )
    assert response.status_code == 200
    line = ScoreLine.objects.get(match=match, hand_number=1, seat=0)
    assert line.shot_moon and line.moon_option == "subtract" and line.score == -26
    assert 'id="scores"' in response.text  # a finished hand updates the score sheet too


def test_it_rejects_an_unknown_moon_option(alice_client, alice):
    match = moon_match(alice)
    version, actions = match.version, action_count(match)
    response = alice_client.post(
        reverse("choose_moon", args=[match.pk]), {"version": version, "option": "both"}, **HTMX
    )
    assert response.status_code == 400
    assert_unchanged(match, version, actions)


def test_a_player_resigns_and_then_watches(alice_client, make_user, alice):
    bob = make_user("bob", "Bob")
    match = make_match(alice, people=[bob])
    response = alice_client.post(reverse("resign", args=[match.pk]))
    assert response.status_code == 302
    page = alice_client.get(match.get_absolute_url())
    assert "You have left this match" in page.text
    assert 'name="cards"' not in page.text
    assert "data-card" not in page.text.split('id="hand"')[1].split("</section>")[0]


def test_a_whole_match_against_three_bots_is_played_through_the_views(alice_client, alice):
    match = make_match(alice, seed=2024)
    responses = list(play_to_the_end({seat_of(match, alice): alice_client}, match, htmx=True))
    match.refresh_from_db()
    assert match.status == "finished"
    assert len(responses) > 13
    page = alice_client.get(match.get_absolute_url())
    assert "wins the match" in page.text or "share the win" in page.text or "You win" in page.text
    assert ScoreLine.objects.filter(match=match).count() == 4 * match.hand_no
