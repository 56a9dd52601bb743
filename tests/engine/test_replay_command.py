"""A match's record replayed: the format and check (`match_record.py`) and the command
(`python -m games.engine.replay_check`), with nothing but the engine.

The site's side (what each viewer's download holds) is in `tests/test_exports.py`.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from typing import Any

import pytest

from games import engine
from games.engine.records import shuffle
from games.engine.records.match_record import (
    CHECKED,
    FAILED,
    FORMAT,
    NOT_CHECKED,
    PARTIAL,
    BadRecord,
    Score,
    check,
    from_json,
)
from games.engine.records.replay_check import main
from games.engine.records.verify import BAD_INPUT, MISMATCH, OK

SECRET = "0123456789abcdef" * 4
BOT = engine.BaselineBot()


def played_record(rules: engine.RuleSet, secret: str = SECRET) -> dict[str, Any]:
    """Play a whole match with baseline bots on the secret's deals; return its record."""
    game = engine.Match.new(rules)
    hands = []
    while not game.is_finished:
        number = game.hand_no + 1
        deal = shuffle.deal_for(rules, secret, number)
        game.start_hand(deal)
        decisions = []
        while game.phase not in (engine.HAND_OVER, engine.FINISHED):
            if game.phase == engine.MOON:
                decision = engine.moon_decision(game.to_act()[0], "add")
            else:
                decision = BOT.choose(game.view(game.to_act()[0]))
            game.apply(decision)
            decisions.append({**decision.to_dict(), "by": "bot"})
        hands.append(
            {
                "number": number,
                "pass_direction": rules.pass_direction(number),
                "complete": True,
                "from_secret": True,
                "deal": {"hands": deal.to_dict()["hands"]},
                "decisions": decisions,
                "score": Score.of(game.sheet[-1]).to_dict(),
            }
        )
    return {
        "format": FORMAT,
        "match": 7,
        "rules": rules.to_dict(),
        "commitment": shuffle.commitment(secret),
        "secret": secret,
        "totals": list(game.totals),
        "hands": hands,
    }


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return played_record(engine.RuleSet(players=4, target=60))


def run(tmp_path, data: object, capsys) -> tuple[int, str, str]:
    path = tmp_path / "match.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    status = main([str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def first_play(hand: dict[str, Any]) -> int:
    return next(i for i, d in enumerate(hand["decisions"]) if d["type"] == "play")


def test_a_whole_match_replays_and_checks(record, tmp_path, capsys) -> None:
    assert len(record["hands"]) >= 2
    status, out, err = run(tmp_path, record, capsys)
    assert status == OK, out + err
    assert "commitment: OK" in out
    for hand in record["hands"]:
        assert f"hand {hand['number']}: checked" in out
    assert f"checked: {len(record['hands'])} of {len(record['hands'])} hands" in out


@pytest.mark.parametrize(
    "rules",
    [
        engine.RuleSet(players=5, target=100, hands=2, variant="omnibus", bonus_card="TD"),
        engine.RuleSet(players=6, target=100, hands=1, variant="cancellation"),
        engine.RuleSet(players=3, target=100, hands=2, moon="subtract"),
    ],
    ids=["omnibus", "cancellation", "3 players"],
)
def test_the_variants_replay_too(rules, tmp_path, capsys) -> None:
    data = played_record(rules)
    status, out, _ = run(tmp_path, data, capsys)
    assert status == OK, out
    if rules.variant == "omnibus":
        assert all("bonus" in hand["score"] for hand in data["hands"])


def test_an_illegal_card_is_named_with_its_hand_and_decision(record, tmp_path, capsys) -> None:
    data = copy.deepcopy(record)
    hand = data["hands"][1]
    index = first_play(hand) + 5
    seat = hand["decisions"][index]["seat"]
    held = set(hand["deal"]["hands"][seat].split())
    hand["decisions"][index]["card"] = next(c for c in ("2C", "3C", "4C", "5C") if c not in held)
    status, out, _ = run(tmp_path, data, capsys)
    assert status == MISMATCH
    assert f"hand 2: MISMATCH, decision {index + 1} (seat {seat} plays" in out
    assert "hand 3: not checked (hand 2 does not check)" in out
    assert out.splitlines()[-1].startswith("NOT checked: hand 2, decision")


def test_a_swapped_card_in_a_deal_breaks_the_secret_and_the_play(record, tmp_path, capsys) -> None:
    data = copy.deepcopy(record)
    deal = data["hands"][0]["deal"]["hands"]
    first, second = deal[0].split(), deal[1].split()
    first[0], second[0] = second[0], first[0]
    deal[0], deal[1] = " ".join(first), " ".join(second)
    status, out, _ = run(tmp_path, data, capsys)
    assert status == MISMATCH
    assert "hand 1: the deal is not the one the secret gives" in out


def test_a_wrong_score_is_named(record, tmp_path, capsys) -> None:
    data = copy.deepcopy(record)
    data["hands"][0]["score"]["scores"][2] += 1
    status, out, _ = run(tmp_path, data, capsys)
    assert status == MISMATCH
    assert "hand 1: MISMATCH: the score does not match: scores recorded" in out


def test_wrong_final_totals_are_named(record, tmp_path, capsys) -> None:
    data = copy.deepcopy(record)
    data["totals"][0] += 26
    status, out, _ = run(tmp_path, data, capsys)
    assert status == MISMATCH and "the final totals do not match" in out


