"""Check a match's record by replaying it: `python -m games.engine.replay FILE`.

FILE (or `-` for standard input) is the JSON record the score sheet offers for download
(`/matches/<id>/record.json`; the format is in `match_record.py`). The command replays every
complete hand from hand 1 through the engine's checked door, checks every decision is legal
and every replayed score row equals the recorded one, and, when the record gives the secret,
that the commitment and the deals come from it. One line per hand: checked, partial (the
viewer saw only part of it) or not checked. Exit status: 0 when everything checked matches,
1 when something does not (the hand and the decision are named), 2 when the file cannot be
read or is not a match record.

The command's modules, `games/engine/replay.py` and `records/replay.py`, only run this one:
the name `replay` is the engine's `replay` function, which an imported module of the same name
would hide from every `engine.replay` caller, so those modules refuse to be imported and the
functions live here.

Like `verify.py`, whose file reading it shares, it needs nothing but Python and the engine.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .match_record import CHECKED, FAILED, IN_PLAY, Check, MatchRecord, check, from_json
from .verify import load_with, run_command


def load(path: str) -> MatchRecord:
    """Read and parse a match record; raise BadRecord with a message for anything wrong."""
    return load_with(path, from_json)


def _hand_line(number: int, status: str, detail: str, deal_ok: bool | None) -> str:
    if status == CHECKED:
        words = "checked: every decision legal, the score as recorded"
    elif status == IN_PLAY:
        words = "checked so far: every decision legal (the hand is not over)"
    elif status == FAILED:
        # The detail names its hand ("hand 2, decision 5 (…): …"), as the summary needs.
        words = "MISMATCH" + detail.removeprefix(f"hand {number}")
    else:
        words = f"{status} ({detail})" if detail else status
    if deal_ok is not None:
        words += "; deal from the secret: " + ("OK" if deal_ok else "MISMATCH")
    return f"hand {number}: {words}"


def report(record: MatchRecord, result: Check) -> list[str]:
    """Return the lines the command prints for a checked record."""
    lines = []
    if record.match is not None:
        lines.append(f"match {record.match}: {record.rules.players} players")
    if result.commitment_ok is not None:
        state = "OK" if result.commitment_ok else "MISMATCH (it is not the secret's)"
        lines.append(f"commitment: {state}")
    for hand in result.hands:
        lines.append(_hand_line(hand.number, hand.status, hand.detail, hand.deal_from_secret))
    total = len(result.hands)
    if result.ok:
        lines.append(f"checked: {result.checked} of {total} hands replay as recorded")
    else:
        lines.append("NOT checked: " + "; ".join(result.problems))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    return run_command(
        argv,
        prog="python -m games.engine.replay",
        description="Replay a match's record through the rules and check its scores and deals.",
        file_help="the match's record (JSON), or - for standard input",
        parse=from_json,
        check=check,
        report=report,
    )


if __name__ == "__main__":
    sys.exit(main())
