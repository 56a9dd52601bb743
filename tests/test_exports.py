"""A match to take away: its record (JSON) and score sheet (CSV), each holding what its viewer
may see and no more; a tournament's results as CSV for staff; the records' admin screens.

The engine's side of the record (the format, the replay and its messages) is in
`tests/engine/test_replay_command.py`; whole matches scanned step by step for cards and
secrets are in `tests/test_export_leaks.py`.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import subprocess
import sys

import pytest
from django.urls import reverse

from games import services
from games.engine.records.replay_check import main as replay_main
from games.engine.records.verify import BAD_INPUT, MISMATCH, OK
from games.models import (
    Action,
    Competitor,
    Hand,
    Match,
    MatchResult,
    ScoreLine,
    TableSeat,
    TableSizeStats,
)
from games.services import tournaments as tours
from tests.factories import client_for, make_match, moon_match
from tests.service_helpers import act, state_of
from tests.test_no_leaks import assert_keeps_secrets, deal_secrets, hidden_from
from tests.tournament_helpers import enter, make_players, make_tournament, play_round
from tests.tournaments.test_duplicate_deal_secrecy import move_once, start_round_of_two_tables

SECRET = hashlib.sha256(b"exports").hexdigest()
CARD = re.compile(r"\b[2-9TJQKA][CDHS]2?\b")


def logged(action: Action) -> dict:
    """A logged decision's JSON form, spelled out as the record has always written it."""
    if action.kind == Action.Kind.PASS:
        return {"type": "pass", "seat": action.seat, "cards": action.value.split()}
    if action.kind == Action.Kind.PLAY:
        return {"type": "play", "seat": action.seat, "card": action.value}
    return {"type": "moon", "seat": action.seat, "option": action.value}


def record_url(match: Match) -> str:
    return reverse("match_record", args=[match.pk])


def csv_url(match: Match) -> str:
    return reverse("scores_csv", args=[match.pk])


def cards_in(value: object) -> set[str]:
    """Return every card code a part of a record names."""
    return set(CARD.findall(json.dumps(value)))


def step(match: Match, people: dict[int, object]) -> bool:
    """Make the next person's simplest decision; say False once the match is over."""
    match.refresh_from_db()
    if match.status != "active":
        return False
    state = state_of(match)
    seat = next(seat for seat in state.to_act() if seat in people)
    act(people[seat], match, seat)
    return True


def finish(match: Match, people: dict[int, object]) -> Match:
    while step(match, people):
        pass
    match.refresh_from_db()
    return match


