"""The live socket answers a follow of an id no match can have with its error frame."""

import pytest

from games.lib.converters import MAX_ID
from tests.async_helpers import run_async
from tests.factories import make_match
from tests.live_helpers import connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("match_id", [MAX_ID + 1, 2**64, 10**30, -1, -(2**63) - 1, 0])
def test_a_follow_of_an_id_no_match_can_have_is_answered_and_the_socket_stays_open(alice, match_id):
    match = make_match(alice)

    async def scenario():
        communicator, _ = await connect(alice)
        await communicator.send_json_to({"follow": match_id})
        # Refused as malformed, before any query: no match has such an id.
        assert await communicator.receive_json_from() == {
            "type": "error",
            "error": 'Send {"follow": <match id>} or {"lobby": true}.',
        }
        await communicator.send_json_to({"follow": match.pk})
        assert (await communicator.receive_json_from())["type"] == "following"
        await communicator.disconnect()

    run_async(scenario)
