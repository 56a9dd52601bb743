"""Looking back: this hand's tricks so far, a past hand's record and its replay, and who may.

R6.3: every card played to this hand's tricks is public; a hand's whole record (the deal, the
passes, every trick) is for the match's players once the hand is over, and for everyone who may
watch the match once its deals are revealed (`games.access.may_see_hand_record`).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import engine
from games.models import Action, Hand, Match
from games.presenters.review import replay_steps
from games.services import tournaments as tours
from tests.factories import client_for, make_match
from tests.records_helpers import finished_match
from tests.service_helpers import act, state_of
from tests.tournaments.test_duplicate_deal_secrecy import move_once, start_round_of_two_tables

CARD = re.compile(r'data-card="([0-9TJQKA]{1,2}[CDHS]2?)"')


def hand_url(match: Match, number: int, step: int | None = None) -> str:
    url = reverse("hand_review", args=[match.pk, number])
    return url if step is None else f"{url}?step={step}"


def cards_on(html: str) -> list[str]:
    return CARD.findall(html)


def replay_region(html: str) -> str:
    start = html.index('id="replay"')
    return html[start : html.index("</section>", start)]


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def two_hands(alice) -> Match:
    return finished_match(alice, hands=2, seed=5)


def test_R6_3_a_player_replays_a_finished_hand_card_for_card(alice, two_hands):
    """Every step of the replay shows exactly the state the log gives at that point."""
    client = client_for(alice)
    hand = Hand.objects.get(match=two_hands, number=1)
    actions = list(Action.objects.filter(hand=hand).order_by("seq"))
    steps = replay_steps(actions, 4)
    state = engine.Match.new(two_hands.rule_set)
    state.start_hand(engine.Deal.from_dict(two_hands.rule_set, hand.deal))
    applied = 0
    for step in steps:
        for action in actions[applied : step.applied]:
            state.apply(action.as_decision())
        applied = step.applied
        response = client.get(hand_url(two_hands, 1, step.number))
        assert response.status_code == 200
        shown = replay_region(response.text)
        held = sorted(str(c) for s in range(4) for c in state.view(s).hand)
        on_table = [str(p.card) for p in state.public_view().trick]
        if not on_table and state.public_view().tricks and step.kind == "play":
            on_table = [str(p.card) for p in state.public_view().tricks[-1].plays]
        # The cards on the table first, then every hand, face up.
        assert sorted(cards_on(shown)) == sorted(held + on_table), step
    # Played through, every card was played once: 52 plays, 13 tricks.
    assert sum(1 for s in steps if s.kind == "play") == 52
    assert steps[-1].trick == 13


def test_R6_3_the_replay_says_each_card_and_each_trick_won(alice, two_hands):
    client = client_for(alice)
    hand = Hand.objects.get(match=two_hands, number=1)
    first_play = Action.objects.filter(hand=hand, kind="play").order_by("seq").first()
    steps = replay_steps(list(Action.objects.filter(hand=hand).order_by("seq")), 4)
    first_card = next(s for s in steps if s.kind == "play")
    text = client.get(hand_url(two_hands, 1, first_card.number)).text
    assert f"plays {engine.Card.parse(first_play.value).words}" in text
    assert "Trick 1:" in text
    fourth = [s for s in steps if s.kind == "play"][3]
    assert "wins the trick" in client.get(hand_url(two_hands, 1, fourth.number)).text
    last = client.get(hand_url(two_hands, 1, len(steps) - 1)).text
    assert "The hand&#x27;s score" in last or "The hand's score" in last


def test_R6_3_the_record_shows_the_deal_the_passes_and_every_trick(alice, two_hands):
    response = client_for(alice).get(hand_url(two_hands, 1))
    assert response.status_code == 200
    record = response.text[response.text.index('id="record-heading"') :]
    hand = Hand.objects.get(match=two_hands, number=1)
    dealt = [card for seat in hand.deal["hands"] for card in seat.split()]
    # Every card dealt, then again in the tricks: 52 in the deal, 52 played.
    assert sorted(cards_on(record)) == sorted(dealt * 2)
    assert record.count("(passed)") == 12
    assert record.count('class="trick-review-row"') == 13


def test_the_score_sheet_rows_lead_to_their_hands(alice, two_hands):
    text = client_for(alice).get(reverse("scores", args=[two_hands.pk])).text
    assert hand_url(two_hands, 1) in text
    assert hand_url(two_hands, 2) in text


def test_a_hand_still_in_play_is_not_there_for_its_players(alice):
    match = make_match(alice, bots=3)
    client = client_for(alice)
    assert client.get(hand_url(match, 1)).status_code == 404
    assert client.get(hand_url(match, 2)).status_code == 404


def test_R6_3_hand_one_is_theirs_once_over_while_hand_two_is_played(alice):
    match = make_match(alice, bots=3)
    while Hand.objects.filter(match=match).count() < 2:
        match = act(alice, match, 0)
    assert client_for(alice).get(hand_url(match, 1)).status_code == 200
    assert client_for(alice).get(hand_url(match, 2)).status_code == 404


def test_a_spectator_sees_past_hands_only_once_the_match_is_over(alice, carol):
    match = make_match(alice, bots=3)
    while Hand.objects.filter(match=match).count() < 2:
        match = act(alice, match, 0)
    spectator = client_for(carol)
    assert spectator.get(hand_url(match, 1)).status_code == 404
    text = spectator.get(reverse("scores", args=[match.pk])).text
    assert hand_url(match, 1) not in text  # no link to what is refused


def test_a_spectator_replays_a_finished_match(carol, two_hands):
    assert client_for(carol).get(hand_url(two_hands, 2)).status_code == 200


def test_a_private_match_and_an_unknown_hand_are_404(alice, carol, make_user):
    finished = finished_match(alice, hands=1, seed=3, private=True)
    assert client_for(carol).get(hand_url(finished, 1)).status_code == 404
    assert client_for(alice).get(hand_url(finished, 1)).status_code == 200
    assert client_for(alice).get(hand_url(finished, 9)).status_code == 404


@pytest.mark.parametrize("step", ["-1", "abc", "999999999", "1.5", ""])
def test_a_step_out_of_range_shows_the_nearest_step(alice, two_hands, step):
    response = client_for(alice).get(f"{hand_url(two_hands, 1)}?step={step}")
    assert response.status_code == 200


def test_htmx_asks_for_one_step_and_gets_the_replay_alone(alice, two_hands):
    response = client_for(alice).get(hand_url(two_hands, 1, 3), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="replay"')
    assert "record-heading" not in response.text


def test_R6_3_every_trick_of_the_hand_in_play_for_players_and_spectators(alice, carol):
    match = make_match(alice, bots=3)
    while len(state_of(match).public_view().tricks) < 3:
        match = act(alice, match, 0)
    tricks = state_of(match).public_view().tricks
    played = sorted(str(p.card) for t in tricks for p in t.plays)
    played += sorted(str(p.card) for p in state_of(match).public_view().trick)
    for viewer in (alice, carol):
        response = client_for(viewer).get(reverse("tricks_so_far", args=[match.pk]))
        assert response.status_code == 200
        main = response.text[response.text.index('id="tricks-heading"') :]
        assert sorted(cards_on(main)) == sorted(played)
    # Nobody's hand is on the page: only cards already played.
    held = {str(c) for s in range(4) for c in state_of(match).view(s).hand}
    page = client_for(carol).get(reverse("tricks_so_far", args=[match.pk])).text
    assert not held & set(cards_on(page))
    # The table links to it.
    assert (
        reverse("tricks_so_far", args=[match.pk])
        in client_for(alice).get(reverse("match", args=[match.pk])).text
    )


def test_the_tricks_of_an_open_match_are_404(alice):
    match = make_match(alice, start=False)
    assert client_for(alice).get(reverse("tricks_so_far", args=[match.pk])).status_code == 404


@pytest.mark.parametrize(
    "options",
    [
        {"players": 5, "variant": "cancellation"},
        {"players": 4, "variant": "omnibus"},
        {"players": 6},
    ],
    ids=["cancellation-5", "omnibus-4", "standard-6"],
)
def test_every_game_replays_to_its_score(alice, options):
    match = finished_match(alice, hands=1, seed=2, **options)
    client = client_for(alice)
    hand = Hand.objects.get(match=match, number=1)
    steps = replay_steps(list(Action.objects.filter(hand=hand).order_by("seq")), match.players)
    for step in steps:
        assert client.get(hand_url(match, 1, step.number)).status_code == 200
    assert client.get(hand_url(match, 1)).status_code == 200


def test_a_table_sharing_its_deals_keeps_its_hands_until_the_round_is_closed(make_user, db):
    """Duplicate deals: table 1's hands show table 2's cards, so its players' opponents at table
    2, and every spectator, wait until both tables are over and the round is closed; table 1's
    own players do not."""
    tournament, (table1, table2) = start_round_of_two_tables()
    first, second = table1.match, table2.match
    own = client_for(first.seats.get(position=0).user)
    other_table = client_for(second.seats.get(position=0).user)
    watcher = client_for(make_user("watcher", "Watcher"))
    while move_once(first):
        pass
    first.refresh_from_db()
    assert first.status == "finished"
    second.refresh_from_db()
    assert second.status == "active"
    url = hand_url(first, 1)
    assert own.get(url).status_code == 200
    assert other_table.get(url).status_code == 404
    assert watcher.get(url).status_code == 404
    assert other_table.get(reverse("tricks_so_far", args=[second.pk])).status_code == 200
    assert watcher.get(reverse("tricks_so_far", args=[second.pk])).status_code == 404
    assert own.get(reverse("tricks_so_far", args=[second.pk])).status_code == 404
    while move_once(second):
        pass
    for client in (other_table, watcher):  # both over, the round not closed: still sealed
        assert client.get(url).status_code == 404
        assert client.get(f"{url}?step=5").status_code == 404
    tours.close_round(tournament.pk)
    assert other_table.get(url).status_code == 200
    assert watcher.get(url).status_code == 200
