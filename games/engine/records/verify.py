"""Check a match's shuffles from its record: `python -m games.engine.verify FILE`.

FILE (or `-` for standard input) is the JSON record a finished match's verification page
offers for download (format in `shuffle.py`: `to_json`). The command checks that the secret
gives the published commitment, rebuilds every hand's deal from the secret and compares it with
the deal played, one line per hand. Exit status: 0 when everything matches, 1 when the
commitment or any deal does not, 2 when the file cannot be read or is not a record.

This is the engine's one module that reads a file and writes to the terminal, by design; it
needs nothing but Python and the engine (no Django, no database).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar, cast

from .shuffle import COMMITMENT_PREFIX, BadRecord, Record, Verification, from_json, verify

OK, MISMATCH, BAD_INPUT = 0, 1, 2
R = TypeVar("R")
C = TypeVar("C")


def _read(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    with open(name, encoding="utf-8") as file:
        return file.read()


def read_json(path: str) -> object:
    """Read a file (or `-`, standard input) as JSON; raise BadRecord saying what is wrong.

    `python -m games.engine.replay_check` reads its match records with it too.
    """
    name = "standard input" if path == "-" else path
    try:
        text = _read(path)
    except FileNotFoundError:
        raise BadRecord(f"{name}: no such file") from None
    except IsADirectoryError:
        raise BadRecord(f"{name}: is a directory, not a record file") from None
    except OSError as error:
        raise BadRecord(f"{name}: cannot be read ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise BadRecord(f"{name}: is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise BadRecord(f"{name}: is not JSON ({error.msg} at {where})") from None
    except RecursionError:
        raise BadRecord(f"{name}: is nested too deeply to be a record") from None
    except ValueError as error:  # a number too long for Python to read, say
        raise BadRecord(f"{name}: is not a record ({error})") from None
    return data


def load_with(path: str, parse: Callable[[object], R]) -> R:
    """Read a record file and parse it; raise BadRecord naming the file for anything wrong."""
    data = read_json(path)
    name = "standard input" if path == "-" else path
    try:
        return parse(data)
    except BadRecord as error:
        raise BadRecord(f"{name}: {error.message}") from None


def load(path: str) -> Record:
    """Read and parse a shuffle record file; raise BadRecord with a message for anything wrong."""
    return load_with(path, from_json)


def report(record: Record, result: Verification) -> list[str]:
    """Return the lines the command prints for a checked record."""
    lines = []
    if record.match is not None:
        lines.append(f"match {record.match}: {record.rules.players} players")
    if result.commitment_ok:
        lines.append(f"commitment: OK ({record.commitment})")
    else:
        lines += [
            "commitment: MISMATCH",
            f"  published:                      {record.commitment}",
            f"  SHA-256 of {COMMITMENT_PREFIX!r} + secret: {result.computed_commitment}",
        ]
    for hand in result.hands:
        if hand.ok:
            lines.append(f"hand {hand.number}: OK")
        else:
            lines.append(f"hand {hand.number}: MISMATCH (the deal played is not the secret's)")
    bad = sum(1 for hand in result.hands if not hand.ok)
    total = len(result.hands)
    if result.ok:
        lines.append(f"verified: the commitment and all {total} deals match")
    else:
        parts = [] if result.commitment_ok else ["the commitment does not match the secret"]
        if bad:
            parts.append(f"{bad} of {total} deals do not match")
        lines.append("NOT verified: " + "; ".join(parts))
    return lines


class _Result(Protocol):
    @property
    def ok(self) -> bool: ...


def run_command(
    argv: Sequence[str] | None,
    *,
    prog: str,
    description: str,
    file_help: str,
    parse: Callable[[object], R],
    check: Callable[[R], C],
    report: Callable[[R, C], list[str]],
) -> int:
    """Read the file named on the command line, check it and print the report; return the
    exit status: OK, MISMATCH, or BAD_INPUT for a file that is not such a record.

    The checkers of shuffles (this module) and of whole matches (`replay_check`) share it.
    """
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("file", help=file_help)
    args = parser.parse_args(argv)
    try:
        record = load_with(args.file, parse)
    except BadRecord as error:
        sys.stderr.write(f"error: {error.message}\n")
        return BAD_INPUT
    result = check(record)
    sys.stdout.write("".join(line + "\n" for line in report(record, result)))
    return OK if cast(_Result, result).ok else MISMATCH


def main(argv: Sequence[str] | None = None) -> int:
    return run_command(
        argv,
        prog="python -m games.engine.verify",
        description="Check that every deal of a match came from its committed secret.",
        file_help="the match's shuffle record (JSON), or - for standard input",
        parse=from_json,
        check=verify,
        report=report,
    )


if __name__ == "__main__":
    sys.exit(main())
