"""The PostgreSQL backend: a move's BEGIN goes with its read, its writes with its COMMIT.

These need the project's PostgreSQL backend, so they run in the PostgreSQL pass of the suite.
They use real transactions (not the test case's one), where the backend's two exchanges
happen: the test case's own transaction would have begun already.
"""

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import rows
from games.models import Action, Hand, Match
from games.services import kept_tables
from hearts_site.postgresql import base
from tests.factories import HTMX, make_match, next_move

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the project's PostgreSQL backend"
    ),
]


@pytest.fixture
def exchanges(monkeypatch):
    """Record the statements of every exchange the backend sends."""
    sent: list[list[str]] = []
    original = base.send

    def recording(psycopg_connection, statements, context=None):
        sent.append([statement.sql for statement in statements])
        return original(psycopg_connection, statements, context)

    monkeypatch.setattr(base, "send", recording)
    return sent


def version_elsewhere(match) -> int:
    """Read the match's version on a connection of its own: what is committed."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT version FROM games_match WHERE id = %s", [match.pk])
            return cursor.fetchone()[0]
    finally:
        other.close()


def bump_version(match, to: int) -> None:
    """Write a new version through `games.rows`, on a copy: the test's match keeps the old."""
    copy = Match(pk=match.pk, version=to)
    rows.run([rows.update_statement(copy, ["version"])])


def twin_of_a_logged_action(match) -> Action:
    """Return an unsaved action with the (hand, seq) of one in the log: inserting it fails."""
    action = Action.objects.filter(match=match).first() or Action.objects.create(
        match=match, hand=Hand.objects.get(match=match, number=1), seq=0, seat=0,
        kind="pass", value="2C", actor="person", version=1,
    )  # fmt: skip
    return Action(
        match=match, hand=action.hand, seq=action.seq, seat=0, kind="play", value="3C",
        actor="person", version=1,
    )  # fmt: skip


def play_a_card(alice, exchanges, *, kept: bool):
    """Play a card past the pass, from the kept table or not; return its exchanges and log."""
    client = Client()
    client.force_login(alice)
    match = make_match(alice, seed=17, auto_finish=False, target=500)
    for _ in range(6):  # past the pass, into the tricks
        move = next_move(match, 0)
        if "card" in move.data:
            break
        client.post(move.url, move.data, **HTMX)
    if not kept:
        kept_tables.forget()  # as in a process that did not make the last move
    exchanges.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.post(move.url, move.data, **HTMX)
    assert response.status_code == 200
    match.refresh_from_db()
    assert Action.objects.filter(match=match, kind="play").exists()
    # Django's log holds what it logs with its own backend: the BEGIN (Django logs it when
    # the transaction is asked for), then each statement once.
    statements = [q["sql"].split()[0] for q in queries.captured_queries]
    return [e for e in exchanges if any("games_match" in sql for sql in e)], statements


def test_a_played_card_is_two_exchanges_and_no_other_statement(alice, exchanges):
    (read, write), statements = play_a_card(alice, exchanges, kept=False)
    assert read[0] == "BEGIN" and read[1].startswith("SELECT") and len(read) == 2
    assert 'FOR UPDATE OF "m"' in read[1]
    assert write[-1] == "COMMIT" and len(write) == 2
    assert statements in (
        ["BEGIN", "SELECT", "UPDATE", "COMMIT"],
        ["BEGIN", "SELECT", "WITH", "COMMIT"],
    )


def test_a_card_played_on_the_kept_table_is_one_exchange(alice, exchanges):
    (only,), statements = play_a_card(alice, exchanges, kept=True)
    assert only[0] == "BEGIN" and only[1].startswith("SELECT games_expect_table")
    assert only[-1] == "COMMIT" and len(only) == 4
    assert statements in (
        ["BEGIN", "SELECT", "UPDATE", "COMMIT"],
        ["BEGIN", "SELECT", "WITH", "COMMIT"],
    )


