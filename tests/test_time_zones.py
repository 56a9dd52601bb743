"""Each player reads times in their own zone, named: pages, e-mails and the services' words.

Stored times stay UTC. Two players, one in Asia/Jakarta (UTC+7 all year, "WIB") and one in
America/Los_Angeles (UTC-8 "PST" in winter, UTC-7 "PDT" in summer), see the same moments in
their own clocks; one who chose nothing, and a visitor, read UTC.
"""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail as outbox
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.accounts.deletion import delete_account
from games.models import Profile, Seat
from games.notifications import mail
from games.presenters.player_data import player_data
from games.services import tournaments as tours
from games.services import vacations
from games.services.errors import Conflict
from games.time_zones import SESSION_KEY
from tests.factories import client_for, make_match
from tests.tournament_helpers import enter, make_players, make_tournament

JAKARTA = "Asia/Jakarta"
LOS_ANGELES = "America/Los_Angeles"
# A Thursday at noon UTC, in winter and in summer (Los Angeles keeps daylight-saving time).
WINTER = datetime(2027, 1, 14, 12, 0, tzinfo=UTC)
SUMMER = datetime(2027, 7, 15, 12, 0, tzinfo=UTC)
# As each zone's clock shows those moments.
SHOWN = {
    (JAKARTA, WINTER): ("Thu 14 Jan, 19:00 WIB", "14 January 2027, 19:00 WIB"),
    (LOS_ANGELES, WINTER): ("Thu 14 Jan, 04:00 PST", "14 January 2027, 04:00 PST"),
    (JAKARTA, SUMMER): ("Thu 15 Jul, 19:00 WIB", "15 July 2027, 19:00 WIB"),
    (LOS_ANGELES, SUMMER): ("Thu 15 Jul, 05:00 PDT", "15 July 2027, 05:00 PDT"),
}


def in_zone(user, zone: str):
    Profile.objects.filter(user=user).update(time_zone=zone)
    user.profile.refresh_from_db()
    return user


@pytest.fixture
def staff(make_user):
    return make_user("boss", "Boss", is_staff=True, is_superuser=True)


@pytest.fixture
def round_in_play(db, staff):
    """A tournament's first round in play at one table of four: two of its players in
    Jakarta and Los Angeles, one in UTC."""
    tournament = make_tournament(round_count=1, hands=1, decision_seconds=3600)
    players = make_players(4)
    enter(tournament, players)
    tours.seat_next_round(tournament.pk)
    round_ = tours.start_round(tournament.pk, staff)
    in_zone(players[0], JAKARTA)
    in_zone(players[1], LOS_ANGELES)
    return tournament, round_, players


@pytest.mark.parametrize("moment", [WINTER, SUMMER], ids=["winter", "summer"])
def test_a_rounds_deadline_is_shown_in_each_players_zone_on_every_page(
    round_in_play, clock, moment
):
    tournament, round_, (jakarta, los_angeles, in_utc, _) = round_in_play
    clock.current = moment - timedelta(days=2)
    tours.set_deadline(round_.pk, moment)
    for player, zone in ((jakarta, JAKARTA), (los_angeles, LOS_ANGELES)):
        short, long = SHOWN[zone, moment]
        client = client_for(player)
        assert f"the round ends {short}" in client.get(reverse("home")).text
        assert long in client.get(reverse("tournament", args=[tournament.slug])).text
    utc = client_for(in_utc).get(reverse("home")).text
    assert f"the round ends {moment:%a %-d %b, %H:%M} UTC" in utc
    # A visitor who is not signed in reads UTC, named.
    page = Client().get(reverse("tournament", args=[tournament.slug])).text
    assert f"{moment:%-d %B %Y, %H:%M} UTC" in page


@pytest.mark.parametrize("moment", [WINTER, SUMMER], ids=["winter", "summer"])
def test_a_turn_e_mail_names_the_deadline_in_its_recipients_zone(make_user, clock, moment):
    alice = make_user("alice", "Alice", email="alice@example.com")
    bob = in_zone(make_user("bob", "Bob", email="bob@example.com"), JAKARTA)
    carol = in_zone(make_user("carol", "Carol", email="carol@example.com"), LOS_ANGELES)
    clock.current = moment - timedelta(hours=1)
    match = make_match(alice, people=[bob, carol], decision_seconds=3600)
    for user, zone in ((bob, JAKARTA), (carol, LOS_ANGELES), (alice, "UTC")):
        seat = Seat.objects.select_related("match").get(match=match, user=user)
        assert seat.deadline == moment
        outbox.outbox.clear()
        # Sent from a request in another zone (as a worker's task may be): the recipient's wins.
        with timezone.override(ZoneInfo("Pacific/Auckland")):
            mail.send_turn_notice(user, seat)
        [message] = outbox.outbox
        expected = (
            f"due by {moment:%a %-d %b, %H:%M} UTC"
            if zone == "UTC"
            else f"due by {SHOWN[zone, moment][0]}"
        )
        assert expected in message.body
        assert expected in message.alternatives[0][0]


