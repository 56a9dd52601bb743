"""Display names: one visible line, NFKC, 1 to 30 characters, nobody else's, never a bot's."""

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.urls import reverse

from games.accounts.names import available_name
from games.models import Profile
from tests.conftest import PASSWORD
from tests.factories import make_match
from tests.notify_helpers import messages_to, opt_in, run_due_tasks

pytestmark = pytest.mark.django_db

INJECTED = "Play now: evil.example"  # short enough to store in 30 characters with a name


def sign_up(client, display_name: str, username: str = "newcomer"):
    data = {
        "username": username,
        "display_name": display_name,
        "password1": "a-long-passphrase-42",
        "password2": "a-long-passphrase-42",
    }
    return client.post(reverse("signup"), data)


def rename(client, display_name: str):
    return client.post(reverse("profile"), {"display_name": display_name})


def name_of(user) -> str:
    return Profile.objects.get(user=user).display_name


@pytest.mark.parametrize(
    "bad",
    [
        "Eve\nPlay now",
        "Eve\r\nBcc: all",
        "Eve\u2028Line two",  # line separator (Zl)
        "Eve\u2029Para two",  # paragraph separator (Zp)
        "Eve\u200bSilent",  # zero-width space (Cf)
        "Eve\u202eevil",  # right-to-left override (Cf)
        "Eve\tTab",
        "Eve\x1b[2J",
    ],
)
def test_invisible_characters_are_refused_and_change_nothing(client, alice, bad):
    client.force_login(alice)
    response = rename(client, bad)
    assert response.status_code == 400
    assert "cannot contain line breaks, tabs or other invisible characters" in response.text
    assert name_of(alice) == "Alice"
    client.post(reverse("logout"))
    assert sign_up(client, bad).status_code == 400
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_names_are_stored_in_nfkc_trimmed(client, alice):
    client.force_login(alice)
    assert rename(client, "  Ａｌｉｃｅ　the  ﬁrst ").status_code == 302
    assert name_of(alice) == "Alice the first"


@pytest.mark.parametrize(
    ("wanted", "ok"), [("x", True), ("x" * 30, True), ("x" * 31, False), ("   ", False)]
)
def test_names_have_one_to_thirty_characters(client, alice, wanted, ok):
    client.force_login(alice)
    response = rename(client, wanted)
    assert response.status_code == (302 if ok else 400)
    assert name_of(alice) == (wanted if ok else "Alice")


def test_a_name_another_player_uses_is_refused_whatever_its_capitals(client, alice, make_user):
    make_user("bob", "Bob")
    make_user("zed", "")
    client.force_login(alice)
    for taken in ["bob", "BOB", "ＢＯＢ", "Zed"]:  # Zed shows his username: he has no name
        response = rename(client, taken)
        assert response.status_code == 400
        assert "Another player already uses this name." in response.text
    assert name_of(alice) == "Alice"
    assert rename(client, "ALICE").status_code == 302  # her own, in other capitals


def test_signing_up_with_a_taken_name_is_refused(client, alice):
    response = sign_up(client, "aLiCe")
    assert response.status_code == 400
    assert "Another player already uses this name." in response.text


@pytest.mark.parametrize("bot", ["Ada", "basil", "GRETA", "Bot 3", "bot12", "Ｂｏｔ 1"])
def test_nobody_takes_a_bots_name(client, alice, bot):
    client.force_login(alice)
    response = rename(client, bot)
    assert response.status_code == 400
    assert "That name is a bot&#x27;s; choose another." in response.text
    assert name_of(alice) == "Alice"


def test_a_new_account_whose_username_is_a_bots_name_gets_another_display_name(db):
    user = get_user_model().objects.create_user(username="ada", password=PASSWORD)
    assert name_of(user) == "ada 2"
    assert available_name("x" * 40) == "x" * 30


def test_the_admin_checks_names_the_same_way(client, make_user, alice):
    staff = make_user("boss", "Boss", is_staff=True, is_superuser=True)
    client.force_login(staff)
    profile = Profile.objects.get(user=alice)
    url = reverse("admin:games_profile_change", args=[profile.pk])
    response = client.post(url, {"user": alice.pk, "display_name": "Alice\nBcc"})
    assert response.status_code == 200  # the form again, with its error
    assert "invisible characters" in response.text
    assert name_of(alice) == "Alice"


def test_a_turn_email_keeps_a_name_stored_before_the_rules_on_one_line(
    clock, alice, make_user, django_capture_on_commit_callbacks
):
    bob = make_user("bob", "Bob", email="bob@example.com")
    # Stored directly, as names could be before they were checked.
    Profile.objects.filter(user=alice).update(display_name=f"Al\n{INJECTED}\u2028More")
    opt_in(bob, turn_emails=True)
    with django_capture_on_commit_callbacks(execute=True):
        make_match(alice, people=[bob])
    run_due_tasks(clock.advance(hours=1))
    [message] = messages_to(bob)
    lines = message.body.splitlines()  # every line boundary, \u2028 included
    assert not any(line.startswith(("Play now", "More")) for line in lines)
    assert f"Al {INJECTED} More" in message.body


def test_the_plain_text_template_itself_keeps_names_on_one_line():
    match = {"id": 1, "players": 4, "length": "ends at 100 points", "hand": 1, "url": "u"}
    body = render_to_string(
        "emails/turn_notice.txt",
        {"name": f"Bob\r\n{INJECTED}", "match": {**match, "opponents": [f"Eve\n{INJECTED}"]}},
    )
    assert not any(line.startswith("Play now") for line in body.splitlines())


def test_bots_are_marked_at_the_table_and_on_your_turn(client, alice):
    match = make_match(alice)  # alice and three bots
    client.force_login(alice)
    page = client.get(reverse("match", args=[match.pk])).text
    seats = page.split('<ol class="seats"')[1].split("</ol>")[0]
    assert seats.count('class="badge badge-bot"') == 3
    assert "Alice <abbr" not in seats
    assert 'Basil</a> <abbr class="badge badge-bot"' in seats
    home = client.get(reverse("home")).text
    assert 'Basil</a> <abbr class="badge badge-bot"' in home


def test_the_migration_cleans_names_stored_before_the_rules(make_user):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("games.migrations.0008_display_names")
    stored = {
        "eve": f"Eve\n{INJECTED}",
        "twin": "ALICE",
        "ada": "Ada",
        "wide": "Ｗｉｄｅ\u200b",
        "blank": " \t ",
    }
    users = {username: make_user(username) for username in ["alice", *stored]}
    Profile.objects.filter(user=users["alice"]).update(display_name="Alice")
    for username, name in stored.items():
        Profile.objects.filter(user=users[username]).update(display_name=name)
    migration.clean_names(apps, None)
    cleaned = {username: name_of(user) for username, user in users.items()}
    assert cleaned == {
        "alice": "Alice",
        "eve": f"Eve {INJECTED}",
        "twin": "ALICE 2",
        "ada": "Ada 2",
        "wide": "Wide",
        "blank": "blank",
    }


def test_the_migration_cuts_names_longer_than_thirty_characters():
    from importlib import import_module

    migration = import_module("games.migrations.0008_display_names")
    assert migration._clean("L" * 45) == "L" * 30
    assert migration._clean(" Ｌｏｎｇ\u200b " + "x" * 40) == "Long " + "x" * 25