def test_a_write_in_a_transaction_is_held_for_the_commit_and_then_committed(alice, exchanges):
    match = make_match(alice)
    with transaction.atomic():
        (locked,) = rows.select(
            [rows.Columns(Match, ["version"])], "FROM games_match t WHERE t.id = %s", [match.pk]
        )[0]
        bump_version(locked, 90)
        assert version_elsewhere(match) == match.version  # not sent yet, let alone committed
    assert exchanges[-1][-1] == "COMMIT" and exchanges[-1][-2].startswith("UPDATE")
    assert version_elsewhere(match) == 90


def test_a_held_write_goes_before_any_later_statement(alice):
    match = make_match(alice)
    with transaction.atomic():
        bump_version(match, 91)
        assert Match.objects.get(pk=match.pk).version == 91  # the ORM's read sees it
    assert version_elsewhere(match) == 91


def test_a_rollback_undoes_a_held_write(alice):
    match = make_match(alice)
    with pytest.raises(RuntimeError), transaction.atomic():
        bump_version(match, 92)
        raise RuntimeError("the move is refused")
    assert version_elsewhere(match) == match.version
    # And it is not sent later with another transaction's statements.
    with transaction.atomic():
        Hand.objects.filter(match=match).update(next_seq=1)
    assert version_elsewhere(match) == match.version


def test_a_write_held_before_a_savepoint_survives_its_rollback(alice):
    match = make_match(alice)
    with transaction.atomic():
        bump_version(match, 93)
        with pytest.raises(RuntimeError), transaction.atomic():
            Hand.objects.filter(match=match).update(next_seq=1)
            raise RuntimeError("an inner block fails")
    assert version_elsewhere(match) == 93


def test_a_held_write_that_fails_fails_the_commit_and_commits_nothing(alice):
    match = make_match(alice, start=True)
    twin = twin_of_a_logged_action(match)
    with pytest.raises(IntegrityError), transaction.atomic():
        bump_version(match, 94)
        rows.run(rows.insert_statements([twin]))  # the log's (hand, seq) is taken
    assert version_elsewhere(match) == match.version
    assert Match.objects.get(pk=match.pk).version == match.version  # the connection works


def test_a_failed_read_leaves_the_connection_usable(alice):
    match = make_match(alice)
    with pytest.raises(Exception, match="no_such_column"), transaction.atomic():
        connection.fetch_rows("SELECT no_such_column FROM games_match WHERE id = %s", [match.pk])
    assert connection.fetch_rows("SELECT version FROM games_match WHERE id = %s", [match.pk]) == [
        (match.version,)
    ]


def test_outside_a_transaction_a_write_runs_at_once(alice):
    match = make_match(alice)
    bump_version(match, 95)
    assert version_elsewhere(match) == 95


def test_reads_are_prepared_and_survive_psycopg_forgetting_its_statements(alice):
    match = make_match(alice)
    sql = "SELECT version FROM games_match WHERE id = %s"
    for _ in range(8):  # past the threshold of 5
        with transaction.atomic():
            assert connection.fetch_rows(sql, [match.pk]) == [(match.version,)]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ["SELECT version FROM games_match WHERE id = $1%"],
        )
        assert cursor.fetchone()[0] == 1
    # A savepoint rolled back makes psycopg deallocate every prepared statement.
    with transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            connection.fetch_rows(sql, [match.pk])
            raise RuntimeError
        assert connection.fetch_rows(sql, [match.pk]) == [(match.version,)]


def test_without_prepared_statements_the_same_statements_work(alice):
    match = make_match(alice)
    connection.ensure_connection()
    connection.connection.prepare_threshold = None
    try:
        for number in range(7):
            with transaction.atomic():
                bump_version(match, 100 + number)
            assert version_elsewhere(match) == 100 + number
    finally:
        connection.close()  # the next test's connection has the settings' threshold again


