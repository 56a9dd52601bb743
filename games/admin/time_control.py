"""The tournament's settings as staff choose them: the lobby's fields (`MatchSettingsFields`),
with the tournament model's own fields for its rules, and its rules checked by the engine.

Every table of a round is started with them (`services.MatchOptions.of_tournament`).
"""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games import engine
from games.match_settings_form import BANK_HELP, MatchSettingsFields
from games.models import Tournament, Variant
from games.services import MatchOptions, clocks
from games.services.errors import BadInput

DECISION_HELP = _(
    "When it runs out, a bot makes that one decision; after the timeouts in a row set below, "
    "a bot takes the seat for the rest of the match. Rounds started from now on use it."
)
# Which field an engine refusal of a tournament's rules is about, by its rule; else the target.
RULE_FIELDS = {"R4.7": "hands", "R5.1": "bonus_card", "R5": "variant"}


class TournamentForm(MatchSettingsFields, forms.ModelForm[Tournament]):
    """A tournament, with its time per decision and bank chosen among the lobby's presets."""

    # Where the admin differs from the lobby. The rules are the model's fields (a table size
    # rather than players, the tournament's help), and so is vacation, off unless allowed.
    variant = bonus_card = target = hands = moon = allow_vacation = None  # type: ignore[assignment]

    class Meta:
        model = Tournament
        # The admin adds the tournament's other fields (TournamentAdmin.fieldsets).
        fields = ["decision_seconds", "timeouts_to_leave", "allow_vacation"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A new tournament is untimed, with no bank, until staff choose; staff read the rest
        # of the clock's fields beside it, and a bank too large is refused (`clean`) rather
        # than cut to the most a bank holds.
        self.fields["decision_seconds"].initial = None
        self.fields["decision_seconds"].help_text = DECISION_HELP
        self.fields["bank"].initial = 0
        self.fields["bank"].help_text = BANK_HELP
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

    def _post_clean(self) -> None:
        # ModelForm's own hook (django-stubs declare it on BaseModelForm only): once it has
        # run, the instance holds what was sent, and the model's own checks have been made.
        super()._post_clean()  # type: ignore[misc]
        self._check_rules(self.instance)

    def _check_rules(self, tournament: Tournament) -> None:
        """Refuse a game, table size or match length the engine would refuse."""
        if tournament.variant in Variant.values:
            try:
                engine.check_players(tournament.table_size, str(tournament.variant))
            except engine.BadRules as error:
                self._refuse("table_size", error.message)
                return
        try:
            # With the table size checked above, R5.1 can only be the bonus card's.
            MatchOptions.of_tournament(tournament).rule_set()
        except BadInput as refusal:
            self._refuse(RULE_FIELDS.get(refusal.rule or "", "target"), refusal.message)

    def _refuse(self, field: str, message: str) -> None:
        # A rule staff may no longer change (a running tournament's) is not on the form.
        self.add_error(field if field in self.fields else None, message)
