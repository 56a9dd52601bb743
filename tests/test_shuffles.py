"""Shuffles anyone can verify: commitment from the first hand, secret at the end, checked deals.

The engine's side (what is hashed, the command's messages) is in
`tests/engine/test_shuffle_verify.py`; here, the site: new matches draw and commit a secret,
deal from it, keep it out of every answer until no deal it gives is in play, then show it on
the verification page and in the record the command checks.
"""

from __future__ import annotations

import hashlib
import json
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from games import engine, services
from games.engine.records import shuffle
from games.engine.records.verify import BAD_INPUT, MISMATCH, OK
from games.engine.records.verify import main as verify_main
from games.models import Hand, Match, MatchStatus, Table
from games.services import bot_turns
from tests.factories import HTMX, client_for, make_match, next_move
from tests.service_helpers import MOON_DEAL, act, started_match
from tests.tournament_helpers import enter, make_players, make_tournament, play_person_seats
from tests.tournaments.test_duplicate_deal_secrecy import start_round_of_two_tables

HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


def against_bots(user, hands: int = 2, **options) -> Match:
    """A match against bots as the lobby makes it (it starts at once): its own fresh secret."""
    options = {"players": 4, "bots": 3, "hands": hands, **options}
    return services.create_match(user, services.MatchOptions(**options))


def play_out(user, match: Match) -> Match:
    """Play seat 0 with the simplest decisions, and the searching bots when they owe a card."""
    match.refresh_from_db()
    while match.status == MatchStatus.ACTIVE:
        if match.bots_due_since is not None:
            bot_turns.play_bots(match.pk)  # what the bots' thread does after a commit
        else:
            act(user, match, 0)
        match.refresh_from_db()
    return match


def verify_url(match: Match) -> str:
    return reverse("verify_shuffle", args=[match.pk])


def record_url(match: Match) -> str:
    return reverse("shuffle_record", args=[match.pk])


def commitment_on(html: str) -> str:
    found = re.search(r'<code class="commitment">([0-9a-f]{64})</code>', html)
    assert found, "no commitment shown"
    return found.group(1)


# ----- a new match's secret -----


def test_a_new_match_draws_a_256_bit_secret_and_deals_every_hand_from_it(alice):
    match = play_out(alice, against_bots(alice, hands=3))
    assert HEX64.fullmatch(match.secret)
    assert (
        match.commitment == hashlib.sha256(f"hearts-commitment:{match.secret}".encode()).hexdigest()
    )
    hands = list(Hand.objects.filter(match=match).order_by("number"))
    assert [hand.number for hand in hands] == [1, 2, 3]
    for hand in hands:
        assert hand.seed == shuffle.hand_seed(match.secret, hand.number)
        rebuilt = shuffle.deal_for(match.rule_set, match.secret, hand.number)
        assert engine.Deal.from_dict(match.rule_set, hand.deal) == rebuilt
    other = against_bots(alice)
    assert other.secret != match.secret and other.commitment != match.commitment


def test_bots_are_seeded_with_a_one_way_value_never_the_secret_or_a_hand_seed(alice, monkeypatch):
    seeds: list[int] = []
    real = engine.bot_for_level

    def recording(level, seed=0):
        seeds.append(seed)
        return real(level, seed=seed)

    monkeypatch.setattr(engine, "bot_for_level", recording)
    match = against_bots(alice, hands=1, bot_levels=("normal", "strong", "normal"))
    match = play_out(alice, match)
    assert seeds, "the searching bots were asked for"
    hand_seeds = {shuffle.hand_seed(match.secret, n) for n in range(1, 60)}
    for seed in seeds:
        assert seed == match.seed == shuffle.bot_seed(match.secret)
        assert seed not in hand_seeds and seed != int(match.secret, 16)


# ----- the match page: commitment from the first hand, secret only at the end -----


