"""A match's settings as form fields, declared once for the lobby and the tournament admin.

`CreateMatchForm` (games/forms.py) takes them as they are; the tournament admin's form
(games/admin/time_control.py) takes the time control and keeps the tournament model's own
fields for the rules (their limits and help speak of a tournament), by small overrides. What
the fields give becomes a `services.MatchOptions` (`settings`), the one value of a match's
settings.
"""

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.lib.form_fields import WholeNumberField
from games.models import BonusCard, MoonOption, Variant
from games.models.time_control import MAX_BANK_SECONDS
from games.services import clocks, vacations

# What makes each game, beside its name in the lobby's choice of game.
VARIANT_SUMMARIES = {
    Variant.STANDARD: _("one deck, 3 to 7 players"),
    Variant.OMNIBUS: _("a bonus card worth −10 to whoever takes it, 3 to 7 players"),
    Variant.CANCELLATION: _("two decks, identical cards cancel, 5 to 10 players"),
}
VARIANT_CHOICES = [(v.value, format_lazy("{}: {}", v.label, VARIANT_SUMMARIES[v])) for v in Variant]
BANK_HELP = _("Spent when a decision takes longer; a quarter of any unused time flows back.")


class MatchSettingsFields(forms.Form):
    """The game, its length and moon option, and the time control, as the lobby offers them.

    A mixin: a form takes these fields by inheriting it first (`class F(MatchSettingsFields,
    forms.Form)` or `forms.ModelForm`), and drops one by shadowing it with None.
    """

    variant = forms.ChoiceField(
        label=_("Game"),
        choices=VARIANT_CHOICES,
        initial=Variant.STANDARD,
        required=False,  # left out: the standard game
        error_messages={"invalid_choice": _("Choose Standard, Omnibus or Cancellation Hearts.")},
    )
    bonus_card = forms.ChoiceField(
        label=_("Bonus card (Omnibus Hearts only)"),
        choices=BonusCard.choices,
        initial=BonusCard.JD,
        required=False,
        help_text=_("Whoever takes it scores −10."),
        error_messages={"invalid_choice": _("The bonus card is the J♦ or the 10♦.")},
    )
    target = WholeNumberField(
        label=_("Target score"),
        min_value=25,
        max_value=500,
        initial=100,
        help_text=_("The match ends when someone reaches it; 50 is a sensible minimum."),
    )
    hands = WholeNumberField(
        label=_("Fixed number of hands"),
        min_value=0,
        max_value=50,
        initial=0,
        required=False,
        help_text=_(
            "0 plays to the target score. 1 to 50 ends the match after exactly that many hands, "
            "whatever the totals; the lowest total wins."
        ),
    )
    moon = forms.ChoiceField(
        label=_("Shooting the moon"), choices=MoonOption.choices, initial=MoonOption.ASK
    )
    decision_seconds = forms.TypedChoiceField(
        label=_("Time for each decision"),
        choices=[("", _("Untimed")), *clocks.DECISION_PRESETS],
        coerce=int,
        empty_value=None,
        required=False,
        initial=str(86400),
        help_text=_(
            "When it runs out, a bot makes that one decision; after two in a row, a bot takes "
            "the seat for the rest of the match."
        ),
        error_messages={"invalid_choice": _("Choose one of the times offered, or untimed.")},
    )
    # Chosen in allowances of the time for each decision, kept in seconds (`bank_seconds`).
    bank = forms.TypedChoiceField(
        label=_("Bank of extra time for each player"),
        choices=clocks.BANK_PRESETS,
        coerce=int,
        empty_value=0,  # type: ignore[arg-type]  # any value may stand for "no choice"
        required=False,
        initial=1,
        # The limit is stated beside the choice, and `settings` keeps to it (see there).
        help_text=format_lazy("{} {}", BANK_HELP, _("A bank of time holds at most 30 days.")),
        error_messages={"invalid_choice": _("Choose one of the banks offered.")},
    )
    allow_vacation = forms.BooleanField(
        label=_("Stop a player's clock while they are on vacation"),
        required=False,
        initial=True,
        # The rule of games/services/vacations.py, with its numbers, as the profile page tells it.
        help_text=format_lazy(
            _(
                "Everyone starts with {start} days of vacation, and each full week since joining "
                "adds one more, up to {most}; see the profile page."
            ),
            start=vacations.STARTING_DAYS,
            most=vacations.MOST_DAYS,
        ),
    )

    def settings(self) -> dict[str, Any]:
        """Return the cleaned settings as `services.MatchOptions` arguments."""
        data = self.cleaned_data
        return {
            "variant": data["variant"],
            "bonus_card": data["bonus_card"],
            "target": data["target"],
            "hands": data["hands"] or 0,
            "moon": data["moon"],
            "decision_seconds": data["decision_seconds"],
            # Every pair offered is taken: three more allowances of 14 days would be 42 days,
            # beyond what a bank holds, so the bank is the most it may hold (as the field says).
            "bank_seconds": min((data["decision_seconds"] or 0) * data["bank"], MAX_BANK_SECONDS),
            "allow_vacation": data["allow_vacation"],
        }
