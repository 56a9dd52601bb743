"""`events.one_update_per_match`: a run of committed changes announced once per match, as the
match stands after the last, with whoever became to act and still is."""

import pytest
from django.db import transaction

from games.services.events import announce_after_commit, match_changed, one_update_per_match


@pytest.fixture
def heard():
    changes: list[dict] = []

    def listen(sender, signal, **change):
        changes.append(change)

    match_changed.connect(listen)
    yield changes
    match_changed.disconnect(listen)


def change(match_id, version, to_act, became=None, status="active"):
    with transaction.atomic():
        announce_after_commit(match_id, version, to_act, status, became)


@pytest.mark.django_db(transaction=True)  # each change commits, as in a worker
def test_outside_it_each_change_is_announced_as_it_commits(heard):
    change(1, 5, [])
    change(1, 6, [7])
    assert [c["version"] for c in heard] == [5, 6]


@pytest.mark.django_db(transaction=True)
def test_within_it_each_match_is_announced_once_as_it_stands_after_the_last_change(heard):
    with one_update_per_match():
        change(1, 5, [3], became=[3])  # 3 becomes to act
        change(2, 9, [])
        change(1, 6, [3, 4], became=[4])  # 4 too; 3 still is
        change(1, 7, [3, 4], became=[])
        assert heard == [], "nothing is announced before the run ends"
    assert heard == [
        {
            "match_id": 1,
            "version": 7,
            "to_act_user_ids": [3, 4],
            "status": "active",
            "became_to_act_user_ids": [3, 4],
        },
        {
            "match_id": 2,
            "version": 9,
            "to_act_user_ids": [],
            "status": "active",
            "became_to_act_user_ids": [],
        },
    ]


@pytest.mark.django_db(transaction=True)
def test_someone_no_longer_to_act_at_the_end_is_not_told_and_a_rolled_back_change_is_not_held(
    heard,
):
    with one_update_per_match():
        change(1, 5, [3], became=[3])
        change(1, 6, [], status="finished")
        with pytest.raises(RuntimeError), transaction.atomic():
            announce_after_commit(1, 7, [8], "active", [8])
            raise RuntimeError("rolled back")
    assert heard == [
        {
            "match_id": 1,
            "version": 6,
            "to_act_user_ids": [],
            "status": "finished",
            "became_to_act_user_ids": [],
        }
    ]


@pytest.mark.django_db(transaction=True)
def test_what_was_committed_before_an_error_is_still_announced(heard):
    with pytest.raises(RuntimeError), one_update_per_match():
        change(1, 5, [3], became=[3])
        raise RuntimeError("the next card failed")
    assert [c["version"] for c in heard] == [5]
