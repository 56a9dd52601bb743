"""The deadlines' tasks under the path they had before `games/background/`.

django-tasks' database backend stores each queued task by its dotted path
(`games.deadlines.time_out_seat`, `games.deadlines.sweep_deadlines`), and the worker imports
that path to run it: tasks queued before the move still name this module. Nothing else
imports it; the tasks live in `games/background/deadlines.py`.
"""

from games.background.deadlines import sweep_deadlines, time_out_seat

__all__ = ["sweep_deadlines", "time_out_seat"]
