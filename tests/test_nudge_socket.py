"""A nudge reaches the nudged player's open pages over the live socket, with no card."""

import pytest
from channels.db import database_sync_to_async

from games.services import nudges
from tests.async_helpers import run_async
from tests.factories import make_match, seat_of
from tests.live_helpers import card_text_in, connect, receive_until
from tests.service_helpers import act

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_nudged_player_hears_of_it_on_any_page(alice, make_user):
    bob = make_user("bob", "Bob")
    match = make_match(alice, people=[bob])
    act(bob, match, seat_of(match, bob))  # Bob has passed: the match waits for Alice

    async def scenario():
        page, _ = await connect(alice)
        await database_sync_to_async(nudges.nudge)(bob, match.pk)
        return await receive_until(page, lambda got: len(got) == 1)

    (event,) = run_async(scenario)
    assert event == {
        "type": "match.notice",
        "match": match.pk,
        "kind": "nudge",
        "text": f"Bob nudged you: match {match.pk} waits for your move.",
    }
    assert not card_text_in(str(event))


def test_the_nudged_player_hears_it_in_their_own_language(alice, make_user):
    from django.utils.translation import override

    from games.notifications.notices import notice_words

    alice.profile.language = "su"
    alice.profile.save(update_fields=["language"])
    bob = make_user("bob", "Bob")
    match = make_match(alice, people=[bob])
    act(bob, match, seat_of(match, bob))

    async def scenario():
        page, _ = await connect(alice)
        await database_sync_to_async(nudges.nudge)(bob, match.pk)
        return await receive_until(page, lambda got: len(got) == 1)

    (event,) = run_async(scenario)
    with override("su"):
        sundanese = notice_words("nudge", "Bob", match.pk)[1]
    assert event["text"] == sundanese
    assert sundanese != f"Bob nudged you: match {match.pk} waits for your move."
