"""No page ever shows a card its viewer may not see (R6.3), over whole matches; and nothing
anywhere shows what the deals come from until they are revealed.

(Tables sharing duplicate deals are scanned for cards in
`tests/tournaments/test_duplicate_deal_secrecy.py`, and for their shared secret here.)

Whole matches are played through the views by one, two or three people (each through their
own client) and bots, at several table sizes. After every move, every page a person or a
spectator can ask for is scanned for the markers of each card hidden from that viewer at that
moment: cards in another seat's hand, and another seat's pass before everyone has passed.

Every answer (pages, regions, the verification page and record, the admin's pages for staff),
every socket frame and every e-mail is also scanned for the match's shuffle secret and the
seed of every hand it deals, played or to come (`deal_secrets`): with either, anyone could
compute deals not yet played. None may appear before the secret is revealed, when the match
and every table sharing its deals are over; the secret then appears on the verification page
only.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from channels.db import database_sync_to_async
from django.core import mail
from django.urls import reverse

from games import engine
from games.engine.cards import cards_from_mask
from games.engine.records import shuffle
from games.models import Action, Hand, Match
from games.notifications.tasks import ensure_digest_scheduled
from games.services import nudges
from games.services import tournaments as tours
from tests.async_helpers import run_async
from tests.factories import HTMX, client_for, make_match, next_move, seat_of, state_of
from tests.live_helpers import connect, receive_until
from tests.notify_helpers import all_text, opt_in, run_due_tasks
from tests.service_helpers import act
from tests.tournaments.test_duplicate_deal_secrecy import move_once, start_round_of_two_tables


def hidden_from(state: engine.Match, viewer: int | None) -> tuple[engine.Card, ...]:
    """Return the cards the viewer (a seat, or None for a spectator) may not see now."""
    mask = 0
    for seat in range(state.n):
        if seat == viewer:
            continue
        mask |= state.hands[seat]
        passed = state.passes[seat]
        if passed is not None and state.phase == engine.PASSING:
            mask |= passed  # chosen, not yet handed over: nobody else may see it (R2.2)
    if viewer is not None and state.passes[viewer] is not None:
        mask &= ~state.passes[viewer]  # a player always knows what they passed
    if isinstance(state, engine.CancellationMatch) and state.phase != engine.FINISHED:
        mask |= state.widow  # face down until the hand is over (R5.2), even for its taker
    return cards_from_mask(mask)


def markers(card: engine.Card, two_decks: bool = False) -> tuple[str, ...]:
    """Return the text forms by which a rendered card could be found in a page.

    With two decks a card's words name both copies, one of which may be in sight: its code
    (QS, QS2) alone tells them apart.
    """
    codes = (f'data-card="{card}"', f'value="{card}"', f'id="pass-{card}"')
    return codes if two_decks else (*codes, card.words)


def assert_hides(html: str, state: engine.Match, viewer: int | None, where: str) -> None:
    for card in hidden_from(state, viewer):
        for marker in markers(card, state.rules.two_decks):
            assert marker not in html, f"{where}: {marker!r} shown to seat {viewer}"


# More hands than any scanned match deals: the seeds of hands still to come are secrets too.
MOST_HANDS = 100
# A run of hexadecimal digits long enough to hold a secret or a seed (decimal ones included).
HEX_RUN = re.compile(r"[0-9A-Fa-f]{12,}")


def secret_for(seed: int) -> str:
    """Return a fixed secret for a scanned match, so each run deals the same cards."""
    return hashlib.sha256(f"leak-scan:{seed}".encode()).hexdigest()


def deal_secrets(match: Match) -> frozenset[str]:
    """Return every text from which a deal of the match could be computed: its secret, and
    the seed of each hand it deals (played or to come), in decimal and in hexadecimal."""
    assert match.secret, "a match dealt from a secret"
    seeds = [shuffle.hand_seed(match.secret, n) for n in range(1, MOST_HANDS + 1)]
    return frozenset([match.secret, *map(str, seeds), *(f"{seed:x}" for seed in seeds)])


def leaked_secrets(text: str, secrets: frozenset[str]) -> list[str]:
    """Return the secrets found in a text, in any case, within any run of hex digits."""
    runs = [run.lower() for run in HEX_RUN.findall(text)]
    return sorted({secret for run in runs for secret in secrets if secret in run})


def assert_keeps_secrets(text: str, secrets: frozenset[str], where: str) -> None:
    leaked = leaked_secrets(text, secrets)
    assert not leaked, f"{where}: shows {leaked[:3]} before the secret is revealed"


# The previous hand's last trick, shown until the hand in play completes its first trick.
PREVIOUS_TRICK = re.compile(
    r'<div class="last-trick">\s*<h3>Last trick of hand (\d+) .*?</div>', re.S
)


def without_previous_trick(html: str, match) -> str:
    """Cut the previous hand's last trick out of a page, once checked against the log.

    Its cards were played to a trick, so everyone may see them (R6.3); but a new deal has put
    the same cards in this hand's hands, and the scan knows cards only by name.
    """
    found = PREVIOUS_TRICK.search(html)
    if not found:
        return html
    assert int(found.group(1)) == match.hand_no - 1, "only the hand just before"
    log = Action.objects.filter(match=match, hand__number=match.hand_no - 1, kind="play")
    played = list(log.order_by("-seq").values_list("value", flat=True)[: match.players])[::-1]
    assert re.findall(r'data-card="(\w\w\w?)"', found.group(0)) == played, "not the last trick"
    return html[: found.start()] + html[found.end() :]


class Table:
    """A match with its people, each acting through their own client, and a spectator."""

    def __init__(
        self,
        make_user,
        players: int,
        people: int,
        target: int,
        seed: int,
        private: bool = False,
        **options,
    ) -> None:
        users = [make_user(f"player{i}", f"Player {i}") for i in range(people)]
        self.match = make_match(
            users[0],
            players=players,
            people=users[1:],
            target=target,
            secret=secret_for(seed),
            private=private,
            **options,
        )
        self.private = private
        self.clients = {
            self.match.seats.get(user=user).position: client_for(user) for user in users
        }
        self.spectator = client_for(make_user("watcher", "Watcher"))
        self.staff = client_for(make_user("boss", "Boss", is_staff=True, is_superuser=True))
        self.secrets = deal_secrets(self.match)
        self.scanned = 0

    def scan(self, response, viewer: int | None, where: str, *, staff: bool = False) -> None:
        assert response.status_code < 500, where
        if self.private and viewer is None and not staff:
            # An outsider of a private match finds nothing there at all.
            assert response.status_code == 404, where
        self.scanned += 1
        state = state_of(self.match)
        text = response.content.decode()
        # The match page never shows the secret, even once revealed: only the verification
        # page does, which is scanned as `look_around` asks for it.
        assert_keeps_secrets(text, self.secrets, where)
        html = without_previous_trick(text, self.match)
        assert_hides(html, state, viewer, where)

    def scan_admin(self, step: int) -> None:
        """Staff may be players too: the admin shows no card and no secret of a match in play."""
        match = self.match
        hand = Hand.objects.filter(match=match).order_by("-number").first()
        pages = {
            "match": reverse("admin:games_match_change", args=[match.pk]),
            "matches": reverse("admin:games_match_changelist"),
            "hand": reverse("admin:games_hand_change", args=[hand.pk]),
            "hands": reverse("admin:games_hand_changelist"),
            "log": reverse("admin:games_action_changelist"),
        }
        for name, url in pages.items():
            self.scan(self.staff.get(url), None, f"step {step}: admin {name}", staff=True)

    def scan_verification(self, client, viewer: int | None, step: int) -> None:
        """Before the end, the verification page and record refuse, showing no secret."""
        for name in ("verify_shuffle", "shuffle_record"):
            response = client.get(reverse(name, args=[self.match.pk]))
            self.scan(response, viewer, f"step {step}: {name}")
            if not (self.private and viewer is None):
                assert response.status_code == 403, f"step {step}: {name} before the end"

    def look_around(self, step: int) -> None:
        """Every viewer asks for every page; each answer is scanned."""
        self.match.refresh_from_db()
        url = self.match.get_absolute_url()
        scores = reverse("scores", args=[self.match.pk])
        viewers = [*self.clients.items(), (None, self.spectator)]
        for viewer, client in viewers:
            self.scan(client.get(url), viewer, f"step {step}: page")
            if step % 5 == 0:
                self.scan(client.get(url, **HTMX), viewer, f"step {step}: htmx regions")
                self.scan(client.get(scores), viewer, f"step {step}: score sheet")
                chat = reverse("chat", args=[self.match.pk])
                self.scan(client.get(chat, **HTMX), viewer, f"step {step}: chat region")
                # What a page showing the chat asks on news: the messages after one it shows.
                news = client.get(chat, {"after": "1"}, **HTMX)
                self.scan(news, viewer, f"step {step}: chat news")
                if self.match.status == "active":
                    self.scan_verification(client, viewer, step)
                    tricks = reverse("tricks_so_far", args=[self.match.pk])
                    self.scan(client.get(tricks), viewer, f"step {step}: this hand's tricks")
                    self.check_hand_records(client, viewer, step)
        if step % 5 == 0 and self.match.status == "active":
            self.scan_admin(step)

    def check_hand_records(self, client, viewer: int | None, step: int) -> None:
        """While the match is played, a hand's record and replay are for its players once
        it is over (R6.3): the hand in play is there for nobody, any hand for no spectator.

        They show every card of a past hand, which a new deal has put in this hand's hands,
        so the scan cannot look for cards by name there: it checks who gets them at all, and
        that they never carry the secret.
        """
        for number in range(1, self.match.hand_no + 1):
            url = reverse("hand_review", args=[self.match.pk, number])
            response = client.get(f"{url}?step=3")
            where = f"step {step}: hand {number}'s replay, seat {viewer}"
            over = Hand.objects.get(match=self.match, number=number).finished_at is not None
            expected = 200 if viewer is not None and over else 404
            assert response.status_code == expected, where
            assert_keeps_secrets(response.content.decode(), self.secrets, where)

    def check_revealed(self) -> None:
        """Once the match is over, the verification page shows the secret (the scan is live)."""
        self.match.refresh_from_db()
        assert self.match.status == "finished"
        client = next(iter(self.clients.values()))
        page = client.get(reverse("verify_shuffle", args=[self.match.pk])).text
        assert self.match.secret in leaked_secrets(page, self.secrets)
        # Every hand's record is now open to whoever may look at the match.
        last = reverse("hand_review", args=[self.match.pk, self.match.hand_no])
        expected = 404 if self.private else 200
        assert self.spectator.get(last).status_code == expected

    def play(self) -> None:
        for step in range(3000):
            self.match.refresh_from_db()
            if self.match.status != "active":
                return
            for position, client in self.clients.items():
                move = next_move(self.match, position)
                if move is None:
                    continue
                if step % 7 == 3:  # a stale repeat from another tab: refused, table shown
                    stale = {**move.data, "version": self.match.version - 1}
                    self.scan(client.post(move.url, stale, **HTMX), position, "stale")
                extra = HTMX if step % 2 else {}
                self.scan(client.post(move.url, move.data, **extra), position, f"step {step}")
                break
            self.look_around(step)
        raise AssertionError("the match did not end")


@pytest.mark.parametrize(
    ("players", "people", "seed"),
    [(4, 1, 3), (3, 2, 8), (5, 2, 13), (6, 3, 21)],
    ids=["4 seats, 1 person", "3 seats, 2 people", "5 seats, 2 people", "6 seats, 3 people"],
)
def test_no_page_shows_a_card_its_viewer_may_not_see(make_user, players, people, seed):
    table = Table(make_user, players=players, people=people, target=40, seed=seed)
    table.play()
    table.match.refresh_from_db()
    assert table.match.status == "finished"
    assert table.scanned > 50
    table.check_revealed()


@pytest.mark.parametrize(
    ("variant", "players", "people"),
    [("cancellation", 5, 2), ("cancellation", 7, 3), ("cancellation", 10, 2), ("omnibus", 4, 2)],
    ids=["cancellation 5 seats", "cancellation 7 seats", "cancellation 10 seats", "omnibus"],
)
def test_R5_no_page_of_a_variant_shows_a_card_or_the_widow_its_viewer_may_not_see(
    make_user, variant, players, people
):
    table = Table(
        make_user, players=players, people=people, target=100, seed=31, variant=variant, hands=1
    )
    table.play()
    table.match.refresh_from_db()
    assert table.match.status == "finished"
    assert table.scanned > 30


def test_an_outsider_of_a_private_match_finds_nothing_at_any_step(make_user):
    table = Table(make_user, players=4, people=2, target=30, seed=17, private=True)
    table.play()
    assert table.scanned > 50


def test_the_scan_would_catch_a_leak(make_user):
    """The check itself: a page showing another seat's card fails it."""
    table = Table(make_user, players=4, people=1, target=40, seed=3)
    state = state_of(table.match)
    other = state.hand(1)[0]
    with pytest.raises(AssertionError):
        assert_hides(f'<span data-card="{other}"></span>', state, 0, "planted")
    with pytest.raises(AssertionError):
        assert_hides(f"<p>{other.words}</p>", state, None, "planted")
    own = state.hand(0)[0]
    assert_hides(f'<span data-card="{own}">{own.words}</span>', state, 0, "own card")
    match = table.match
    later = str(shuffle.hand_seed(match.secret, 7))  # a hand not dealt yet
    for planted in (match.secret, match.secret.upper(), later, f"{int(later):x}"):
        with pytest.raises(AssertionError):
            assert_keeps_secrets(f"<p data-x='{planted}'>", table.secrets, "planted")
    assert_keeps_secrets(f"<code>{match.commitment}</code>", table.secrets, "commitment")


