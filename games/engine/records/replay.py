"""`python -m games.engine.records.replay FILE`: check a match's downloaded record.

A command only (its functions are in `replay_check.py`); the published address of the same
command is `python -m games.engine.replay FILE` (`games/engine/replay.py`). Importing it is
refused, since importing would run the command.
"""

import sys

if __name__ != "__main__":
    raise ImportError(
        "games.engine.records.replay is the command `python -m games.engine.replay FILE`; "
        "import games.engine.records.replay_check for its functions"
    )

from .replay_check import main  # noqa: E402

sys.exit(main())
