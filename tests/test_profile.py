"""The profile page: a player changes their display name, forced-card setting and password."""

import re

from django.urls import reverse

from tests.conftest import PASSWORD


def test_it_shows_and_changes_the_display_name(client, alice):
    client.force_login(alice)
    assert "Alice" in client.get(reverse("profile")).text
    response = client.post(reverse("profile"), {"display_name": "Queen of Hearts"}, follow=True)
    assert response.status_code == 200
    alice.profile.refresh_from_db()
    assert alice.profile.display_name == "Queen of Hearts"
    assert "Your profile has been saved." in response.text


def test_each_player_chooses_whether_their_forced_cards_are_played_for_them(client, alice):
    client.force_login(alice)
    page = client.get(reverse("profile")).text
    assert re.search(r'<input type="checkbox" name="auto_play_forced"[^>]* checked>', page)
    client.post(reverse("profile"), {"display_name": "Alice"})  # the box left unticked
    alice.profile.refresh_from_db()
    assert alice.profile.auto_play_forced is False
    client.post(reverse("profile"), {"display_name": "Alice", "auto_play_forced": "on"})
    alice.profile.refresh_from_db()
    assert alice.profile.auto_play_forced is True


def test_it_rejects_a_blank_display_name(client, alice):
    client.force_login(alice)
    response = client.post(reverse("profile"), {"display_name": "   "})
    assert response.status_code == 400
    alice.profile.refresh_from_db()
    assert alice.profile.display_name == "Alice"


def test_a_user_created_outside_sign_up_gets_a_profile(django_user_model, db):
    user = django_user_model.objects.create_user("staffer", password=PASSWORD)
    assert user.profile.display_name == "staffer"


def test_it_changes_the_password(client, alice):
    client.force_login(alice)
    new = "another-long-passphrase"
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
        follow=True,
    )
    assert "Your password has been changed." in response.text
    alice.refresh_from_db()
    assert alice.check_password(new)


def test_it_refuses_a_password_change_with_the_wrong_old_password(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "wrong",
            "new_password1": "x-long-pass-1",
            "new_password2": "x-long-pass-1",
        },
    )
    assert response.status_code == 400
    assert "Your old password was entered incorrectly" in response.text


def test_the_page_is_titled_and_shows_the_vacation_section_once(client, alice):
    client.force_login(alice)
    html = client.get(reverse("profile")).content.decode()
    assert "<title>Your profile · Hearts</title>" in html
    assert html.count('id="vacation"') == 1
    assert html.index("<h1>Your profile</h1>") < html.index('id="vacation"')


def test_the_card_settings_are_saved_and_mark_every_page(client, alice):
    client.force_login(alice)
    page = client.get(reverse("profile")).text
    assert 'name="four_colour_deck"' in page and 'name="large_cards"' in page
    assert "<body hx-headers" in page and 'class="deck-four-colour' not in page
    client.post(
        reverse("profile"),
        {"display_name": "Alice", "four_colour_deck": "on", "large_cards": "on"},
    )
    alice.profile.refresh_from_db()
    assert alice.profile.four_colour_deck and alice.profile.large_cards
    for name in ("home", "lobby", "profile"):
        body = re.search(r"<body[^>]*>", client.get(reverse(name)).text).group(0)
        assert 'class="deck-four-colour cards-large"' in body, name
    client.post(reverse("profile"), {"display_name": "Alice", "large_cards": "on"})
    body = re.search(r"<body[^>]*>", client.get(reverse("home")).text).group(0)
    assert 'class="cards-large"' in body
