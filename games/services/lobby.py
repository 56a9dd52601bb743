"""Setting a match up: create, join, leave, bot seats, start."""

import secrets
from collections.abc import Collection, Sequence

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils.translation import gettext

from games.lib import clock
from games.lib.names import BOT_NAMES
from games.models import (
    Answer,
    BotLevel,
    ChallengeSeat,
    Match,
    MatchStatus,
    Seat,
    display_name_of,
)
from games.services import clocks, people
from games.services.errors import BadInput, Conflict, NotAllowed, TooManyOpen
from games.services.events import announce_lobby_after_commit, announce_notice_after_commit
from games.services.match_options import MatchOptions
from games.services.shuffles import Shuffle
from games.services.table import Changed, LockedTable
from games.services.writes import write_transaction


def _check_bot_levels(levels: Sequence[str]) -> None:
    unknown = [level for level in levels if level not in BotLevel.values]
    if unknown:
        raise BadInput(
            gettext("There is no bot level %(level)r: choose easy, normal or strong.")
            % {"level": unknown[0]}
        )


def check_open_matches(user: User) -> None:
    """Refuse a player one more open match than MAX_OPEN_MATCHES_PER_PLAYER (created or joined).

    Open matches cost every lobby visit a row, and nothing else ends them: the cap keeps one
    account from filling the lobby. The player's row is locked first, so two requests of the
    same player at once are counted one after the other (PostgreSQL; SQLite's transactions
    already are).
    """
    get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
    cap = settings.MAX_OPEN_MATCHES_PER_PLAYER
    if Seat.objects.filter(user=user, match__status=MatchStatus.OPEN).count() >= cap:
        raise TooManyOpen(
            gettext(
                "You may have at most %(cap)s open matches at once: start one, or leave one, first."
            )
            % {"cap": cap}
        )


def new_match_row(creator: User, options: MatchOptions, **fields: object) -> Match:
    """Create a match's row from the options, with a newly drawn secret (no seats yet)."""
    return Match.objects.create(
        created_by=creator,
        rules=options.rule_set().to_dict(),
        is_private=options.private,
        auto_finish=options.auto_finish,
        free_chat=options.free_chat,
        **Shuffle.draw().fields(),
        **options.time_control(),
        # A public rating would tell what a private match did (games/services/results.py).
        rated=options.rated and not options.private,
        **fields,
    )


def create_match(user: User, options: MatchOptions) -> Match:
    """Create a match with the creator in seat 0 and bots in the last `bots` seats."""
    options.rule_set()  # the engine refuses bad rules before anything is written
    if not 0 <= options.bots < options.players:
        raise BadInput(
            gettext("Choose between 0 and %(most)s bots.") % {"most": options.players - 1}
        )
    clocks.check_time_control(options.decision_seconds, options.bank_seconds)
    _check_bot_levels(options.bot_levels)
    with write_transaction():
        if options.bots < options.players - 1:  # against bots alone, it starts at once
            check_open_matches(user)
        match = new_match_row(user, options)
        first_bot = options.players - options.bots
        Seat.objects.bulk_create(
            Seat(
                match=match,
                position=position,
                user=user if position == 0 else None,
                controller=Seat.Controller.BOT if position >= first_bot else Seat.Controller.PERSON,
                bot_name=BOT_NAMES[position] if position >= first_bot else "",
                bot_level=(
                    options.bot_level(position - first_bot)
                    if position >= first_bot
                    else BotLevel.EASY
                ),
            )
            for position in range(options.players)
        )
        if options.bots == options.players - 1:
            table = LockedTable.lock(match.pk)
            table.start()
            return table.save().match
        announce_lobby_after_commit()  # a new open match to list
    return match


def start_seated_match(
    creator: User,
    options: MatchOptions,
    users: Sequence[User | None],
    shuffle: Shuffle,
    resigned: Collection[int] = (),
) -> Match:
    """Create a match with these people in seat order, deal from `shuffle`'s secret, and start it.

    Matches with the same secret and table size get the same deals, hand for hand: that is how
    a tournament's tables play duplicate deals. A user given as None is a bot's seat; the
    seats at the `resigned` positions keep their player's name but a bot plays them.
    """
    rules = options.rule_set(len(users))
    with write_transaction():
        match = Match.objects.create(
            created_by=creator,
            rules=rules.to_dict(),
            # Watched from the tournament's page; it starts at once, so the lobby never lists it.
            is_private=False,
            auto_finish=options.auto_finish,
            **shuffle.fields(),
            **options.time_control(),
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                position=position,
                user=user,
                controller=Seat.Controller.PERSON if user is not None else Seat.Controller.BOT,
                bot_name="" if user is not None else BOT_NAMES[position],
                resigned=position in resigned,
            )
            for position, user in enumerate(users)
        )
        table = LockedTable.lock(match.pk)
        table.start()
        return table.save().match


def _open_table(match_id: int) -> LockedTable:
    table = LockedTable.lock(match_id)
    if table.match.status != MatchStatus.OPEN:
        raise Conflict(gettext("This match has already started."))
    return table


def _require_creator(table: LockedTable, user: User) -> None:
    if table.match.created_by_id != user.pk:
        raise NotAllowed(gettext("Only the player who created this match can change its seats."))


