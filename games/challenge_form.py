"""The lobby form's "Invite by name" fields: the people to challenge, how long they have to
answer, and what becomes of a seat nobody takes.

Each name has an input of its own (a display name may hold commas), all sharing one list of
suggestions that htmx fills as the player types (`views.challenges.name_suggestions`).
"""

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth.models import User
from django.urls import reverse_lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Unanswered
from games.services import people

if TYPE_CHECKING:
    from django.http import QueryDict

MOST_NAMED = 9  # the largest table (10, two decks) has nine seats beside the challenger's
SUGGESTIONS_ID = "challenge-name-suggestions"
DAY = 24 * 3600
DEFAULT_WAIT = 3 * DAY
WAIT_CHOICES = [
    (3600, _("1 hour")),
    (6 * 3600, _("6 hours")),
    (DAY, _("1 day")),
    (3 * DAY, _("3 days")),
    (7 * DAY, _("7 days")),
]


class NameInputs(forms.MultiWidget):
    """One text input per name, each offering the suggestions as the player types."""

    def __init__(self) -> None:
        super().__init__(
            [
                forms.TextInput(
                    attrs={
                        "aria-label": format_lazy(_("Name {n}"), n=n),
                        "class": "name-input",
                        "list": SUGGESTIONS_ID,
                        "autocomplete": "off",
                        "maxlength": "40",
                        "hx-get": reverse_lazy("challenge_names"),
                        "hx-trigger": "keyup changed delay:200ms",
                        "hx-target": f"#{SUGGESTIONS_ID}",
                        "hx-swap": "innerHTML",
                        "hx-sync": "this:replace",
                    }
                )
                for n in range(1, MOST_NAMED + 1)
            ]
        )

    def decompress(self, value: list[str] | None) -> list[str]:
        return list(value or [])


class NamesField(forms.MultiValueField):
    """The names typed, in order, blanks dropped."""

    widget = NameInputs

    def __init__(self, **kwargs: Any) -> None:
        fields = [forms.CharField(max_length=40, required=False) for _n in range(MOST_NAMED)]
        super().__init__(fields, require_all_fields=False, required=False, **kwargs)

    def compress(self, data_list: list[str]) -> list[str]:
        return [name.strip() for name in (data_list or []) if name and name.strip()]


class ChallengeFields(forms.Form):
    """A mixin for the lobby's form: the people to challenge by name, and the terms."""

    invite = NamesField(
        label=_("Invite by name"),
        help_text=_(
            "Optional. The seats are kept for them until they answer; the match is private "
            "and starts when all have accepted."
        ),
    )
    answer_within = forms.TypedChoiceField(
        label=_("They have to answer within"),
        choices=WAIT_CHOICES,
        coerce=int,
        initial=DEFAULT_WAIT,
        required=False,
        empty_value=None,  # a form sent without it (no challenge): the usual wait, below
        error_messages={"invalid_choice": _("Choose one of the times offered.")},
    )
    unanswered = forms.ChoiceField(
        label=_("If someone declines or does not answer"),
        choices=Unanswered.choices,
        initial=Unanswered.BOT,
        required=False,
        widget=forms.RadioSelect(attrs={"class": "choice-radio"}),
        error_messages={"invalid_choice": _("Choose a bot or an open seat.")},
    )

    def clean_invite(self) -> list[User]:
        """Turn the names into people, refusing a name nobody shows."""
        invitees = []
        for name in self.cleaned_data.get("invite") or []:
            person = people.person_named(name)
            if person is None:
                raise forms.ValidationError(
                    gettext("There is no player named %(name)s.") % {"name": name}
                )
            invitees.append(person)
        return invitees

    def clean_unanswered(self) -> str:
        return str(self.cleaned_data.get("unanswered") or Unanswered.BOT)

    def wait(self) -> timedelta:
        return timedelta(seconds=self.cleaned_data["answer_within"] or DEFAULT_WAIT)


class NameQueryForm(forms.Form):
    """A name, or the start of one: what a player page's Challenge button fills in, and what
    the suggestions are asked for (the name input sends its own value, as `invite_<n>`)."""

    name = forms.CharField(max_length=40, required=False, strip=True)

    @classmethod
    def of_query(cls, query: "QueryDict") -> "NameQueryForm":
        """Read the one name a request brings: `name`, or the first `invite_<n>` with text."""
        typed = next(
            (v for k, v in query.items() if (k == "name" or k.startswith("invite_")) and v),
            "",
        )
        return cls({"name": typed})

    def typed(self) -> str:
        return str(self.cleaned_data["name"]) if self.is_valid() else ""
