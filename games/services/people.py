"""Whom a player follows and whom they block, and the one rule saying who may reach whom.

`blocked_between(a, b)` is the question every way one person reaches another asks: following
now, joining a match by its invite link now, challenges, rematches, and the chat (`blocks_of`).
Either side's block counts, and neither learns which of them blocked: a refusal says only
that the two do not play together. Tournament seating is staff's and does not ask.

Whom a player follows is theirs alone: nothing here tells anyone else, and no page counts
followers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Case, F, Q, QuerySet, When
from django.utils.translation import gettext

from games.lib import clock
from games.models import Block, Follow
from games.services.errors import BadInput, NotAllowed, NotFound
from games.services.writes import write_transaction


def person_named(name: str) -> User | None:
    """Return the active person who shows this name, or None."""
    # The name a player shows is their display name, or their username if they have none.
    no_display_name = Q(profile__isnull=True) | Q(profile__display_name="")
    user = (
        get_user_model()
        .objects.select_related("profile")
        .filter(Q(profile__display_name=name) | (Q(username=name) & no_display_name))
        .first()
    )
    return user if user is not None and user.is_active else None


@dataclass(frozen=True)
class Relation:
    """What one player has chosen about another: following them, blocking them."""

    follows: bool
    blocks: bool


def relation(user: User, other: User) -> Relation:
    """Return what the user has chosen about the other (never what the other chose)."""
    return Relation(
        follows=Follow.objects.filter(follower=user, followed=other).exists(),
        blocks=Block.objects.filter(blocker=user, blocked=other).exists(),
    )


def blocked_between(a: User, b: User) -> bool:
    """Say whether either of the two has blocked the other."""
    return blocked_with_any(a, [b.pk])


def blocked_with_any(user: User, others: Iterable[int]) -> bool:
    """Say whether the user and any of these people (by id) have blocked one another."""
    ids = list(others)
    if not ids:
        return False
    either = Q(blocker=user, blocked_id__in=ids) | Q(blocked=user, blocker_id__in=ids)
    return Block.objects.filter(either).exists()


def blocked_ids(user: User) -> set[int]:
    """Return the ids of everyone the user blocked or is blocked by."""
    mine = Block.objects.filter(blocker=user).values_list("blocked_id", flat=True)
    theirs = Block.objects.filter(blocked=user).values_list("blocker_id", flat=True)
    return set(mine) | set(theirs)


def blocks_of(user_id: int) -> QuerySet[Block, int]:
    """The ids of everyone with a block between them and this user, either way, as a subquery
    (for one query that leaves their rows out: the chat's messages)."""
    either = Q(blocker_id=user_id) | Q(blocked_id=user_id)
    return (
        Block.objects.filter(either)
        .annotate(
            other=Case(When(blocker_id=user_id, then=F("blocked_id")), default=F("blocker_id"))
        )
        .values_list("other", flat=True)
    )


def check_may_sit_with(user: User, others: Iterable[int]) -> None:
    """Refuse to seat the user with any of these people (by id) if either blocked the other."""
    if blocked_with_any(user, others):
        # Which of them blocked whom stays unsaid: the blocked one learns no more than this.
        raise NotAllowed(
            gettext(
                "You cannot join this match: there is a block between you and one of its players."
            )
        )


def _check_other(user: User, other: User) -> None:
    if not other.is_active:
        raise NotFound(gettext("There is no player of that name."))
    if other.pk == user.pk:
        raise BadInput(gettext("That is you: choose another player."))


@write_transaction()
def follow(follower: User, followed: User) -> None:
    """Follow a player; following them again changes nothing."""
    _check_other(follower, followed)
    if blocked_between(follower, followed):
        raise NotAllowed(
            gettext("You cannot follow this player: one of you has blocked the other.")
        )
    Follow.objects.get_or_create(
        follower=follower, followed=followed, defaults={"created_at": clock.now()}
    )


@write_transaction()
def unfollow(follower: User, followed: User) -> None:
    """Stop following a player; not following them already changes nothing."""
    _check_other(follower, followed)
    Follow.objects.filter(follower=follower, followed=followed).delete()


@write_transaction()
def block(blocker: User, blocked: User) -> None:
    """Block a player, ending any follow between the two, either way."""
    _check_other(blocker, blocked)
    Block.objects.get_or_create(
        blocker=blocker, blocked=blocked, defaults={"created_at": clock.now()}
    )
    either = Q(follower=blocker, followed=blocked) | Q(follower=blocked, followed=blocker)
    Follow.objects.filter(either).delete()


@write_transaction()
def unblock(blocker: User, blocked: User) -> None:
    """Lift one's own block of a player (a block the other made stays theirs)."""
    _check_other(blocker, blocked)
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()