def test_a_pass_stays_hidden_until_everyone_has_passed(make_user):
    table = Table(make_user, players=4, people=2, target=40, seed=5)
    first, second = sorted(table.clients)
    move = next_move(table.match, first)
    passed = move.data["cards"]
    table.clients[first].post(move.url, move.data)
    table.match.refresh_from_db()
    for client in (table.clients[second], table.spectator):
        html = client.get(table.match.get_absolute_url()).text
        for text in passed:
            card = engine.Card.parse(text)
            assert f'data-card="{card}"' not in html and card.words not in html


# ----- the secret stays out of socket frames, e-mails, and tables sharing the deals -----


@pytest.mark.django_db(transaction=True)
def test_no_socket_frame_carries_the_secret_or_a_seed(make_user):
    player = make_user("player0", "Player 0")
    watcher = make_user("watcher", "Watcher")
    match = make_match(player, hands=1, secret=secret_for(31))
    secrets = deal_secrets(match)

    def act_if_active() -> bool:
        match.refresh_from_db()
        if match.status != "active":
            return False
        act(player, match, 0)
        return True

    async def scenario() -> list[dict]:
        sockets = [(await connect(user))[0] for user in (player, watcher)]
        frames: list[dict] = []
        for communicator in sockets:
            await communicator.send_json_to({"follow": match.pk})
            frames += await receive_until(communicator, lambda got: got[-1]["type"] == "following")
        while await database_sync_to_async(act_if_active)():
            for communicator in sockets:
                frames += await receive_until(
                    communicator, lambda got: got[-1]["type"] == "match.updated"
                )
        for communicator in sockets:
            await communicator.disconnect()
        return frames

    frames = run_async(scenario)
    assert len(frames) > 20 and frames[-1]["status"] == "finished"
    for frame in frames:
        assert_keeps_secrets(json.dumps(frame), secrets, f"socket frame {frame['type']}")


