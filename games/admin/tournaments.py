"""Admin for tournaments: staff edit them, manage entrants, and run rounds with actions.

Every action calls one tournament service (one transaction on the locked tournament row) and
reports what it did, or why it refused, with `message_user`. The same actions are offered on
the change list (for the selected tournaments) and as buttons on a tournament's page.

Staff can also download a tournament's standings and tables as CSV (`presenters.exports`):
an action on the change list, and a link on a tournament's page.
"""

import csv
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.forms import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from games.admin.rounds import RoundInline, save_deadlines
from games.admin.time_control import TournamentForm
from games.models import Entry, Round, Tournament, TournamentStatus
from games.presenters.exports import tournament_rows
from games.presenters.tournament import round_lines, standings_context
from games.services import ActionRefused
from games.services import tournaments as tours

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


def _leaders(tournament: Tournament) -> list[str]:
    return [line.entry.name for line in tours.standings_of(tournament) if line.standing.rank == 1]


def _open(request: HttpRequest, tournament: Tournament) -> str:
    tours.open_registration(tournament.pk)
    url = request.build_absolute_uri(tournament.get_absolute_url())
    return gettext("Registration for %(name)s is open: players register at %(url)s") % {
        "name": tournament.name,
        "url": url,
    }


def _close(request: HttpRequest, tournament: Tournament) -> str:
    tours.close_registration(tournament.pk)
    return gettext("Registration for %(name)s is closed.") % {"name": tournament.name}


def _seat(request: HttpRequest, tournament: Tournament) -> str:
    return f"{tournament.name}: {tours.seat_next_round(tournament.pk).message}"


def _start(request: HttpRequest, tournament: Tournament) -> str:
    staff = request.user
    assert isinstance(staff, User)  # the admin serves signed-in staff only
    round_ = tours.start_round(tournament.pk, staff)
    ids = list(round_.tables.order_by("number").values_list("match_id", flat=True))
    return ngettext(
        "%(name)s: started round %(number)s with %(count)d match (%(ids)s).",
        "%(name)s: started round %(number)s with %(count)d matches (%(ids)s).",
        len(ids),
    ) % {
        "name": tournament.name,
        "number": round_.number,
        "count": len(ids),
        "ids": ", ".join(map(str, ids)),
    }


def _close_round(request: HttpRequest, tournament: Tournament) -> str:
    round_ = tours.close_round(tournament.pk)
    leaders = _leaders(tournament)
    tables = round_.tables.count()
    return ngettext(
        "%(name)s: closed round %(number)s, results of %(count)d table recorded; "
        "leading: %(leaders)s.",
        "%(name)s: closed round %(number)s, results of %(count)d tables recorded; "
        "leading: %(leaders)s.",
        tables,
    ) % {
        "name": tournament.name,
        "number": round_.number,
        "count": tables,
        "leaders": ", ".join(leaders),
    }


def _finish(request: HttpRequest, tournament: Tournament) -> str:
    tours.finish_tournament(tournament.pk)
    return gettext("%(name)s is finished. Winner: %(winners)s.") % {
        "name": tournament.name,
        "winners": gettext(" and ").join(_leaders(tournament)),
    }


# name: (label, runner)
ACTIONS: dict[str, tuple["StrPromise", Callable[[HttpRequest, Tournament], str]]] = {
    "open_registration": (_("Open registration"), _open),
    "close_registration": (_("Close registration"), _close),
    "seat_next_round": (_("Seat next round"), _seat),
    "start_round": (_("Start round"), _start),
    "close_round": (_("Close round"), _close_round),
    "finish_tournament": (_("Finish tournament"), _finish),
}


ChangelistAction = Callable[["TournamentAdmin", HttpRequest, QuerySet[Tournament]], None]


