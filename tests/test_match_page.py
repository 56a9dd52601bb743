"""The match page: the table, the player's hand, the pass picker, summaries and results."""

import re
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse, set_script_prefix

from games import engine, presenters
from games.models import Action, Hand, MatchStatus
from games.presenters.table import announcement
from games.presenters.tricks import last_trick
from games.views.matches import render_region
from tests.factories import (
    HTMX,
    client_for,
    make_match,
    next_move,
    play_to_the_end,
    playing_match,
    state_of,
)

# Alice's matches against bots: the names of the four seats.
SEAT_NAMES = {0: "Alice", 1: "Basil", 2: "Cleo", 3: "Dmitri"}


def region(html: str, name: str) -> str:
    """Return the HTML of one region (a section or div with that id)."""
    match = re.search(rf'<(section|div) id="{name}"', html)
    assert match, f"no region {name}"
    tag = match.group(1)
    return html[match.start() : html.index(f"</{tag}>", match.start())]


def hand_region(html: str) -> str:
    return html[html.index('<section id="hand"') : html.index('<section id="scores"')]


def cards_in(html: str) -> list[str]:
    return re.findall(r'data-card="(\w\w)"', html)


def until_playing(client: Client, match, position: int = 0):
    """Act for the seat until it is the seat's turn to play a card."""
    while True:
        match.refresh_from_db()
        if state_of(match).phase == engine.PLAYING and next_move(match, position):
            return match
        move = next_move(match, position)
        assert client.post(move.url, move.data).status_code == 302


@pytest.fixture
def alice_client(alice) -> Client:
    return client_for(alice)


def test_anonymous_visitors_are_sent_to_log_in(client, alice):
    match = make_match(alice)
    response = client.get(match.get_absolute_url())
    assert response.status_code == 302
    assert reverse("login") in response.url


def test_an_unknown_match_is_404(alice_client):
    assert alice_client.get(reverse("match", args=[4040])).status_code == 404


def test_the_pass_picker_offers_a_labelled_checkbox_per_card(alice_client, alice):
    match = make_match(alice)
    html = alice_client.get(match.get_absolute_url()).text
    hand = hand_region(html)
    view = state_of(match).view(0)
    for card in view.hand:
        assert f'<input type="checkbox" name="cards" value="{card}" id="pass-{card}">' in hand
        label = hand.split(f'<label for="pass-{card}"')[1].split("</label>")[0]
        assert card.words in label
    assert "Choose three cards to pass to the left, to Basil." in hand
    assert "Pass these three cards" in hand
    assert f'name="version" value="{match.version}"' in hand


def test_the_hand_is_sorted_by_suit_with_colours_alternating(alice_client, alice):
    match = make_match(alice)
    shown = cards_in(hand_region(alice_client.get(match.get_absolute_url()).text))
    order = "CDSH"
    expected = sorted(
        (str(c) for c in state_of(match).view(0).hand),
        key=lambda t: (order.index(t[1]), engine.Card.parse(t)),
    )
    assert shown == expected


def test_after_passing_the_player_waits_without_seeing_what_comes(make_user, alice):
    bob = make_user("bob", "Bob")
    match = make_match(alice, people=[bob])
    client = client_for(alice)
    passed = [str(c) for c in state_of(match).view(0).hand[:3]]
    client.post(reverse("pass_cards", args=[match.pk]), {"version": match.version, "cards": passed})
    hand = hand_region(client.get(match.get_absolute_url()).text)
    assert "You passed" in hand and "Waiting for Bob to pass" in hand
    assert "received" not in hand
    assert sorted(cards_in(hand)) == sorted(passed + [str(c) for c in state_of(match).view(0).hand])


def test_once_everyone_passed_the_player_sees_what_they_passed_and_received(alice_client, alice):
    match = until_playing(alice_client, make_match(alice))
    view = state_of(match).view(0)
    hand = hand_region(alice_client.get(match.get_absolute_url()).text)
    record = hand.split('class="pass-record"')[1]
    assert "You passed" in record and "received" in record and "from Dmitri" in record
    for card in view.passed + view.received:
        assert f'data-card="{card}"' in record


