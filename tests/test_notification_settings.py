"""The profile page: a player turns the turn e-mails and the daily digest on and off."""

from django.urls import reverse

from tests.notify_helpers import settings_of


def test_both_emails_start_off_and_show_on_the_profile(client, alice):
    client.force_login(alice)
    page = client.get(reverse("profile")).text
    assert "E-mail me when it is my turn and I have been away" in page
    assert "Send me a daily digest" in page
    assert not settings_of(alice).turn_emails and not settings_of(alice).daily_digest


def test_a_player_turns_them_on_and_off(client, alice):
    client.force_login(alice)
    url = reverse("notification_settings")
    response = client.post(url, {"turn_emails": "on", "daily_digest": "on"}, follow=True)
    assert "Your e-mail settings have been saved." in response.text
    assert settings_of(alice).turn_emails and settings_of(alice).daily_digest
    client.post(url, {"daily_digest": "on"})
    assert not settings_of(alice).turn_emails and settings_of(alice).daily_digest


def test_it_refuses_emails_for_an_account_without_an_address(client, make_user):
    carol = make_user("carol")
    client.force_login(carol)
    response = client.post(reverse("notification_settings"), {"turn_emails": "on"})
    assert response.status_code == 400
    assert "no e-mail address" in response.text
    assert not settings_of(carol).turn_emails


def test_the_settings_need_a_login_and_a_post(client, alice):
    url = reverse("notification_settings")
    assert client.post(url, {"turn_emails": "on"}).status_code == 302
    client.force_login(alice)
    assert client.get(url).status_code == 405
    assert not settings_of(alice).turn_emails


def test_staff_see_the_settings_but_do_not_change_them(client, alice, make_user):
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    row = settings_of(alice)
    url = reverse("admin:games_notificationsettings_change", args=[row.pk])
    assert "alice" in client.get(reverse("admin:games_notificationsettings_changelist")).text
    assert client.get(url).status_code == 200
    client.post(url, {"turn_emails": "on", "daily_digest": "on"})
    assert not settings_of(alice).turn_emails
