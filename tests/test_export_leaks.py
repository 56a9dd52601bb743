"""The downloads show no card and no secret their viewer may not see, over whole matches.

As `tests/test_no_leaks.py` does for the pages: whole matches are played through the views by
people and bots, and after every move each player, a spectator and staff download the match's
record (JSON) and score sheet (CSV), and each player their own data (`/accounts/profile/data/`,
the match's record among it). In the record, the hand in play names no card hidden from
that viewer at that moment (another seat's hand, another seat's pass before everyone has
passed, the widow), nor how another seat's decision was made unless a bot made it; a hand
over is whole for its players and, until the deals are revealed, only its plays for anyone
else. Neither download carries the secret or a hand's seed before the reveal; once the match
is over, a spectator's record holds every hand and the secret, and replays.
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.engine.records.replay_check import main as replay_main
from games.engine.records.verify import OK
from games.models import Action
from tests.factories import next_move, state_of
from tests.test_no_leaks import Table, assert_keeps_secrets, hidden_from

CARD = re.compile(r"\b[2-9TJQKA][CDHS]2?\b")


def named_cards(value: object) -> set[str]:
    return set(CARD.findall(json.dumps(value)))


class ExportScan:
    """A scanned table: every viewer downloads both files after every move."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.match = table.match
        self.viewers = [*table.clients.items(), (None, table.spectator), (None, table.staff)]
        self.scanned = 0

    def scan(self, step: int) -> None:
        match = self.match
        match.refresh_from_db()
        state = state_of(match)
        urls = [reverse(name, args=[match.pk]) for name in ("match_record", "scores_csv")]
        for viewer, client in self.viewers:
            where = f"step {step}, seat {viewer}"
            record, sheet = (client.get(url) for url in urls)
            for response in (record, sheet):
                assert response.status_code == 200, where
                if match.status == "active":
                    assert_keeps_secrets(response.content.decode(), self.table.secrets, where)
            self.check_record(record.json(), state, viewer, where)
            if viewer is not None:
                self.check_player_data(client, record.json(), where)
            self.scanned += 1

    def check_player_data(self, client, record: dict, where: str) -> None:
        """A player's own data holds the match as its record (checked above), no card more."""
        response = client.get(reverse("download_data"))
        assert response.status_code == 200, where
        if self.match.status == "active":
            assert_keeps_secrets(response.content.decode(), self.table.secrets, where)
        data = response.json()
        [entry] = [m for m in data["matches"] if m["record"]["match"] == self.match.pk]
        assert entry["record"] == record, f"{where}: their data's record differs"
        extra = named_cards(data) - named_cards(record)
        assert not extra, f"{where}: their data names {sorted(extra)}"

    def check_record(self, data: dict, state, viewer: int | None, where: str) -> None:
        assert data["viewer_seat"] == viewer, where
        in_play = self.match.status == "active"
        assert ("secret" in data) is not in_play, where
        hidden = {str(card) for card in hidden_from(state, viewer)}
        for entry in data["hands"]:
            number = entry["number"]
            # Who made another seat's decision: only a bot's seat, as the table shows it.
            theirs = {d.get("by") for d in entry["decisions"] if d["seat"] != viewer}
            assert theirs <= {None, "bot"}, f"{where}: hand {number} says {theirs}"
            if not entry["complete"]:
                assert "deal" not in entry, where
                own = [d for d in entry["decisions"] if d["type"] == "pass"]
                assert all(d["seat"] == viewer for d in own), f"{where}: another's pass"
                assert ("your_hand" in entry) is (viewer is not None), where
            else:
                assert viewer is not None or not in_play, f"{where}: hand {number} whole"
            if number == state.hand_no and in_play and not entry["complete"]:
                shown = named_cards(entry) & hidden
                assert not shown, f"{where}: hand {number} shows {sorted(shown)}"
            elif not entry["complete"]:
                played = Action.objects.filter(match=self.match, hand__number=number)
                plays = {a.value for a in played.filter(kind="play")}
                mine = played.filter(kind="pass", seat=viewer) if viewer is not None else []
                yours = entry.get("your_hand", {})
                allowed = plays | {c for a in mine for c in a.value.split()}
                allowed |= set(yours.get("dealt", "").split() + yours.get("received", "").split())
                assert named_cards(entry["decisions"]) <= allowed, where

    def play(self) -> None:
        for step in range(3000):
            self.match.refresh_from_db()
            if self.match.status != "active":
                self.scan(step)
                return
            for position, client in self.table.clients.items():
                move = next_move(self.match, position)
                if move is not None:
                    assert client.post(move.url, move.data).status_code == 302
                    break
            self.scan(step)
        raise AssertionError("the match did not end")


@pytest.mark.parametrize(
    ("players", "people", "seed", "options"),
    [
        (4, 2, 41, {"target": 40}),
        (5, 3, 43, {"target": 100, "hands": 2}),
        (5, 2, 47, {"target": 100, "hands": 1, "variant": "cancellation"}),
        (4, 1, 53, {"target": 100, "hands": 2, "variant": "omnibus"}),
    ],
    ids=["4 seats to 40", "5 seats, 2 hands", "cancellation", "omnibus"],
)
def test_no_download_shows_a_card_or_secret_its_viewer_may_not_see(
    make_user, tmp_path, players, people, seed, options
):
    table = Table(make_user, players=players, people=people, seed=seed, **options)
    scan = ExportScan(table)
    scan.play()
    assert scan.scanned > 40
    match = table.match
    match.refresh_from_db()
    assert match.status == "finished"
    data = table.spectator.get(reverse("match_record", args=[match.pk])).json()
    assert data["secret"] == match.secret and all(hand["complete"] for hand in data["hands"])
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data))
    assert replay_main([str(path)]) == OK


def test_an_outsider_of_a_private_match_downloads_nothing(make_user):
    table = Table(make_user, players=4, people=2, target=30, seed=17, private=True)
    urls = [reverse(name, args=[table.match.pk]) for name in ("match_record", "scores_csv")]
    for step in range(40):
        table.match.refresh_from_db()
        for position, client in table.clients.items():
            move = next_move(table.match, position)
            if move is not None:
                client.post(move.url, move.data)
                break
        if step % 8 == 0:
            for url in urls:
                assert table.spectator.get(url).status_code == 404
                assert table.clients[0].get(url).status_code == 200


def test_the_scan_would_catch_a_leak(make_user):
    """The check itself: another seat's card, or a pass, in the hand in play fails it."""
    table = Table(make_user, players=4, people=1, target=40, seed=3)
    scan = ExportScan(table)
    client = table.clients[0]
    data = client.get(reverse("match_record", args=[table.match.pk])).json()
    state = state_of(table.match)
    scan.check_record(data, state, 0, "as downloaded")
    other = str(state.hand(1)[0])
    planted = json.loads(json.dumps(data))
    planted["hands"][-1]["decisions"].append({"type": "play", "seat": 1, "card": other})
    with pytest.raises(AssertionError, match="shows"):
        scan.check_record(planted, state, 0, "planted card")
    planted = json.loads(json.dumps(data))
    planted["hands"][-1]["decisions"].append({"type": "pass", "seat": 2, "cards": []})
    with pytest.raises(AssertionError, match="another's pass"):
        scan.check_record(planted, state, 0, "planted pass")
