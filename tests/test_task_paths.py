"""Every queued task's stored path imports, including the paths of tasks queued before a move.

django-tasks' database backend stores a task by its dotted path and the worker imports that
path to run it: a module moved without its old path kept would leave the tasks queued before
the move unrunnable (ARCHITECTURE.md, "The rooms of games/").
"""

import importlib
import pkgutil
from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks.base import Task
from django_tasks_db.models import DBTaskResult

import games
from games.background import deadlines

# Paths tasks were stored under before games/background/; queued tasks may still carry them.
PATHS_BEFORE = {
    "games.deadlines.time_out_seat": "games.background.deadlines.time_out_seat",
    "games.deadlines.sweep_deadlines": "games.background.deadlines.sweep_deadlines",
    "games.round_deadline_tasks.finish_round_at_deadline": (
        "games.background.round_deadline_tasks.finish_round_at_deadline"
    ),
    "games.round_deadline_tasks.finish_round_now": (
        "games.background.round_deadline_tasks.finish_round_now"
    ),
}


def every_task() -> list[Task]:
    found = {}
    for module_info in pkgutil.walk_packages(games.__path__, "games."):
        name = module_info.name
        if ".migrations" in name or name.startswith("games.engine"):
            continue
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, Task):
                found[value.module_path] = value
    return list(found.values())


def test_the_site_s_tasks_are_found():
    paths = {queued.module_path for queued in every_task()}
    assert set(PATHS_BEFORE.values()) <= paths
    assert "games.notifications.tasks.send_turn_notice" in paths
    assert "games.notifications.notices.send_match_notice" in paths


@pytest.mark.parametrize("queued", every_task(), ids=lambda queued: queued.module_path)
def test_every_task_s_own_path_imports(queued):
    assert import_string(queued.module_path).func is queued.func


@pytest.mark.parametrize("before,now", sorted(PATHS_BEFORE.items()))
def test_the_paths_of_tasks_queued_before_the_move_still_import(before, now):
    assert import_string(before).func is import_string(now).func


@pytest.mark.django_db
def test_a_sweep_queued_under_its_old_path_counts_as_scheduled():
    DBTaskResult.objects.create(
        task_path="games.deadlines.sweep_deadlines",
        args_kwargs={"args": [], "kwargs": {}},
        queue_name="default",
        backend_name="default",
        run_after=timezone.now() + timedelta(minutes=5),
    )
    assert deadlines.pending_sweeps().count() == 1
    assert not deadlines.ensure_sweep_scheduled()
    assert DBTaskResult.objects.count() == 1


@pytest.mark.django_db
def test_a_timeout_queued_under_its_old_path_counts_as_on_its_way():
    deadline = timezone.now() - timedelta(minutes=1)
    DBTaskResult.objects.create(
        task_path="games.deadlines.time_out_seat",
        args_kwargs={
            "args": [],
            "kwargs": {"match_id": 7, "position": 2, "deadline": deadline.isoformat()},
        },
        queue_name="default",
        backend_name="default",
        priority=deadlines.time_out_seat.priority,
        run_after=deadline,
    )
    assert deadlines.timeouts_on_their_way() == {(7, 2, deadline)}
