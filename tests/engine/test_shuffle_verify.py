"""Shuffles anyone can verify: the derivations (`shuffle.py`) and the command (`verify.py`)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import Deal, RuleSet
from games.engine.records.shuffle import (
    BadRecord,
    Record,
    bot_seed,
    commitment,
    deal_for,
    from_json,
    hand_seed,
    to_json,
    verify,
)
from games.engine.records.verify import BAD_INPUT, MISMATCH, OK, main

SECRET = "0123456789abcdef" * 4
OTHER = "fedcba9876543210" * 4
RULES = RuleSet(players=4)


def record(secret: str = SECRET, hands: int = 3, rules: RuleSet = RULES) -> dict:
    deals = tuple((n, deal_for(rules, secret, n)) for n in range(1, hands + 1))
    return to_json(Record(rules, commitment(secret), secret, deals, match=12))


def test_the_commitment_is_sha256_of_the_prefixed_hex_secret() -> None:
    expected = hashlib.sha256(b"hearts-commitment:" + SECRET.encode()).hexdigest()
    assert commitment(SECRET) == expected
    assert commitment(OTHER) != expected


def test_a_hand_seed_is_62_bits_of_sha256_of_the_secret_and_the_number() -> None:
    digest = hashlib.sha256(f"hearts-deal:{SECRET}:7".encode()).digest()
    assert hand_seed(SECRET, 7) == int.from_bytes(digest[:8], "big") >> 2
    assert deal_for(RULES, SECRET, 7) == Deal.from_seed(RULES, hand_seed(SECRET, 7))
    seeds = {hand_seed(SECRET, n) for n in range(1, 51)}
    assert len(seeds) == 50 and all(0 <= s < 2**62 for s in seeds)


def test_the_bots_seed_is_no_hands_seed_and_differs_by_secret() -> None:
    assert bot_seed(SECRET) not in {hand_seed(SECRET, n) for n in range(1, 100)}
    assert bot_seed(SECRET) != bot_seed(OTHER)
    assert 0 <= bot_seed(SECRET) < 2**62


@pytest.mark.parametrize("secret", ["", "ABCDEF" * 10 + "ABCD", SECRET[:-1], SECRET + "0", 12])
def test_a_secret_not_in_its_form_is_refused(secret) -> None:
    with pytest.raises(BadRecord):
        commitment(secret)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_a_record_round_trips_and_verifies_at_every_table_size(players) -> None:
    rules = RuleSet(players=players, target=50)
    data = json.loads(json.dumps(record(rules=rules)))
    result = verify(from_json(data))
    assert result.ok and result.commitment_ok
    assert [hand.number for hand in result.hands] == [1, 2, 3]


def test_a_changed_deal_is_a_mismatch_of_that_hand_only() -> None:
    data = record()
    hands = data["hands"][1]["deal"]["hands"]
    first, second = hands[0].split(), hands[1].split()
    first[0], second[0] = second[0], first[0]  # two seats swap one card
    hands[0], hands[1] = " ".join(first), " ".join(second)
    result = verify(from_json(data))
    assert not result.ok and result.commitment_ok
    assert [hand.ok for hand in result.hands] == [True, False, True]


def test_a_changed_secret_breaks_the_commitment_and_every_deal() -> None:
    data = {**record(), "secret": OTHER}
    result = verify(from_json(data))
    assert not result.commitment_ok and not result.ok
    assert not any(hand.ok for hand in result.hands)


def test_a_changed_commitment_alone_is_caught() -> None:
    data = {**record(), "commitment": commitment(OTHER)}
    result = verify(from_json(data))
    assert not result.commitment_ok and not result.ok
    assert all(hand.ok for hand in result.hands)


BAD_RECORDS = {
    "not an object": [],
    "no format": {"rules": {}},
    "bad rules": {**record(), "rules": {"players": 9}},
    "unknown rule": {**record(), "rules": {"players": 4, "jokers": True}},
    "rules not an object": {**record(), "rules": "4 players"},
    "no secret": {k: v for k, v in record().items() if k != "secret"},
    "short commitment": {**record(), "commitment": "abc"},
    "hands not a list": {**record(), "hands": {}},
    "hand without deal": {**record(), "hands": [{"number": 1}]},
    "hand number zero": {**record(), "hands": [{"number": 0, "deal": {"hands": []}}]},
    "hand twice": {**record(), "hands": record()["hands"][:1] * 2},
    "deal with a card twice": {
        **record(),
        "hands": [{"number": 1, "deal": {"hands": ["2C 2C"] + ["3C"] * 3}}],
    },
    "match not a number": {**record(), "match": "twelve"},
}


@pytest.mark.parametrize("data", BAD_RECORDS.values(), ids=BAD_RECORDS.keys())
def test_a_malformed_record_is_refused_with_a_message(data) -> None:
    with pytest.raises(BadRecord) as refused:
        from_json(data)
    assert refused.value.message


# ----- the command -----


def write(tmp_path: Path, data: object, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_the_command_says_ok_for_every_hand_of_a_true_record(tmp_path, capsys) -> None:
    assert main([write(tmp_path, record(hands=4))]) == OK
    out = capsys.readouterr().out
    assert "commitment: OK" in out
    assert [f"hand {n}: OK" in out for n in range(1, 5)] == [True] * 4
    assert "verified: the commitment and all 4 deals match" in out


def test_the_command_flags_a_changed_deal_and_exits_non_zero(tmp_path, capsys) -> None:
    data = record()
    data["hands"][2]["deal"] = {"hands": [str(h) for h in _other_deal(3).to_dict()["hands"]]}
    assert main([write(tmp_path, data)]) == MISMATCH
    out = capsys.readouterr().out
    assert "hand 1: OK" in out and "hand 3: MISMATCH" in out
    assert "NOT verified: 1 of 3 deals do not match" in out


def _other_deal(number: int) -> Deal:
    return deal_for(RULES, OTHER, number)


def test_the_command_flags_a_changed_secret(tmp_path, capsys) -> None:
    assert main([write(tmp_path, {**record(), "secret": OTHER})]) == MISMATCH
    out = capsys.readouterr().out
    assert "commitment: MISMATCH" in out and commitment(OTHER) in out
    assert "the commitment does not match the secret" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "is not JSON (Expecting property name"),
        ("[]", "A shuffle record is a JSON object"),
        (json.dumps({**record(), "secret": "x"}), '"secret" must be 64 lowercase hexadecimal'),
        ("[" * 100000 + "]" * 100000, "nested too deeply"),
        ('{"match": ' + "9" * 5000 + "}", "is not a record"),
    ],
    ids=["broken JSON", "a list", "a bad secret", "deep nesting", "a huge number"],
)
def test_the_command_explains_bad_input_without_a_traceback(
    tmp_path, capsys, content, message
) -> None:
    assert main([write(tmp_path, content)]) == BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_the_command_explains_a_missing_file_or_a_directory(tmp_path, capsys) -> None:
    assert main([str(tmp_path / "none.json")]) == BAD_INPUT
    assert "no such file" in capsys.readouterr().err
    assert main([str(tmp_path)]) == BAD_INPUT
    assert "is a directory" in capsys.readouterr().err
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    assert main([str(binary)]) == BAD_INPUT
    assert "not UTF-8" in capsys.readouterr().err


def test_python_dash_m_runs_it_and_reads_standard_input(tmp_path) -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "games.engine.verify", "-"],
        input=json.dumps({**record(), "commitment": commitment(OTHER)}),
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == MISMATCH, ran.stderr
    assert "commitment: MISMATCH" in ran.stdout
    ran = subprocess.run(
        [sys.executable, "-m", "games.engine.verify", write(tmp_path, record())],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == OK and "hand 3: OK" in ran.stdout