def test_no_email_carries_the_secret_or_a_seed(
    clock, make_user, settings, django_capture_on_commit_callbacks
):
    settings.NOTIFY_AWAY_SECONDS = 600
    alice = make_user("alice", "Alice", email="alice@example.com")
    bob = make_user("bob", "Bob", email="bob@example.com")
    for user in (alice, bob):
        opt_in(user, turn_emails=True, daily_digest=True)
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match(alice, people=[bob], secret=secret_for(32))
    run_due_tasks(clock.advance(seconds=600))  # turn e-mails, both being away
    with django_capture_on_commit_callbacks(execute=True):
        act(alice, match, seat_of(match, alice))
        nudges.nudge(alice, match.pk, clock.now())  # bob still owes his pass
    ensure_digest_scheduled()
    run_due_tasks(clock.advance(days=1))
    assert len(mail.outbox) >= 3, [message.subject for message in mail.outbox]
    for message in mail.outbox:
        assert_keeps_secrets(all_text(message), deal_secrets(match), message.subject)


def test_a_deal_group_keeps_its_secret_until_its_round_is_closed(make_user, db):
    tournament, (table1, table2) = start_round_of_two_tables()
    first, second = table1.match, table2.match
    assert first.secret == second.secret
    secrets = deal_secrets(first)
    viewers = {
        "its player": client_for(first.seats.get(position=0).user),
        "a player of the other table": client_for(second.seats.get(position=0).user),
        "an outsider": client_for(make_user("watcher", "Watcher")),
    }
    staff = client_for(make_user("boss", "Boss", is_staff=True, is_superuser=True))

    def urls(match: Match) -> list[str]:
        return [
            *(
                reverse(name, args=[match.pk])
                for name in ("match", "scores", "verify_shuffle", "chat")
            ),
            reverse("shuffle_record", args=[match.pk]),
        ]

    def admin_urls(match: Match) -> list[str]:
        hand = Hand.objects.filter(match=match).order_by("-number").first()
        return [
            reverse("admin:games_match_change", args=[match.pk]),
            reverse("admin:games_hand_change", args=[hand.pk]),
            reverse("admin:games_hand_changelist"),
            reverse("admin:games_action_changelist"),
            reverse("admin:games_tournament_change", args=[tournament.pk]),
        ]

    def scan_everything(when: str) -> int:
        scanned = 0
        pages = [reverse("tournament", args=[tournament.slug]), *urls(first), *urls(second)]
        asks = [(url, {}) for url in pages] + [(url, HTMX) for url in urls(first)[:2]]
        # The chat's news (the messages after one a page shows), asked as a page does.
        asks += [(f"{reverse('chat', args=[match.pk])}?after=1", HTMX) for match in (first, second)]
        for who, client in viewers.items():
            for url, extra in asks:
                response = client.get(url, **extra)
                assert response.status_code < 500
                assert_keeps_secrets(response.content.decode(), secrets, f"{when}: {url}, {who}")
                scanned += 1
        for url in admin_urls(first) + admin_urls(second):
            response = staff.get(url)
            assert response.status_code == 200, url
            assert_keeps_secrets(response.content.decode(), secrets, f"{when}: {url}, staff")
            scanned += 1
        return scanned

    steps = 0
    while move_once(first):
        steps += 1
        if steps % 6 == 0:
            scan_everything(f"table 1, step {steps}")
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == "finished" and second.status == "active"
    assert scan_everything("table 1 over, table 2 playing") > 30
    while move_once(second):
        steps += 1
        second.refresh_from_db()
        if steps % 6 == 0 and second.status == "active":
            scan_everything(f"table 2, step {steps}")
    second.refresh_from_db()
    assert second.status == "finished"
    assert scan_everything("both over, the round not closed") > 30
    tours.close_round(tournament.pk)  # the round's close reveals the secret
    for match in (first, second):
        page = viewers["an outsider"].get(reverse("verify_shuffle", args=[match.pk])).text
        assert match.secret in leaked_secrets(page, secrets), "revealed once the round closes"


