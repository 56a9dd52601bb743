"""The "Play again" panel of a finished match, for one of its people (services/rematches.py)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User

from games.models import Match, display_name_of
from games.services.rematches import Offer, offer_of


@dataclass(frozen=True)
class Answer:
    """One person at the table and what they said: True yes, False no thanks, None awaited."""

    name: str
    accepted: bool | None


@dataclass(frozen=True)
class RematchPanel:
    """What the viewer sees of the offer: everyone's answers, their own, the rematch if any."""

    answers: list[Answer]
    mine: bool | None
    rematch: Match | None

    @property
    def may_start_with_bots(self) -> bool:
        """Whether the viewer, having accepted, may start without those not (yet) coming."""
        return self.mine is True and self.rematch is None


def rematch_panel(match: Match, user: User | AnonymousUser) -> RematchPanel | None:
    """Return the panel for this viewer, or None: only the match's people are offered it."""
    if not isinstance(user, User):
        return None
    offer: Offer | None = offer_of(match)
    if offer is None or not offer.is_offered_to(user):
        return None
    return RematchPanel(
        answers=[
            Answer(display_name_of(s.seat.user), s.accepted) for s in offer.seats if s.seat.user
        ],
        mine=offer.answer_of(user),
        rematch=offer.rematch,
    )
