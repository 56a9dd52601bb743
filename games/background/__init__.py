"""The work no request does: what the workers (`manage.py worker`) run.

- `deadlines.py`: a task for each decision's deadline, and the periodic sweep
- `round_deadline_tasks.py`: a task for each round deadline staff set, and "Finish by bots now"
- `bot_runner.py`: the searching bots' cards, one task each on the `now` queue

The tasks that send mail live with the rest of the mail, in `games/notifications/`.

django-tasks' database backend stores a queued task by its dotted path. Tasks queued before
these modules came here carry their old paths (`games.deadlines.*`,
`games.round_deadline_tasks.*`): thin modules at those paths keep them importable
(`tests/test_task_paths.py`), and the reads of the queue count both (`STORED_BEFORE`).
"""
