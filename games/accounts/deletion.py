"""Deleting an account: what the site forgets of a player, listed in one place.

The user row stays, emptied: matches, actions, results and ratings point at it, and the
matches others played must keep their seats, logs and figures unchanged. Its name shows as
"a former player" everywhere (`games.models.display_name_of`, from `Profile.deleted_at`).

`ERASERS` is the list of what is removed, in order. A new kind of personal data (messages,
push subscriptions, API tokens) adds its eraser there.
"""

from __future__ import annotations

from collections.abc import Callable

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.cached_db import SessionStore
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Q

from games.lib import clock
from games.lib.zones import DEFAULT_ZONE
from games.models import (
    Block,
    ChatMessage,
    ChatReport,
    Follow,
    Mute,
    NotificationSettings,
    Profile,
)
from games.services.leaving import leave_everything


def hand_over_seats(user: User) -> None:
    """Cancel the open matches they created, free their open seats, give bots their seats."""
    leave_everything(user)


def forget_email_settings(user: User) -> None:
    """Remove their e-mail choices: no mail is sent, and unsubscribe links lead nowhere."""
    NotificationSettings.objects.filter(user=user).delete()


def forget_follows_and_blocks(user: User) -> None:
    """Remove whom they follow and block, and every follow or block of them by others."""
    Follow.objects.filter(Q(follower=user) | Q(followed=user)).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()


def forget_sign_in_attempts(user: User) -> None:
    """Remove the records of their sign-ins kept against guessing: they name the account."""
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username=user.get_username()).delete()


def forget_personal_details(user: User) -> None:
    """Empty the account: no name, address or password; it can never sign in again."""
    with transaction.atomic():
        user.username = f"former-{user.pk}"  # unique, and says nothing of the person
        user.first_name = user.last_name = user.email = ""
        user.set_unusable_password()  # also ends every password-reset link sent before
        user.is_active = False
        user.save()
        Profile.objects.update_or_create(
            user=user,
            defaults={
                "display_name": "",
                "language": "",
                "time_zone": DEFAULT_ZONE,  # where they live, too, is theirs alone
                "away_since": None,
                "away_until": None,
                "deleted_at": clock.now(),
            },
        )


def end_sessions(user: User) -> None:
    """Sign them out on every device: each of their sessions, from the cache and the database.

    Sessions are not kept per user, so every live one is read once to find theirs: deleting
    an account is rare. (Their sessions would fail anyway, the account inactive and its
    password hash changed, but they should not linger.)
    """
    for session in Session.objects.filter(expire_date__gt=clock.now()).iterator():
        if session.get_decoded().get(SESSION_KEY) == str(user.pk):
            SessionStore(session_key=session.session_key).delete()


# What deleting an account removes, in order: seats first, while the name is still theirs,
# and sessions last, once the account can no longer sign in to open another.
def forget_chat(user: User) -> None:
    """Remove their chat: their messages (and the reports of them), their reports, and the
    mutes they made or were the subject of. Staff's bans stay: staff's record, not theirs."""
    ChatMessage.objects.filter(author=user).delete()
    ChatReport.objects.filter(reporter=user).delete()
    Mute.objects.filter(Q(user=user) | Q(muted=user)).delete()


ERASERS: tuple[Callable[[User], None], ...] = (
    hand_over_seats,
    forget_email_settings,
    forget_follows_and_blocks,
    forget_chat,
    forget_sign_in_attempts,
    forget_personal_details,
    end_sessions,
)


def delete_account(user: User) -> None:
    """Delete the player's account: seats handed on, personal data removed, name retired."""
    for erase in ERASERS:
        erase(user)
