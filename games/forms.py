"""Forms for creating a match, for the small actions taken at the table, and for the
query parameters pages read: every value a request brings goes through one of them."""

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import engine, services
from games.challenge_form import ChallengeFields
from games.lib.converters import MAX_ID
from games.lib.form_fields import WholeNumberField
from games.match_settings_form import MatchSettingsFields
from games.models import BonusCard, BotLevel, Variant

SEAT_COUNTS = range(3, 11)  # every table size some game allows (3 to 7; 5 to 10 with two decks)


def _players_words(n: int) -> str:
    return ngettext("%(n)d player", "%(n)d players", n) % {"n": n}


# Put in words when drawn, in the language of the page (the choices are made at import).
PLAYER_CHOICES = [(n, lazy(_players_words, str)(n)) for n in SEAT_COUNTS]
MOST_BOTS = SEAT_COUNTS[-1] - 1
MOON_REFUSAL = _("Choose to subtract 26 from your score or add 26 to everyone else's.")
LEVEL_HELP = _(
    "Easy plays at once by simple rules; normal and strong think ahead over the cards they "
    "cannot see (strong longer, and harder to beat). Only as many as there are bot seats count."
)


class BotLevelsWidget(forms.MultiWidget):
    """One choice of level for each bot seat, each named for screen readers."""

    def __init__(self) -> None:
        super().__init__(
            [
                forms.Select(
                    choices=BotLevel.choices,
                    attrs={"aria-label": format_lazy(_("Level of bot {n}"), n=n)},
                )
                for n in range(1, MOST_BOTS + 1)
            ]
        )

    def decompress(self, value: Sequence[str] | None) -> list[str]:
        return list(value) if value else [BotLevel.NORMAL] * MOST_BOTS


class BotLevelsField(forms.MultiValueField):
    """The levels of the bot seats, in seat order: a tuple of `BotLevel` values."""

    widget = BotLevelsWidget

    def __init__(self, **kwargs: Any) -> None:
        fields = [
            forms.ChoiceField(
                choices=BotLevel.choices,
                required=False,
                error_messages={"invalid_choice": _("Choose easy, normal or strong for each bot.")},
            )
            for _seat in range(MOST_BOTS)
        ]
        super().__init__(fields, require_all_fields=False, required=False, **kwargs)

    def compress(self, data_list: list[str]) -> tuple[str, ...]:
        values = list(data_list or [])
        values += [""] * (MOST_BOTS - len(values))
        return tuple(value or BotLevel.NORMAL for value in values)