def test_names_are_shown_as_text_in_the_table_and_the_hand(make_user, alice):
    """A name is text wherever the table or the hand names a seat: never markup."""
    name = '<b class="x">Eve & "Co"</b>'
    eve = make_user("eve", name)
    match = make_match(alice, people=[eve])
    clients = {0: client_for(alice), 1: client_for(eve)}
    while state_of(match).phase == engine.PASSING:  # both pass; the bots pass at once
        for position, client in clients.items():
            if move := next_move(match, position):
                assert client.post(move.url, move.data).status_code == 302
    escaped = "&lt;b class=&quot;x&quot;&gt;Eve &amp; &quot;Co&quot;&lt;/b&gt;"
    for viewer in (alice, eve, make_user("watcher")):
        page = client_for(viewer).get(match.get_absolute_url()).text
        regions = region(page, "table") + hand_region(page)
        assert '<b class="x">' not in regions and 'class="x"' not in regions
        assert escaped in region(page, "table")
    # Alice passed to Eve (the first hand passes left): her hand's record names Eve, escaped.
    record = hand_region(client_for(alice).get(match.get_absolute_url()).text)
    assert f"to {escaped}" in record.split('class="pass-record"')[1]


def test_legal_cards_are_buttons_and_illegal_ones_are_aria_disabled_with_the_reason(
    alice_client, alice
):
    for seed in range(1, 80):
        match = until_playing(alice_client, make_match(alice, seed=seed))
        view = state_of(match).view(0)
        if any(not o.legal for o in view.options) and view.trick:
            break
    else:
        pytest.skip("no deal with a card to follow")
    hand = hand_region(alice_client.get(match.get_absolute_url()).text)
    for option in view.options:
        button = re.search(rf'<button type="submit" name="card" value="{option.card}"[^>]*>', hand)
        assert button, option.card
        # Still focusable (not `disabled`), so that a keyboard user hears the reason (R3.8).
        assert " disabled" not in button.group(0)
        assert ('aria-disabled="true"' in button.group(0)) is (not option.legal)
        if not option.legal:
            reason_id = re.search(r'aria-describedby="([\w-]+)[ "]', button.group(0)).group(1)
            assert re.search(rf'<li id="{reason_id}">{re.escape(option.reason)}', hand)
    led = view.trick[0].card.suit
    suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[led]
    if any(c.suit == led for c in view.hand):
        assert f"You must follow {suit}" in hand


def test_the_table_shows_names_totals_and_who_is_to_act(alice_client, alice):
    match = make_match(alice)
    table = region(alice_client.get(match.get_absolute_url()).text, "table")
    for name in ("Alice", "Basil", "Cleo", "Dmitri"):
        assert name in table
    assert table.count('<span class="seat-total">0 ') == 4
    you = table.split('class="seat is-to-act is-you"')[1].split("</li>")[0]
    assert "Alice" in you and "choosing" in you
    assert "Passing left" in table


def test_the_current_trick_grows_and_the_last_trick_names_its_winner(alice_client, alice):
    match = until_playing(alice_client, make_match(alice))
    move = next_move(match, 0)
    alice_client.post(move.url, move.data)
    match.refresh_from_db()
    view = state_of(match).view(0)
    html = alice_client.get(match.get_absolute_url()).text
    trick = html.split('<ol class="trick"')[1].split("</ol>")[0]
    assert cards_in(trick) == [str(p.card) for p in view.trick]
    last = view.tricks[-1]
    side = html.split('class="last-trick"')[1].split("</div>")[0]
    assert f"{({**SEAT_NAMES, 0: 'You'})[last.winner]} won it" in side
    assert cards_in(side) == [str(p.card) for p in last.plays]
    assert "<dt>Hearts</dt>" in html


def until_hand(client: Client, match, number: int, *, tricks: int = 0):
    """Act for seat 0 until the match is in hand `number` with at least `tricks` tricks taken."""
    for _ in play_to_the_end({0: client}, match):
        match.refresh_from_db()
        if match.hand_no == number and len(state_of(match).tricks) >= tricks:
            return match
    raise AssertionError(f"the match ended before hand {number}")


def last_trick_of_hand(match, number: int) -> engine.TrickView:
    """Return the engine's account of a hand's last trick, replayed from the deals and the log."""
    hands = Hand.objects.filter(match=match, number__lte=number).order_by("number")
    log = Action.objects.filter(match=match, hand__number__lte=number)
    log = log.order_by("hand__number", "seq")
    deals = [hand.deal for hand in hands]
    state = engine.replay(match.rule_set, deals, [a.as_decision() for a in log])
    return state.public_view().tricks[-1]