def test_a_missing_decision_leaves_the_hand_unscored(record, tmp_path, capsys) -> None:
    data = copy.deepcopy(record)
    data["hands"][0]["decisions"].pop()
    status, out, _ = run(tmp_path, data, capsys)
    assert status == MISMATCH
    assert "hand 1: a score is recorded, but the decisions do not end the hand" in out


def test_a_wrong_secret_fails_the_commitment(record, tmp_path, capsys) -> None:
    data = {**record, "secret": "f" * 64}
    status, out, _ = run(tmp_path, data, capsys)
    assert status == MISMATCH
    assert "commitment: MISMATCH" in out


def test_partial_hands_are_reported_not_checked(record) -> None:
    data = copy.deepcopy(record)
    last = data["hands"][-1]
    data["hands"][-1] = {
        "number": last["number"],
        "pass_direction": last["pass_direction"],
        "complete": False,
        "decisions": [d for d in last["decisions"] if d["type"] == "play"][:6],
        "score": None,
    }
    result = check(from_json(data))
    assert result.ok
    assert [hand.status for hand in result.hands] == [CHECKED] * (len(data["hands"]) - 1) + [
        PARTIAL
    ]
    data["hands"][0]["complete"] = False
    del data["hands"][0]["deal"]
    result = check(from_json(data))
    assert result.ok and result.checked == 0
    assert result.hands[1].status == NOT_CHECKED and result.hands[1].detail == "hand 1 is partial"


def test_a_hand_in_play_checks_as_far_as_it_goes(record) -> None:
    data = copy.deepcopy(record)
    first = data["hands"][0]
    first["decisions"] = first["decisions"][:10]
    first["score"] = None
    data["hands"] = [first]
    result = check(from_json(data))
    assert result.ok and result.hands[0].status == "checked, not over"


def test_a_sealed_record_has_nothing_to_check(tmp_path, capsys) -> None:
    data = {
        "format": FORMAT,
        "rules": {"players": 4, "target": 100, "moon": "ask"},
        "sealed": True,
        "totals": [3, 10, 0, 13],
        "hands": [],
    }
    status, out, _ = run(tmp_path, data, capsys)
    assert status == OK and "checked: 0 of 0 hands" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "is not JSON"),
        ("[1, 2]", "A match record is a JSON object"),
        ('{"format": "hearts-shuffle-record/1"}', '"format" must be "hearts-match-record/1"'),
        ('{"format": "hearts-match-record/1", "hands": []}', 'The record has no "rules"'),
        (
            '{"format": "hearts-match-record/1", "rules": {"players": 11}, "hands": []}',
            '"rules":',
        ),
        (
            '{"format": "hearts-match-record/1", "rules": {"players": 4}, "hands": {}}',
            '"hands" must be a list',
        ),
        (
            '{"format": "hearts-match-record/1", "rules": {"players": 4}, '
            '"hands": [{"number": 2, "complete": false, "pass_direction": "left"}]}',
            "hands must be numbered 1, 2, 3",
        ),
        (
            '{"format": "hearts-match-record/1", "rules": {"players": 4}, '
            '"hands": [{"number": 1, "complete": true, "pass_direction": "left"}]}',
            'hand 1 is complete but gives no "deal"',
        ),
        (
            '{"format": "hearts-match-record/1", "rules": {"players": 4}, "secret": "ab", '
            '"commitment": "cd", "hands": []}',
            '"commitment" must be 64 lowercase hexadecimal digits',
        ),
    ],
)
def test_a_file_that_is_not_a_record_exits_2(tmp_path, capsys, text, message) -> None:
    status, out, err = run(tmp_path, text, capsys)
    assert status == BAD_INPUT
    assert out == "" and message in err and "Traceback" not in err


def test_a_missing_file_exits_2(tmp_path, capsys) -> None:
    assert main([str(tmp_path / "nowhere.json")]) == BAD_INPUT
    assert "no such file" in capsys.readouterr().err


def test_bad_scores_are_not_a_record() -> None:
    data = {
        "format": FORMAT,
        "rules": {"players": 4},
        "hands": [
            {"number": 1, "complete": False, "pass_direction": "left", "score": {"points": 3}}
        ],
    }
    with pytest.raises(BadRecord, match='the score has no "scores"'):
        from_json(data)


@pytest.mark.parametrize("command", ["games.engine.replay", "games.engine.replay_check"])
def test_python_dash_m_runs_it_and_reads_standard_input(record, command) -> None:
    data = copy.deepcopy(record)
    data["hands"][0]["score"]["totals"][0] -= 1
    ran = subprocess.run(
        [sys.executable, "-m", command, "-"],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == MISMATCH, ran.stderr
    assert "hand 1: MISMATCH" in ran.stdout


def test_the_command_module_leaves_the_engines_replay_function_alone() -> None:
    import games.engine.records.replay_check  # noqa: F401

    assert callable(engine.replay) and engine.replay.__module__ == "games.engine.record"
    assert FAILED == "failed"
    # The command's own module refuses to be imported, which would hide the function.
    with pytest.raises(ImportError, match="python -m games.engine.replay FILE"):
        import games.engine.replay  # noqa: F401
    assert callable(engine.replay) and engine.replay.__module__ == "games.engine.record"
