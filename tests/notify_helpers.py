"""For the e-mail tests: a clock that travels, a worker step that runs due tasks, and cards."""

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.core import mail
from django.db.models import Q
from django_tasks import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult, get_date_max

from games import engine
from games.models import Match, NotificationSettings

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

# A card as the site writes it anywhere: its code ("QS"), rank and suit symbol, or in words.
RANKS = "two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace"
CARD = re.compile(
    rf"\b(?:10|[2-9TJQKA])[SHDC]\b|(?:10|[2-9TJQKA])\s?[♠♥♦♣]"
    rf"|(?i:\b(?:{RANKS}) of (?:clubs|diamonds|hearts|spades)\b)"
)


@dataclass
class Clock:
    """The injected clock, standing still until a test moves it."""

    current: datetime = START

    def now(self) -> datetime:
        return self.current

    def advance(self, **delta: float) -> datetime:
        self.current += timedelta(**delta)
        return self.current


def run_due_tasks(now: datetime) -> list[DBTaskResult]:
    """Run, as the worker does, every queued task whose time has come by `now`; return them."""
    worker = Worker(
        queue_names=["*"], interval=0, batch=True, backend_name="default",
        startup_delay=False, max_tasks=None, worker_id="test", excluded_queue_names=[],
    )  # fmt: skip
    ran = []
    while True:
        due = (
            # The worker's own test, but on the test's clock; no run-after means "at once".
            DBTaskResult.objects.filter(status=TaskResultStatus.READY)
            .filter(Q(run_after=get_date_max()) | Q(run_after__lte=now))
            .order_by("run_after", "enqueued_at")
            .first()
        )
        if due is None:
            return ran
        due.claim(worker.worker_id)
        worker.run_task(due)
        due.refresh_from_db()
        assert due.status == TaskResultStatus.SUCCESSFUL, due.traceback
        ran.append(due)


def queued(task_name: str) -> list[DBTaskResult]:
    """Return the tasks of that name still waiting to run."""
    rows = DBTaskResult.objects.filter(status=TaskResultStatus.READY)
    return [row for row in rows if row.task_path.endswith("." + task_name)]


def opt_in(user, **choices: bool) -> None:
    NotificationSettings.objects.filter(user=user).update(**choices)


def settings_of(user) -> NotificationSettings:
    return NotificationSettings.objects.get(user=user)


def messages_to(user) -> list:
    return [message for message in mail.outbox if message.to == [user.email]]


def all_text(message) -> str:
    """Return everything a reader could see: subject, text and HTML bodies."""
    return "\n".join([message.subject, message.body, *(c for c, _ in message.alternatives)])


def hand_of(match: Match, position: int) -> list[str]:
    match.refresh_from_db()
    return [str(card) for card in engine.Match.from_snapshot(match.snapshot).view(position).hand]


NOTICE_KEYS = ("match_id", "user_ids", "kind", "by")


def notices_sent(capture_on_commit, call, *args, keys=NOTICE_KEYS) -> list[dict]:
    """Run a change and return the match notices it sent once committed, as these keys."""
    from games.services.events import match_notice

    heard: list[dict] = []

    def listen(sender, **notice):
        heard.append({key: notice[key] for key in keys})

    match_notice.connect(listen, dispatch_uid="tests-notices-sent")
    try:
        with capture_on_commit(execute=True):
            call(*args)
    finally:
        match_notice.disconnect(dispatch_uid="tests-notices-sent")
    return heard
