"""E-mail a match's notices (a nudge, an open match given up) to the players who want them.

A notice about a match goes by e-mail to those of its players who asked for turn e-mails and
have an address; everyone concerned also hears of it live, on any page (`games/live.py`). The
e-mail is queued for the worker once the change is committed, and names the match and players,
never a card.
"""

import logging

from django.contrib.auth import get_user_model
from django.dispatch import receiver
from django_tasks import task

from games.models import Match, NotificationSettings
from games.notifications import mail
from games.services.events import match_notice

logger = logging.getLogger(__name__)

SUBJECTS = {
    "nudge": "{by} is waiting for your move in match {match}",
    "expired": "Match {match} did not fill and has been closed",
}


@task()
def send_match_notice(user_id: int, match_id: int, kind: str, text: str, by: str = "") -> bool:
    """E-mail one player a notice about a match, if they still want turn e-mails."""
    wanted = NotificationSettings.objects.filter(
        user_id=user_id, turn_emails=True, user__is_active=True
    ).exclude(user__email="")
    if kind not in SUBJECTS or not wanted.exists():
        return False
    user = get_user_model().objects.get(pk=user_id)
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return False
    context = {
        "kind": kind,
        "text": text,
        "by": by,
        "match_id": match_id,
        "url": mail.absolute(match.get_absolute_url()),
    }
    subject = SUBJECTS[kind].format(by=by, match=match_id)
    mail.send(user, "match_notice", subject, context)
    return True


@receiver(match_notice, dispatch_uid="games.notifications.notices")
def queue_match_notices(
    sender, *, match_id: int, user_ids: list[int], kind: str, text: str, by: str = "", **kwargs
) -> None:
    """Queue the e-mail of a notice for each player concerned who wants turn e-mails."""
    try:
        opted_in = NotificationSettings.objects.filter(
            user_id__in=set(user_ids), turn_emails=True
        ).values_list("user_id", flat=True)
        for user_id in sorted(opted_in):
            send_match_notice.enqueue(
                user_id=user_id, match_id=match_id, kind=kind, text=text, by=by
            )
    except Exception:
        # The change is committed; a lost e-mail must not turn it into an error page.
        logger.exception("Could not queue the notices of match %s", match_id)
