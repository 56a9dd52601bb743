"""`python -m games.engine.bench`: the engine's speed bench, kept at its first address.

The bench plays with the bots, so it lives in their room (`games.engine.bots.bench`); this
module only hands the command over.
"""

import sys

from .bots.bench import main

if __name__ == "__main__":
    sys.exit(main())