def last_trick_box(html: str) -> str:
    return html.split('<div class="last-trick">')[1].split("</div>")[0]


def test_a_new_hand_shows_how_the_previous_hand_ended(make_user, alice_client, alice):
    match = until_hand(alice_client, make_match(alice), 2)
    assert not state_of(match).tricks
    last = last_trick_of_hand(match, 1)
    spectator = client_for(make_user("carol", "Carol"))
    for client, me in ((alice_client, "You"), (spectator, "Alice")):
        box = last_trick_box(client.get(match.get_absolute_url()).text)
        assert "<h3>Last trick of hand 1 " in box and "(trick 13)" in box
        assert cards_in(box) == [str(p.card) for p in last.plays]
        assert f"{({**SEAT_NAMES, 0: me})[last.winner]} won it" in box
        if last.points:
            assert f"taking {last.points} point" in box
        for play in last.plays:
            player = me if play.seat == 0 else SEAT_NAMES[play.seat]
            assert f'<span class="trick-player">{player}</span>' in box
    # Read back from the log, the trick went to its winner, as in the engine's account.
    shown = last_trick(match, state_of(match).public_view(), {seat: seat for seat in range(4)})
    assert shown is not None and shown["hand"] == 1
    assert shown["winner"] == shown["taker"] == last.winner == last.taker is not None


def test_the_card_that_ends_a_hand_shows_how_it_ended_without_reading_the_log_back(
    alice_client, alice
):
    match = make_match(alice, auto_finish=False)
    for _ in range(100):  # a hand takes Alice at most 13 cards, after the pass
        match.refresh_from_db()
        move = next_move(match, 0)
        assert move is not None, "Alice must act whenever the bots wait"
        with CaptureQueriesContext(connection) as queries:
            response = alice_client.post(move.url, move.data, **HTMX)
        assert response.status_code == 200
        match.refresh_from_db()
        if match.hand_no == 2:
            break
    else:
        raise AssertionError("hand 1 never ended")
    last = last_trick_of_hand(match, 1)
    box = last_trick_box(response.text)
    assert "<h3>Last trick of hand 1 " in box and "(trick 13)" in box
    assert cards_in(box) == [str(p.card) for p in last.plays]
    assert f"{({**SEAT_NAMES, 0: 'You'})[last.winner]} won it" in box
    # The move that closed the hand handed its last trick on: the log is only written to.
    reading_the_log = [
        q["sql"] for q in queries if '"games_action"' in q["sql"] and "INSERT" not in q["sql"]
    ]
    assert reading_the_log == []


def test_the_first_hand_has_no_last_trick_before_its_first_trick(alice_client, alice):
    match = make_match(alice)
    assert 'class="last-trick"' not in alice_client.get(match.get_absolute_url()).text


def test_once_a_trick_is_taken_the_box_shows_this_hands_last_trick(alice_client, alice):
    match = until_hand(alice_client, make_match(alice), 2, tricks=1)
    view = state_of(match).view(0)
    box = last_trick_box(alice_client.get(match.get_absolute_url()).text)
    assert f'<h3>Last trick <span class="aside">(trick {len(view.tricks)})</span></h3>' in box
    assert cards_in(box) == [str(p.card) for p in view.tricks[-1].plays]


def test_the_previous_trick_shows_no_card_still_in_a_hand(make_user, alice):
    bob = make_user("bob", "Bob")
    clients = {0: client_for(alice), 1: client_for(bob)}
    match = make_match(alice, people=[bob])
    for _ in play_to_the_end(clients, match):
        match.refresh_from_db()
        if match.hand_no == 2:
            break
    state = state_of(match)
    shown_last = [str(p.card) for p in last_trick_of_hand(match, 1).plays]
    viewers = [(0, clients[0]), (1, clients[1]), (None, client_for(make_user("carol", "Carol")))]
    for viewer, client in viewers:
        html = client.get(match.get_absolute_url()).text
        box = last_trick_box(html)
        assert cards_in(box) == shown_last
        # Outside the box, which shows hand 1's cards, no other seat's cards of hand 2.
        rest = html.replace(box, "")
        for seat in range(4):
            if seat == viewer:
                continue
            for card in state.hand(seat):
                assert f'data-card="{card}"' not in rest and card.words not in rest


