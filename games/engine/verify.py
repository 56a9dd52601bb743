"""`python -m games.engine.verify FILE`: the published command, kept at its first address.

The checker lives in `games.engine.records.verify` (`python -m games.engine.records.verify`
runs it too); this module only hands the command over, so that the instructions already
printed on the site and in downloaded records keep working.
"""

import sys

from .records.verify import main

if __name__ == "__main__":
    sys.exit(main())