def test_the_commitment_is_shown_from_the_first_hand_and_the_secret_only_at_the_end(
    alice, make_user
):
    match = against_bots(alice, hands=2)
    watcher = client_for(make_user("watcher", "Watcher"))
    player = client_for(alice)
    shown = set()
    while match.status == MatchStatus.ACTIVE:
        for client in (player, watcher):
            page = client.get(match.get_absolute_url()).text
            shown.add(commitment_on(page))
            assert match.secret not in page
            assert "Verify every deal" not in page
            assert "shown once the match is over" in page
            verify = client.get(verify_url(match))
            assert verify.status_code == 403 and match.secret not in verify.text
            assert "shown once the match is over" in verify.text
            record = client.get(record_url(match))
            assert record.status_code == 403 and match.secret not in record.text
            assert "error" in record.json()
        match = act(alice, match, 0)
    assert shown == {match.commitment}
    page = watcher.get(match.get_absolute_url()).text
    assert "Verify every deal" in page and verify_url(match) in page
    verify = watcher.get(verify_url(match))
    assert verify.status_code == 200
    secret = re.search(r'<code class="secret">([0-9a-f]{64})</code>', verify.text).group(1)
    assert hashlib.sha256(f"hearts-commitment:{secret}".encode()).hexdigest() in shown


def test_the_last_moves_answer_shows_the_link_to_verify(alice):
    match = against_bots(alice, hands=1)
    client = client_for(alice)
    while True:
        match.refresh_from_db()
        move = next_move(match, 0)
        response = client.post(move.url, move.data, **HTMX)
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        assert "Verify every deal" not in response.text
    assert 'id="match-head"' in response.text and "Verify every deal" in response.text


# ----- the verification page and the record -----


@pytest.fixture
def finished(alice) -> Match:
    return play_out(alice, against_bots(alice, hands=3))


def test_the_verification_page_says_yes_for_every_hand_of_a_finished_match(alice, finished):
    page = client_for(alice).get(verify_url(finished))
    assert page.status_code == 200
    html = page.text
    assert "Every deal came from the committed secret" in html
    assert finished.secret in html and finished.commitment in html
    assert "equal to the commitment: yes" in html
    for number in (1, 2, 3):
        row = re.search(rf'<tr id="hand-{number}">(.*?)</tr>', html, re.S).group(1)
        assert '<strong class="verify-yes">yes</strong>' in row
        assert str(shuffle.hand_seed(finished.secret, number)) in row
    assert 'class="verify-no"' not in html
    assert '<link rel="stylesheet"' in html and "site-header" in html  # the site's own look


def download(client, match: Match, tmp_path) -> str:
    response = client.get(record_url(match))
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="match-{match.pk}-shuffle.json"'
    )
    path = tmp_path / f"match-{match.pk}-shuffle.json"
    path.write_bytes(response.content)
    return str(path)


def test_the_downloaded_record_checks_ok_with_the_command(alice, finished, tmp_path, capsys):
    path = download(client_for(alice), finished, tmp_path)
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    assert data["secret"] == finished.secret and data["commitment"] == finished.commitment
    assert [hand["number"] for hand in data["hands"]] == [1, 2, 3]
    assert verify_main([path]) == OK
    out = capsys.readouterr().out
    assert "commitment: OK" in out and "hand 3: OK" in out


def test_the_management_command_writes_the_same_record(alice, finished, tmp_path):
    out = StringIO()
    call_command("shuffle_record", str(finished.pk), stdout=out)
    from_page = client_for(alice).get(record_url(finished)).content.decode()
    assert json.loads(out.getvalue()) == json.loads(from_page)
    target = tmp_path / "record.json"
    call_command("shuffle_record", str(finished.pk), "-o", str(target), stderr=StringIO())
    assert verify_main([str(target)]) == OK


def test_a_changed_deal_shows_no_on_the_page_and_fails_the_command(
    alice, finished, tmp_path, capsys
):
    hand = Hand.objects.get(match=finished, number=2)
    cards = [h.split() for h in hand.deal["hands"]]
    cards[0][0], cards[1][0] = cards[1][0], cards[0][0]  # a card each changes seats
    hand.deal = {**hand.deal, "hands": [" ".join(h) for h in cards]}
    hand.save()
    html = client_for(alice).get(verify_url(finished)).text
    assert "These deals do not all match the commitment" in html
    rows = {n: re.search(rf'<tr id="hand-{n}">(.*?)</tr>', html, re.S).group(1) for n in (1, 2, 3)}
    assert 'verify-no">no' in rows[2] and "rebuilt:" in rows[2]
    assert 'verify-yes">yes' in rows[1] and 'verify-yes">yes' in rows[3]
    path = download(client_for(alice), finished, tmp_path)
    assert verify_main([path]) == MISMATCH
    out = capsys.readouterr().out
    assert "hand 2: MISMATCH" in out and "hand 1: OK" in out


