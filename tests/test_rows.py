"""The plain-SQL rows of a move read and write exactly what the ORM would."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext

from games import rows
from games.models import Action, Hand, Match, Profile, Seat
from games.services import table_rows
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def writes(queries: CaptureQueriesContext) -> list[str]:
    """The INSERTs and UPDATEs among the captured statements (on PostgreSQL, as one WITH)."""
    return [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith(("INSERT", "UPDATE", "WITH"))
    ]


def field_values(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_a_match_read_in_plain_sql_equals_the_one_the_orm_reads(alice):
    match = make_match(alice)  # JSON, booleans, datetimes and nulls among its columns
    (found,) = rows.select([rows.Columns(Match)], "FROM games_match t WHERE t.id = %s", [match.pk])
    assert field_values(found[0]) == field_values(Match.objects.get(pk=match.pk))
    assert isinstance(found[0].snapshot, dict) and isinstance(found[0].started_at, dt.datetime)
    assert found[0].started_at.tzinfo is not None
    assert found[0]._state.adding is False


def test_some_columns_leave_the_others_deferred_and_keep_the_primary_key(alice):
    match = make_match(alice)
    columns = rows.Columns(Match, ["version"])
    ((found,),) = rows.select([columns], "FROM games_match t WHERE t.id = %s", [match.pk])
    assert found.pk == match.pk and found.version == match.version
    assert "snapshot" in found.get_deferred_fields()


def test_a_left_join_that_finds_nothing_gives_none(alice):
    match = make_match(alice)  # seats 1–3 are bots: no user
    found = rows.select(
        [rows.Columns(Seat, ["position"], "s"), rows.Columns(get_user_model(), ["username"], "u")],
        "FROM games_seat s LEFT JOIN auth_user u ON u.id = s.user_id "
        "WHERE s.match_id = %s ORDER BY s.position",
        [match.pk],
    )
    assert [(seat.position, user and user.username) for seat, user in found] == [
        (0, "alice"),
        (1, None),
        (2, None),
        (3, None),
    ]


def test_update_writes_the_fields_and_sets_auto_now(alice):
    match = make_match(alice)
    before = Match.objects.get(pk=match.pk).updated_at
    match.version = 41
    match.snapshot = {"any": ["json", 1]}
    rows.run([rows.update_statement(match, ["version", "snapshot", "updated_at"])])
    stored = Match.objects.get(pk=match.pk)
    assert (stored.version, stored.snapshot) == (41, {"any": ["json", 1]})
    assert stored.updated_at > before and stored.updated_at == match.updated_at


def test_insert_batches_many_rows_and_sets_auto_now_add(alice):
    match = make_match(alice)
    hand = Hand.objects.get(match=match, number=1)
    start = hand.next_seq
    count = 400  # more than one batch of parameters on SQLite
    actions = [
        Action(
            match=match, hand=hand, seq=start + i, seat=i % 4, kind="play", value="2C",
            actor="bot", version=99,
        )
        for i in range(count)
    ]  # fmt: skip
    batch = connection.ops.bulk_batch_size(rows._insert_fields(Action), actions)
    stored = Action.objects.filter(match=match, version=99)
    with CaptureQueriesContext(connection) as queries:
        rows.run(rows.insert_statements(actions))
        # The next statement: on PostgreSQL, writes in a transaction go out with it.
        assert stored.count() == count
    # SQLite limits a statement's parameters, so there the rows go in several INSERTs.
    assert len(writes(queries)) == -(-count // batch)
    assert not stored.filter(created_at__isnull=True).exists()
    assert all(not a._state.adding for a in actions)


def test_the_seats_come_with_their_names_and_need_no_further_query(make_user):
    alice = make_user("alice", "Alice")
    nameless = make_user("bob")
    Profile.objects.filter(user=nameless).delete()
    match = make_match(alice, people=[nameless])
    _, seats, _, _ = table_rows.lock_table(match.pk)
    with CaptureQueriesContext(connection) as queries:
        names = [seat.name for seat in seats]
        matches = {seat.match.pk for seat in seats}
    assert names == ["Alice", "bob", "Cleo", "Dmitri"]
    assert matches == {match.pk}
    assert all(seat.match is seats[0].match for seat in seats)
    assert len(queries) == 0


def test_the_locked_match_and_its_hand_are_the_rows_the_orm_reads(alice):
    match = make_match(alice)
    locked, _, hand, _ = table_rows.lock_table(match.pk)
    assert field_values(locked) == field_values(Match.objects.get(pk=match.pk))
    expected = Hand.objects.get(match=match, number=locked.hand_no)
    assert (hand.pk, hand.number, hand.next_seq, hand.finished_at) == (
        expected.pk,
        expected.number,
        expected.next_seq,
        expected.finished_at,
    )
    assert table_rows.lock_table(match.pk + 1000) is None


def test_writes_sent_together_all_take_effect(alice):
    match = make_match(alice)
    hand = Hand.objects.get(match=match, number=1)
    seat = Seat.objects.get(match=match, position=1)
    action = Action(
        match=match, hand=hand, seq=hand.next_seq, seat=1, kind="play", value="2C",
        actor="bot", version=50,
    )  # fmt: skip
    hand.next_seq += 1
    seat.to_act = True
    match.version = 50
    with CaptureQueriesContext(connection) as queries:
        rows.run(
            [
                *rows.insert_statements([action]),
                rows.update_statement(hand, ["next_seq"]),
                rows.update_statement(seat, ["to_act"]),
                rows.update_statement(match, ["version"]),
            ]
        )
        # The next statement: on PostgreSQL, writes in a transaction go out with it.
        assert Action.objects.filter(match=match, version=50).count() == 1
    # One statement on PostgreSQL; one each elsewhere.
    assert len(writes(queries)) == (1 if connection.vendor == "postgresql" else 4)
    assert Hand.objects.get(pk=hand.pk).next_seq == hand.next_seq
    assert Seat.objects.get(pk=seat.pk).to_act is True
    assert Match.objects.get(pk=match.pk).version == 50


def test_the_match_its_seats_and_its_hand_come_in_one_query(alice):
    match = make_match(alice)
    with CaptureQueriesContext(connection) as queries:
        locked, seats, hand, _ = table_rows.lock_table(match.pk)
    assert len(queries) == 1
    if connection.vendor == "postgresql":
        assert queries[0]["sql"].endswith('FOR UPDATE OF "m"')
    assert locked.pk == match.pk
    assert [s.position for s in seats] == [0, 1, 2, 3]
    assert hand.pk == Hand.objects.get(match=match, number=locked.hand_no).pk


def test_a_match_not_started_has_seats_and_no_hand(alice):
    match = make_match(alice, start=False)
    locked, seats, hand, _ = table_rows.lock_table(match.pk)
    assert locked.hand_no == 0
    assert hand is None and len(seats) == 4


def test_a_match_without_seats_is_read_with_none(alice):
    match = make_match(alice, start=False)
    Seat.objects.filter(match=match).delete()
    locked, seats, hand, _ = table_rows.lock_table(match.pk)
    assert locked.pk == match.pk
    assert seats == [] and hand is None


def test_an_instance_built_from_loaded_values_is_the_one_django_builds(alice):
    match = Match.objects.get(pk=make_match(alice).pk)
    attnames = [f.attname for f in Match._meta.concrete_fields]
    values = [getattr(match, name) for name in attnames]
    ours, django = rows.from_db(Match, attnames, values), Match.from_db("default", attnames, values)
    assert type(ours) is Match
    assert field_values(ours) == field_values(django)
    assert (ours._state.adding, ours._state.db) == (django._state.adding, django._state.db)
    assert ours.created_by == alice  # a foreign key is read through its id, as usual
    some = rows.from_db(Match, ["id", "version"], [match.pk, 7])
    assert some.get_deferred_fields() == set(attnames) - {"id", "version"}


def test_an_instance_built_from_loaded_values_tells_receivers_of_init_signals(alice):
    match = make_match(alice)
    seen = []

    def note(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(note, sender=Match)
    try:
        built = rows.from_db(Match, ["id", "version"], [match.pk, 7])
    finally:
        post_init.disconnect(note, sender=Match)
    assert seen == [built]
