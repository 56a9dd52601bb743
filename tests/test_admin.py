"""The admin: staff inspect matches and their log, nobody edits the log by hand."""

import pytest
from django.urls import reverse

from games.engine.cards import CARDS
from games.models import Action, Hand, Match, NotificationSettings, ScoreLine, Seat
from tests.service_helpers import act, started_match, state_of


def admin_url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.fixture
def staff_client(client, make_user):
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def played_match(alice):
    """A match of two hands, played to its end."""
    match = started_match(alice, seed=5, hands=2)
    while match.status == "active":
        match = act(alice, match, 0)
    return match


@pytest.fixture
def match_in_play(alice):
    match = started_match(alice, seed=987654321)
    while state_of(match).hand_no < 2:
        match = act(alice, match, 0)
    return match


@pytest.mark.parametrize("model", [Match, Seat, Hand, Action, ScoreLine, NotificationSettings])
def test_staff_see_every_list_and_row(staff_client, played_match, model):
    assert staff_client.get(admin_url(model, "changelist")).status_code == 200
    row = model.objects.filter(**({"pk": played_match.pk} if model is Match else {})).first()
    page = staff_client.get(admin_url(model, "change", row.pk))
    assert page.status_code == 200


@pytest.mark.parametrize("model", [Seat, Hand, Action, ScoreLine, NotificationSettings])
def test_the_log_cannot_be_edited_or_deleted_by_hand(staff_client, played_match, model):
    row = model.objects.first()
    before = model.objects.count()
    response = staff_client.post(admin_url(model, "delete", row.pk), {"post": "yes"})
    assert response.status_code == 403
    assert model.objects.count() == before
    assert staff_client.get(admin_url(model, "add")).status_code == 403


def test_the_replay_check_confirms_a_consistent_log(staff_client, played_match):
    response = staff_client.post(
        reverse("admin:games_match_changelist"),
        {"action": "check_log", "_selected_action": [played_match.pk]},
        follow=True,
    )
    assert "The match replays exactly." in response.text


def test_the_replay_check_reports_a_tampered_log(staff_client, played_match):
    action = Action.objects.filter(match=played_match, kind="play").order_by("hand", "seq").last()
    Action.objects.filter(pk=action.pk).delete()
    response = staff_client.post(
        reverse("admin:games_match_changelist"),
        {"action": "check_log", "_selected_action": [played_match.pk]},
        follow=True,
    )
    assert f"does not reproduce the stored state of match {played_match.pk}." in response.text


def test_players_cannot_open_the_admin(client, alice):
    client.force_login(alice)
    response = client.get(reverse("admin:games_match_changelist"))
    assert response.status_code == 302
    assert "/admin/login/" in response.url


def shown_cards(html: str) -> list[str]:
    """Return the cards a page names in the engine's text form, as in a deal or the log."""
    forms = ('"{}"', "&quot;{}&quot;", ">{}<", "&#x27;{}&#x27;")
    return [str(card) for card in CARDS if any(f.format(card) in html for f in forms)]


def test_the_cards_of_a_match_in_play_stay_hidden_in_the_admin(staff_client, match_in_play):
    """A staff member may be a player too: no deal, snapshot, seed or log while in play."""
    match = match_in_play
    page = staff_client.get(admin_url(Match, "change", match.pk)).text
    assert "Hidden while the match is in play" in page
    for field in ("snapshot", "seed", "deals"):
        assert f"field-{field}" not in page
    assert str(match.seed) not in page
    hand = Hand.objects.filter(match=match).first()
    page = staff_client.get(admin_url(Hand, "change", hand.pk)).text
    assert "Hidden while the match is in play" in page and shown_cards(page) == []
    assert 'id="actions-group"' not in page  # the log inline
    action = Action.objects.filter(match=match).first()
    assert staff_client.get(admin_url(Action, "change", action.pk)).status_code == 302  # gone
    listing = staff_client.get(admin_url(Action, "changelist")).text
    assert "0 actions" in listing or "0 Actions" in listing


def test_the_cards_of_a_finished_match_are_shown_in_the_admin(staff_client, played_match):
    page = staff_client.get(admin_url(Match, "change", played_match.pk)).text
    assert "Hidden while the match is in play" not in page
    assert "field-snapshot" in page and "field-seed" in page
    hand = Hand.objects.filter(match=played_match).first()
    page = staff_client.get(admin_url(Hand, "change", hand.pk)).text
    assert shown_cards(page) and 'id="actions-group"' in page
