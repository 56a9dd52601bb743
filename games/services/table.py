"""One locked match being changed: the engine state, the seats, and the rows a change adds.

Every service that changes a match goes through `LockedTable`: lock the row, load the engine
state from the snapshot, apply decisions (each appended to the action log), let bots and the
automatic plays move until a person must decide, then save the snapshot, the new version, the
log, the score sheet and who is to act, in the one transaction the caller opened.
"""

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import engine
from games.lib import clock, metrics
from games.models import Action, BotLevel, Hand, Match, MatchStatus, ScoreLine, Seat
from games.models.profiles import wants_forced_play
from games.services import clocks, records, results, shuffles, states
from games.services.errors import (
    Conflict,
    NotAllowed,
    NotFound,
    StaleVersion,
    from_engine,
)
from games.services.events import (
    announce_after_commit,
    announce_bots_due_after_commit,
    announce_deadlines_after_commit,
    announce_lobby_after_commit,
)

BOT = engine.BaselineBot()
# The bot that decides for a person whose time ran out: the strongest the site has (a search
# over sampled deals of what that seat may know, `games/engine/bots/search.py`).
TIMEOUT_BOT = engine.bot_for_level("strong")
# Levels whose bots search before playing a card (tens of milliseconds): nobody waits on them,
# their plays are made in the background (`bot_turns.py`). Their passes and moon choices take
# no search and are made at once. A seat its player left is played at the strongest level.
# The match columns a change may touch; the rest (rules, options, deals) are set at creation.
CHANGING_FIELDS = [
    "status", "started_at", "finished_at", "hand_no", "current_hand", "next_seq", "snapshot",
    "version", "bots_due_since",
]  # fmt: skip
SEAT_CHANGES = [
    "to_act", "waiting_since", "deadline", "bank_left", "timeouts_in_a_row", "resigned",
    "left_on_time", "paused_left", "remind_at", "reminded",
]  # fmt: skip


STALE_TABLE = _("The table has changed since you last looked. Here it is as it stands now.")


def decision_value(decision: engine.Decision) -> tuple[str, str]:
    """Return the log's (kind, value) for an engine decision; pass cards in a fixed order."""
    return decision.kind, str(decision)


@dataclass(frozen=True)
class Changed:
    """A match as a change left it, with what showing it needs, so that nothing is read again.

    `closed_trick` is the last trick of a hand the change closed, as (hand number, trick),
    shown until the next hand completes a trick; `sheet_changed` says whether a hand (or the
    match) ended, adding to the score sheet.
    """

    match: Match
    state: engine.Match | None
    seats: tuple[Seat, ...]
    closed_trick: tuple[int, engine.TrickView] | None
    sheet_changed: bool


