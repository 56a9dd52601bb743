"""Answers to "Play again" reach the finished match's pages: each draws its panel anew, and once
the rematch has started, the people seated there are told where it is (ids only)."""

import pytest
from channels.db import database_sync_to_async

from games.services import rematches
from tests.async_helpers import run_async
from tests.live_helpers import connect, receive_until
from tests.records_helpers import constructed_match

pytestmark = pytest.mark.django_db(transaction=True)

HANDS = [[(10, False, False), (6, False, False), (5, False, False), (5, False, True)]]


def test_the_finished_match_s_pages_hear_each_answer_and_where_the_rematch_is(alice, make_user):
    bob, carol = make_user("bob", "Bob"), make_user("carol", "Carol")
    match = constructed_match([alice, bob, "strong", carol], HANDS)

    async def scenario():
        page, connected = await connect(bob)
        assert connected
        await page.send_json_to({"follow": match.pk})
        await receive_until(page, lambda got: got[-1]["type"] == "following")
        await database_sync_to_async(rematches.accept)(alice, match.pk)
        await database_sync_to_async(rematches.decline)(carol, match.pk)
        rematch = await database_sync_to_async(rematches.start_with_bots)(alice, match.pk)
        heard = await receive_until(
            page, lambda got: sum(f["type"] == "rematch.updated" for f in got) == 3
        )
        await page.disconnect()
        return rematch, [frame for frame in heard if frame["type"] == "rematch.updated"]

    rematch, frames = run_async(scenario)
    answered = {"type": "rematch.updated", "match": match.pk, "rematch": None, "seated": []}
    assert frames == [
        answered,
        answered,
        {"type": "rematch.updated", "match": match.pk, "rematch": rematch.pk, "seated": [alice.pk]},
    ]


def test_the_last_yes_tells_the_pages_once_that_the_rematch_started(alice, make_user, monkeypatch):
    bob = make_user("bob", "Bob")
    match = constructed_match([alice, bob, "strong", "easy"], HANDS)
    sent = []
    monkeypatch.setattr(rematches, "announce_rematch_after_commit", lambda *args: sent.append(args))
    rematches.accept(alice, match.pk)
    rematch = rematches.accept(bob, match.pk)
    assert sent == [(match.pk,), (match.pk, rematch.pk, [alice.pk, bob.pk])]
