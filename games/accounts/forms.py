"""Forms for signing up, logging in, editing a profile and choosing e-mails."""

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from games.accounts.throttle import LoginThrottle, lockout_minutes
from games.models import NotificationSettings, Profile


class SignUpForm(UserCreationForm):
    """A new account: username, display name, optional e-mail for password resets."""

    display_name = forms.CharField(
        max_length=40,
        help_text="The name other players see at the table. You can change it later.",
    )
    email = forms.EmailField(
        required=False,
        help_text="Optional; needed only to reset a forgotten password.",
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "display_name", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data.get("email", "").strip()
        if email and get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this e-mail address already exists.")
        return email

    def save(self, commit: bool = True):
        user = super().save(commit=commit)
        if commit:
            # The profile already exists (created with the user); update that very instance
            # so `user.profile` reads the new name straight away.
            profile, _ = Profile.objects.get_or_create(user=user)
            profile.display_name = self.cleaned_data["display_name"].strip()
            profile.save()
            user.profile = profile
        return user


class ThrottledLoginForm(AuthenticationForm):
    """Django's login form, refusing to check passwords once too many guesses failed."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "throttled": (
            "Too many failed logins. Please wait %(minutes)d minutes and try again, "
            "or reset your password."
        ),
    }

    throttled = False

    def clean(self):
        throttle = LoginThrottle.for_request(self.request, self.data.get("username", ""))
        if throttle.is_locked():
            self.throttled = True
            raise forms.ValidationError(
                self.error_messages["throttled"],
                code="throttled",
                params={"minutes": lockout_minutes()},
            )
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            throttle.record_failure()
            raise
        throttle.reset()
        return cleaned


class ProfileForm(forms.ModelForm):
    """The parts of a profile a player may change."""

    class Meta:
        model = Profile
        fields = ("display_name",)

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"].strip()
        if not name:
            raise forms.ValidationError("Choose a display name.")
        return name


class NotificationForm(forms.ModelForm):
    """Which notification e-mails a player wants; both need an e-mail address."""

    class Meta:
        model = NotificationSettings
        fields = ("turn_emails", "daily_digest")

    def clean(self):
        cleaned = super().clean()
        wanted = cleaned.get("turn_emails") or cleaned.get("daily_digest")
        if wanted and not self.instance.user.email:
            raise forms.ValidationError(
                "Your account has no e-mail address, so there is nowhere to send e-mails."
            )
        return cleaned
