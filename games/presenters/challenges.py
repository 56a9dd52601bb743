"""The challenges a person received and sent, shaped for the Challenges page and *Your turn*.

A person sees the challenges they sent, with every invitee's answer, and those sent to them,
with the challenger and the match's terms. Nobody else's: an invitee sees not the other
invitees' answers, only who else was named (their table companions to be). No card: no deal
exists before the match starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Prefetch, Q, QuerySet

from games.lib import clock
from games.models import (
    Answer,
    Challenge,
    ChallengeSeat,
    Follow,
    Match,
    MatchStatus,
    display_name_of,
)
from games.services import people

SENT_LISTED = 30  # the latest; older ones are over anyway
RECEIVED_LISTED = 30
SUGGESTIONS = 10


@dataclass(frozen=True)
class Invitee:
    name: str
    state: str  # an `Answer` value, "expired" also for a pending one past its time
    state_words: str


@dataclass(frozen=True)
class ChallengeRow:
    challenge: Challenge
    match: Match
    challenger: str
    invitees: tuple[Invitee, ...]
    expires_at: datetime
    # For a received challenge: the viewer's own state, and whether they may still answer.
    mine: str
    mine_words: str
    answerable: bool
    cancellable: bool


def _state(invitation: ChallengeSeat, challenge: Challenge, now: datetime) -> str:
    """Say where an invitation stands, as of now, whether or not the sweep has run."""
    if not invitation.is_pending:
        return invitation.answer
    if challenge.match.status != MatchStatus.OPEN:
        return Answer.CANCELLED
    if challenge.expires_at <= now:
        return Answer.EXPIRED
    return Answer.PENDING


def _row(challenge: Challenge, viewer: User, now: datetime) -> ChallengeRow:
    invitations = list(challenge.seats.all())
    invitees = tuple(
        Invitee(
            name=display_name_of(invitation.invitee),
            state=(state := _state(invitation, challenge, now)),
            state_words=str(Answer(state).label),
        )
        for invitation in invitations
    )
    mine = next((_state(i, challenge, now) for i in invitations if i.invitee_id == viewer.pk), "")
    is_open = challenge.match.status == MatchStatus.OPEN
    return ChallengeRow(
        challenge=challenge,
        match=challenge.match,
        challenger=display_name_of(challenge.challenger),
        invitees=invitees,
        expires_at=challenge.expires_at,
        mine=mine,
        mine_words=str(Answer(mine).label) if mine else "",
        answerable=mine == Answer.PENDING,
        cancellable=is_open and challenge.challenger_id == viewer.pk,
    )


def _challenges() -> QuerySet[Challenge]:
    seats = ChallengeSeat.objects.select_related("invitee__profile").order_by("position")
    return Challenge.objects.select_related("match", "challenger__profile").prefetch_related(
        Prefetch("seats", queryset=seats)
    )


def received(viewer: User, *, waiting_only: bool = False) -> list[ChallengeRow]:
    """Return the challenges sent to the viewer, the newest first (only those to answer)."""
    now = clock.now()
    found = _challenges().filter(seats__invitee=viewer)
    if waiting_only:
        found = found.filter(pk__in=Challenge.waiting_for(viewer.pk, now).values("pk"))
    return [_row(challenge, viewer, now) for challenge in found[:RECEIVED_LISTED]]


def sent(viewer: User) -> list[ChallengeRow]:
    """Return the challenges the viewer sent, the newest first."""
    now = clock.now()
    found = _challenges().filter(challenger=viewer)
    return [_row(challenge, viewer, now) for challenge in found[:SENT_LISTED]]


def name_suggestions(viewer: User, prefix: str) -> list[str]:
    """Return up to ten names starting with the prefix: people the viewer follows first.

    Never the viewer, an inactive (deleted) account, or anyone with a block either way.
    """
    starts = Q(profile__display_name__istartswith=prefix) | (
        (Q(profile__isnull=True) | Q(profile__display_name="")) & Q(username__istartswith=prefix)
    )
    blocked = people.blocked_ids(viewer)
    candidates = (
        get_user_model()
        .objects.filter(starts, is_active=True)
        .exclude(pk=viewer.pk)
        .exclude(pk__in=blocked)
        .exclude(profile__deleted_at__isnull=False)
        .select_related("profile")
    )
    followed = set(Follow.objects.filter(follower=viewer).values_list("followed_id", flat=True))
    first = list(candidates.filter(pk__in=followed)[:SUGGESTIONS])
    rest = list(candidates.exclude(pk__in=followed)[: SUGGESTIONS - len(first)])
    return sorted({display_name_of(u) for u in first}, key=str.casefold) + sorted(
        {display_name_of(u) for u in rest}, key=str.casefold
    )
