"""E-mail a match's notices (a nudge, a match given up, a rematch, a challenge) to the players
who want them.

A notice about a match goes by e-mail to those concerned who asked for that kind of e-mail
(`EMAIL_CHOICE`) and have an address; everyone concerned also hears of it live, on any page
(`games/live.py`). The e-mail is queued for the worker once the change is committed, and
names the match and players, never a card.
"""

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.dispatch import receiver
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django_tasks import task

from games.lib.queues import LONG
from games.lib.zones import as_read_by
from games.models import Match, NotificationSettings
from games.notifications import mail
from games.services.events import match_notice

logger = logging.getLogger(__name__)

# Each kind of notice, and the e-mail choice (a `NotificationSettings` field) that asks for it.
EMAIL_CHOICE = {
    "nudge": "turn_emails",
    "expired": "turn_emails",
    "rematch": "turn_emails",
    "rematch_offer": "turn_emails",
    "challenge": "challenge_emails",
    "challenge_cancelled": "challenge_emails",
    "challenge_expired": "challenge_emails",
}
KINDS = tuple(EMAIL_CHOICE)
# Kinds heard only live, never e-mailed: a reporter hears what staff decided of a message.
LIVE_ONLY_KINDS = ("report_hidden", "report_kept")
# Every kind whose words `notice_words` writes, in each listener's language.
WORDED_KINDS = KINDS + LIVE_ONLY_KINDS
# The kinds about a challenge: they lead to the Challenges page, not to the match.
CHALLENGE_KINDS = ("challenge", "challenge_cancelled", "challenge_expired")


def notice_url(kind: str, match: Match) -> str:
    """Return where a notice leads: the challenges to answer, or the match."""
    return reverse("challenges") if kind in CHALLENGE_KINDS else match.get_absolute_url()


def notice_words(kind: str, by: str, match_id: int) -> tuple[str, str]:
    """Return the subject and the text of a notice, in the active language."""
    if kind == "nudge":
        return (
            gettext("%(by)s is waiting for your move in match %(match)s")
            % {"by": by, "match": match_id},
            gettext("%(by)s nudged you: match %(match)s waits for your move.")
            % {"by": by, "match": match_id},
        )
    if kind == "challenge":
        return (
            gettext("%(by)s challenges you to a match of Hearts") % {"by": by},
            gettext("%(by)s challenges you to match %(match)s: accept or decline it.")
            % {"by": by, "match": match_id},
        )
    if kind == "challenge_cancelled":
        return (
            gettext("%(by)s called off the challenge to match %(match)s")
            % {"by": by, "match": match_id},
            gettext("%(by)s called off the challenge to match %(match)s.")
            % {"by": by, "match": match_id},
        )
    if kind == "challenge_expired":
        return (
            gettext("The time to answer the challenge to match %(match)s has run out")
            % {"match": match_id},
            gettext("The time to answer the challenge to match %(match)s has run out.")
            % {"match": match_id},
        )
    if kind == "report_hidden":
        words = gettext(
            "Staff read the message you reported in match %(match)s and hid it from everyone."
        ) % {"match": match_id}
        return words.rstrip("."), words
    if kind == "report_kept":
        words = gettext(
            "Staff read the message you reported in match %(match)s and left it as it is."
        ) % {"match": match_id}
        return words.rstrip("."), words
    if kind == "rematch":
        return (
            gettext("Your rematch has started: match %(match)s") % {"match": match_id},
            gettext("Your rematch has started: match %(match)s.") % {"match": match_id},
        )
    if kind == "rematch_offer":
        return (
            gettext("%(by)s would play match %(match)s again") % {"by": by, "match": match_id},
            gettext("%(by)s would play match %(match)s again.") % {"by": by, "match": match_id},
        )
    days = settings.OPEN_MATCH_EXPIRY_DAYS
    return (
        gettext("Match %(match)s did not fill and has been closed") % {"match": match_id},
        ngettext(
            "Match %(match)s did not fill within %(days)d day and has been closed.",
            "Match %(match)s did not fill within %(days)d days and has been closed.",
            days,
        )
        % {"match": match_id, "days": days},
    )


@task(queue_name=LONG)
def send_match_notice(user_id: int, match_id: int, kind: str, text: str, by: str = "") -> bool:
    """E-mail one player a notice about a match, if they still want turn e-mails.

    The e-mail says it in the player's language; `text` is the words others heard live.
    """
    if kind not in KINDS:
        return False
    wanted = NotificationSettings.objects.filter(
        user_id=user_id, user__is_active=True, **{EMAIL_CHOICE[kind]: True}
    ).exclude(user__email="")
    if not wanted.exists():
        return False
    user = get_user_model().objects.get(pk=user_id)
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return False
    with as_read_by(user):
        subject, words = notice_words(kind, by, match_id)
        context = {
            "kind": kind,
            "text": words,
            "by": by,
            "match_id": match_id,
            "url": mail.absolute(notice_url(kind, match)),
        }
        mail.send(user, "match_notice", subject, context)
    return True


@receiver(match_notice, dispatch_uid="games.notifications.notices")
def queue_match_notices(
    sender: object,
    *,
    match_id: int,
    user_ids: list[int],
    kind: str,
    text: str,
    by: str = "",
    **kwargs: object,
) -> None:
    """Queue the e-mail of a notice for each player concerned who wants that kind of e-mail."""
    if kind not in KINDS:
        return
    try:
        opted_in = NotificationSettings.objects.filter(
            user_id__in=set(user_ids), **{EMAIL_CHOICE[kind]: True}
        ).values_list("user_id", flat=True)
        for user_id in sorted(opted_in):
            send_match_notice.enqueue(
                user_id=user_id, match_id=match_id, kind=kind, text=text, by=by
            )
    except Exception:
        # The change is committed; a lost e-mail must not turn it into an error page.
        logger.exception("Could not queue the notices of match %s", match_id)
