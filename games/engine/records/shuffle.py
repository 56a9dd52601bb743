"""Shuffles anyone can verify: a secret, its commitment, and the deals it gives.

Before its first deal a match draws a secret: 32 random bytes, written as 64 lowercase
hexadecimal digits. It publishes the secret's commitment at once and the secret itself only
once no deal it gives is still in play. Everything is SHA-256 over ASCII text:

- commitment = hex(SHA-256("hearts-commitment:" + secret)); in a shell:
  `printf 'hearts-commitment:%s' SECRET | sha256sum`
- the seed of hand n (1, 2, 3 …) = the first 8 bytes of SHA-256("hearts-deal:" + secret + ":" + n),
  n in decimal, read as a big-endian integer and shifted right by 2 bits (62 bits: the same range
  as the integer seeds stored before, and it fits a signed 64-bit column);
- the deal of hand n = `Deal.from_seed(rules, seed of hand n)`.

A 256-bit secret cannot be found from its commitment by trying secrets, as a 62-bit seed
could; each prefix keeps one use of the secret from standing in for another. `verify`
rebuilds every deal of a match's record and compares it with the deal played; the command
line for it is `python -m games.engine.verify FILE` (`games/engine/records/verify.py`).

Only this module's functions and the engine's public API (`RuleSet`, `Deal`) are used, so any
copy of the engine can check a match.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from ..deal import Deal
from ..errors import EngineError
from ..rules import RuleSet

SECRET_BYTES = 32
COMMITMENT_PREFIX = "hearts-commitment:"
DEAL_PREFIX = "hearts-deal:"
BOT_PREFIX = "hearts-bots:"
FORMAT = "hearts-shuffle-record/1"
_HEX64 = re.compile(r"[0-9a-f]{64}")


class BadRecord(EngineError):
    """A secret, commitment or verification record that is not in the documented form."""


def _sha256(text: str) -> bytes:
    return hashlib.sha256(text.encode("ascii")).digest()


def check_secret(secret: object) -> str:
    """Return the secret if it is 64 lowercase hexadecimal digits, else raise BadRecord."""
    if not isinstance(secret, str) or not _HEX64.fullmatch(secret):
        raise BadRecord("A secret is 64 lowercase hexadecimal digits (32 bytes)")
    return secret


def commitment(secret: str) -> str:
    """Return the commitment published for a secret: SHA-256 of the prefixed secret, in hex."""
    return hashlib.sha256((COMMITMENT_PREFIX + check_secret(secret)).encode("ascii")).hexdigest()


def hand_seed(secret: str, number: int) -> int:
    """Return the seed `Deal.from_seed` deals hand `number` (from 1) of a match from."""
    if type(number) is not int or number < 1:
        raise BadRecord(f"A hand number is a whole number from 1, not {number!r}")
    digest = _sha256(f"{DEAL_PREFIX}{check_secret(secret)}:{number}")
    return int.from_bytes(digest[:8], "big") >> 2


def deal_for(rules: RuleSet, secret: str, number: int) -> Deal:
    """Return the deal the secret gives hand `number` at a table of these rules."""
    return Deal.from_seed(rules, hand_seed(secret, number))


def bot_seed(secret: str) -> int:
    """Return a seed for a match's bots: their sampling must never let anyone compute a deal.

    A bot's seed is shown to nobody, but it is kept where the match's other settings are; a
    one-way function of the secret (under its own prefix, so it is no hand's seed) tells
    nothing of the secret or of any deal, and keeps tables sharing a secret (duplicate deals)
    with bots that decide alike, as they did when they shared one seed.
    """
    return int.from_bytes(_sha256(BOT_PREFIX + check_secret(secret))[:8], "big") >> 2


@dataclass(frozen=True)
class Record:
    """What a match publishes once its secret is revealed: enough to check every deal."""

    rules: RuleSet
    commitment: str
    secret: str
    hands: tuple[tuple[int, Deal], ...]  # (number, deal played), in the order given
    match: int | None = None


@dataclass(frozen=True)
class HandCheck:
    number: int
    played: Deal
    rebuilt: Deal

    @property
    def ok(self) -> bool:
        return self.played == self.rebuilt


@dataclass(frozen=True)
class Verification:
    """The answer: whether the secret matches its commitment, and each hand's comparison."""

    computed_commitment: str
    commitment_ok: bool
    hands: tuple[HandCheck, ...]

    @property
    def ok(self) -> bool:
        return self.commitment_ok and all(hand.ok for hand in self.hands)


def verify(record: Record) -> Verification:
    """Check the commitment and rebuild every hand's deal from the secret."""
    computed = commitment(record.secret)
    checks = tuple(
        HandCheck(number, played, deal_for(record.rules, record.secret, number))
        for number, played in record.hands
    )
    return Verification(computed, computed == record.commitment, checks)


def to_json(record: Record) -> dict[str, Any]:
    """Return the record's JSON form (the file `python -m games.engine.verify` reads)."""
    data: dict[str, Any] = {"format": FORMAT}
    if record.match is not None:
        data["match"] = record.match
    data.update(
        rules=record.rules.to_dict(),
        commitment=record.commitment,
        secret=record.secret,
        hands=[
            {"number": n, "deal": {"hands": deal.to_dict()["hands"]}} for n, deal in record.hands
        ],
    )
    return data


def _field(data: dict[str, Any], name: str) -> Any:
    if name not in data:
        raise BadRecord(f'The record has no "{name}"')
    return data[name]


def _hex64(value: object, name: str) -> str:
    if not isinstance(value, str) or not _HEX64.fullmatch(value):
        raise BadRecord(f'"{name}" must be 64 lowercase hexadecimal digits, not {value!r:.80}')
    return value


def _hands(rules: RuleSet, value: object) -> tuple[tuple[int, Deal], ...]:
    if not isinstance(value, list):
        raise BadRecord('"hands" must be a list of {"number": …, "deal": {"hands": […]}}')
    hands: list[tuple[int, Deal]] = []
    seen: set[int] = set()
    for index, item in enumerate(value):
        where = f"hands[{index}]"
        if not isinstance(item, dict) or "number" not in item or "deal" not in item:
            raise BadRecord(f'{where} must be an object with "number" and "deal"')
        number = item["number"]
        if type(number) is not int or number < 1:
            raise BadRecord(f"{where}: the hand number must be a whole number from 1")
        if number in seen:
            raise BadRecord(f"{where}: hand {number} is given twice")
        seen.add(number)
        deal = item["deal"]
        if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
            raise BadRecord(f'{where}: the deal must give its "hands", one per seat')
        try:
            hands.append((number, Deal.from_hands(rules, deal["hands"])))
        except EngineError as error:
            raise BadRecord(f"{where} (hand {number}): {error.message}") from None
    return tuple(hands)


def from_json(data: object) -> Record:
    """Return the record of a JSON form, or raise BadRecord saying what is wrong with it."""
    if not isinstance(data, dict):
        raise BadRecord("A shuffle record is a JSON object")
    if data.get("format") != FORMAT:
        raise BadRecord(f'"format" must be "{FORMAT}", not {data.get("format")!r:.80}')
    try:
        rules = RuleSet.from_dict(_field(data, "rules"))
    except BadRecord:
        raise
    except (EngineError, TypeError) as error:
        message = error.message if isinstance(error, EngineError) else str(error)
        raise BadRecord(f'"rules": {message}') from None
    match = data.get("match")
    if match is not None and type(match) is not int:
        raise BadRecord(f'"match" must be a match number, not {match!r:.80}')
    return Record(
        rules=rules,
        commitment=_hex64(_field(data, "commitment"), "commitment"),
        secret=_hex64(_field(data, "secret"), "secret"),
        hands=_hands(rules, _field(data, "hands")),
        match=match,
    )
