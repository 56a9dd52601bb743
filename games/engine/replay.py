"""`python -m games.engine.replay FILE`: check a match's downloaded record.

The checker lives in `games.engine.records.replay_check`. This is a command only, never a
module to import: once imported, a submodule named `replay` would take the place of the
engine's `replay` function as the package's attribute. Importing it is therefore refused (and
a refused import leaves the attribute alone); code that wants the checker imports
`games.engine.records.replay_check`.
"""

import sys

if __name__ != "__main__":
    raise ImportError(
        "games.engine.replay is the command `python -m games.engine.replay FILE`; "
        "import games.engine.records.replay_check for its functions"
    )

from .records.replay_check import main  # noqa: E402

sys.exit(main())
