"""Sign up, log in, profile: Django's own auth, with a clear answer to every bad input."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST
from django.views.generic.edit import FormMixin

from games.accounts import resets
from games.accounts.forms import (
    EmailForm,
    NotificationForm,
    ProfileForm,
    SignUpForm,
    VacationForm,
)
from games.accounts.resets import QueuedPasswordResetForm
from games.languages import remember
from games.lib.requests import AuthenticatedHttpRequest
from games.models import Profile, notification_settings_for
from games.notifications import tasks
from games.services import ActionRefused, vacations
from games.time_zones import remember_zone

# A form sent back with errors is a client error: say so with 400, not 200.
BAD_INPUT = 400
TOO_MANY_REQUESTS = 429


if TYPE_CHECKING:
    # What the mixin is mixed into: a view with a form (any form; the views name theirs).
    _FormView = FormMixin[Any]
else:
    _FormView = object


class InvalidFormStatusMixin(_FormView):
    """Answer an invalid form with 400 rather than 200."""

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        response.status_code = BAD_INPUT
        return response


class LoginView(InvalidFormStatusMixin, auth_views.LoginView):
    """Log in; answer 400 to a wrong password (and django-axes 429 while guesses are paused)."""

    redirect_authenticated_user = True


class PasswordChangeView(InvalidFormStatusMixin, auth_views.PasswordChangeView):
    """Change the password, then say so on the profile page and to the account's address."""

    success_url = reverse_lazy("profile")

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        messages.success(self.request, gettext("Your password has been changed."))
        tasks.notify_password_changed(form.user)
        return super().form_valid(form)


