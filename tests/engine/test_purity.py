"""The engine imports only the standard library and keeps no clock or global random state."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import games.engine

ENGINE = Path(games.engine.__file__).parent
# The benchmark measures time by design, and the shuffle checker's command line reads a file
# and prints by design; the rules engine itself has no clock and does no I/O.
CLOCK_FREE = [p for p in ENGINE.glob("*.py") if p.name not in ("bench.py", "verify.py")]


def imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add((node.module or "").split(".")[0])
    return names


def test_engine_imports_only_the_standard_library() -> None:
    for path in ENGINE.glob("*.py"):
        outside = imports(path) - set(sys.stdlib_module_names) - {"__future__"}
        assert not outside, f"{path.name} imports {outside}"


def test_engine_has_no_clock_io_or_global_random() -> None:
    for path in CLOCK_FREE:
        names = imports(path)
        assert not names & {"time", "datetime", "os", "io", "pathlib", "socket"}, path.name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            # Only seeded Random instances: module-level random functions share global state.
            is_name = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            if is_name and node.value.id == "random":
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("open", "print", "input"), path.name
