"""Challenges by name: a private match whose seats are kept for named people until they answer.

Every change locks the match's row first (`LockedTable.lock`), as every change to a match does:
answers, a cancel and the expiry of one challenge meeting at once are ordered by that lock, so
exactly one outcome stands. The match starts through the lobby's own path once no seat is
empty. Expiry is the sweep's (`expire_challenges`); until it runs, an answer after the time is
refused all the same, and the lists show the challenge as expired.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Count, Q
from django.utils.translation import gettext, ngettext

from games.lib import clock
from games.lib.names import BOT_NAMES
from games.models import (
    Answer,
    BotLevel,
    Challenge,
    ChallengeSeat,
    Match,
    MatchStatus,
    Seat,
    Unanswered,
    display_name_of,
)
from games.services import lobby, people
from games.services.errors import BadInput, Conflict, NotAllowed, NotFound, TooManyOpen
from games.services.events import announce_notice_after_commit
from games.services.match_options import MatchOptions
from games.services.table import Changed, LockedTable
from games.services.writes import write_transaction

# How long a challenge waits for its answers, at most: the sweep closes an open match that
# never filled after OPEN_MATCH_EXPIRY_DAYS, so a challenge must be answered before that.
LONGEST_WAIT = timedelta(days=7)
SHORTEST_WAIT = timedelta(hours=1)


def check_invitees(challenger: User, invitees: Sequence[User], seats: int) -> None:
    """Refuse a list of invitees the challenge cannot have, saying which and why."""
    if not invitees:
        raise BadInput(gettext("Name at least one player to challenge."))
    ids = [invitee.pk for invitee in invitees]
    if challenger.pk in ids:
        raise BadInput(gettext("That is you: name someone else to challenge."))
    if len(set(ids)) != len(ids):
        raise BadInput(gettext("Each player can be named once."))
    if len(invitees) > seats:
        raise BadInput(
            ngettext(
                "This table has %(seats)d seat for another person: name no more than one.",
                "This table has %(seats)d seats for other people: name at most that many.",
                seats,
            )
            % {"seats": seats}
        )
    for invitee in invitees:
        name = display_name_of(invitee)
        if people.blocked_between(challenger, invitee):
            # Which of the two blocked the other stays unsaid.
            raise NotAllowed(
                gettext("You cannot challenge %(name)s: there is a block between you.")
                % {"name": name}
            )
        if _pending_between(challenger, invitee):
            raise Conflict(
                gettext("You have already challenged %(name)s: wait for their answer.")
                % {"name": name}
            )
        if _open_matches_of(invitee) >= settings.MAX_OPEN_MATCHES_PER_PLAYER:
            raise TooManyOpen(
                gettext("%(name)s has as many open matches as a player may: try again later.")
                % {"name": name}
            )


def _pending_between(challenger: User, invitee: User) -> bool:
    """Say whether the challenger already has a challenge waiting for this person's answer."""
    return ChallengeSeat.objects.filter(
        challenge__challenger=challenger,
        invitee=invitee,
        answer=Answer.PENDING,
        challenge__match__status=MatchStatus.OPEN,
    ).exists()


def _open_matches_of(user: User) -> int:
    """Count the open matches a person sits in or has a seat kept in, as the cap counts them."""
    seated = Seat.objects.filter(user=user, match__status=MatchStatus.OPEN).count()
    kept = ChallengeSeat.objects.filter(
        invitee=user, answer=Answer.PENDING, challenge__match__status=MatchStatus.OPEN
    ).count()
    return seated + kept


def create_challenge(
    challenger: User,
    options: MatchOptions,
    invitees: Sequence[User],
    wait: timedelta,
    unanswered: str = Unanswered.BOT,
) -> Match:
    """Create a private match with a seat kept for each invitee, and tell them."""
    if not SHORTEST_WAIT <= wait <= LONGEST_WAIT:
        raise BadInput(gettext("Choose a time to answer from one hour to seven days."))
    if unanswered not in Unanswered.values:
        raise BadInput(gettext("Choose what becomes of a seat nobody takes."))
    options = dataclasses.replace(options, private=True)  # a challenge is for those named
    with write_transaction():
        check_invitees(challenger, invitees, options.players - 1 - options.bots)
        match = lobby.create_match(challenger, options)
        now = clock.now()
        challenge = Challenge.objects.create(
            match=match,
            challenger=challenger,
            created_at=now,
            expires_at=now + wait,
            unanswered=unanswered,
        )
        # The kept seats come right after the challenger's; bots sit in the last ones.
        ChallengeSeat.objects.bulk_create(
            ChallengeSeat(challenge=challenge, invitee=invitee, position=position)
            for position, invitee in enumerate(invitees, start=1)
        )
        by = display_name_of(challenger)
        # The notice names the challenger and the match, never a card (none is dealt yet).
        announce_notice_after_commit(
            match.pk, [invitee.pk for invitee in invitees], "challenge", "", by=by
        )
    return match


