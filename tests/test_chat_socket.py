"""A chat message reaches the match's pages as news without words: which room has a new
message and its id, never its text, its author or a card; each page then fetches what it
lacks of its chat region."""

import pytest
from channels.db import database_sync_to_async

from games.models import ChatMessage
from games.services import chat
from tests.async_helpers import run_async
from tests.factories import make_match
from tests.live_helpers import card_text_in, connect, receive_until
from tests.tournaments.test_duplicate_deal_secrecy import start_round_of_two_tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_limits")]

# Words that name cards, so that a frame carrying the text would carry a card too.
WORDS = "I hold the queen of spades QS and 2C"


def test_the_event_names_the_room_and_carries_no_words_and_no_card(alice, make_user):
    bob = make_user("bob", "Bob")
    carol = make_user("carol", "Carol")
    match = make_match(alice, people=[bob])

    async def scenario():
        pages = []
        for user in (bob, carol):
            page, connected = await connect(user)
            assert connected
            await page.send_json_to({"follow": match.pk})
            await receive_until(page, lambda got: got[-1]["type"] == "following")
            pages.append(page)
        await database_sync_to_async(chat.send)(alice, match.pk, text=WORDS)
        await database_sync_to_async(chat.send)(carol, match.pk, preset="good_luck")
        heard = [await receive_until(page, lambda got: len(got) == 2) for page in pages]
        for page in pages:
            await page.disconnect()
        return heard

    heard = run_async(scenario)
    first, second = ChatMessage.objects.order_by("pk").values_list("pk", flat=True)
    for frames in heard:
        # The message's id lets the sender's page, which shows it already, fetch nothing.
        assert frames == [
            {"type": "chat.updated", "match": match.pk, "room": "players", "message": first},
            {"type": "chat.updated", "match": match.pk, "room": "spectators", "message": second},
        ]
        for frame in frames:
            assert not card_text_in(frame)


def test_a_page_the_table_is_sealed_to_hears_nothing_of_its_chat(db):
    _, (first, second) = start_round_of_two_tables()
    own = first.match.seats.get(position=0).user
    sibling = second.match.seats.get(position=0).user
    match_id = first.match.pk

    async def scenario():
        page, _ = await connect(sibling)
        await page.send_json_to({"follow": match_id})
        await receive_until(page, lambda got: got[-1]["type"] == "following")
        await database_sync_to_async(chat.send)(own, match_id, preset="oops")
        nothing = await page.receive_nothing(timeout=0.5)
        await page.disconnect()
        return nothing

    assert run_async(scenario)