def test_a_changed_secret_breaks_the_commitment_on_the_page_and_in_the_command(
    alice, finished, tmp_path, capsys
):
    Match.objects.filter(pk=finished.pk).update(secret="0" * 64)
    html = client_for(alice).get(verify_url(finished)).text
    assert "equal to the commitment: no" in html and "These deals do not all match" in html
    path = download(client_for(alice), finished, tmp_path)
    assert verify_main([path]) == MISMATCH
    assert "commitment: MISMATCH" in capsys.readouterr().out


def test_a_record_cut_short_is_bad_input_for_the_command(alice, finished, tmp_path, capsys):
    path = download(client_for(alice), finished, tmp_path)
    text = Path(path).read_text(encoding="utf-8")
    Path(path).write_text(text[: len(text) // 2], encoding="utf-8")
    assert verify_main([path]) == BAD_INPUT
    assert "is not JSON" in capsys.readouterr().err


def test_an_abandoned_match_reveals_its_secret_with_no_hand_dealt(alice):
    match = services.create_match(alice, services.MatchOptions(players=4))
    services.leave_match(alice, match.pk)  # the creator leaving cancels it
    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED
    html = client_for(alice).get(verify_url(match)).text
    assert match.secret in html and "No hand was dealt" in html


def test_a_private_match_is_not_found_by_an_outsider(alice, make_user):
    match = play_out(alice, against_bots(alice, hands=1, private=True))
    outsider = client_for(make_user("outsider", "Outsider"))
    assert outsider.get(verify_url(match)).status_code == 404
    assert outsider.get(record_url(match)).status_code == 404
    assert client_for(alice).get(verify_url(match)).status_code == 200


def test_signed_out_visitors_are_sent_to_sign_in(alice, client, finished):
    response = client.get(verify_url(finished))
    assert response.status_code == 302 and "/login/" in response.url
    assert finished.secret not in response.content.decode()


def test_the_command_refuses_a_match_not_over_or_unknown(alice):
    match = against_bots(alice)
    with pytest.raises(CommandError, match="shown once the match is over"):
        call_command("shuffle_record", str(match.pk), stdout=StringIO())
    with pytest.raises(CommandError, match="There is no match 999999"):
        call_command("shuffle_record", "999999", stdout=StringIO())


# ----- matches dealt before secrets -----


def test_a_match_dealt_before_secrets_plays_as_before_and_says_it_is_not_verifiable(alice):
    match = started_match(alice, seed=5, hands=2)  # deals from its seed, as before secrets
    first = Hand.objects.get(match=match, number=1)
    assert first.seed == services.shuffles.legacy_hand_seed(5, 1)
    assert engine.Deal.from_dict(match.rule_set, first.deal) == engine.Deal.from_seed(
        match.rule_set, first.seed
    )
    client = client_for(alice)
    assert "these deals are not verifiable" in client.get(match.get_absolute_url()).text
    match = play_out(alice, match)
    page = client.get(match.get_absolute_url()).text
    assert "these deals are not verifiable" in page and "Verify every deal" not in page
    verify = client.get(verify_url(match))
    assert verify.status_code == 404 and "cannot be verified" in verify.text
    assert client.get(record_url(match)).status_code == 404
    with pytest.raises(CommandError, match="cannot be verified"):
        call_command("shuffle_record", str(match.pk), stdout=StringIO())


def test_a_match_dealt_before_secrets_replays_exactly(alice):
    match = play_out(alice, started_match(alice, seed=9, hands=2))
    assert services.log_matches_snapshot(match)


# ----- duplicate deals: one secret per deal group, revealed once its round is closed -----


def test_a_deal_group_shares_one_secret_revealed_only_when_its_round_is_closed(
    db, make_user, tmp_path
):
    tournament, (table1, table2) = start_round_of_two_tables()
    first, second = table1.match, table2.match
    assert first.secret == second.secret and first.commitment == second.commitment
    staff = client_for(make_user("boss", "Boss", is_staff=True, is_superuser=True))
    watcher = client_for(make_user("watcher", "Watcher"))
    first = play_person_seats(first)
    assert first.status == MatchStatus.FINISHED and second.status == MatchStatus.ACTIVE
    for client in (watcher, staff, client_for(first.seats.get(position=0).user)):
        page = client.get(first.get_absolute_url()).text
        assert commitment_on(page) == first.commitment and first.secret not in page
        assert "shown once the round is closed" in page
        verify = client.get(verify_url(first))
        assert verify.status_code == 403 and "other tables of its round play" in verify.text
        assert first.secret not in verify.text
    second = play_person_seats(second)
    for match in (first, second):  # both over, but the round is not closed yet
        for client in (watcher, client_for(match.seats.get(position=0).user)):
            verify = client.get(verify_url(match))
            assert verify.status_code == 403 and match.secret not in verify.text
            assert client.get(record_url(match)).status_code == 403
    services.tournaments.close_round(tournament.pk)
    for match in (first, second):
        page = watcher.get(verify_url(match))
        assert page.status_code == 200 and match.secret in page.text
        assert "Every deal came from the committed secret" in page.text
    assert verify_main([download(watcher, second, tmp_path)]) == OK


def test_tables_without_duplicate_deals_each_draw_their_own_secret(make_user):
    tournament = make_tournament(hands=1, duplicate_deals=False)
    enter(tournament, make_players(8))
    services.tournaments.seat_next_round(tournament.pk)
    services.tournaments.start_round(tournament.pk, by=make_user("boss", "Boss", is_staff=True))
    first, second = (t.match for t in Table.objects.filter(round__tournament=tournament))
    assert first.secret and second.secret and first.secret != second.secret


# ----- the admin -----


def test_the_admin_hides_the_secret_and_seeds_until_the_reveal(db, make_user):
    tournament, (table1, table2) = start_round_of_two_tables()
    staff = client_for(make_user("boss", "Boss", is_staff=True, is_superuser=True))
    first = table1.match
    match_page = reverse("admin:games_match_change", args=[first.pk])
    hand = Hand.objects.filter(match=first).first()
    hand_page = reverse("admin:games_hand_change", args=[hand.pk])

    def shown(url: str, match: Match) -> list[str]:
        html = staff.get(url).text
        values = [match.secret, str(hand.seed), str(match.seed)]
        return [value for value in values if value in html]

    assert shown(match_page, first) == [] and shown(hand_page, first) == []
    assert first.commitment in staff.get(match_page).text  # public from the start
    first = play_person_seats(first)
    # Over, but the other table plays the same deals: still hidden, and so is the log.
    assert shown(match_page, first) == [] and shown(hand_page, first) == []
    assert "the tables dealt the same cards is closed" in staff.get(match_page).text
    log = staff.get(reverse("admin:games_action_changelist")).text
    assert "0 actions" in log or "0 Actions" in log
    play_person_seats(table2.match)
    # Both over, but the round is not closed: as the site, the admin keeps them hidden.
    assert shown(match_page, first) == [] and shown(hand_page, first) == []
    services.tournaments.close_round(tournament.pk)
    assert first.secret in staff.get(match_page).text
    assert str(hand.seed) in staff.get(hand_page).text


def test_a_hand_dealt_from_an_explicit_deal_is_not_from_the_secret(alice, tmp_path, capsys):
    match = make_match(alice, secret="ab" * 32, hands=2, start=False)
    Match.objects.filter(pk=match.pk).update(deals=[MOON_DEAL])
    match = play_out(alice, services.start_match(alice, match.pk).match)
    html = client_for(alice).get(verify_url(match)).text
    first = re.search(r'<tr id="hand-1">(.*?)</tr>', html, re.S).group(1)
    second = re.search(r'<tr id="hand-2">(.*?)</tr>', html, re.S).group(1)
    assert 'verify-no">no' in first and "set before the match, not from the secret" in first
    assert 'verify-yes">yes' in second
    assert verify_main([download(client_for(alice), match, tmp_path)]) == MISMATCH
    out = capsys.readouterr().out
    assert "hand 1: MISMATCH" in out and "hand 2: OK" in out
