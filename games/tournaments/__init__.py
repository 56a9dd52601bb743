"""Tournaments: seating entrants at tables round by round, and standings across rounds."""
