"""Database queries per played card and per page: bounded, and not growing with the match."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Match
from tests.factories import HTMX, make_match, next_move, state_of

# The signed-in user, the locked match (which names the hand in play), its seats (with their
# users and profiles), the log, the match's row, and the transaction's BEGIN and COMMIT: 7;
# the re-rendered regions add none. A query per card, per trick or per hand would break it as
# soon as a match grows.
PLAY_BOUND = 8
# A whole page also has the navigation count its viewer's turns and challenges to answer.
PAGE_BOUND = 9


def measure(call) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        result = call()
    return len(queries), result


def collect_play_costs(
    client: Client, match, *, htmx: bool, whole: bool = False
) -> dict[str, list[str]]:
    """Play a match, measuring one card early in hand 1 and one late in a later hand.

    A card after which the hand ends (forced cards can finish it) also scores the hand and
    deals the next: a different, rarer request, so it is not the one measured.
    """
    extra = HTMX if htmx else {}
    costs: dict[str, list[str]] = {}  # the statements each measured request ran
    while len(costs) < 2:
        match.refresh_from_db()
        state = state_of(match)
        move = next_move(match, 0)
        assert move is not None, "Alice must act whenever the bots wait"
        tricks = len(state.tricks)
        key = None
        if "card" in move.data:
            if state.hand_no == 1 and tricks <= 2:
                key = "early"
            elif state.hand_no >= 3 and state.hand_size - 5 <= tricks < state.hand_size - 2:
                key = "late"
        with CaptureQueriesContext(connection) as queries:
            response = client.post(move.url, move.data, **extra)
        assert response.status_code in (200, 302)
        match.refresh_from_db()
        if key and key not in costs and match.hand_no == state.hand_no:
            statements = [q["sql"] for q in queries.captured_queries]
            costs[key] = statements if whole else [sql[:100] for sql in statements]
    return costs


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain form"])
def test_a_played_card_costs_the_same_few_queries_early_and_late(alice, htmx):
    client = Client()
    client.force_login(alice)
    match = make_match(alice, seed=17, auto_finish=False, target=500)
    costs = collect_play_costs(client, match, htmx=htmx)
    early, late = len(costs["early"]), len(costs["late"])
    assert early <= PLAY_BOUND and late <= PLAY_BOUND, costs
    assert abs(early - late) <= 1, costs


# The statements of a played card, in order, as (verb, table): the list `PLAY_BOUND` counts.
# Under the tests' transaction, BEGIN and COMMIT are a savepoint and its release. The same at
# the commit before table chat landed (150b9ef^1): chat adds nothing to a card's path.
PLAYED_CARD = [
    ("SELECT", "auth_user"),  # the signed-in user (the session is read from the cache)
    ("SAVEPOINT", ""),
    ("SELECT", "games_match"),  # locked; it names the hand in play
    ("SELECT", "games_seat"),  # with their users and profiles
    ("INSERT", "games_action"),  # the log
    ("UPDATE", "games_seat"),  # whose turn it is now
    ("UPDATE", "games_match"),  # its version, its snapshot
    ("RELEASE", ""),
]


def statement(sql: str) -> tuple[str, str]:
    """Return a statement's verb and the first table it names (none for a savepoint)."""
    verb = sql.split(None, 1)[0].upper()
    if verb in ("SAVEPOINT", "RELEASE"):
        return verb, ""
    marker = {"SELECT": " FROM ", "INSERT": "INSERT INTO ", "UPDATE": "UPDATE "}.get(verb, " ")
    table = sql.split(marker, 1)[1].split(None, 1)[0] if marker in sql else ""
    return verb, table.strip('"`')


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain form"])
def test_a_played_card_runs_exactly_the_pinned_statements(alice, htmx):
    client = Client()
    client.force_login(alice)
    match = make_match(alice, seed=17, auto_finish=False, target=500)
    costs = collect_play_costs(client, match, htmx=htmx, whole=True)
    for when, statements in costs.items():
        assert [statement(sql) for sql in statements] == PLAYED_CARD, (when, statements)
        assert not any("games_chat" in sql or "games_mute" in sql for sql in statements), when


def test_the_match_page_costs_the_same_few_queries_in_a_long_match(alice):
    client = Client()
    client.force_login(alice)
    match = make_match(alice, seed=17, target=500)
    first, _ = measure(lambda: client.get(match.get_absolute_url()))
    starts = {}  # the page's cost as each hand begins
    while match.hand_no < 4:
        move = next_move(match, 0)
        client.post(move.url, move.data)
        match.refresh_from_db()
        if match.hand_no not in starts:
            starts[match.hand_no], _ = measure(lambda: client.get(match.get_absolute_url()))
    later, response = measure(lambda: client.get(match.get_absolute_url()))
    assert response.status_code == 200
    assert first <= PAGE_BOUND and later <= PAGE_BOUND, (first, later)
    # Before its first trick, a hand after the first also shows how the one before ended,
    # read from the log: one more query, the same in every hand.
    assert starts[2] == later <= first + 1, (first, starts, later)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_unchanged_poll_reads_the_match_version_alone(alice):
    """The snapshot and the deals (JSON, kilobytes) are not read to answer "nothing new"."""
    alice_client = signed_in(alice)
    match = make_match(alice)
    match_table = Match._meta.db_table
    with CaptureQueriesContext(connection) as queries:
        response = alice_client.get(match.get_absolute_url(), {"since": match.version}, **HTMX)
    assert response.status_code == 204
    reads = [q["sql"] for q in queries.captured_queries if f'"{match_table}"' in q["sql"]]
    assert len(reads) == 1, reads
    assert "version" in reads[0] and "snapshot" not in reads[0] and "deals" not in reads[0]


def test_a_poll_for_a_match_that_does_not_exist_is_not_found(alice):
    assert signed_in(alice).get("/matches/999999/", {"since": 1}, **HTMX).status_code == 404


def test_a_poll_signed_out_is_sent_to_sign_in(client, alice):
    match = make_match(alice)
    response = client.get(match.get_absolute_url(), {"since": match.version}, **HTMX)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
