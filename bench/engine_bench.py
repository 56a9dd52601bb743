"""Engine benchmark: random and baseline-bot Hearts hands per second for 3 to 7 players.

Run from the repository root: `python bench/engine_bench.py [--hands N] [--repeats R]`.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots.bench import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