def test_the_live_region_announces_the_plays_in_words(alice_client, alice):
    match = until_playing(alice_client, make_match(alice))
    move = next_move(match, 0)
    response = alice_client.post(move.url, move.data, **HTMX)
    status = region(response.text, "status")
    assert 'role="status" aria-live="polite"' in status
    match.refresh_from_db()
    view = state_of(match).view(0)
    played = view.trick or view.tricks[-1].plays
    for play in played:
        assert play.card.words in status
    assert "Your turn to play." in status or "is to play." in status


def test_a_spectator_sees_the_public_table_and_no_hand(make_user, alice):
    match = until_playing(client_for(alice), make_match(alice))
    html = client_for(make_user("carol", "Carol")).get(match.get_absolute_url()).text
    hand = hand_region(html)
    assert "You are watching this match." in hand
    assert "data-card" not in hand
    shown = set(cards_in(html))
    state = state_of(match)
    for seat in range(4):
        assert not shown & {str(c) for c in state.hand(seat)}


def test_after_a_hand_the_table_sums_it_up(alice_client, alice):
    match = make_match(alice)
    for _ in play_to_the_end({0: alice_client}, match):
        match.refresh_from_db()
        if match.hand_no == 2:
            break
    table = region(alice_client.get(match.get_absolute_url()).text, "table")
    assert "Hand 1 summary" in table
    assert table.count('class="summary-points"') == 4


def test_a_finished_match_names_the_winner(alice_client, alice):
    match = make_match(alice, target=25)
    list(play_to_the_end({0: alice_client}, match))
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    html = alice_client.get(match.get_absolute_url()).text
    winners = [s for s in match.seats.all() if s.rank == 1]
    headline = region(html, "table").split('id="result-heading">')[1].split("</h3>")[0]
    for seat in winners:
        assert (seat.name if seat.position else "You") in headline
    assert "1st" in html


def place(position: int, name: str, rank: int, total: int = 10) -> presenters.Place:
    """A bot's seat at a finished table, as the presenters describe it."""
    return presenters.Place(
        position=position,
        name=name,
        is_you=False,
        is_bot=True,
        is_empty=False,
        total=total,
        cards_left=0,
        to_act=False,
        passed=False,
        played=None,
        rank=rank,
        won=rank == 1,
        cos=0.0,
        sin=1.0,
    )


def test_co_winners_share_the_win(alice):
    match = make_match(alice, start=False)
    match.status = MatchStatus.FINISHED
    places = [place(0, "Ada", 1), place(1, "Basil", 2), place(2, "Cleo", 1)]
    result = presenters.result_of(match, places)
    assert result["headline"] == "Ada and Cleo share the win."


def test_the_standings_say_one_point_and_several_points(alice):
    match = make_match(alice, start=False)
    match.status = MatchStatus.FINISHED
    places = [place(0, "Ada", 1, total=1), place(1, "Basil", 2, total=0), place(2, "Cleo", 3, 2)]
    context = {"match": match, "places": places, "result": presenters.result_of(match, places)}
    html = render_region("table", context, oob=False)
    totals = re.findall(r'<span class="standing-total">([^<]*)</span>', html)
    assert totals == ["1 point", "0 points", "2 points"]


def test_htmx_asking_for_the_page_gets_every_region_out_of_band(alice_client, alice):
    match = make_match(alice)
    response = alice_client.get(match.get_absolute_url(), **HTMX)
    assert response.status_code == 200
    for name in ("table", "hand", "scores"):
        assert re.search(rf'<section id="{name}"[^>]*hx-swap-oob="true"', response.text)
    assert 'id="status"' in response.text and "<html" not in response.text


def test_the_page_configures_htmx_to_show_refusals(alice_client, alice):
    match = make_match(alice)
    html = alice_client.get(match.get_absolute_url()).text
    assert '<meta name="htmx-config"' in html and '"code":"4..","swap":true' in html
    assert "/static/games/table.js" in html