def csv_of(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.fixture
def finished(alice) -> Match:
    """A match of two hands against bots, dealt from a secret, played to its end."""
    return finish(make_match(alice, secret=SECRET, hands=2), {0: alice})


@pytest.fixture
def carol(make_user):
    return make_user("carol", "Carol")


# ----- the record -----


def test_a_finished_matchs_record_holds_every_hand_and_replays(alice, finished, tmp_path, capsys):
    response = client_for(alice).get(record_url(finished))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="match-{finished.pk}.json"'
    assert "no-store" in response["Cache-Control"]
    data = response.json()
    assert data["format"] == "hearts-match-record/1" and data["match"] == finished.pk
    assert data["rules"] == finished.rules and data["status"] == "finished"
    assert data["secret"] == finished.secret and data["commitment"] == finished.commitment
    assert [s["name"] for s in data["seats"]] == ["Alice", "Basil", "Cleo", "Dmitri"]
    assert [s["bot_level"] for s in data["seats"]] == [None, "easy", "easy", "easy"]
    assert data["viewer_seat"] == 0 and data["sealed"] is False
    hands = list(Hand.objects.filter(match=finished).order_by("number"))
    assert [h["number"] for h in data["hands"]] == [1, 2]
    for entry, hand in zip(data["hands"], hands, strict=True):
        assert entry["complete"] is True and entry["pass_direction"] == hand.pass_direction
        assert entry["deal"] == {"hands": hand.deal["hands"]}  # no seed
        log = Action.objects.filter(hand=hand).order_by("seq")
        assert entry["decisions"] == [{**logged(a), "by": a.actor} for a in log]
        lines = ScoreLine.objects.filter(match=finished, hand_number=hand.number).order_by("seat")
        assert entry["score"]["totals"] == [line.total for line in lines]
        assert entry["score"]["points"] == [line.points_taken for line in lines]
    path = tmp_path / "match.json"
    path.write_bytes(response.content)
    assert replay_main([str(path)]) == OK
    out = capsys.readouterr().out
    assert "commitment: OK" in out and "checked: 2 of 2 hands replay as recorded" in out
    ran = subprocess.run(
        [sys.executable, "-m", "games.engine.replay_check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == OK, ran.stdout + ran.stderr


def test_a_tampered_record_is_caught_and_garbage_refused(alice, finished, tmp_path, capsys):
    data = client_for(alice).get(record_url(finished)).json()
    path = tmp_path / "match.json"
    hand = data["hands"][1]
    plays = [i for i, d in enumerate(hand["decisions"]) if d["type"] == "play"]
    index = plays[-1]  # the last card: its seat holds nothing else
    played = hand["decisions"][index]["card"]
    hand["decisions"][index]["card"] = "AS" if played != "AS" else "KS"
    path.write_text(json.dumps(data))
    assert replay_main([str(path)]) == MISMATCH
    assert f"hand 2: MISMATCH, decision {index + 1}" in capsys.readouterr().out
    hand["decisions"][index]["card"] = played
    data["hands"][0]["score"]["points"][0] += 1
    path.write_text(json.dumps(data))
    assert replay_main([str(path)]) == MISMATCH
    assert "hand 1: MISMATCH: the score does not match" in capsys.readouterr().out
    path.write_text("<html>not a record</html>")
    assert replay_main([str(path)]) == BAD_INPUT
    assert "is not JSON" in capsys.readouterr().err


def in_hand_two(alice, bob) -> Match:
    """Alice and Bob with two bots, hand 2 under way: passed, and three tricks played."""
    match = make_match(alice, people=[bob], secret=SECRET, hands=3)
    people = {0: alice, 1: bob}
    while True:
        state = state_of(match)
        if state.hand_no == 2 and len(state.tricks) == 3:
            return match
        step(match, people)


def test_a_seated_player_gets_hand_one_whole_and_of_hand_two_only_their_own(alice, bob):
    match = in_hand_two(alice, bob)
    state = state_of(match)
    text = client_for(alice).get(record_url(match)).text
    data = json.loads(text)
    assert "secret" not in data and data["commitment"] == match.commitment
    assert_keeps_secrets(text, deal_secrets(match), "alice's record in play")
    first, second = data["hands"]
    assert first["complete"] is True and "deal" in first
    assert second["complete"] is False and second["score"] is None
    assert "deal" not in second
    dealt = Hand.objects.get(match=match, number=2).deal["hands"]
    mine = second["your_hand"]
    assert mine["seat"] == 0 and mine["dealt"] == dealt[0]
    assert mine["received"]  # everyone has passed: hand 2 passes right, from seat 1
    passes = [d for d in second["decisions"] if d["type"] == "pass"]
    assert [d["seat"] for d in passes] == [0]
    plays = Action.objects.filter(match=match, hand__number=2, kind="play").order_by("seq")
    assert [d["card"] for d in second["decisions"] if d["type"] == "play"] == [
        a.value for a in plays
    ]
    hidden = {str(card) for card in hidden_from(state, 0)}
    assert not cards_in(second) & hidden, "another seat's cards in alice's record"
    # bob sees his own side of hand 2, and alice's cards no more than hers
    theirs = client_for(bob).get(record_url(match)).json()["hands"][1]
    assert theirs["your_hand"]["dealt"] == dealt[1]
    assert not cards_in(theirs) & {str(card) for card in hidden_from(state, 1)}


def test_a_pass_stays_out_of_others_records_until_everyone_has_passed(alice, bob):
    match = make_match(alice, people=[bob], secret=SECRET, hands=2)
    act(alice, match, 0)  # alice passes; bob has not
    alice_hand = client_for(alice).get(record_url(match)).json()["hands"][0]
    bob_hand = client_for(bob).get(record_url(match)).json()["hands"][0]
    passed = Action.objects.get(match=match, seat=0, kind="pass").value.split()
    assert [d["cards"] for d in alice_hand["decisions"]] == [passed]
    assert "received" not in alice_hand["your_hand"]
    assert bob_hand["decisions"] == [] and "received" not in bob_hand["your_hand"]
    assert not cards_in(bob_hand) & set(passed)


@pytest.mark.parametrize("actor", [Action.Actor.FORCED, Action.Actor.TIMEOUT])
def test_a_record_tells_who_made_another_seats_decision_only_as_the_table_does(
    alice, bob, carol, actor
):
    """A forced card says its seat held one legal card; a timeout, that its player was away.

    The table shows neither to anyone but the seat's own player (a bot's seat is shown as a
    bot's to all), so the record does not either: not in the hand in play, nor in a hand over
    that its players see whole, nor to a spectator once the deals are revealed.
    """
    match = make_match(alice, people=[bob], secret=SECRET, hands=2)
    for _ in range(12):
        step(match, {0: alice, 1: bob})
    bobs = Action.objects.filter(match=match, seat=1, kind="play")
    assert bobs.exists()
    bobs.update(actor=actor)

    def bys(viewer, seat: int) -> set:
        data = client_for(viewer).get(record_url(match)).json()
        return {
            d.get("by") for entry in data["hands"] for d in entry["decisions"] if d["seat"] == seat
        }

    assert actor in bys(bob, 1), "the seat's own player sees how its cards were played"
    for viewer in (alice, carol):
        assert bys(viewer, 1) <= {None, Action.Actor.BOT}, "another seat's decision, by whom"
    assert bys(alice, 2) == {Action.Actor.BOT}, "a bot's seat is shown as a bot's to all"
    finish(match, {0: alice, 1: bob})
    for viewer in (alice, carol):
        assert actor not in bys(viewer, 1)


def test_a_spectator_gets_the_plays_only_and_no_secret(alice, bob, carol, make_user):
    match = in_hand_two(alice, bob)
    state = state_of(match)
    staff = make_user("boss", "Boss", is_staff=True)
    for viewer in (carol, staff):
        text = client_for(viewer).get(record_url(match)).text
        assert_keeps_secrets(text, deal_secrets(match), "a spectator's record")
        data = json.loads(text)
        assert "secret" not in data and data["viewer_seat"] is None
        for entry in data["hands"]:
            assert entry["complete"] is False
            assert "deal" not in entry and "your_hand" not in entry
            assert {d["type"] for d in entry["decisions"]} <= {"play", "moon"}
            log = Action.objects.filter(match=match, hand__number=entry["number"])
            shown = [d.get("card") or d.get("option") for d in entry["decisions"]]
            assert shown == [a.value for a in log.exclude(kind="pass").order_by("seq")]
        assert not cards_in(data["hands"][1]) & {str(c) for c in hidden_from(state, None)}
        assert data["hands"][0]["score"] is not None


def test_a_spectator_gets_every_hand_once_the_deals_are_revealed(carol, finished, tmp_path):
    data = client_for(carol).get(record_url(finished)).json()
    assert data["secret"] == finished.secret
    assert all(entry["complete"] for entry in data["hands"])
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data))
    assert replay_main([str(path)]) == OK


def test_a_player_of_a_table_sharing_the_deals_sees_a_sealed_record(db, make_user):
    tournament, (table1, table2) = start_round_of_two_tables()
    match = table1.match
    for _ in range(20):
        move_once(match)
    other = client_for(table2.match.seats.get(position=0).user)
    outsider = client_for(make_user("watcher", "Watcher"))
    own = client_for(match.seats.get(position=0).user)

    def sealed_for(client) -> dict:
        response = client.get(record_url(match))
        assert response.status_code == 200
        data = response.json()
        assert data["sealed"] is True and data["hands"] == []
        assert "secret" not in data
        assert not CARD.findall(json.dumps({k: v for k, v in data.items() if k != "rules"}))
        return data

    for client in (other, outsider):
        sealed_for(client)
    assert own.get(record_url(match)).json()["sealed"] is False
    while move_once(match):
        pass
    match.refresh_from_db()
    assert match.status == "finished" and table2.match.status == "active"
    data = sealed_for(other)
    assert data["totals"] is None  # a total after a hand tells who took the Q♠
    mine = own.get(record_url(match)).json()
    assert mine["hands"][0]["complete"] is True and "secret" not in mine  # table 2 plays on
    assert mine["totals"] == list(state_of(match).totals)
    assert csv_of(other.get(csv_url(match)))[1:] == []  # the header only: no hand, no total
    assert len(csv_of(own.get(csv_url(match)))) == 3  # the header, hand 1 and the places
    while move_once(table2.match):
        pass
    sealed_for(other)  # both over: sealed still, until the round is closed
    tours.close_round(tournament.pk)
    data = other.get(record_url(match)).json()
    assert data["sealed"] is False and data["secret"] == match.secret
    assert all(entry["complete"] for entry in data["hands"])


def test_a_private_match_is_not_there_for_a_stranger(alice, carol):
    match = make_match(alice, private=True, hands=1)
    stranger = client_for(carol)
    for url in (record_url(match), csv_url(match)):
        assert stranger.get(url).status_code == 404
        assert client_for(alice).get(url).status_code == 200
    missing = Match.objects.order_by("-pk").first().pk + 1
    assert stranger.get(reverse("match_record", args=[missing])).status_code == 404
    assert stranger.get(reverse("scores_csv", args=[missing])).status_code == 404


def test_the_downloads_want_a_signed_in_get(client, alice, finished):
    for url in (record_url(finished), csv_url(finished)):
        response = client.get(url)
        assert response.status_code == 302 and "/login/" in response.url
        assert client_for(alice).post(url).status_code == 405


# ----- the score sheet as CSV -----


def test_the_csv_score_sheet_is_the_score_lines(alice, finished):
    response = client_for(alice).get(csv_url(finished))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert (
        response["Content-Disposition"] == f'attachment; filename="match-{finished.pk}-scores.csv"'
    )
    header, *rows = csv_of(response)
    names = ["Alice", "Basil", "Cleo", "Dmitri"]
    expected_header = ["hand"]
    for name in names:
        expected_header += [f"{name}: points taken", f"{name}: hand score", f"{name}: total"]
    assert header == [*expected_header, "moon shooter", "moon option"]
    *rows, places = rows
    assert len(rows) == 2
    seats = finished.seats.order_by("position")
    assert places == ["place", *[c for s in seats for c in ("", "", str(s.rank))], "", ""]
    for number, row in enumerate(rows, start=1):
        lines = ScoreLine.objects.filter(match=finished, hand_number=number).order_by("seat")
        expected = [str(number)]
        for line in lines:
            expected += [str(line.points_taken), str(line.score), str(line.total)]
        shooter = next((line for line in lines if line.shot_moon), None)
        expected += [names[shooter.seat], shooter.moon_option] if shooter else ["", ""]
        assert row == expected


def test_the_csv_names_the_moon_shooter_and_choice(alice):
    match = moon_match(alice)
    services.choose_moon(alice, match.pk, match.version, "add")
    rows = csv_of(client_for(alice).get(csv_url(match)))
    assert rows[1][-2:] == ["Alice", "add"]
    assert rows[1][1:4] == ["26", "0", "0"]


def test_the_csv_names_omnibus_bonus_taker(alice):
    match = finish(make_match(alice, variant="omnibus", hands=1), {0: alice})
    header, row, _places = csv_of(client_for(alice).get(csv_url(match)))
    assert header[-1] == "bonus card taker"
    taker = state_of(match).sheet[0].bonus
    names = [seat.name for seat in match.seats.order_by("position")]
    assert row[-1] == (names[taker] if taker is not None else "")


def test_a_name_a_spreadsheet_would_run_is_written_as_text(make_user):
    eve = make_user("eve", '=HYPERLINK("http://e.co")')
    match = finish(make_match(eve, hands=1), {0: eve})
    header, row, _places = csv_of(client_for(eve).get(csv_url(match)))
    assert header[1] == '\'=HYPERLINK("http://e.co"): points taken'
    assert not any(cell.startswith(("=", "+", "@")) for cell in header + row)


def test_the_score_sheet_links_both_downloads(alice, finished):
    page = client_for(alice).get(reverse("scores", args=[finished.pk])).text
    assert f'href="{csv_url(finished)}"' in page and "Download the score sheet (CSV)" in page
    assert f'href="{record_url(finished)}"' in page and "Download the record (JSON)" in page


def test_a_match_not_started_exports_no_hand(alice):
    match = services.create_match(alice, services.MatchOptions(players=4))
    assert client_for(alice).get(record_url(match)).json()["hands"] == []
    assert len(csv_of(client_for(alice).get(csv_url(match)))) == 1


# ----- a tournament's results, for staff -----


@pytest.fixture
def closed_round(db):
    tournament = make_tournament(round_count=1, hands=1, duplicate_deals=False)
    users = make_players(4)
    enter(tournament, users)
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, by=users[0])
    play_round(tournament)
    tours.close_round(tournament.pk)
    return tournament


