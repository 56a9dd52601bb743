"""Work for the background worker: turn notices, the daily digest, the account's notices.

Tasks are rows in the database (django-tasks with its database backend), so they survive
restarts; `manage.py worker` runs them. Each task checks, when it runs, that its e-mail is
still due, and claims it with a conditional UPDATE, so no e-mail goes out twice even with
several workers.
"""

import logging
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.db.models import F, Prefetch, Q, QuerySet
from django_tasks import TaskContext, TaskResultStatus, task
from django_tasks_db.models import DBTaskResult, DBTaskResultQuerySet

from games.lib import clock
from games.lib.limits import within_limit
from games.lib.queues import LONG
from games.lib.zones import zone_of
from games.models import MatchStatus, NotificationSettings, Seat
from games.notifications import mail

logger = logging.getLogger(__name__)


def _waiting_seats() -> QuerySet[Seat]:
    """Seats whose player must act now in a match in play, with what the e-mails name."""
    return (
        Seat.objects.filter(to_act=True, resigned=False, match__status=MatchStatus.ACTIVE)
        .select_related("match", "user__profile")
        .prefetch_related(
            Prefetch("match__seats", queryset=Seat.objects.select_related("user__profile"))
        )
        .order_by("waiting_since", "match_id")
    )


def _opted_in(**opt_in: bool) -> Q:
    return Q(**opt_in, user__is_active=True) & ~Q(user__email="")


def _claim(pk: int, field: str, previous: datetime | None, now: datetime) -> bool:
    """Stamp the row's field if it still holds what was read; say whether this call did.

    Whoever changes the row sends the e-mail; a second worker finds nothing left to change.
    The condition names only the row's own columns, so PostgreSQL re-checks it after waiting.
    """
    return bool(
        NotificationSettings.objects.filter(pk=pk, **{field: previous}).update(**{field: now})
    )


@task(queue_name=LONG)
def send_turn_notice(user_id: int, match_id: int, since: str) -> bool:
    """E-mail the user that the match waits for them, if it still does and they are away.

    `since` is when their turn began. Sent only if they have opted in, are still to act,
    have not been seen since, and have had no turn e-mail since they were last seen.
    """
    turn_began = datetime.fromisoformat(since)
    seat = _waiting_seats().filter(user_id=user_id, match_id=match_id).first()
    if seat is None:
        return False  # the turn has passed, or the match is over
    away = Q(last_seen__isnull=True) | Q(last_seen__lt=turn_began)
    not_yet_told = Q(last_turn_email_at__isnull=True) | Q(last_turn_email_at__lt=F("last_seen"))
    row = (
        NotificationSettings.objects.filter(
            _opted_in(turn_emails=True), away, not_yet_told, user_id=user_id
        )
        .values("pk", "last_turn_email_at")
        .first()
    )
    if row is None:
        return False
    previous = row["last_turn_email_at"]
    if not _claim(row["pk"], "last_turn_email_at", previous, clock.now()):
        return False
    try:
        user = seat.user
        assert user is not None  # the seat was found by its player's id
        mail.send_turn_notice(user, seat)
    except Exception:
        # Unclaim, so a later turn may try again; the task itself is recorded as failed.
        NotificationSettings.objects.filter(user_id=user_id).update(last_turn_email_at=previous)
        raise
    return True


@task(queue_name=LONG)
def send_address_notice(user_id: int, old_address: str) -> bool:
    """E-mail the address an account has just left that it was changed."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return False  # the account is gone
    mail.send_address_changed(user, old_address)
    return True


def notify_address_changed(user: User, old_address: str) -> None:
    """Queue the notice to the old address, once the change is committed."""
    transaction.on_commit(lambda: send_address_notice.enqueue(user.pk, old_address))


@task(queue_name=LONG)
def send_password_notice(user_id: int) -> bool:
    """E-mail the account's address that its password has changed, if it has an address."""
    user = get_user_model().objects.filter(pk=user_id).exclude(email="").first()
    if user is None:
        return False  # the account is gone, or has nowhere to write to
    mail.send_password_changed(user)
    return True


def notify_password_changed(user: User) -> None:
    """Queue the notice of a new password, once it is committed."""
    if user.email:
        transaction.on_commit(lambda: send_password_notice.enqueue(user.pk))