class LockedTable:
    """A match row locked for update, with what one change needs to read and write."""

    def __init__(self, match: Match, seats: list[Seat]) -> None:
        self.match = match
        self.seats = seats
        self.state: engine.Match | None = (
            states.load(match.pk, match.snapshot) if match.snapshot else None
        )
        self._actions: list[Action] = []
        self._score_lines: list[ScoreLine] = []
        self._finished_hands: list[int] = []  # the rows of the hands this change ended
        # The last trick of a hand this change closed, as (hand number, trick), if any.
        self._closed_trick: tuple[int, engine.TrickView] | None = None
        self._seats_before = {seat.pk: _turn_marks(seat) for seat in self.seats}
        self._decided: set[int] = set()  # the seats that made a decision in this change
        self._before = (match.hand_no, match.status)
        self._new_version = match.version + 1
        self._now = clock.now()

    @classmethod
    def lock(cls, match_id: int) -> "LockedTable":
        """Lock the match row for the rest of the transaction and load it and its seats.

        The seats are read once the lock is held, so they are as the last change to the match
        left them (on PostgreSQL a row joined to the locked one would be read as it stood
        before the wait). The snapshot holds the cards, and the match's row the hand in play.
        """
        match = Match.objects.select_for_update(of=("self",)).filter(pk=match_id).first()
        if match is None:
            raise NotFound(gettext("There is no such match."))
        seats = list(
            Seat.objects.filter(match=match).select_related("user__profile").order_by("position")
        )
        for seat in seats:
            seat.match = match  # the locked instance, not a second copy read on demand
        return cls(match, seats)

    @property
    def now(self) -> datetime:
        """The moment this change is made at: every time it writes is this one."""
        return self._now

    @property
    def game(self) -> engine.Match:
        """The engine state of a match that has started."""
        assert self.state is not None, "the match has not started"
        return self.state

    # ----- who is asking -----

    def seat_of(self, user: User) -> Seat | None:
        """Return the seat the user plays at (not one they resigned), if any."""
        return next((s for s in self.seats if s.is_held_by(user) and not s.resigned), None)

    def require_seat(self, user: User) -> Seat:
        """Return the user's seat, or refuse: only seated players act."""
        seat = self.seat_of(user)
        if seat is None:
            raise NotAllowed(gettext("You are not playing in this match."))
        return seat

    def require_in_play(self) -> None:
        """Refuse any move unless the match is being played."""
        if self.match.status == MatchStatus.OPEN:
            raise Conflict(gettext("The match has not started yet."))
        if self.match.is_over:
            raise Conflict(gettext("This match is over: no more moves can be made."))

    def check_version(self, seen: int, seat: Seat, decision: engine.Decision) -> bool:
        """Refuse a move made on an old table; say True if it is an exact repeat already applied.

        A double click or a second tab sends the same move twice with the same version: the
        first is applied, the repeat is recognised in the log and answered as a success.
        """
        if seen == self.match.version:
            return False
        kind, value = decision_value(decision)
        if kind == "pass":
            return self._check_pass(seen, seat, value)
        repeated = Action.objects.filter(
            match=self.match,
            version=seen + 1,
            seat=seat.position,
            kind=kind,
            value=value,
            actor=Action.Actor.PERSON,
        ).exists()
        if repeated:
            return True
        raise StaleVersion(str(STALE_TABLE))

    def _check_pass(self, seen: int, seat: Seat, value: str) -> bool:
        """Accept a pass made on an older table if only other seats' passes came since.

        Passing is simultaneous (R2): the others passing changes nothing this seat chose
        from, so it is no reason to refuse. Anything else since (a card played, a new hand)
        is. A repeat of this seat's own pass is recognised, however many passes came between.
        """
        hand_id = self.match.current_hand_id
        if seen > self.match.version or hand_id is None:
            raise StaleVersion(str(STALE_TABLE))
        repeated = Action.objects.filter(
            hand_id=hand_id,
            version__gt=seen,
            seat=seat.position,
            kind=Action.Kind.PASS,
            value=value,
            actor=Action.Actor.PERSON,
        ).exists()
        if repeated:
            return True
        since = Action.objects.filter(match=self.match, version__gt=seen)
        others_passes = Q(hand_id=hand_id, kind=Action.Kind.PASS) & ~Q(seat=seat.position)
        if since.exclude(others_passes).exists():
            raise StaleVersion(str(STALE_TABLE))
        return False

    # ----- changing the match -----

    def apply(self, decision: engine.Decision, actor: str) -> None:
        """Apply one decision through the engine's checked door and log it."""
        game, match = self.game, self.match
        assert match.current_hand_id is not None, "no hand has been dealt"
        try:
            self.game.apply(decision)
        except engine.NotYourTurn as error:
            if isinstance(decision, engine.Play) and game.phase == engine.PLAYING:
                # The engine counts seats from 0; a player knows the others by name.
                who = self.seats[game.turn].name
                raise Conflict(
                    gettext("It is not your turn: %(name)s plays next.") % {"name": who}, error.rule
                ) from None
            raise from_engine(error) from None
        except engine.EngineError as error:
            raise from_engine(error) from None
        if actor == Action.Actor.PERSON:
            clocks.settle(self.seats[decision.seat], match, self._now)
        self._decided.add(decision.seat)
        kind, value = decision_value(decision)
        self._actions.append(
            Action(
                match_id=match.pk,
                hand_id=match.current_hand_id,
                seq=match.next_seq,
                seat=decision.seat,
                kind=kind,
                value=value,
                actor=actor,
                version=self._new_version,
            )
        )
        match.next_seq += 1

    def is_bot(self, position: int) -> bool:
        seat = self.seats[position]
        return seat.is_bot or seat.resigned

    def bot_level(self, position: int) -> str | None:
        return self.seats[position].playing_level

    def bot_decision(self, position: int) -> engine.Decision:
        """Return a bot's decision for a seat, made at once (a search bot's pass or moon choice)."""
        level = self.bot_level(position)
        if level is None or level == BotLevel.EASY:
            return BOT.choose(self.game.view(position))
        # The match's bot seed: never its secret, from which no deal can be computed.
        bot = engine.bot_for_level(level, seed=self.match.seed)
        return bot.choose(self.game.view(position))

    def searching_bot_to_play(self) -> int | None:
        """Return the seat whose bot must search for its next card, if one is to play now."""
        state = self.state
        if (
            self.match.status != MatchStatus.ACTIVE
            or state is None
            or state.phase != engine.PLAYING
        ):
            return None
        position = state.turn
        if not self.is_bot(position) or not self.seats[position].bot_searches:
            return None
        return position

    def start(self) -> None:
        """Begin play: the first hand is dealt and bots make their first decisions."""
        self.state = engine.Match.new(self.match.rule_set)
        self.match.status = MatchStatus.ACTIVE
        self.match.started_at = self._now
        clocks.fill_banks(self.seats, self.match)
        self._start_next_hand()
        self.advance()

    def advance(self) -> None:
        """Let bots and automatic plays move until a person must decide or the match ends."""
        state = self.game
        assert state is not None
        while True:
            phase = state.phase
            if phase == engine.PASSING:
                bots = [s for s in state.to_act() if self.is_bot(s)]
                if not bots:
                    return
                for position in bots:
                    self.apply(self.bot_decision(position), Action.Actor.BOT)
            elif phase == engine.PLAYING:
                decision, actor = self._automatic_play(state.turn)
                if decision is None:
                    return
                self.apply(decision, actor)
            elif phase == engine.MOON:
                shooter = state.shooter
                assert shooter is not None  # the moon phase is the shooter's
                if not self.is_bot(shooter):
                    return
                self.apply(self.bot_decision(shooter), Action.Actor.BOT)
            elif phase == engine.HAND_OVER:
                self._close_hand()
                self._start_next_hand()
            else:  # FINISHED
                self._close_hand()
                self._finish()
                return

    def _automatic_play(self, position: int) -> tuple[engine.Decision | None, str]:
        state = self.game
        if self.is_bot(position):
            if self.seats[position].bot_searches:
                return None, ""  # played in the background: see `bot_turns.py`
            return BOT.choose(state.view(position)), Action.Actor.BOT
        legal = state.legal_plays(position)
        forced = len(legal) == 1 and self.match.auto_play_forced
        user = self.seats[position].user
        if forced and user is not None and wants_forced_play(user):
            return engine.Play(position, legal[0]), Action.Actor.FORCED
        # Once no heart or Q♠ is left to play, no card can change a score.
        if self.match.auto_finish and not state.points_in_play:
            return engine.Play(position, legal[0]), Action.Actor.PLAYOUT
        return None, ""

    def _start_next_hand(self) -> None:
        number = self.game.hand_no + 1
        deal, seed = shuffles.deal(self.match, self.game.rules, number)
        self.game.start_hand(deal)
        self.match.current_hand = Hand.objects.create(
            match=self.match,
            number=number,
            pass_direction=self.game.pass_direction,
            deal=deal.to_dict(),
            seed=seed,
        )
        self.match.hand_no = number
        self.match.next_seq = 0

    def _close_hand(self) -> None:
        row = self.game.sheet[-1]
        tricks = self.game.public_view().tricks
        queen = records.queen_taker(tricks)
        self._score_lines.extend(
            ScoreLine(
                match=self.match,
                hand_number=self.game.hand_no,
                seat=position,
                points_taken=row.points[position],
                score=row.scores[position],
                total=row.totals[position],
                shot_moon=row.moon == position,
                moon_option=(row.moon_option or "") if row.moon == position else "",
                took_queen=position == queen,
            )
            for position in range(self.game.n)
        )
        # Shown until the next hand completes a trick; handed on so it need not be read back.
        self._closed_trick = (self.game.hand_no, tricks[-1])
        assert self.match.current_hand_id is not None, "no hand has been dealt"
        self._finished_hands.append(self.match.current_hand_id)

    def _finish(self) -> None:
        outcome = self.game.outcome()
        totals = outcome.totals
        self.match.status = MatchStatus.FINISHED
        self.match.finished_at = self._now
        by_position = sorted(self.seats, key=lambda seat: seat.position)
        # The match's one result, read everywhere else (`games/services/results.py`).
        places = results.places(outcome, [s.has_left for s in by_position])
        for seat, place in zip(by_position, places, strict=True):
            seat.final_total = totals[seat.position]
            seat.rank = place
        Seat.objects.bulk_update(self.seats, ["final_total", "rank"])

    # ----- saving -----

    def save(self) -> "Changed":
        """Write the log, the score sheet, the hands, the snapshot and version, and who acts now;
        then queue the news of it for after the commit.

        Return what the change left, for whoever shows it next.
        """
        bots_due = self.searching_bot_to_play() is not None
        turns_changed = self._write(bots_due)
        self._announce(turns_changed, bots_due)
        match = self.match
        return Changed(
            match=match,
            state=self.state,
            seats=tuple(self.seats),
            closed_trick=self._closed_trick,
            sheet_changed=self._before != (match.hand_no, match.status),
        )

    def _write(self, bots_due: bool) -> list[Seat]:
        """Write every row the change made; return the seats whose turn marks changed."""
        match = self.match
        match.snapshot = self.state.snapshot() if self.state else None
        match.version = self._new_version
        if not bots_due:
            match.bots_due_since = None
        elif match.bots_due_since is None or self._decided:
            match.bots_due_since = self._now  # a new decision is owed: its wait starts now
        turns_changed = self._update_turns()
        Action.objects.bulk_create(self._actions)
        ScoreLine.objects.bulk_create(self._score_lines)
        if match.status == MatchStatus.FINISHED and self._before[1] != MatchStatus.FINISHED:
            # In the transaction that ends the match: the figures commit with its result
            # (or, for a table whose deals other tables still play, when its round closes).
            records.record_when_final(match, self.seats)
        if self._finished_hands:
            Hand.objects.filter(pk__in=self._finished_hands).update(finished_at=self._now)
        _write_seats(turns_changed)
        match.save(update_fields=[*CHANGING_FIELDS, "updated_at"])
        played = Counter(a.actor for a in self._actions if a.kind == Action.Kind.PLAY)
        if played:
            # Counted once committed: a change refused or rolled back played nothing.
            transaction.on_commit(lambda: metrics.count_cards(dict(played)))
        if self.state is not None and match.snapshot is not None:
            # A copy taken now: whatever happens to this state later, the kept one is as saved.
            pk, snapshot, saved = match.pk, match.snapshot, self.state.copy()
            transaction.on_commit(lambda: states.keep(pk, snapshot, saved))
        return turns_changed

    def _announce(self, turns_changed: list[Seat], bots_due: bool) -> None:
        """Queue, for after the commit, what the change tells: new deadlines, bots to move,
        whose turn it is now, and the lobby when a match opens, fills or ends."""
        match = self.match
        deadlines = [
            (seat.position, seat.deadline)
            for seat in turns_changed
            if seat.deadline is not None and seat.deadline != self._seats_before[seat.pk][2]
        ]
        if deadlines:
            announce_deadlines_after_commit(match.pk, deadlines)
        if bots_due:
            announce_bots_due_after_commit(match.pk)
        to_act = [s.user_id for s in self.seats if s.to_act and s.user_id]
        # A player still choosing a pass while others pass is not told again: only a new turn.
        became = [
            s.user_id
            for s in self.seats
            if s.to_act and s.user_id and not self._seats_before.get(s.pk, (False,))[0]
        ]
        announce_after_commit(match.pk, match.version, to_act, match.status, became)
        if match.status == MatchStatus.OPEN or match.status != self._before[1]:
            announce_lobby_after_commit()  # its seats, or which list it belongs in

    def unchanged(self) -> "Changed":
        """Return the table as it stands, for a move already made (sent twice) that changed
        nothing; its score sheet may be out of date on the page, so say it changed."""
        return Changed(self.match, self.state, tuple(self.seats), None, sheet_changed=True)

    def _update_turns(self) -> list[Seat]:
        """Mark who must act now, since when and until when; return the seats whose marks changed.

        A seat that decided in this change and must decide again (it won the trick and
        leads) owes a new decision: its wait, and its clock, start again.
        """
        waiting = set()
        if self.state is not None and self.match.status == MatchStatus.ACTIVE:
            waiting = {p for p in self.state.to_act() if not self.is_bot(p)}
        changed = []
        for seat in self.seats:
            to_act = seat.position in waiting
            seat.to_act = to_act
            if to_act and (seat.waiting_since is None or seat.position in self._decided):
                seat.waiting_since = self._now
                clocks.start(seat, self.match, self._now)
            elif not to_act:
                seat.waiting_since = None
                clocks.stop(seat)
            if _turn_marks(seat) != self._seats_before.get(seat.pk):
                changed.append(seat)
        return changed


def _write_seats(seats: list[Seat]) -> None:
    """Write the seats' turn marks: a card usually changes one seat, written by a plain UPDATE.

    `bulk_update` writes several rows in one statement, but builds a CASE expression per
    field, which costs a few milliseconds of Python even for one row.
    """
    if len(seats) == 1:
        seat = seats[0]
        Seat.objects.filter(pk=seat.pk).update(**{f: getattr(seat, f) for f in SEAT_CHANGES})
    elif seats:
        Seat.objects.bulk_update(seats, SEAT_CHANGES)


def _turn_marks(seat: Seat) -> tuple[object, ...]:
    """What `_update_turns` and a timeout may change on a seat, to tell which seats to write."""
    return (
        seat.to_act, seat.waiting_since, seat.deadline, seat.bank_left, seat.timeouts_in_a_row,
        seat.resigned, seat.left_on_time, seat.paused_left, seat.remind_at, seat.reminded,
    )  # fmt: skip