@pytest.fixture
def staff(make_user):
    return client_for(make_user("boss", "Boss", is_staff=True, is_superuser=True))


def test_staff_download_a_tournaments_results_and_standings(staff, closed_round):
    response = staff.post(
        reverse("admin:games_tournament_changelist"),
        {"action": "download_results", "_selected_action": [closed_round.pk]},
    )
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "winter-cup-results.csv" in response["Content-Disposition"]
    rows = csv_of(response)
    assert rows[0] == ["tournament", "Winter Cup"]
    start = rows.index(["standings"]) + 1
    assert rows[start][:3] == ["place", "player", "placement points"]
    standings = rows[start + 1 : start + 5]
    assert sorted(row[1] for row in standings) == [f"Player {n}" for n in range(1, 5)]
    tables = rows[rows.index(["tables"]) + 2 :]
    seats = TableSeat.objects.filter(table__round__tournament=closed_round).order_by("position")
    assert [(row[6], row[7]) for row in tables] == [(s.entry.name, str(s.total)) for s in seats]
    link = reverse("admin:games_tournament_results", args=[closed_round.pk])
    page = staff.get(reverse("admin:games_tournament_change", args=[closed_round.pk])).text
    assert f'href="{link}"' in page and "Download results and standings (CSV)" in page
    assert csv_of(staff.get(link)) == rows
    assert not any(CARD.fullmatch(cell) for row in rows for cell in row)


