"""`python -m games.engine.replay_check FILE`: the published command, kept at its first address.

The checker lives in `games.engine.records.replay_check`; this module only hands the command
over, so that the instructions in records already downloaded keep working.
"""

import sys

from .records.replay_check import main

if __name__ == "__main__":
    sys.exit(main())
