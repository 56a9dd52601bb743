"""Forms for signing up, logging in, editing a profile and choosing e-mails."""

from typing import Any

from django import forms
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import User
from django.db import models
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.accounts.names import clean_display_name
from games.lib import names
from games.lib.form_fields import WholeNumberField
from games.lib.languages import language_choices
from games.lib.zones import DEFAULT_ZONE, supported_zone, zone_names
from games.models import NotificationSettings, Profile
from games.models.notifications import EMAILS_OFF
from games.services import vacations


def _email_in_use(email: str, other_than: User | None = None) -> bool:
    """Say whether another account already has this address (case aside)."""
    accounts = get_user_model().objects.filter(email__iexact=email)
    if other_than is not None:
        accounts = accounts.exclude(pk=other_than.pk)
    return accounts.exists()


class SignUpForm(UserCreationForm[User]):
    """A new account: username, display name, optional e-mail for password resets."""

    display_name = forms.CharField(
        max_length=names.MAX_LENGTH,
        strip=False,  # `clean_display_name` trims, after refusing invisible characters
        label=_("Display name"),
        help_text=_("The name other players see at the table. You can change it later."),
    )
    email = forms.EmailField(
        required=False,
        label=_("E-mail address"),
        help_text=_(
            "Optional (you can add it later): for password resets and e-mails you ask for."
        ),
    )

    # The browser's zone, filled in by live.js (`data-browser-zone`); one we do not know, or none
    # (no script), leaves the account on UTC, which the profile page changes.
    time_zone = forms.CharField(
        required=False, widget=forms.HiddenInput(attrs={"data-browser-zone": ""})
    )

    class Meta:
        model = get_user_model()
        field_classes = {"username": UsernameField}
        fields = ("username", "display_name", "email")

    def clean_display_name(self) -> str:
        return clean_display_name(self.cleaned_data["display_name"])

    def clean_email(self) -> str:
        email: str = self.cleaned_data.get("email", "").strip()
        if email and _email_in_use(email):
            raise forms.ValidationError(_("An account with this e-mail address already exists."))
        return email

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=commit)
        if commit:
            # The profile already exists (created with the user); update that very instance
            # so `user.profile` reads the new name straight away.
            profile, _ = Profile.objects.get_or_create(user=user)
            profile.display_name = self.cleaned_data["display_name"]
            profile.time_zone = supported_zone(self.cleaned_data.get("time_zone")) or DEFAULT_ZONE
            profile.save()
            user.profile = profile
        return user


class ProfileForm(forms.ModelForm[Profile]):
    """The parts of a profile a player may change."""

    class Meta:
        model = Profile
        fields = (
            "display_name",
            "auto_play_forced",
            "four_colour_deck",
            "large_cards",
            "language",
            "time_zone",
        )
        labels = {"language": _("Language"), "time_zone": _("Time zone")}
        # zone.js offers the browser's zone beside it when it is another (a player travelling).
        widgets = {"time_zone": forms.Select(attrs={"autocomplete": "off", "data-zone-choice": ""})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        language = self.fields["language"]
        assert isinstance(language, forms.ChoiceField)
        language.choices = [("", _("As your browser asks")), *language_choices()]
        zone = self.fields["time_zone"]
        # A form sent without it (a page from before zones) keeps the zone the player has.
        zone.required = False
        assert isinstance(zone.widget, forms.Select)
        zone.widget.choices = [(name, name.replace("_", " ")) for name in zone_names()]

    def clean_time_zone(self) -> str:
        chosen: str = self.cleaned_data.get("time_zone") or self.instance.time_zone
        return chosen

    def clean_display_name(self) -> str:
        return clean_display_name(self.cleaned_data["display_name"], self.instance.user_id)


class PasswordConfirmedForm(forms.Form):
    """A form that asks for the account's password, to confirm who sends it.

    The password is checked by signing in again (`authenticate`), so wrong ones count as
    failed logins, and while those are paused the password is not checked at all (django-axes
    answers with its lockout page, see `games.accounts.lockout`). A subclass names, in its
    `error_messages["password"]`, what a wrong one leaves unchanged.
    """

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("To confirm that it is you."),
    )

    error_messages: dict[str, Any] = {}

    def __init__(self, user: User, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.request = request

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        checked = authenticate(self.request, username=self.user.get_username(), password=password)
        if checked is None or checked.pk != self.user.pk:
            raise forms.ValidationError(self.error_messages["password"], code="password")
        return password


class EmailForm(PasswordConfirmedForm):
    """A new e-mail address (or none), confirmed with the account's password.

    The password is asked because the address receives password resets: whoever could change
    it without knowing the password could take the account over from a session left open.
    """

    email = forms.EmailField(
        required=False,
        label=_("E-mail address"),
        help_text=_("For password resets and the e-mails below. Leave it empty to remove it."),
    )
    field_order = ["email", "password"]

    error_messages = {
        "password": _("That is not your password; the e-mail address is unchanged."),
        "in_use": _("Another account already uses this e-mail address."),
    }

    def __init__(self, user: User, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"email": user.email})
        super().__init__(user, request, *args, **kwargs)
        self._previous = user.email

    def clean_email(self) -> str:
        email: str = self.cleaned_data.get("email", "").strip()
        if email and _email_in_use(email, other_than=self.user):
            raise forms.ValidationError(self.error_messages["in_use"], code="in_use")
        return email

    @property
    def address_left(self) -> str:
        """Return the address the account had, once saved, if it is no longer the account's."""
        if self._previous.lower() == self.user.email.lower():
            return ""  # unchanged, or only its capitals
        return self._previous

    def save(self) -> bool:
        """Store the address; without one, turn the e-mails off. Say whether they were."""
        self.user.email = self.cleaned_data["email"]
        self.user.save(update_fields=["email"])
        if self.user.email:
            return False
        return (
            NotificationSettings.objects.filter(user=self.user)
            .filter(
                models.Q(turn_emails=True)
                | models.Q(daily_digest=True)
                | models.Q(deadline_reminders=True)
                | models.Q(challenge_emails=True)
            )
            .update(**EMAILS_OFF)
            > 0
        )


class NotificationForm(forms.ModelForm[NotificationSettings]):
    """Which notification e-mails a player wants; both need an e-mail address."""

    class Meta:
        model = NotificationSettings
        fields = ("turn_emails", "daily_digest", "deadline_reminders", "challenge_emails")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        assert cleaned is not None  # a form's own `clean` returns its `cleaned_data`
        wanted = any(cleaned.get(name) for name in self.Meta.fields)
        if wanted and not self.instance.user.email:
            raise forms.ValidationError(
                _("Your account has no e-mail address, so there is nowhere to send e-mails.")
            )
        return cleaned


class VacationForm(forms.Form):
    """How many whole days to go away for (the service checks them against the days left)."""

    days = WholeNumberField(
        label=_("Days away"),
        min_value=1,
        max_value=vacations.MOST_DAYS,
        initial=1,
        error_messages={
            "required": _("Say how many days you will be away."),
            "invalid": _("Days away must be a whole number."),
            "min_value": _("Take at least one day of vacation."),
            "max_value": _("A vacation lasts at most %(limit_value)s days."),
        },
    )


class DeleteAccountForm(PasswordConfirmedForm):
    """Confirm deleting the account with its password, as changing its address asks: a
    session left open cannot be used to guess it."""

    error_messages = {
        "password": _("That is not your password; your account has not been deleted."),
    }

    def __init__(self, user: User, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        super().__init__(user, request, *args, **kwargs)
        self.fields["password"].help_text = _("To confirm that it is you, and that you mean it.")