def test_the_services_words_name_the_time_in_the_readers_zone(make_user, clock):
    bob = make_user("bob", "Bob")
    clock.current = WINTER
    vacations.take_vacation(bob, 1)
    until = Profile.objects.get(user=bob).away_until
    for zone in (JAKARTA, LOS_ANGELES):
        local = until.astimezone(ZoneInfo(zone))
        with timezone.override(ZoneInfo(zone)), pytest.raises(Conflict) as refused:
            vacations.take_vacation(bob, 1)
        assert f"until {local:%-d %B %Y, %H:%M} {local.tzname()}:" in str(refused.value)


def test_others_at_the_table_see_a_players_vacation_end_in_their_own_zone(make_user, clock):
    alice = in_zone(make_user("alice", "Alice"), JAKARTA)
    carol = in_zone(make_user("carol", "Carol"), LOS_ANGELES)
    bob = make_user("bob", "Bob")
    clock.current = SUMMER
    match = make_match(alice, people=[bob, carol], decision_seconds=3600, allow_vacation=True)
    vacations.take_vacation(bob, 2)
    until = Profile.objects.get(user=bob).away_until
    for viewer, zone in ((alice, JAKARTA), (carol, LOS_ANGELES)):
        local = until.astimezone(ZoneInfo(zone))
        page = client_for(viewer).get(match.get_absolute_url()).text
        assert f"{local:%-d %b, %H:%M} {local.tzname()}</time>" in page


# ----- choosing a zone -----


def test_a_profile_form_sent_without_a_zone_keeps_the_players(alice):
    in_zone(alice, JAKARTA)
    form = profile_form(alice, display_name="Alice B")
    del form["time_zone"]
    assert client_for(alice).post(reverse("profile"), form).status_code == 302
    profile = Profile.objects.get(user=alice)
    assert (profile.display_name, profile.time_zone) == ("Alice B", JAKARTA)


def profile_form(user, **changes) -> dict[str, str]:
    profile = Profile.objects.get(user=user)
    fields = {
        "display_name": profile.display_name,
        "auto_play_forced": "on",
        "language": "",
        "time_zone": profile.time_zone,
    }
    return {**fields, **changes}


def test_a_player_changes_their_zone_on_the_profile_page(alice):
    client = client_for(alice)
    page = client.get(reverse("profile")).text
    assert '<option value="UTC" selected>UTC</option>' in page
    assert f'<option value="{LOS_ANGELES}">America/Los Angeles</option>' in page
    answer = client.post(reverse("profile"), profile_form(alice, time_zone=JAKARTA))
    assert answer.status_code == 302
    assert Profile.objects.get(user=alice).time_zone == JAKARTA
    assert client.session[SESSION_KEY] == JAKARTA
    assert f'<option value="{JAKARTA}" selected>' in client.get(reverse("profile")).text


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "asia/jakarta", "UTC+7", "x" * 300])
def test_a_zone_that_does_not_exist_is_refused_with_a_message_and_nothing_changes(alice, zone):
    client = client_for(alice)
    answer = client.post(reverse("profile"), profile_form(alice, time_zone=zone))
    assert answer.status_code == 400
    assert "field-error" in answer.text
    assert Profile.objects.get(user=alice).time_zone == "UTC"


@pytest.mark.parametrize(
    ("sent", "kept"),
    [(LOS_ANGELES, LOS_ANGELES), ("Nowhere/Atlantis", "UTC"), ("", "UTC"), (None, "UTC")],
    ids=["the browser's", "unknown", "empty", "no script"],
)
def test_sign_up_takes_the_browsers_zone_when_it_is_one_we_know(client, db, sent, kept):
    form = {
        "username": "dora",
        "display_name": "Dora",
        "email": "",
        "password1": "a long enough passphrase 42",
        "password2": "a long enough passphrase 42",
    }
    if sent is not None:
        form["time_zone"] = sent
    answer = client.post(reverse("signup"), form)
    assert answer.status_code == 302
    assert Profile.objects.get(user__username="dora").time_zone == kept
    assert client.session[SESSION_KEY] == kept


def test_a_session_begun_before_zones_were_kept_reads_the_profile_once(alice, clock):
    in_zone(alice, JAKARTA)
    client = client_for(alice)
    session = client.session
    del session[SESSION_KEY]
    session.save()
    clock.current = WINTER
    vacations.take_vacation(alice, 1)
    page = client.get(reverse("profile")).text
    assert "WIB</time>" in page
    assert client.session[SESSION_KEY] == JAKARTA


def test_the_zone_is_in_the_players_data_and_forgotten_with_their_account(alice):
    in_zone(alice, JAKARTA)
    assert player_data(alice)["settings"]["time_zone"] == JAKARTA
    delete_account(alice)
    assert Profile.objects.get(user=alice).time_zone == "UTC"