def test_challenge_pages_and_emails_show_no_card_and_no_secret(
    clock, make_user, settings, django_capture_on_commit_callbacks
):
    """The Challenges page, *Your turn*'s list of challenges and the challenge e-mail, for
    the challenger and each invitee, once the challenge's match is dealt."""
    from datetime import timedelta

    from games.models import Challenge
    from games.services import challenges
    from games.services.match_options import MatchOptions
    from games.services.shuffles import Shuffle

    settings.SITE_URL = "https://hearts.example.com"
    alice = make_user("alice", "Alice", email="alice@example.com")
    invitees = [make_user(n, n.title(), email=f"{n}@example.com") for n in ("bob", "carol")]
    for user in invitees:
        opt_in(user, challenge_emails=True)
    with django_capture_on_commit_callbacks(execute=True):
        match = challenges.create_challenge(
            alice, MatchOptions(players=4, bots=1), invitees, timedelta(days=3)
        )
    Match.objects.filter(pk=match.pk).update(**Shuffle.of(secret_for(41)).fields())
    pk = Challenge.objects.get(match=match).pk
    run_due_tasks(clock.advance(seconds=1))
    for user in invitees:
        challenges.accept(user, pk)
    match.refresh_from_db()
    assert match.status == "active"
    state, secrets = state_of(match), deal_secrets(match)
    for user in (alice, *invitees):
        client = client_for(user)
        for route in ("challenges", "home"):
            html = client.get(reverse(route)).content.decode()
            where = f"{route} for {user.username}"
            assert_hides(html, state, seat_of(match, user), where)
            assert_keeps_secrets(html, secrets, where)
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        text = all_text(message)
        assert_keeps_secrets(text, secrets, message.subject)
        for card in engine.CARDS:
            assert card.words not in text, message.subject
