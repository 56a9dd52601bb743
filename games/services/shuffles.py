"""Where a match's deals come from: a secret drawn at its creation (or, before secrets, a seed).

A new match draws a secret of 32 random bytes (`secrets`) and stores it with its commitment;
each hand's deal then comes from the secret and the hand number by
`games/engine/records/shuffle.py`, which anyone can run on the record published once the match
is over. Tables of a tournament that play the same deals (duplicate deals) share one secret,
and so one commitment.

Matches created before secrets keep dealing from their integer seed exactly as they did, so
that they replay and go on as before; nothing was committed for them, so they are shown as not
verifiable.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from games import engine
from games.engine.records import shuffle
from games.models import Match


@dataclass(frozen=True)
class Shuffle:
    """A match's secret, its commitment, and the seed its bots get."""

    secret: str
    commitment: str
    bot_seed: int

    @classmethod
    def draw(cls) -> Shuffle:
        """Draw a new secret: 256 bits, far beyond trying every secret against a commitment."""
        return cls.of(secrets.token_hex(shuffle.SECRET_BYTES))

    @classmethod
    def of(cls, secret: str) -> Shuffle:
        return cls(secret, shuffle.commitment(secret), shuffle.bot_seed(secret))

    def fields(self) -> dict[str, object]:
        """Return the match's fields this shuffle sets.

        The bots are seeded with a one-way function of the secret, never the secret itself nor
        anything a hand's seed can be computed from: a bot is code, but the secret's uses are
        kept to the deals and the commitment.
        """
        return {"secret": self.secret, "commitment": self.commitment, "seed": self.bot_seed}


def legacy_hand_seed(match_seed: int, number: int) -> int:
    """Derive a hand's seed from a match seed, as matches dealt before secrets did."""
    return random.Random(f"{match_seed}:{number}").getrandbits(62)


def hand_seed(match: Match, number: int) -> int:
    """Return the seed hand `number` of the match is dealt from."""
    if match.secret:
        return shuffle.hand_seed(match.secret, number)
    return legacy_hand_seed(match.seed, number)


def deal(match: Match, rules: engine.RuleSet, number: int) -> tuple[engine.Deal, int | None]:
    """Return hand `number`'s deal and the seed it came from (None for an explicit deal)."""
    if number <= len(match.deals):
        return engine.Deal.from_dict(rules, match.deals[number - 1]), None
    seed = hand_seed(match, number)
    return engine.Deal.from_seed(rules, seed), seed
