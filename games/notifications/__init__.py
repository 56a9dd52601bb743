"""E-mail for asynchronous play: turn notices, the daily digest, and when a player was seen."""
