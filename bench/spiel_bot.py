"""OpenSpiel's IS-MCTS (1,000 simulations, random rollouts) as an arena bot, four players only.

It plays every card by IS-MCTS; its pass is the baseline's (see `choose`).

For each decision the bot rebuilds, from its seat's view only, an OpenSpiel Hearts state its
seat could not tell from the real one: the hidden hands are a deal drawn consistently with the
view (sampling.py), the other seats' passes are chosen to fit it, then the history is replayed
(pass direction, deal, passes, tricks). IS-MCTS resamples the hidden cards itself from that
state's information set, so the drawn deal only has to be possible.

Needs the optional `open_spiel` package (`pip install -e '.[spiel]'`).
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from games.engine.bots import BaselineBot, moon_choice
from games.engine.bots.sampling import knowledge, sample_hands
from games.engine.cards import CARDS, indices_of
from games.engine.phases import MOON, PASSING, PLAYING
from games.engine.record import moon_decision, play_decision
from games.engine.views import SeatView

SIMULATIONS = 1000
UCT_C = 2.0
# OpenSpiel's pass-direction chance actions: no pass, left (+1), across (+2), right (+3).
PASS_ACTION = {1: 1, 2: 2, 3: 3, 0: 0}


def to_spiel(index: int) -> int:
    """Return OpenSpiel's card id (rank * 4 + suit) for this engine's index (suit * 13 + rank)."""
    return (index % 13) * 4 + index // 13


def from_spiel(card: int) -> int:
    """Return this engine's card index for OpenSpiel's card id."""
    return (card % 4) * 13 + card // 4


class IsmctsBot:
    """OpenSpiel's IS-MCTS deciding for one seat of a four-player table."""

    def __init__(self, seed: int, players: int) -> None:
        if players != 4:
            raise SystemExit("OpenSpiel's Hearts is for four players only")
        self.game = pyspiel.load_game("hearts")
        seed %= 2**31  # OpenSpiel takes a C int
        self.evaluator = evaluator = pyspiel.RandomRolloutEvaluator(1, seed)  # keep it alive
        self.bot = pyspiel.ISMCTSBot(
            seed,
            evaluator,
            UCT_C,
            SIMULATIONS,
            -1,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,
            False,
        )
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> dict[str, Any]:
        """Return the IS-MCTS decision for the seat's view."""
        if view.phase == MOON:
            return moon_decision(view.seat, moon_choice(view))
        if view.phase == PASSING:
            # OpenSpiel 2.0.2's Hearts crashes (a segmentation fault in ResampleFromInfostate)
            # when IS-MCTS decides a pass after another seat has passed, so it passes as the
            # baseline does; every card it plays is its own.
            return BaselineBot().choose(view)
        if view.phase == PLAYING:
            action = self.bot.step(self._playing_state(view))
            return play_decision(view.seat, CARDS[from_spiel(action)])
        raise ValueError("nothing to decide")

    def _start(self, view: SeatView, dealt: list[int]) -> pyspiel.State:
        state = self.game.new_initial_state()
        offset = view.rules.pass_offset(view.hand_no)
        state.apply_action(PASS_ACTION[offset])
        cards = [indices_of(m) for m in dealt]
        for i in range(13):
            for seat in range(4):
                state.apply_action(to_spiel(cards[seat][i]))
        return state

    def _playing_state(self, view: SeatView) -> pyspiel.State:
        me = view.seat
        k = knowledge(view)
        hands = sample_hands(k, self.rng)
        # Each seat's hand when play began: what it holds now and what it has played.
        start = list(hands)
        for trick in view.tricks:
            for p in trick.plays:
                start[p.seat] |= 1 << p.card.index
        for p in view.trick:
            start[p.seat] |= 1 << p.card.index
        offset = view.rules.pass_offset(view.hand_no)
        passes: list[int] = [0] * 4
        if offset:
            assert view.passed is not None and view.received is not None
            passes[me] = sum(1 << c.index for c in view.passed)
            passes[(me - offset) % 4] = sum(1 << c.index for c in view.received)
            for seat in range(4):
                if seat not in (me, (me - offset) % 4):
                    # Any three cards of the receiver's starting hand (not ours) could be them.
                    receiver = (seat + offset) % 4
                    pool = indices_of(start[receiver])
                    passes[seat] = sum(1 << c for c in self.rng.sample(pool, 3))
        dealt = [start[s] & ~passes[(s - offset) % 4] | passes[s] for s in range(4)]
        if not offset:
            dealt = start
        state = self._start(view, dealt)
        for seat in range(4 if offset else 0):
            for card in indices_of(passes[seat]):
                state.apply_action(to_spiel(card))
        for trick in view.tricks:
            for p in trick.plays:
                state.apply_action(to_spiel(p.card.index))
        for p in view.trick:
            state.apply_action(to_spiel(p.card.index))
        assert state.current_player() == me
        return state
