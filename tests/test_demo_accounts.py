"""The demo accounts command is safe to run again and again."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from games.management.commands.setup_demo import DEMO_ACCOUNTS, DEMO_PASSWORD


@pytest.fixture(autouse=True)
def development_mode(settings):
    """Demo accounts are for a development site, where DEBUG is on."""
    settings.DEBUG = True


def test_it_creates_a_staff_user_and_players_and_prints_their_logins(db, capsys):
    call_command("setup_demo")
    users = get_user_model().objects
    assert users.count() == len(DEMO_ACCOUNTS)
    admin = users.get(username="admin")
    assert admin.is_staff and admin.check_password(DEMO_PASSWORD)
    assert users.get(username="alice").profile.display_name == "Alice"
    output = capsys.readouterr().out
    assert DEMO_PASSWORD in output and "alice" in output


def test_running_it_again_changes_nothing_that_exists(db):
    call_command("setup_demo")
    alice = get_user_model().objects.get(username="alice")
    alice.set_password("changed-by-alice-123")
    alice.save()
    call_command("setup_demo")
    alice.refresh_from_db()
    assert alice.check_password("changed-by-alice-123")
    assert get_user_model().objects.count() == len(DEMO_ACCOUNTS)


def test_it_refuses_to_create_published_passwords_in_production(db, settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="published password"):
        call_command("setup_demo")
    assert not get_user_model().objects.exists()