@task(queue_name=LONG)
def send_password_reset(email: str) -> int:
    """E-mail a reset link to each active account of this address; return how many were sent.

    Each account gets at most `PASSWORD_RESET_LIMIT` links a window, however many addresses
    it was asked for under (its address may have changed). The link is made here, from
    `SITE_URL`: there is no request to take the host from.
    """
    sent = 0
    for user in PasswordResetForm().get_users(email):
        if not within_limit(
            "reset-account",
            str(user.pk),
            settings.PASSWORD_RESET_LIMIT,
            settings.PASSWORD_RESET_WINDOW_SECONDS,
        ):
            continue
        mail.send_password_reset(user, default_token_generator.make_token(user))
        sent += 1
    return sent


def notify_turn_later(user_id: int, match_id: int, turn_began: datetime) -> None:
    """Queue the turn notice to be considered once the player has been away long enough."""
    run_after = turn_began + timedelta(seconds=settings.NOTIFY_AWAY_SECONDS)
    send_turn_notice.using(run_after=run_after).enqueue(
        user_id=user_id, match_id=match_id, since=turn_began.isoformat()
    )


def morning_has_come(now: datetime, zone: ZoneInfo, last: datetime | None) -> bool:
    """Say whether a player in this zone is due their daily digest: it is DIGEST_HOUR or later
    of their day, and none went out to them earlier that day (by their calendar)."""
    local = now.astimezone(zone)
    if local.hour < settings.DIGEST_HOUR:
        return False
    return last is None or last.astimezone(zone).date() < local.date()


def send_digests(now: datetime) -> int:
    """Send each opted-in player with waiting matches their digest, once a day, in their
    morning."""
    # No digest within the last 12 hours, whatever the zone: the database narrows the rows,
    # `morning_has_come` decides by each player's own calendar.
    recent = now - timedelta(hours=12)
    due = Q(last_digest_at__isnull=True) | Q(last_digest_at__lte=recent)
    rows = NotificationSettings.objects.filter(_opted_in(daily_digest=True), due)
    seats_by_user: dict[int, list[Seat]] = {}
    for seat in _waiting_seats().filter(user_id__in=rows.values("user_id")):
        assert seat.user_id is not None  # found by their player's id
        seats_by_user.setdefault(seat.user_id, []).append(seat)
    sent = 0
    due_rows = rows.filter(user_id__in=seats_by_user).values_list("user_id", "pk", "last_digest_at")
    for user_id, pk, previous in due_rows:
        seats = seats_by_user[user_id]
        if not morning_has_come(now, zone_of(seats[0].user), previous):
            continue
        if not _claim(pk, "last_digest_at", previous, now):
            continue
        try:
            user = seats[0].user
            assert user is not None  # the seats were found by their player's id
            mail.send_digest(user, seats)
            sent += 1
        except Exception:
            # One bad address must not cost everyone else their digest.
            NotificationSettings.objects.filter(user_id=user_id).update(last_digest_at=previous)
            logger.exception("Could not send the digest to user %s", user_id)
    return sent


def pending_digest_runs() -> DBTaskResultQuerySet:
    """Return the digest runs waiting in the queue."""
    return DBTaskResult.objects.filter(
        task_path=send_daily_digests.module_path, status=TaskResultStatus.READY
    )


def ensure_digest_scheduled() -> bool:
    """Queue a digest run now unless one is already waiting; say whether one was queued."""
    if pending_digest_runs().exists():
        return False
    send_daily_digests.enqueue()
    return True


@task(queue_name=LONG, takes_context=True)
def send_daily_digests(context: TaskContext) -> int:
    """Send the digests that are due, and queue the next run DIGEST_RUN_SECONDS later."""
    now = clock.now()
    # Queue the next run first, so a failure below never ends the chain. If another run
    # is already waiting (two were queued by a race), let that one carry the chain on.
    if not pending_digest_runs().exclude(id=context.task_result.id).exists():
        interval = timedelta(seconds=settings.DIGEST_RUN_SECONDS)
        send_daily_digests.using(run_after=now + interval).enqueue()
    return send_digests(now)
