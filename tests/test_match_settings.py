"""A match's settings have one home: the lobby and the tournament admin share their fields, and
`MatchOptions` turns them into the engine's rules for both."""

from io import StringIO

import pytest
from django.core.management import call_command

from games import engine
from games.admin.time_control import TournamentForm
from games.forms import CreateMatchForm
from games.models import Match, Tournament
from games.models.time_control import TimeControl
from games.services import BadInput, MatchOptions
from tests.tournament_helpers import make_tournament

LOBBY = {
    "variant": "omnibus",
    "bonus_card": "TD",
    "players": "5",
    "target": "75",
    "hands": "0",
    "moon": "add",
    "bots": "1",
    "decision_seconds": "3600",
    "bank": "3",
}


def test_the_time_control_is_declared_once_for_matches_and_tournaments():
    for model in (Match, Tournament):
        assert issubclass(model, TimeControl)
    # A tournament's vacations are its one difference: off unless staff allow them.
    assert Match._meta.get_field("allow_vacation").default is True
    assert Tournament._meta.get_field("allow_vacation").default is False


@pytest.mark.django_db(transaction=True)  # SQLite's schema editor runs outside a transaction
def test_the_migration_to_one_time_control_changes_no_column():
    out = StringIO()
    call_command("sqlmigrate", "games", "0023", stdout=out)
    statements = [line for line in out.getvalue().splitlines() if not line.startswith("--")]
    assert statements in ([], ["BEGIN;", "COMMIT;"]), out.getvalue()


def test_the_lobby_and_a_tournament_with_the_same_settings_get_the_same_rules(db):
    form = CreateMatchForm(LOBBY)
    assert form.is_valid(), form.errors
    lobby = form.options()
    tournament = make_tournament(
        variant="omnibus", bonus_card="TD", table_size=5, target=75, hands=0, moon="add"
    )
    assert MatchOptions.of_tournament(tournament).rule_set(5) == lobby.rule_set()
    assert lobby.rule_set() == engine.RuleSet(
        players=5, target=75, moon="add", variant="omnibus", bonus_card="TD"
    )


def test_a_tournament_table_takes_its_size_and_the_tournament_s_clock(db):
    tournament = make_tournament(decision_seconds=3600, bank_seconds=7200, timeouts_to_leave=3)
    options = MatchOptions.of_tournament(tournament)
    assert options.rule_set(3).players == 3
    assert options.time_control() == {
        "decision_seconds": 3600,
        "bank_seconds": 7200,
        "timeouts_to_leave": 3,
        "allow_vacation": False,
    }


def test_rules_the_engine_refuses_are_refused_with_its_rule():
    with pytest.raises(BadInput) as refusal:
        MatchOptions(variant="standard", bonus_card="TD").rule_set()
    assert refusal.value.rule == "R5.1"


@pytest.mark.parametrize("name", ["decision_seconds", "bank"])
def test_the_admin_offers_the_lobby_s_clock_choices_and_messages(name):
    lobby, admin = CreateMatchForm().fields[name], TournamentForm().fields[name]
    assert admin.label == lobby.label
    assert list(admin.choices) == list(lobby.choices)
    assert admin.error_messages == lobby.error_messages
