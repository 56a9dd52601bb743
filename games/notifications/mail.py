"""Build and send the e-mails: plain text plus HTML.

The notifications (turn notices, digests) carry a link that stops them; the account's own
notices (its address or its password changed) carry none, since nobody opts into them.

Every message names matches and players only, never a card (R6.3). Each is written in its
recipient's language and time zone, whatever the request or task that sends it: subject and
body alike are rendered under `games.lib.zones.as_read_by`.
"""

from datetime import datetime
from typing import TypedDict

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext, ngettext

from games.lib.names import one_line
from games.lib.zones import as_read_by
from games.models import Seat, display_name_of

UNSUBSCRIBE_SALT = "games.notifications.unsubscribe"


def absolute(path: str) -> str:
    """Return the path as a link on the public site."""
    return settings.SITE_URL + path


def unsubscribe_token(user_id: int) -> str:
    """Sign the user's id, so the link turns their e-mails off without logging in."""
    return signing.dumps({"user": user_id}, salt=UNSUBSCRIBE_SALT)


def user_id_from_token(token: str) -> int:
    """Return the user id a token was signed for; raise `signing.BadSignature` if tampered."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if not isinstance(data, dict) or not isinstance(data.get("user"), int):
        raise signing.BadSignature("The token holds no user.")
    user_id: int = data["user"]
    return user_id


def unsubscribe_url(user_id: int) -> str:
    return absolute(reverse("unsubscribe", args=[unsubscribe_token(user_id)]))


class MatchSummary(TypedDict):
    """One waiting match as an e-mail names it."""

    id: int
    url: str
    players: int
    length: str
    hand: int
    opponents: list[str]
    waiting_since: datetime | None
    deadline: datetime | None
    decision: str


def match_summary(seat: Seat) -> MatchSummary:
    """Describe one waiting match for an e-mail: who plays, how far it is, its link."""
    match = seat.match
    # Names are checked when set; `one_line` keeps one stored before that from adding lines.
    others = [one_line(other.name) for other in match.seats.all() if other.pk != seat.pk]
    return {
        "id": match.pk,
        "url": absolute(match.get_absolute_url()),
        "players": match.players,
        "length": match.length_words,  # "ends at 100 points" or "ends after 2 hands"
        "hand": match.hand_no,
        "opponents": others,
        "waiting_since": seat.waiting_since,
        # In a timed match: when the decision times out, and what the decision is.
        "deadline": seat.deadline,
        "decision": match.decision_due,
    }


def _message(
    template: str,
    subject: str,
    context: dict[str, object],
    to: str,
    headers: dict[str, str] | None = None,
) -> EmailMultiAlternatives:
    """Build one e-mail from `emails/<template>.txt` and `.html`."""
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string(f"emails/{template}.txt", context),
        to=[to],
        headers=headers,
    )
    message.attach_alternative(render_to_string(f"emails/{template}.html", context), "text/html")
    return message


def send(user: User, template: str, subject: str, context: dict[str, object]) -> None:
    """Send one notification built from `emails/<template>.txt` and `.html` to the user."""
    link = unsubscribe_url(user.pk)
    context = {
        **context,
        "name": one_line(display_name_of(user)),
        "site_url": settings.SITE_URL,
        "unsubscribe_url": link,
        "settings_url": absolute(reverse("profile")),
    }
    # RFC 8058: mail clients may offer a one-click "unsubscribe" that POSTs to the link.
    headers = {
        "List-Unsubscribe": f"<{link}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    _message(template, subject, context, user.email, headers).send()


def _send_account_notice(
    user: User, template: str, subject: str, to: str, **context: object
) -> None:
    """Send one of the account's own notices: whatever the e-mail settings, no unsubscribing.

    They name the account, never its matches, and point to where the owner can undo a change
    they did not make.
    """
    context = {
        **context,
        "name": one_line(display_name_of(user)),
        "username": user.get_username(),
        "site_url": settings.SITE_URL,
    }
    _message(template, subject, context, to).send()


def send_address_changed(user: User, old_address: str) -> None:
    """Tell the address an account has just left, in case someone else made the change.

    The notice does not name the new address.
    """
    with as_read_by(user):
        _send_account_notice(
            user,
            "address_changed",
            gettext("The e-mail address of your Hearts account has changed"),
            old_address,
            removed=not user.email,
            profile_url=absolute(reverse("profile")),
        )


def send_password_changed(user: User) -> None:
    """Tell the account's address that its password has just changed (or been reset)."""
    with as_read_by(user):
        _send_account_notice(
            user,
            "password_changed",
            gettext("The password of your Hearts account has changed"),
            user.email,
            reset_url=absolute(reverse("password_reset")),
        )


def send_password_reset(user: User, token: str) -> None:
    """Send the account's address a link that sets a new password (plain text, as Django's)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    context = {
        "name": one_line(display_name_of(user)),
        "username": user.get_username(),
        "reset_url": absolute(reverse("password_reset_confirm", args=[uid, token])),
    }
    with as_read_by(user):
        subject = render_to_string("registration/password_reset_subject.txt", context)
        body = render_to_string("registration/password_reset_email.txt", context)
    # A subject must be one line, whatever the template ends with.
    EmailMultiAlternatives(" ".join(subject.split()), body, to=[user.email]).send()


def send_turn_notice(user: User, seat: Seat) -> None:
    """Tell the user a match waits for their move."""
    match = seat.match
    with as_read_by(user):
        send(
            user,
            "turn_notice",
            gettext("Your turn in match %(match)s") % {"match": match.pk},
            {"match": match_summary(seat)},
        )


def send_digest(user: User, seats: list[Seat]) -> None:
    """List for the user every match that waits for them."""
    count = len(seats)
    with as_read_by(user):
        subject = ngettext(
            "A match is waiting for you", "%(count)d matches are waiting for you", count
        ) % {"count": count}
        send(user, "digest", subject, {"matches": [match_summary(seat) for seat in seats]})


def send_reminder(user: User, seats: list[Seat]) -> None:
    """Remind the user that the deadline of each of these decisions is near."""
    count = len(seats)
    with as_read_by(user):
        if count == 1:
            subject = gettext("Your time in match %(match)s is running out") % {
                "match": seats[0].match.pk
            }
        else:
            subject = ngettext(
                "Your time is running out in %(count)d match",
                "Your time is running out in %(count)d matches",
                count,
            ) % {"count": count}
        send(user, "reminder", subject, {"matches": [match_summary(seat) for seat in seats]})