def test_others_cannot_download_a_tournaments_results(client, alice, closed_round):
    link = reverse("admin:games_tournament_results", args=[closed_round.pk])
    for who in (client, client_for(alice)):
        response = who.get(link)
        assert response.status_code == 302 and "/admin/login/" in response.url
        response = who.post(
            reverse("admin:games_tournament_changelist"),
            {"action": "download_results", "_selected_action": [closed_round.pk]},
        )
        assert response.status_code == 302 and "/admin/login/" in response.url


# ----- the records' admin screens -----


@pytest.mark.parametrize("model", [Competitor, TableSizeStats, MatchResult])
def test_staff_read_the_records_in_the_admin(staff, finished, model):
    name = model._meta.model_name
    listing = staff.get(reverse(f"admin:games_{name}_changelist"))
    assert listing.status_code == 200 and "Alice" in listing.text
    for query in ({"kind": "bot"}, {"kind": "person"}, {"q": "alice"}):
        assert staff.get(reverse(f"admin:games_{name}_changelist"), query).status_code == 200
    row = model.objects.first()
    assert staff.get(reverse(f"admin:games_{name}_change", args=[row.pk])).status_code == 200
    assert staff.get(reverse(f"admin:games_{name}_add")).status_code == 403
    before = model.objects.count()
    staff.post(reverse(f"admin:games_{name}_delete", args=[row.pk]), {"post": "yes"})
    assert model.objects.count() == before
    assert finished.secret not in listing.text
