"""The records' room: what a finished match leaves behind, and the checks anyone can run on it.

`shuffle.py` (the secret, its commitment and the deals it gives) and `verify.py` (the command
that checks a shuffle record), `match_record.py` (a match's downloadable record) and
`replay_check.py` (the command that replays one, run as `replay.py`). They use the rules'
room (`games.engine`'s own modules) and nothing in it imports them, except the command
modules kept at the old paths (`games/engine/verify.py`, `replay.py`, `replay_check.py`).
"""
