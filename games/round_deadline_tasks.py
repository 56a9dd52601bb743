"""The round deadlines' tasks under the path they had before `games/background/`.

django-tasks' database backend stores each queued task by its dotted path
(`games.round_deadline_tasks.finish_round_at_deadline`, `...finish_round_now`), and the worker
imports that path to run it: tasks queued before the move still name this module. Nothing
else imports it; the tasks live in `games/background/round_deadline_tasks.py`.
"""

from games.background.round_deadline_tasks import finish_round_at_deadline, finish_round_now

__all__ = ["finish_round_at_deadline", "finish_round_now"]
