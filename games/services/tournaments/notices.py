"""Tell seated players where to go, once the seating or the start has committed."""

from django.urls import reverse

from games.models import Round
from games.services.events import SeatedNotice, announce_seated_after_commit


def announce_seated(round_: Round) -> None:
    """Send each seated player a notice with a link: their match once started, else the page."""
    tournament = round_.tournament
    notices: list[SeatedNotice] = []
    for table in round_.tables.prefetch_related("seats__entry"):
        url = (
            reverse("match", args=[table.match_id])
            if table.match_id
            else reverse("tournament", args=[tournament.slug])
        )
        for seat in table.seats.all():
            notices.append(
                {
                    "user_id": seat.entry.user_id,
                    "tournament": tournament.name,
                    "round": round_.number,
                    "table": table.number,
                    "url": url,
                }
            )
    announce_seated_after_commit(notices)
