"""Admin for a tournament's rounds: staff set each round's deadline, or finish it by bots now.

A deadline is saved through the service (`services.tournaments.set_deadline`), which queues
its task once it commits. "Finish by bots now" asks for confirmation first (the admin's
intermediate page), then queues a task for the worker that lets bots make every decision left
at the rounds' tables; the rounds then close and the next ones start, as at a deadline.
"""

from datetime import datetime
from functools import partial
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.background.round_deadline_tasks import finish_round_now
from games.lib import clock
from games.models import MatchStatus, Round, RoundStatus, Table, Tournament
from games.services import ActionRefused
from games.services import tournaments as tours
from games.services.tournaments.round_deadlines import ROUND_NOT_RUNNING

FINISH_TEMPLATE = "admin/games/round/finish_by_bots.html"


class RoundDeadlineForm(forms.ModelForm[Round]):
    """A round's deadline: a time still to come, on a round not yet closed."""

    class Meta:
        model = Round
        fields = ["deadline"]

    def clean_deadline(self) -> datetime | None:
        deadline: datetime | None = self.cleaned_data.get("deadline")
        if "deadline" not in self.changed_data:
            return deadline
        if self.instance.status == RoundStatus.CLOSED:
            raise forms.ValidationError(
                _("This round is closed: its deadline can no longer change.")
            )
        if deadline is not None and deadline <= clock.now():
            raise forms.ValidationError(
                _(
                    "Choose a time still to come. To finish the round now, use the action "
                    "“Finish by bots now” on the rounds' list."
                )
            )
        return deadline


def save_deadlines(
    request: HttpRequest, rounds: list[Round], modeladmin: admin.ModelAdmin[Any]
) -> None:
    """Save each round's new deadline through the service; report any it refused."""
    for round_ in rounds:
        try:
            tours.set_deadline(round_.pk, round_.deadline)
        except ActionRefused as refusal:
            modeladmin.message_user(request, refusal.message, messages.ERROR)


class RoundInline(admin.TabularInline[Round, Tournament]):
    """The tournament's rounds, each with its deadline; everything else is the services' own."""

    model = Round
    form = RoundDeadlineForm
    fields = ["number", "status", "started_at", "deadline", "closed_at"]
    readonly_fields = ["number", "status", "started_at", "closed_at"]
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _unfinished(round_: Round) -> list[Table]:
    return list(round_.tables.filter(match__status=MatchStatus.ACTIVE).select_related("match"))


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    """Rounds: seated, started and closed by the tournament's actions; staff set deadlines here."""

    form = RoundDeadlineForm
    list_display = ["__str__", "status", "deadline", "started_at", "closed_at"]
    list_filter = ["status"]
    search_fields = ["tournament__name"]
    fields = ["tournament", "number", "status", "seated_at", "started_at", "deadline", "closed_at"]
    readonly_fields = ["tournament", "number", "status", "seated_at", "started_at", "closed_at"]
    actions = ["finish_by_bots"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # seated by the tournament's action "Seat next round"

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = list(self.readonly_fields)
        if obj is not None and obj.status == RoundStatus.CLOSED:
            fields.append("deadline")  # a closed round's deadline is history
        return fields

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(
        self, request: HttpRequest, obj: Round, form: RoundDeadlineForm, change: bool
    ) -> None:
        if "deadline" in form.changed_data:
            save_deadlines(request, [obj], self)

    @admin.action(description=_("Finish by bots now"), permissions=["change"])
    def finish_by_bots(
        self, request: HttpRequest, queryset: QuerySet[Round]
    ) -> TemplateResponse | None:
        """Ask first; once confirmed, let bots finish the rounds' matches and close the rounds."""
        rounds = list(queryset.select_related("tournament").order_by("tournament", "number"))
        if request.POST.get("post") != "yes":
            context = {
                **self.admin_site.each_context(request),
                "title": gettext("Finish these rounds by bots?"),
                "opts": self.model._meta,
                "rounds": [(round_, _unfinished(round_)) for round_ in rounds],
                "queryset": queryset,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                "action_name": "finish_by_bots",
            }
            return TemplateResponse(request, FINISH_TEMPLATE, context)
        for round_ in rounds:
            if round_.status != RoundStatus.RUNNING:
                self.message_user(request, f"{round_}: {ROUND_NOT_RUNNING}", messages.ERROR)
                continue
            left = len(_unfinished(round_))
            transaction.on_commit(partial(finish_round_now.enqueue, round_id=round_.pk))
            self.message_user(
                request,
                ngettext(
                    "%(round)s: bots are finishing %(count)d match still in play, in the "
                    "background; the round closes and the next one starts once they are done.",
                    "%(round)s: bots are finishing %(count)d matches still in play, in the "
                    "background; the round closes and the next one starts once they are done.",
                    left,
                )
                % {"round": round_, "count": left},
                messages.SUCCESS,
            )
        return None
