"""A challenge reaches each invitee's open pages over the live socket: a notice in their own
language, leading to the Challenges page, with no card."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from games.services import challenges
from games.services.match_options import MatchOptions
from tests.async_helpers import run_async
from tests.live_helpers import card_text_in, connect, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_each_invitee_hears_of_it_on_any_page_in_their_own_language(alice, make_user):
    bob = make_user("bob", "Bob")
    carol = make_user("carol", "Carol")
    carol.profile.language = "id"
    carol.profile.save(update_fields=["language"])

    def make() -> int:
        options = MatchOptions(players=3)
        match = challenges.create_challenge(alice, options, [bob, carol], timedelta(days=3))
        return match.pk

    async def scenario():
        bob_page, _ = await connect(bob)
        carol_page, _ = await connect(carol)
        match_id = await database_sync_to_async(make)()
        heard = [
            await receive_until(page, lambda got: len(got) == 1) for page in (bob_page, carol_page)
        ]
        return match_id, heard

    match_id, [(to_bob,), (to_carol,)] = run_async(scenario)
    assert to_bob == {
        "type": "match.notice",
        "match": match_id,
        "kind": "challenge",
        "text": f"Alice challenges you to match {match_id}: accept or decline it.",
        "url": "/challenges/",
        "challenges": 1,  # what the navigation's count of challenges to answer now says
    }
    assert (
        to_carol["text"] == f"Alice menantang Anda ke pertandingan {match_id}: terima atau tolak."
    )
    assert not card_text_in(to_bob) and not card_text_in(to_carol)


def test_calling_it_off_tells_the_invitees_and_their_count_goes_down(alice, make_user):
    bob = make_user("bob", "Bob")

    def make() -> int:
        options = MatchOptions(players=3)
        match = challenges.create_challenge(alice, options, [bob], timedelta(days=3))
        return match.challenge.pk

    def call_off(pk: int) -> None:
        challenges.cancel(alice, pk)

    async def scenario():
        bob_page, _ = await connect(bob)
        pk = await database_sync_to_async(make)()
        [offered] = await receive_until(bob_page, lambda got: len(got) == 1)
        await database_sync_to_async(call_off)(pk)
        [called_off] = await receive_until(bob_page, lambda got: len(got) == 1)
        return offered, called_off

    offered, called_off = run_async(scenario)
    assert offered["challenges"] == 1
    assert called_off["kind"] == "challenge_cancelled"
    assert called_off["text"] == f"Alice called off the challenge to match {offered['match']}."
    assert called_off["challenges"] == 0 and called_off["url"] == "/challenges/"