def _locked(challenge_id: int) -> tuple[LockedTable, Challenge]:
    """Lock the challenge's match, then read the challenge under that lock."""
    match_id = Challenge.objects.filter(pk=challenge_id).values_list("match_id", flat=True).first()
    if match_id is None:
        raise NotFound(gettext("There is no such challenge."))
    table = LockedTable.lock(match_id)
    return table, Challenge.objects.get(pk=challenge_id)


def _invitation(challenge: Challenge, user: User) -> ChallengeSeat:
    invitation = challenge.seats.filter(invitee=user).first()
    if invitation is None:
        # Someone else's challenge is, to this person, no challenge at all.
        raise NotFound(gettext("There is no such challenge."))
    return invitation


def _check_still_open(table: LockedTable, invitation: ChallengeSeat, challenge: Challenge) -> None:
    if invitation.answer == Answer.EXPIRED or (
        invitation.is_pending and challenge.expires_at <= clock.now()
    ):
        raise Conflict(gettext("This challenge has expired."))
    if invitation.answer == Answer.CANCELLED or table.match.status != MatchStatus.OPEN:
        raise Conflict(gettext("This challenge is over: its match was started or called off."))
    if not invitation.is_pending:
        raise Conflict(gettext("You have already answered this challenge."))


def _seat_at(table: LockedTable, position: int) -> Seat:
    return next(seat for seat in table.seats if seat.position == position)


def _release(table: LockedTable, challenge: Challenge, invitation: ChallengeSeat) -> None:
    """Give a declined or expired seat to a bot, or leave it open, as the challenger chose."""
    if challenge.unanswered == Unanswered.BOT:
        seat = _seat_at(table, invitation.position)
        seat.controller = Seat.Controller.BOT
        seat.bot_name = BOT_NAMES[seat.position]
        seat.bot_level = BotLevel.NORMAL
        seat.save(update_fields=["controller", "bot_name", "bot_level"])


@write_transaction()
def accept(user: User, challenge_id: int) -> Changed:
    """Take the seat kept for the user; the match starts once every seat is taken."""
    table, challenge = _locked(challenge_id)
    invitation = _invitation(challenge, user)
    _check_still_open(table, invitation, challenge)
    people.check_may_sit_with(user, [s.user_id for s in table.seats if s.user_id is not None])
    if table.seat_of(user) is not None:
        raise Conflict(gettext("You already have a seat in this match."))
    kept_elsewhere = sum(
        1 for seat in table.seats if seat.is_empty and seat.position != invitation.position
    )
    if kept_elsewhere:  # taking the last seat starts the match: no open match more
        lobby.check_open_matches(user)
    seat = _seat_at(table, invitation.position)
    seat.user = user
    seat.save(update_fields=["user"])
    _answer(invitation, Answer.ACCEPTED)
    lobby.start_if_full(table)
    return table.save()


@write_transaction()
def decline(user: User, challenge_id: int) -> Changed:
    """Decline: the kept seat goes to a bot or stays open, as the challenger chose."""
    table, challenge = _locked(challenge_id)
    invitation = _invitation(challenge, user)
    _check_still_open(table, invitation, challenge)
    _answer(invitation, Answer.DECLINED)
    _release(table, challenge, invitation)
    lobby.start_if_full(table)
    return table.save()


@write_transaction()
def cancel(user: User, challenge_id: int) -> Changed:
    """Call the challenge off before its match starts: the match is abandoned."""
    table, challenge = _locked(challenge_id)
    if challenge.challenger_id != user.pk:
        raise NotFound(gettext("There is no such challenge."))
    if table.match.status != MatchStatus.OPEN:
        raise Conflict(gettext("This challenge is over: its match was started or called off."))
    lobby.call_off(table, user)
    return table.save()


def _answer(invitation: ChallengeSeat, answer: str) -> None:
    invitation.answer = answer
    invitation.answered_at = clock.now()
    invitation.save(update_fields=["answer", "answered_at"])


def expire_challenges() -> int:
    """Close the invitations whose time has passed (the sweep's part); return how many."""
    due = (
        Challenge.objects.filter(
            expires_at__lte=clock.now(),
            match__status=MatchStatus.OPEN,
        )
        .annotate(pending=Count("seats", filter=Q(seats__answer=Answer.PENDING)))
        .filter(pending__gt=0)
        .values_list("pk", flat=True)
    )
    closed = 0
    for challenge_id in list(due):
        closed += _expire(challenge_id)
    return closed


@write_transaction()
def _expire(challenge_id: int) -> int:
    table, challenge = _locked(challenge_id)
    if table.match.status != MatchStatus.OPEN or challenge.expires_at > clock.now():
        return 0  # answered, cancelled or started meanwhile
    pending = list(challenge.seats.filter(answer=Answer.PENDING))
    for invitation in pending:
        _answer(invitation, Answer.EXPIRED)
        _release(table, challenge, invitation)
    lobby.start_if_full(table)
    table.save()
    # The challenger and those who did not answer in time hear that the time has run out.
    told = [challenge.challenger_id] + [invitation.invitee_id for invitation in pending]
    announce_notice_after_commit(table.match.pk, told, "challenge_expired", "")
    return len(pending)