class PasswordResetView(InvalidFormStatusMixin, auth_views.PasswordResetView):
    """Queue a reset link, without telling whether the address has an account.

    The same answer whatever happens to the request (see `games.accounts.resets`), except to
    a client asking too often, whatever the addresses: 429.
    """

    form_class = QueuedPasswordResetForm

    def form_valid(self, form: QueuedPasswordResetForm) -> HttpResponse:
        if not resets.client_within_limit(self.request):
            context = {"minutes": -(-settings.PASSWORD_RESET_WINDOW_SECONDS // 60)}
            return render(
                self.request,
                "registration/password_reset_throttled.html",
                context,
                status=TOO_MANY_REQUESTS,
            )
        return super().form_valid(form)


class PasswordResetConfirmView(InvalidFormStatusMixin, auth_views.PasswordResetConfirmView):
    """Set a new password from an e-mailed link; the address is told it was done."""

    def form_valid(self, form: SetPasswordForm[User]) -> HttpResponse:
        tasks.notify_password_changed(form.user)
        return super().form_valid(form)


def _safe_next(request: HttpRequest) -> str | None:
    candidate = request.POST.get("next") or request.GET.get("next")
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log straight in."""
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            # The language the player signed up in is theirs until they choose another: their
            # e-mails are written in it.
            remember(request, user, translation.get_language())
            messages.success(
                request, gettext("Welcome, %(name)s!") % {"name": user.profile.display_name}
            )
            return redirect(_safe_next(request) or "home")
        return render(
            request,
            "registration/signup.html",
            {"form": form, "next": _safe_next(request)},
            status=BAD_INPUT,
        )
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request)})


def _profile_page(
    request: AuthenticatedHttpRequest,
    form: ProfileForm | None = None,
    notifications: NotificationForm | None = None,
    email: EmailForm | None = None,
    vacation: VacationForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """Render the profile page with its forms: display name, e-mail address, e-mails."""
    if form is None:
        own_profile, _ = Profile.objects.get_or_create(
            user=request.user, defaults={"display_name": request.user.get_username()}
        )
        form = ProfileForm(instance=own_profile)
    if notifications is None:
        notifications = NotificationForm(instance=notification_settings_for(request.user))
    if email is None:
        email = EmailForm(request.user, request)
    context = {
        "form": form,
        "notifications": notifications,
        "email_form": email,
        "vacation_form": vacation or VacationForm(),
        "vacation": vacations.state_of(request.user),
        "vacation_rule": {"start": vacations.STARTING_DAYS, "most": vacations.MOST_DAYS},
    }
    return render(request, "accounts/profile.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Show and edit the player's display name and how their seats play."""
    if request.method == "POST":
        own_profile, _ = Profile.objects.get_or_create(
            user=request.user, defaults={"display_name": request.user.get_username()}
        )
        form = ProfileForm(request.POST, instance=own_profile)
        if form.is_valid():
            form.save()
            remember_zone(request, form.cleaned_data["time_zone"])
            language = form.cleaned_data["language"]
            remember(request, request.user, language)
            if language:
                translation.activate(language)
            messages.success(request, gettext("Your profile has been saved."))
            response = redirect("profile")
            if not language:  # as the browser asks: forget the switcher's choice too
                response.delete_cookie(
                    settings.LANGUAGE_COOKIE_NAME,
                    path=settings.LANGUAGE_COOKIE_PATH,
                    domain=settings.LANGUAGE_COOKIE_DOMAIN,
                    samesite=settings.LANGUAGE_COOKIE_SAMESITE,
                )
            return response
        return _profile_page(request, form=form, status=BAD_INPUT)
    return _profile_page(request)


@login_required
@require_POST
def change_email(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Set, change or remove the account's e-mail address, confirmed by its password."""
    form = EmailForm(request.user, request, request.POST)
    if not form.is_valid():
        return _profile_page(request, email=form, status=BAD_INPUT)
    turned_off = form.save()
    if form.address_left:
        tasks.notify_address_changed(request.user, form.address_left)
    if address := form.cleaned_data["email"]:
        messages.success(
            request, gettext("Your e-mail address is now %(address)s.") % {"address": address}
        )
    elif turned_off:
        messages.success(
            request,
            gettext("Your e-mail address has been removed, and with it the e-mails you chose."),
        )
    else:
        messages.success(request, gettext("Your e-mail address has been removed."))
    return redirect("profile")


@login_required
@require_POST
def notification_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Save which notification e-mails the player wants."""
    form = NotificationForm(request.POST, instance=notification_settings_for(request.user))
    if form.is_valid():
        form.save()
        messages.success(request, gettext("Your e-mail settings have been saved."))
        return redirect("profile")
    return _profile_page(request, notifications=form, status=BAD_INPUT)


@login_required
@require_POST
def take_vacation(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Go away for some whole days: the player's clocks stop where their matches allow it."""
    form = VacationForm(request.POST)
    if not form.is_valid():
        return _profile_page(request, vacation=form, status=BAD_INPUT)
    try:
        taken = vacations.take_vacation(request.user, form.cleaned_data["days"])
    except ActionRefused as refusal:
        form.add_error(None, refusal.message)
        return _profile_page(request, vacation=form, status=refusal.status)
    days = form.cleaned_data["days"]
    messages.success(
        request,
        ngettext(
            "You are on vacation for %(days)d day; %(left)d left to take later.",
            "You are on vacation for %(days)d days; %(left)d left to take later.",
            days,
        )
        % {"days": days, "left": taken.days},
    )
    return redirect("profile")


@login_required
@require_POST
def end_vacation(request: AuthenticatedHttpRequest) -> HttpResponse:
    """End the vacation now: clocks start again, and whole days not yet begun are given back."""
    try:
        ended = vacations.end_vacation(request.user)
    except ActionRefused as refusal:
        messages.error(request, refusal.message)
        return _profile_page(request, status=refusal.status)
    messages.success(
        request,
        ngettext(
            "Welcome back: your clocks run again. You have %(days)d day of vacation.",
            "Welcome back: your clocks run again. You have %(days)d days of vacation.",
            ended.days,
        )
        % {"days": ended.days},
    )
    return redirect("profile")
