"""The tournament's time control as staff choose it: the lobby's presets, checked as the lobby's.

Every table of a round is started with it (`services.tournaments.rounds.match_options`).
"""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Tournament
from games.services import clocks
from games.services.errors import BadInput

DECISION_HELP = _(
    "When it runs out, a bot makes that one decision; after the timeouts in a row set below, "
    "a bot takes the seat for the rest of the match. Rounds started from now on use it."
)


class TournamentForm(forms.ModelForm):
    """A tournament, with its time per decision and bank chosen among the lobby's presets."""

    decision_seconds = forms.TypedChoiceField(
        label=_("Time for each decision"),
        choices=[("", _("Untimed")), *clocks.DECISION_PRESETS],
        coerce=int,
        empty_value=None,
        required=False,
        help_text=DECISION_HELP,
        error_messages={"invalid_choice": _("Choose one of the times offered, or untimed.")},
    )
    bank = forms.TypedChoiceField(
        label=_("Bank of extra time for each player"),
        choices=clocks.BANK_PRESETS,
        coerce=int,
        empty_value=0,  # type: ignore[arg-type]  # any value may stand for "no choice"
        required=False,
        initial=0,
        help_text=_("Spent when a decision takes longer; a quarter of any unused time flows back."),
        error_messages={"invalid_choice": _("Choose one of the banks offered.")},
    )

    class Meta:
        model = Tournament
        # The admin adds the tournament's other fields (TournamentAdmin.fieldsets).
        fields = ["decision_seconds", "timeouts_to_leave", "allow_vacation"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tournament = self.instance
        if tournament.decision_seconds:
            # The bank is kept in seconds; the form offers it in allowances.
            self.initial["bank"] = tournament.bank_seconds // tournament.decision_seconds

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "decision_seconds" not in data or "bank" not in data:
            return data  # already refused field by field
        decision, allowances = data["decision_seconds"], data["bank"] or 0
        bank_seconds = decision * allowances if decision else allowances
        try:
            clocks.check_time_control(decision, bank_seconds)
        except BadInput as refusal:
            self.add_error("bank", refusal.message)
            return data
        self.instance.bank_seconds = bank_seconds
        return data