def changelist_action(name: str) -> ChangelistAction:
    """Return the change list's action running `name` on each selected tournament."""
    label = ACTIONS[name][0]

    def action(
        modeladmin: "TournamentAdmin", request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        for tournament in queryset.order_by("pk"):
            modeladmin.run(request, tournament, name)

    action.__name__ = name
    return admin.action(description=label, permissions=["change"])(action)


def results_csv(tournaments: Iterable[Tournament], filename: str) -> HttpResponse:
    """Answer with the tournaments' standings and tables as one CSV file, one after another."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    for number, tournament in enumerate(tournaments):
        if number:
            writer.writerow([])
        writer.writerows(tournament_rows(tournament))
    return response


class EntryForm(forms.ModelForm[Entry]):
    """An entrant; once seated, the entry's player is fixed (the tables name them)."""

    class Meta:
        model = Entry
        fields = ["user", "withdrawn"]

    def clean_user(self) -> User:
        user: User = self.cleaned_data["user"]
        entry = self.instance
        if entry.pk and user != entry.user and entry.table_seats.exists():
            raise forms.ValidationError(
                _(
                    "This entrant has been seated: withdraw the entry and add the new player "
                    "in their place."
                )
            )
        return user


class EntryInline(admin.TabularInline[Entry, Tournament]):
    """Entrants: add or remove them, or mark them withdrawn (bots then take their seats)."""

    model = Entry
    form = EntryForm
    extra = 1
    fields = ["user", "withdrawn", "joined_at"]
    readonly_fields = ["joined_at"]


class TournamentAdmin(admin.ModelAdmin[Tournament]):
    form = TournamentForm
    list_display = [
        "name", "status", "registration_open", "variant", "table_size", "round_count", "length",
        "duplicate_deals", "entrant_count", "created_at",
    ]  # fmt: skip
    list_filter = ["status", "registration_open", "duplicate_deals"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = [
        "status", "registration_open", "created_at", "started_at", "finished_at",
        "rounds_and_tables", "standings",
    ]  # fmt: skip
    fieldsets = [
        (None, {"fields": ["name", "slug", "description"]}),
        (
            _("Rules"),
            {
                "fields": [
                    "variant",
                    "bonus_card",
                    "table_size",
                    "round_count",
                    "target",
                    "hands",
                    "moon",
                    "duplicate_deals",
                ]  # fmt: skip
            },
        ),
        (
            _("Clocks"),
            {"fields": ["decision_seconds", "bank", "timeouts_to_leave", "allow_vacation"]},
        ),
        (
            _("Progress"),
            {"fields": ["status", "registration_open", "created_at", "started_at", "finished_at"]},
        ),
        (_("Rounds and tables"), {"fields": ["rounds_and_tables"]}),
        (_("Standings"), {"fields": ["standings"]}),
    ]
    inlines = [EntryInline, RoundInline]
    actions = [*(changelist_action(name) for name in ACTIONS), "download_results"]
    change_form_template = "admin/games/tournament/change_form.html"

    class Media:
        css = {"all": ["games/admin_tournaments.css"]}

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> list[str]:
        fields = list(self.readonly_fields)
        if obj is not None and obj.status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
            # Rounds already played were seated and dealt under these rules: keep them.
            fields += [
                "variant", "bonus_card", "table_size", "target", "hands", "moon",
                "duplicate_deals",
            ]  # fmt: skip
        return fields

    @admin.display(description=_("match length"))
    def length(self, obj: Tournament) -> str:
        return obj.length_words

    @admin.display(description=_("entrants"))
    def entrant_count(self, obj: Tournament) -> int:
        return obj.entries.filter(withdrawn=False).count()

    @admin.display(description=_("rounds and tables"))
    def rounds_and_tables(self, obj: Tournament) -> SafeString:
        if obj.pk is None:
            return SafeString("")
        context = {"rounds": round_lines(obj)}
        return SafeString(render_to_string("games/_tournament_rounds.html", context))

    @admin.display(description=_("standings"))
    def standings(self, obj: Tournament) -> SafeString:
        if obj.pk is None:
            return SafeString("")
        return SafeString(render_to_string("games/_standings.html", standings_context(obj)))

    def save_formset(
        self,
        request: HttpRequest,
        form: TournamentForm,
        # Entrants or rounds: the inline formsets of a tournament.
        formset: BaseInlineFormSet[Any, Tournament, Any],
        change: bool,
    ) -> None:
        """Save entrants and round deadlines, through the services where they have one.

        A newly withdrawn entrant is withdrawn through the service; a round's new deadline is
        set through the service, which queues its task.
        """
        if formset.model is Round:
            formset.save(commit=False)  # what changed, for the history; nothing written here
            changed = [obj for obj, fields in formset.changed_objects if "deadline" in fields]
            save_deadlines(request, changed, self)
            return
        if formset.model is not Entry:
            super().save_formset(request, form, formset, change)
            return
        withdrawn_now = [
            f.instance
            for f in formset.forms
            if f.instance.pk and "withdrawn" in f.changed_data and f.cleaned_data.get("withdrawn")
        ]
        super().save_formset(request, form, formset, change)
        for entry in withdrawn_now:
            tours.set_withdrawn(entry.pk, True)

    # ----- actions -----

    def run(self, request: HttpRequest, tournament: Tournament, name: str) -> bool:
        """Run one action on one tournament and report it; say whether it was done."""
        label, runner = ACTIONS[name]
        try:
            done = runner(request, tournament)
        except ActionRefused as refusal:
            self.message_user(
                request,
                gettext("%(action)s refused: %(reason)s")
                % {"action": label, "reason": refusal.message},
                messages.ERROR,
            )
            return False
        self.message_user(request, done, messages.SUCCESS)
        return True

    @admin.action(description=_("Download results and standings (CSV)"), permissions=["view"])
    def download_results(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> HttpResponse:
        tournaments = list(queryset.order_by("pk"))
        name = f"{tournaments[0].slug}-results.csv" if len(tournaments) == 1 else "results.csv"
        return results_csv(tournaments, name)

    def results_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Download one tournament's standings and tables (the link on its page)."""
        tournament = get_object_or_404(Tournament, pk=pk)
        if not self.has_view_permission(request, tournament):
            raise PermissionDenied
        return results_csv([tournament], f"{tournament.slug}-results.csv")

    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:pk>/run/<str:name>/",
                wrap(require_POST(self.run_view)),
                name="games_tournament_run",
            ),
            path(
                "<int:pk>/results.csv",
                wrap(require_GET(self.results_view)),
                name="games_tournament_results",
            ),
            *super().get_urls(),
        ]

    def run_view(self, request: HttpRequest, pk: int, name: str) -> HttpResponseRedirect:
        """Run an action from the buttons of a tournament's page, then show the page again."""
        tournament = get_object_or_404(Tournament, pk=pk)
        if name not in ACTIONS or not self.has_change_permission(request, tournament):
            raise PermissionDenied
        self.run(request, tournament, name)
        return HttpResponseRedirect(reverse("admin:games_tournament_change", args=[pk]))

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Tournament | None = None,
    ) -> HttpResponse:
        context["tournament_actions"] = (
            [
                (reverse("admin:games_tournament_run", args=[obj.pk, name]), label)
                for name, (label, _) in ACTIONS.items()
            ]
            if obj is not None and self.has_change_permission(request, obj)
            else []
        )
        context["results_url"] = (
            reverse("admin:games_tournament_results", args=[obj.pk]) if obj is not None else ""
        )
        return super().render_change_form(request, context, add, change, form_url, obj)


admin.site.register(Tournament, TournamentAdmin)
