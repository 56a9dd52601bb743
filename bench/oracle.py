"""A search bot that sees every hand: an upper bound for measuring, never a player.

The site's bots read only their seat's view (R6.3). This one exists for the arena alone: it
searches the true deal instead of deals sampled from what its seat knows, so that what the
search could do if it knew where every card lies can be told apart from what not knowing
costs it (bench/README.md, "the moon"). Nothing outside bench/ imports it.
"""

from __future__ import annotations

import random

from games.engine.bots.sampling import Knowledge
from games.engine.bots.search import SearchBot, Worlds
from games.engine.state import Match
from games.engine.views import SeatView


class OracleSearchBot(SearchBot):
    """The search bot with every sampled deal replaced by the true one (standard and Omnibus).

    The arena calls `see` with the match before each decision; the hidden hands come from it.
    """

    match: Match | None = None

    def see(self, match: Match) -> None:
        self.match = match

    def _worlds(self, view: SeatView, k: Knowledge) -> Worlds:
        if view.rules.two_decks:
            raise SystemExit("the oracle plays the one-deck games only (standard, omnibus)")
        template, _, finish, scores = super()._worlds(view, k)
        match = self.match
        if match is None:
            raise SystemExit("the oracle decides only where the arena shows it the match")
        # Every playout copies the template, hands included, so the true deal is put in once.
        template.hands = list(match.hands)

        def deal(rng: random.Random) -> None:
            pass

        return Worlds(template, deal, finish, scores)