def kept_positions(match_id: int) -> set[int]:
    """Return the positions of the seats kept for challenged people who have not answered."""
    return set(ChallengeSeat.kept_at(match_id).values_list("position", flat=True))


def _free_seats(table: LockedTable) -> list[Seat]:
    """Return the empty seats anyone may take: not those kept for a challenged person."""
    kept = kept_positions(table.match.pk)
    return [seat for seat in table.seats if seat.is_empty and seat.position not in kept]


def end_invitations(match_id: int) -> None:
    """Withdraw the unanswered invitations of a match that starts or is called off."""
    ChallengeSeat.kept_at(match_id).update(answer=Answer.CANCELLED, answered_at=clock.now())


def call_off(table: LockedTable, user: User) -> None:
    """The creator calls an open match off: it is abandoned and its kept seats withdrawn.

    Whoever was named in its challenge and had not declined hears of it once committed.
    """
    match_id = table.match.pk
    told = list(
        ChallengeSeat.objects.filter(
            challenge__match_id=match_id, answer__in=(Answer.PENDING, Answer.ACCEPTED)
        ).values_list("invitee_id", flat=True)
    )
    table.match.status = MatchStatus.ABANDONED
    end_invitations(match_id)
    if told:
        by = display_name_of(user)
        announce_notice_after_commit(match_id, told, "challenge_cancelled", "", by=by)


def start_if_full(table: LockedTable) -> None:
    """Start the match once no seat is empty (a kept seat is empty until its person accepts)."""
    if not any(seat.is_empty for seat in table.seats):
        table.start()


@write_transaction()
def join_match(user: User, match_id: int, invite_code: str = "") -> Changed:
    """Take the first empty seat; the match starts once every seat is taken."""
    table = _open_table(match_id)
    match = table.match
    if table.seat_of(user) is not None:
        raise Conflict(gettext("You already have a seat in this match."))
    # Compared as bytes: `compare_digest` refuses str with non-ASCII characters (a TypeError).
    given = (invite_code or "").encode()
    if match.is_private and not secrets.compare_digest(given, match.invite_code.encode()):
        raise NotAllowed(gettext("This match is private: you need its invite link to join."))
    people.check_may_sit_with(user, [s.user_id for s in table.seats if s.user_id is not None])
    if ChallengeSeat.objects.filter(
        challenge__match_id=match_id, invitee=user, answer=Answer.PENDING
    ).exists():
        raise Conflict(
            gettext("A seat is kept for you here: accept the challenge on your Challenges page.")
        )
    empty = _free_seats(table)
    if not empty:
        raise Conflict(gettext("Every seat in this match is taken."))
    if len(empty) > 1:  # taking the last seat starts the match: no open match more
        check_open_matches(user)
    seat = empty[0]
    seat.user = user
    seat.save(update_fields=["user"])
    start_if_full(table)
    return table.save()


@write_transaction()
def leave_match(user: User, match_id: int) -> Changed:
    """Give up a seat before the match starts; the creator leaving cancels the match."""
    table = _open_table(match_id)
    seat = table.seat_of(user)
    if seat is None:
        raise Conflict(gettext("You do not have a seat in this match."))
    if table.match.created_by_id == user.pk:
        call_off(table, user)
    else:
        seat.user = None
        seat.save(update_fields=["user"])
    return table.save()


@write_transaction()
def add_bot(
    user: User, match_id: int, position: int | None = None, level: str = BotLevel.NORMAL
) -> Changed:
    """Seat a bot of a level in an empty seat (the first one unless given); a full table starts."""
    _check_bot_levels([level])
    table = _open_table(match_id)
    _require_creator(table, user)
    empty = _free_seats(table)
    if position is not None:
        empty = [seat for seat in empty if seat.position == position]
    if not empty:
        raise Conflict(gettext("There is no empty seat for a bot there."))
    seat = empty[0]
    seat.controller = Seat.Controller.BOT
    seat.bot_name = BOT_NAMES[seat.position]
    seat.bot_level = level
    seat.save(update_fields=["controller", "bot_name", "bot_level"])
    start_if_full(table)
    return table.save()


@write_transaction()
def remove_bot(user: User, match_id: int, position: int) -> Changed:
    """Free a bot's seat for a person."""
    table = _open_table(match_id)
    _require_creator(table, user)
    seat = next((s for s in table.seats if s.position == position and s.is_bot), None)
    if seat is None:
        raise BadInput(gettext("There is no bot in that seat."))
    seat.controller = Seat.Controller.PERSON
    seat.bot_name = ""
    seat.save(update_fields=["controller", "bot_name"])
    return table.save()


@write_transaction()
def start_match(user: User, match_id: int) -> Changed:
    """Fill every empty seat with a bot and deal the first hand.

    Seats kept for challenged people who have not answered go to bots too: starting now is
    the creator's answer to the wait.
    """
    table = _open_table(match_id)
    _require_creator(table, user)
    end_invitations(match_id)
    for seat in table.seats:
        if seat.is_empty:
            seat.controller = Seat.Controller.BOT
            seat.bot_name = BOT_NAMES[seat.position]
            seat.save(update_fields=["controller", "bot_name"])
    table.start()
    return table.save()
