"""The admin: the pages staff use, one module per part of the site.

Django's admin autodiscovery imports `games.admin`; each module here registers its own
models when imported, so this package imports them all.

- `base.py`: `ReadOnlyAdmin`, the base for rows nobody edits by hand
- `matches.py`: profiles, e-mail settings, matches with their seats, hands, log and scores
- `people.py`: follows and blocks, to read
- `chat.py`: chat messages (hide, show), reports with the messages around them, chat taken
  away for a time
- `records.py`: competitors, their statistics and stored results
- `tournaments.py`: tournaments and their entries, with `time_control.py` (its form) and
  `rounds.py` (rounds, their deadlines and "Finish by bots now")
"""

from games.admin import chat, matches, people, records, rounds, tournaments  # noqa: F401  (they register)
