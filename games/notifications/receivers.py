"""When a turn begins for a player who wants turn e-mails, queue the notice for later."""

import logging

from django.dispatch import receiver

from games.lib import clock
from games.models import NotificationSettings
from games.notifications.tasks import notify_turn_later
from games.services.events import match_changed

logger = logging.getLogger(__name__)


@receiver(match_changed, dispatch_uid="games.notifications.turns")
def queue_turn_notices(
    sender: object, *, match_id: int, became_to_act_user_ids: list[int], **kwargs: object
) -> None:
    """Queue a turn notice for each player, opted in, whose turn this change began."""
    if not became_to_act_user_ids:
        return
    try:
        opted_in = NotificationSettings.objects.filter(
            user_id__in=set(became_to_act_user_ids), turn_emails=True
        ).values_list("user_id", flat=True)
        now = clock.now()
        for user_id in sorted(opted_in):
            notify_turn_later(user_id, match_id, now)
    except Exception:
        # The move is committed already; a lost notice must not turn it into an error page.
        logger.exception("Could not queue the turn notices of match %s", match_id)