def test_an_execute_wrapper_sees_every_read_and_write(alice, exchanges):
    match = make_match(alice)
    seen = []

    def wrapper(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    exchanges.clear()
    with connection.execute_wrapper(wrapper), transaction.atomic():
        connection.fetch_rows("SELECT version FROM games_match WHERE id = %s", [match.pk])
        bump_version(match, 96)
    assert [sql.split()[0] for sql in seen] == ["SELECT", "UPDATE"]
    assert exchanges == []
    assert version_elsewhere(match) == 96


# --- a move's commit answered after its response is rendered -------------------------------


def test_a_moves_answer_is_rendered_while_its_commit_is_in_flight(alice, monkeypatch):
    from games.views import matches

    events = []
    original_send, original_receive, original_regions = base.send, base.receive, matches._regions

    def send(psycopg_connection, statements, context=None):
        if statements[-1].sql == "COMMIT":
            events.append("commit sent")
        return original_send(psycopg_connection, statements, context)

    def receive(sent):
        events.append("answer read")
        return original_receive(sent)

    def regions(*args, **kwargs):
        events.append("rendered")
        return original_regions(*args, **kwargs)

    client = Client()
    client.force_login(alice)
    match = make_match(alice, seed=17, auto_finish=False, target=500)
    monkeypatch.setattr(base, "send", send)
    monkeypatch.setattr(base, "receive", receive)
    monkeypatch.setattr(matches, "_regions", regions)
    before = Action.objects.filter(match=match).count()
    events.clear()
    move = next_move(match, 0)
    response = client.post(move.url, move.data, **HTMX)
    assert response.status_code == 200
    i = events.index("commit sent")
    assert events[i : i + 3] == ["commit sent", "rendered", "answer read"]
    assert Action.objects.filter(match=match).count() > before


def test_a_commit_that_fails_in_flight_raises_at_the_end_and_runs_no_callbacks(alice):
    match = make_match(alice, start=True)
    twin = twin_of_a_logged_action(match)
    called = []
    with pytest.raises(IntegrityError), rows.commits_answered_later():
        with transaction.atomic():
            transaction.on_commit(lambda: called.append("committed"))
            bump_version(match, 97)
            rows.run(rows.insert_statements([twin]))  # the log's (hand, seq) is taken
        assert called == []  # a view would render its answer here
    assert called == []
    assert version_elsewhere(match) == match.version
    assert Match.objects.get(pk=match.pk).version == match.version  # the connection works
    with transaction.atomic():
        bump_version(match, 98)
    assert version_elsewhere(match) == 98


def test_a_query_while_a_commit_is_in_flight_reads_its_answer_first(alice):
    match = make_match(alice)
    called = []
    with rows.commits_answered_later():
        with transaction.atomic():
            transaction.on_commit(lambda: called.append("committed"))
            bump_version(match, 99)
        assert called == []  # sent, not answered yet
        assert Match.objects.get(pk=match.pk).version == 99
        assert called == ["committed"]
    assert called == ["committed"]


def test_transactions_one_after_another_while_commits_are_in_flight(alice):
    match = make_match(alice)
    with rows.commits_answered_later():
        for version in (101, 102, 103):
            with transaction.atomic():
                bump_version(match, version)
    assert version_elsewhere(match) == 103
    assert connection.get_autocommit() and connection.connection.autocommit


def test_closing_the_connection_reads_the_answer_of_a_commit_in_flight(alice):
    match = make_match(alice)
    with rows.commits_answered_later():
        with transaction.atomic():
            bump_version(match, 104)
        connection.close()
    assert version_elsewhere(match) == 104


@pytest.mark.parametrize(
    "sql, params",
    [
        ("UPDATE t SET a = %s, b = %s, c = %s WHERE id = %s", [1, "x", None, 2**40]),
        ("INSERT INTO t (a) VALUES " + ", ".join(["(%s)"] * 60), list(range(60))),
        ("SELECT a FROM t WHERE b LIKE 'x%%' AND c = %s", [3]),  # left to psycopg
    ],
)
def test_statements_are_converted_as_psycopg_converts_them(sql, params):
    from psycopg._queries import PostgresQuery
    from psycopg.adapt import Transformer

    from hearts_site.postgresql.exchange import Statement, _converted

    connection.ensure_connection()
    ours = _converted(Transformer.from_context(connection.connection), Statement(sql, params))
    theirs = PostgresQuery(Transformer.from_context(connection.connection))
    theirs.convert(sql, params)
    assert ours.query == theirs.query
    assert list(ours.params) == list(theirs.params)
    assert tuple(ours.types) == tuple(theirs.types)
    assert list(ours.formats) == list(theirs.formats)