class CreateMatchForm(MatchSettingsFields, ChallengeFields, forms.Form):
    """What a player chooses when opening a new match (R1.1, R4.3, R4.5, R4.7): the settings
    every match has (`MatchSettingsFields`), the seats, privacy and rating of this one, and
    the people challenged by name to it (`ChallengeFields`)."""

    # The lobby's order, the settings among the lobby's own choices.
    field_order = [
        "variant", "bonus_card", "players", "target", "hands", "moon", "bots", "bot_levels",
        "invite", "answer_within", "unanswered", "private", "auto_finish", "decision_seconds",
        "bank", "rated", "allow_vacation", "free_chat",
    ]  # fmt: skip

    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=PLAYER_CHOICES,
        coerce=int,
        initial=4,
        error_messages={"invalid_choice": _("Choose from 3 to 10 players.")},
    )
    bots = WholeNumberField(
        label=_("Seats filled by bots"),
        min_value=0,
        max_value=MOST_BOTS,
        initial=0,
        help_text=_("The other seats wait for people; you can add bots or start later."),
    )
    bot_levels = BotLevelsField(
        label=_("Level of each bot, in seat order"),
        initial=(BotLevel.NORMAL,) * MOST_BOTS,
        help_text=LEVEL_HELP,
    )
    private = forms.BooleanField(
        label=_("Private: hidden from all but those seated; join with the invite link"),
        required=False,
    )
    auto_finish = forms.BooleanField(
        label=_("Play out a hand once no points are left"), required=False, initial=True
    )
    rated = forms.BooleanField(
        label=_("Rated: the result moves the ratings"),
        required=False,
        initial=True,
        help_text=_(
            "Leave it unticked for a casual match that counts in statistics only. A private "
            "match is never rated, and counts in no statistics."
        ),
    )

    free_chat = forms.BooleanField(
        label=_("Free text in the table chat"),
        required=False,
        initial=True,
        help_text=_("Unticked, the chat takes preset phrases only."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "variant" not in self.errors:
            data["variant"] = data.get("variant") or Variant.STANDARD
        variant, players, bots = data.get("variant"), data.get("players"), data.get("bots")
        if variant and players is not None:
            try:
                engine.check_players(players, variant)
            except engine.BadRules as error:
                self.add_error("players", error.message)
        bonus = data.get("bonus_card") or BonusCard.JD
        data["bonus_card"] = bonus
        if variant and variant != Variant.OMNIBUS and bonus != BonusCard.JD:
            self.add_error("bonus_card", gettext("Only Omnibus Hearts has a bonus card to choose."))
        if players is not None and bots is not None and bots >= players:
            self.add_error(
                "bots",
                gettext("Choose between 0 and %(most)d bots for %(seats)d seats.")
                % {"most": players - 1, "seats": players},
            )
        return data

    def options(self) -> services.MatchOptions:
        """Return the cleaned choices as the service's options."""
        data = self.cleaned_data
        return services.MatchOptions(
            **self.settings(),
            players=data["players"],
            bots=data["bots"],
            private=data["private"],
            auto_finish=data["auto_finish"],
            rated=data["rated"],
            free_chat=data["free_chat"],
            bot_levels=tuple(data["bot_levels"] or ())[: data["bots"]],
        )


class CardField(forms.CharField):
    """One card in its text form ("QS"), checked by the engine's parser."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=3, **kwargs)

    def to_python(self, value: object) -> str:
        text = (super().to_python(value) or "").strip().upper()
        if not text:
            return text
        try:
            return str(engine.Card.parse(text))
        except engine.EngineError:
            raise forms.ValidationError(gettext("That is not a card.")) from None


class VersionForm(forms.Form):
    """The match version the page was rendered at, sent with every move."""

    version = WholeNumberField(
        min_value=0,
        # Bounded so that a garbage number never reaches the database's integer column.
        max_value=2**31 - 1,
        error_messages={
            "required": _("This page is out of date: reload it and try again."),
            "invalid": _("This page is out of date: reload it and try again."),
            "min_value": _("This page is out of date: reload it and try again."),
            "max_value": _("This page is out of date: reload it and try again."),
        },
    )


class PlayForm(VersionForm):
    """Play one card."""

    card = CardField(error_messages={"required": _("Choose a card to play.")})


class PassForm(VersionForm):
    """Pass exactly three cards (R2.1, R2.5)."""

    cards = forms.MultipleChoiceField(
        choices=[(str(card), card.words) for card in engine.CARDS],
        error_messages={
            "required": _("Choose three cards to pass."),
            "invalid_choice": _("That is not a card."),
        },
    )

    def clean_cards(self) -> list[str]:
        cards: list[str] = self.cleaned_data["cards"]
        if len(set(cards)) != 3:
            raise forms.ValidationError(
                gettext("Choose exactly three cards to pass, not %(count)d.")
                % {"count": len(set(cards))}
            )
        return cards


class MoonForm(VersionForm):
    """Choose what shooting the moon does (R4.3)."""

    option = forms.ChoiceField(
        choices=[("subtract", "Subtract 26 from my score"), ("add", "Add 26 to everyone else's")],
        error_messages={
            "required": _("Choose to subtract 26 from your score or add 26 to everyone else's."),
            "invalid_choice": _(
                "Choose to subtract 26 from your score or add 26 to everyone else's."
            ),
        },
    )


NO_SUCH_SEAT = _("There is no such seat at this table.")


def _position_field(seats: int, *, required: bool, required_message: Any = None) -> forms.Field:
    """A seat of a table of `seats` seats, numbered from 0: any other number is no seat."""
    messages: dict[str, Any] = dict.fromkeys(("invalid", "min_value", "max_value"), NO_SUCH_SEAT)
    if required_message:
        messages["required"] = required_message
    return WholeNumberField(
        min_value=0, max_value=seats - 1, required=required, error_messages=messages
    )


class SeatForm(forms.Form):
    """A seat at the table, for adding or removing a bot; empty means the first free one.

    Bounded by the match's own seat count (`seats`), from 3 to 10 at a Cancellation table.
    """

    def __init__(self, *args: Any, seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["position"] = _position_field(seats, required=False)


class BotSeatForm(SeatForm):
    """A seat for a new bot, and how strongly it plays (normal unless chosen)."""

    level = forms.ChoiceField(
        choices=BotLevel.choices,
        required=False,
        error_messages={"invalid_choice": _("Choose easy, normal or strong for the bot.")},
    )

    def clean_level(self) -> str:
        return self.cleaned_data.get("level") or BotLevel.NORMAL


class HandOverForm(forms.Form):
    """The silent seat to hand to a bot, one of the match's `seats`."""

    def __init__(self, *args: Any, seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["position"] = _position_field(
            seats, required=True, required_message=_("Choose the seat to hand to a bot.")
        )


class JoinForm(forms.Form):
    """Join an open match, with the invite code a private match needs."""

    invite_code = forms.CharField(max_length=32, required=False)


class BackForm(forms.Form):
    """Where a follow or a block returns to without JavaScript: the player's page, or Friends."""

    back = forms.ChoiceField(choices=[("player", "player"), ("friends", "friends")], required=False)

    def to_friends(self) -> bool:
        return self.is_valid() and self.cleaned_data["back"] == "friends"


class ReplayStepForm(forms.Form):
    """The replay's step (`?step=`); anything but a step number shows the start."""

    step = WholeNumberField(min_value=0, max_value=99_999, required=False)

    def step_or_start(self) -> int:
        return (self.cleaned_data["step"] or 0) if self.is_valid() else 0


# Every table size a match can have: 3 to 7 players, and up to 10 with two decks (R5.2).
LEADERBOARD_SIZES = range(3, 11)


class LeaderboardForm(forms.Form):
    """The leaderboard's table size (`?players=`): left out, every size together."""

    players = forms.TypedChoiceField(
        choices=[("", "")] + [(str(n), str(n)) for n in LEADERBOARD_SIZES],
        coerce=int,
        empty_value=None,
        required=False,
        error_messages={
            "invalid_choice": _("Choose a table size from 3 to 10 players, or all table sizes.")
        },
    )


def first_error(form: forms.Form) -> str:
    """Return the first error message of an invalid form, for a one-line answer."""
    for errors in form.errors.values():
        for error in errors:
            return str(error)
    return "Something in that request was not understood."


class ChatForm(forms.Form):
    """A chat message: a phrase's key or the player's own words (the service checks both)."""

    preset = forms.CharField(required=False, max_length=20)
    # Neither stripped nor bounded here: `services.chat.clean_text` is the one judge of words.
    text = forms.CharField(required=False, strip=False)


class MuteForm(forms.Form):
    """The person to mute or unmute, by the name they show."""

    name = forms.CharField(max_length=150)


class ReportForm(forms.Form):
    """The message reported, by its id."""

    message = forms.IntegerField(min_value=1, max_value=MAX_ID)