def test_a_page_waiting_for_others_looks_for_changes_cheaply(make_user, alice):
    bob = make_user("bob", "Bob")
    match = make_match(alice, people=[bob])
    client = client_for(alice)
    pass_first = next_move(match, 0)
    client.post(pass_first.url, pass_first.data)
    match.refresh_from_db()
    html = client.get(match.get_absolute_url()).text
    poll = f'hx-get="{match.get_absolute_url()}?since={match.version}" hx-trigger="every 15s"'
    assert poll in html
    unchanged = client.get(match.get_absolute_url(), {"since": match.version}, **HTMX)
    assert unchanged.status_code == 204 and unchanged.content == b""
    changed = client.get(match.get_absolute_url(), {"since": match.version - 1}, **HTMX)
    assert changed.status_code == 200 and 'id="hand"' in changed.text


def test_a_player_to_act_is_not_interrupted_by_polling(alice_client, alice):
    match = make_match(alice)
    assert "hx-trigger" not in alice_client.get(match.get_absolute_url()).text


def test_a_cancelled_match_shows_its_seats_and_no_moves(alice_client, alice):
    match = make_match(alice, start=False)
    alice_client.post(reverse("leave_match", args=[match.pk]))
    response = alice_client.get(match.get_absolute_url())
    assert response.status_code == 200
    assert "This match was abandoned." in response.text
    assert '<form method="post" action="/matches/' not in hand_region(response.text)


@pytest.mark.parametrize(
    ("points", "words"), [(0, "taking no points"), (1, "taking 1 point"), (14, "taking 14 points")]
)
def test_a_finished_trick_is_announced_with_its_points_in_words(points, words):
    def place(position: int, name: str, is_you: bool = False) -> presenters.Place:
        return presenters.Place(
            position=position, name=name, is_you=is_you, is_bot=False, is_empty=False, total=0,
            cards_left=12, to_act=position == 1, passed=False, played=None, rank=None, cos=0, sin=0,
        )  # fmt: skip

    cards = [engine.Card.parse(text) for text in ("2C", "KC", "QC", "AC")]
    trick = SimpleNamespace(winner=1, points=points, plays=[
        SimpleNamespace(seat=seat, card=card) for seat, card in enumerate(cards)
    ])  # fmt: skip
    view = SimpleNamespace(tricks=[trick], trick=(), phase=engine.PLAYING, to_act=[1])
    by_pos = {0: place(0, "Alice", is_you=True), 1: place(1, "Basil")}
    by_pos |= {2: place(2, "Cleo"), 3: place(3, "Dmitri")}
    said = announcement(view, by_pos, by_pos[0], None, None)
    assert f"Basil won the trick, {words}. Basil is to play." in said


def test_a_finished_match_shows_no_pass_to_come(alice_client, alice):
    match = make_match(alice, hands=1)
    for _ in play_to_the_end({0: alice_client}, match):
        pass
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    table = region(alice_client.get(match.get_absolute_url()).text, "table")
    assert "<dt>Hand</dt><dd>1</dd>" in table and "<dt>Length</dt><dd>1 hand</dd>" in table
    assert "<dt>Passing</dt>" not in table


def test_the_regions_urls_follow_the_script_prefix(alice, make_user):
    match = playing_match(alice, client_for(alice))
    watcher = make_user("watcher", "Watcher")
    set_script_prefix("/hearts/")
    try:
        hand = render_region("hand", presenters.match_context(match, alice), oob=False)
        table = render_region("table", presenters.match_context(match, watcher), oob=True)
    finally:
        set_script_prefix("/")
    url = f"/hearts/matches/{match.pk}/"
    assert f'action="{url}play/"' in hand and f'hx-post="{url}play/"' in hand
    assert f'hx-get="{url}?since={match.version}"' in table


def test_names_and_reasons_are_escaped_in_every_region(make_user):
    name = '<script>alert("x")</script>'
    mallory = make_user("mallory", name)
    match = make_match(mallory)
    client = client_for(mallory)
    page = client.get(match.get_absolute_url()).text
    answer = client.get(match.get_absolute_url(), **HTMX).text
    for html in (page, answer):
        for part in ("status", "table", "hand"):
            assert "<script>alert" not in region(html, part)
        # The seat and the pass (to the left, from the last seat) say the name, escaped.
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in region(html, "table")
    context = presenters.match_context(match, mallory, error='<b>"Not now"</b>')
    hand = render_region("hand", context, oob=False)
    assert '<p class="action-error" role="alert">&lt;b&gt;&quot;Not now&quot;&lt;/b&gt;</p>' in hand
