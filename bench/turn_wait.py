"""Turn wait: how long a person alone with three searching bots waits for the turn to come back.

N people each sit alone at a 4-player table with three bots of the lobby's default level
(the new-match form is read and posted as a browser would, with only the number of bots
changed), and play without thinking time. What is measured is what a person feels: from
sending a played card (or a pass, or a moon choice) until the page shows that this person
must act again, or that the hand or the match ended. The page learns it the way live.js
does: the live socket announces each change of the match (`match.updated`, with its
version, status and the people to act), and the page then fetches its own regions over
HTTP, one fetch at a time, until a fetched page holds this person's form again (or a new
row of the score sheet, or the match's end). If no event arrives for 2 s the page fetches
anyway, a guard against a missed event: such fallbacks are counted and reported. A match
that ends is followed by a fresh one at once.

    python bench/turn_wait.py                                   # 1, 4, 8 and 16 people
    python bench/turn_wait.py --people 1 4 8 --seconds 30 --other ../before

Each side is served by the site's own `manage.py serve --no-demo` (daphne and whatever else
that command starts, all measured), on a SQLite file of its own. With `--other`, a second
checkout (its own `.venv`, or `--other-python`) is served side by side, every step runs on
both, one right after the other, the order alternating from step to step (the side not
being measured paused with SIGSTOP, unless `--keep-idle-running`), and the run ends with both
sides' figures and their ratios. Each step prints the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from benchlib import free_port, percentile, production_env  # beside this script
from http_bench import Checkout, create_players
from websockets.asyncio.client import ClientConnection, connect
from ws_clients import Browser, choose

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
WARM_UP = 5.0  # seconds at the start of each step whose moves are not counted
SILENCE = 2.0  # seconds without an event after which the page fetches anyway
GIVE_UP = 60.0  # a turn that has not come back by then is an error
SERVE_TIMEOUT = 300.0  # seconds `serve` may take to answer (it migrates and collects first)
LOBBY_FORM = "/matches/new/"
USER_RE = re.compile(r'data-live data-user="(\d+)"')
STATUS_RE = re.compile(r'data-status="(\w+)"')  # on a whole page only
IN_PLAY = "active"
ENDED_REGION = 'id="match-head"'  # in an htmx answer only once the match is over
SCORES_REGION = 'id="scores"'
HAND_ROW = '<th scope="row">'  # one a finished hand, on the score sheet


# ----- the lobby's form, as a browser fills it -------------------------------------------------


class FormReader(HTMLParser):
    """The fields a browser would send from the form posting to `action`, as first shown."""

    def __init__(self, action: str) -> None:
        super().__init__(convert_charrefs=True)
        self.action = action
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "form":
            self.inside = named.get("action") == self.action
        if not self.inside:
            return
        name = named.get("name")
        if tag == "input" and name:
            kind = named.get("type") or "text"
            if kind in {"checkbox", "radio"}:
                if "checked" in named:
                    self.fields.append((name, named.get("value") or "on"))
            elif kind not in {"submit", "button", "image", "reset", "file"}:
                self.fields.append((name, named.get("value") or ""))
        elif tag == "select" and name:
            self.select, self.options = name, []
        elif tag == "option" and self.select:
            self.options.append((named.get("value") or "", "selected" in named))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self.select:
            chosen = [value for value, selected in self.options if selected] or [
                value for value, _ in self.options[:1]
            ]
            self.fields += [(self.select, value) for value in chosen]
            self.select = None
        elif tag == "form":
            self.inside = False


def lobby_form(page: str) -> list[tuple[str, str]]:
    """The new-match form's fields as shown, for a 4-player table with three bots."""
    reader = FormReader(LOBBY_FORM)
    reader.feed(page)
    if not reader.fields:
        raise RuntimeError("the lobby shows no new-match form")
    changed = {"players": "4", "bots": "3"}
    return [(name, changed.get(name, value)) for name, value in reader.fields]


# ----- what one step measured -------------------------------------------------------------------


@dataclass
class Window:
    """The counted part of a step, as `time.monotonic()` readings."""

    start: float
    end: float

    def counts(self, moment: float) -> bool:
        return self.start <= moment < self.end


@dataclass
class Step:
    """One number of people on one side: what it measured."""

    people: int
    seconds: float = 0.0
    waits_ms: list[float] = field(default_factory=list)
    cards: int = 0
    matches_finished: int = 0
    fallbacks: int = 0  # reloads after SILENCE seconds without an event
    missed: int = 0  # of which showed the turn back: its event never came (or came late)
    errors: list[str] = field(default_factory=list)
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def rate(self) -> float:
        return self.cards / self.seconds if self.seconds else 0.0

    def wait(self, fraction: float) -> float:
        return percentile(self.waits_ms, fraction) if self.waits_ms else float("nan")

    @property
    def longest(self) -> float:
        return max(self.waits_ms, default=float("nan"))


# ----- one person's page -----------------------------------------------------------------------


class Stuck(Exception):
    """The turn did not come back within GIVE_UP seconds."""


@dataclass
class Page:
    """One person's tab: a browser's cookies, its live socket and what the socket heard."""

    browser: Browser
    user_id: int
    form: list[tuple[str, str]]
    socket: ClientConnection
    events: asyncio.Queue[dict[str, object]] = field(default_factory=asyncio.Queue)
    hands: int = 0  # the hands on the match's score sheet, as last shown
    getter: asyncio.Future[dict[str, object]] | None = None  # a read of `events` under way

    async def next_event(self, timeout: float) -> dict[str, object] | None:
        """The next event heard, or None if none comes within `timeout` seconds.

        The read stays under way after a timeout (`asyncio.wait_for` would cancel it, and on
        Python 3.11 could drop an event that came at that very moment).
        """
        if self.getter is None:
            self.getter = asyncio.ensure_future(self.events.get())
        done, _ = await asyncio.wait({self.getter}, timeout=timeout)
        if not done:
            return None
        event, self.getter = self.getter.result(), None
        return event

    def heard_more(self) -> bool:
        """Whether an event has arrived that is not read yet."""
        return not self.events.empty() or (self.getter is not None and self.getter.done())

    def sees(self, page: str, hands: int) -> str | None:
        """What a page shows this person, who acted when `hands` hands were over: "over" (the
        match ended), "back" (the person must act again, or a hand ended), or None (nothing
        for the person yet)."""
        if SCORES_REGION in page:
            self.hands = page.count(HAND_ROW)
        status = STATUS_RE.search(page)
        over = (status.group(1) != IN_PLAY) if status else (ENDED_REGION in page)
        if over:
            return "over"
        if self.hands > hands or choose(page, random.Random()) is not None:
            return "back"
        return None

    async def listen(self) -> None:
        async for raw in self.socket:
            await self.events.put(json.loads(raw))

    async def follow(self, match_id: int) -> None:
        """Follow a match on the socket, as a freshly loaded match page does."""
        await self.socket.send(json.dumps({"follow": match_id}))
        deadline = time.monotonic() + GIVE_UP
        while (event := await self.next_event(deadline - time.monotonic())) is not None:
            if event.get("type") == "following" and event.get("match") == match_id:
                return
            if event.get("type") == "error":
                raise RuntimeError(f"could not follow match {match_id}: {event}")
        raise RuntimeError(f"no answer to following match {match_id}")

    async def fetch(self, path: str, whole: bool) -> tuple[str, int]:
        """GET the match: the whole page (a reload) or its regions (htmx); return it and its
        version."""
        status, headers, text = await self.browser.request("GET", path, htmx=not whole)
        if status != 200:
            raise RuntimeError(f"GET {path} answered {status}")
        return text, int(headers.get("x-match-version", "0"))

    async def wait_for_turn(
        self, path: str, match_id: int, shown: int, answer: str, step: Step, counted: bool
    ) -> tuple[str, int, bool]:
        """Wait, as live.js does, until the page shows this person's form again (or the end of
        the hand or match).

        `shown` is the version the action's answer showed. Return the page that shows the
        turn back and its version, and whether the match is over.
        """
        hands = self.hands
        if seen := self.sees(answer, hands):
            return answer, shown, seen == "over"  # the answer itself shows it
        wanted = shown
        deadline = time.monotonic() + GIVE_UP
        while True:
            if wanted > shown:
                page, version = await self.fetch(path, whole=False)
                shown = max(shown, version)
                if seen := self.sees(page, hands):
                    return page, shown, seen == "over"
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                raise Stuck(f"match {match_id}: the turn did not come back at v{shown}")
            event = await self.next_event(min(SILENCE, left))
            if event is None:
                # No news for a while: reload, in case an event went missing.
                step.fallbacks += counted
                page, version = await self.fetch(path, whole=True)
                shown = max(shown, version)
                if seen := self.sees(page, hands):
                    # Missed: no event had come for it by the time the reload showed it.
                    step.missed += counted and not self.heard_more()
                    return page, shown, seen == "over"
                continue
            if event.get("match") != match_id or event.get("type") != "match.updated":
                continue  # turn notices come with a match.updated for the match on screen
            version = event.get("version")
            if not isinstance(version, int) or version <= shown:
                continue
            if event.get("status") != IN_PLAY:
                # The match's status changed: live.js reloads the whole page.
                page, version = await self.fetch(path, whole=True)
                return page, version, True
            wanted = max(wanted, version)
            # Read what else has arrived, so one fetch catches up with all of it.
            while (later := await self.next_event(0)) is not None:
                later_version = later.get("version")
                if later.get("match") == match_id and isinstance(later_version, int):
                    if later.get("type") == "match.updated" and later.get("status") != IN_PLAY:
                        page, version = await self.fetch(path, whole=True)
                        return page, version, True
                    wanted = max(wanted, later_version)

    async def play_match(self, window: Window, step: Step, rng: random.Random) -> None:
        """Open a match from the lobby's form and play it without pause until it ends or the
        step does."""
        status, headers, _ = await self.browser.request("POST", LOBBY_FORM, self.form)
        if status != 302:
            raise RuntimeError(f"the new match answered {status}")
        path = headers["location"]
        match_id = int(path.rstrip("/").rsplit("/", 1)[-1])
        await self.follow(match_id)
        page, shown = await self.fetch(path, whole=True)
        self.hands = page.count(HAND_ROW)
        while time.monotonic() < window.end:
            chosen = choose(page, rng)
            if chosen is None:
                # Not this person's turn yet (a bot leads the first trick): wait, uncounted.
                page, shown, over = await self.wait_for_turn(path, match_id, shown, "", step, False)
                if over:
                    return
                continue
            action, form = chosen
            sent = time.monotonic()
            counted = window.counts(sent)
            status, headers, answer = await self.browser.request(
                "POST", f"{path}{action}/", form, htmx=True
            )
            if status != 200:
                raise RuntimeError(f"{action} in match {match_id} answered {status}")
            shown = int(headers.get("x-match-version", "0"))
            page, shown, over = await self.wait_for_turn(
                path, match_id, shown, answer, step, counted
            )
            if counted:
                step.waits_ms.append((time.monotonic() - sent) * 1000)
                step.cards += action == "play"
            if over:
                step.matches_finished += counted
                return

    async def play(self, window: Window, step: Step, seed: int) -> None:
        """Play fresh matches one after another until the step's time is up."""
        rng = random.Random(seed)
        while time.monotonic() < window.end:
            try:
                await self.play_match(window, step, rng)
            except Exception as error:  # an error is a finding: note it, open a new match
                step.errors.append(f"{self.user_id}: {error!r}")
                await asyncio.sleep(0.5)


async def open_page(port: int, username: str) -> Page:
    """Sign in, read the lobby's form and open the live socket, as a browser would."""
    browser = Browser(port)
    await browser.log_in(username)
    status, _, lobby = await browser.request("GET", "/lobby/")
    user = USER_RE.search(lobby)
    if status != 200 or user is None:
        raise RuntimeError(f"the lobby answered {status} to {username}")
    base = f"127.0.0.1:{port}"
    socket = await connect(
        f"ws://{base}/ws/live/",
        origin=f"http://{base}",
        additional_headers={"Cookie": f"sessionid={browser.cookies['sessionid']}"},
        ping_interval=None,  # a browser's script sends no pings; it only answers them
        open_timeout=60,
    )
    return Page(browser, int(user.group(1)), lobby_form(lobby), socket)


async def run_step(port: int, usernames: list[str], seconds: float) -> Step:
    """Let each person play without pause for the warm-up and `seconds` more."""
    step = Step(len(usernames))
    pages = await asyncio.gather(*(open_page(port, name) for name in usernames))
    listeners = [asyncio.create_task(page.listen()) for page in pages]
    began = time.monotonic()
    window = Window(began + WARM_UP, began + WARM_UP + seconds)
    try:
        await asyncio.gather(*(page.play(window, step, n) for n, page in enumerate(pages)))
    finally:
        for listener in listeners:
            listener.cancel()
        for page in pages:
            with contextlib.suppress(Exception):
                await page.socket.close()
    step.seconds = seconds
    step.load = os.getloadavg()
    return step


# ----- the served sides ------------------------------------------------------------------------


@dataclass
class Side:
    """A checkout served by its own `manage.py serve`, and the steps measured on it."""

    label: str
    root: Path
    python: str
    folder: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    env: dict[str, str] = field(default_factory=dict)
    started_in: float = 0.0
    steps: list[Step] = field(default_factory=list)

    def start(self) -> None:
        """Start `serve` in a process group of its own; return once it answers."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.env = production_env(dict(os.environ))
        self.env["DATABASE_URL"] = f"sqlite:///{self.folder / 'db.sqlite3'}"
        command = [
            self.python, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(self.port),
            "--no-demo",
        ]  # fmt: skip
        began = time.monotonic()
        with (self.folder / "serve.log").open("wb") as log:
            self.process = subprocess.Popen(
                command, cwd=self.root, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        while not self.answers():
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.label}: serve ended before it answered")
            if time.monotonic() - began > SERVE_TIMEOUT:
                raise RuntimeError(f"{self.label}: serve did not answer in {SERVE_TIMEOUT:g} s")
            time.sleep(0.2)
        self.started_in = time.monotonic() - began

    def answers(self) -> bool:
        try:
            status, _, _ = asyncio.run(Browser(self.port).request("GET", "/healthz"))
        except OSError:
            return False
        return status == 200

    def create_people(self, count: int, prefix: str) -> list[str]:
        """Create `count` accounts in the side's database (which serve has migrated)."""
        return create_players(self.env, count, Checkout(self.root, self.python), prefix)

    def stop(self) -> None:
        """Stop serve and every process it started (its process group)."""
        if self.process is None:
            return
        group = self.process.pid  # the group's id: serve leads a session of its own
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=20)
        time.sleep(0.5)  # serve's children end as it does
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)  # whatever is left of the group
        self.process.wait()

    def pause(self) -> None:
        """Stop every process of this side (SIGSTOP to its group) while the other side's step
        runs: idle, its workers and its relay still poll the database every 20 ms, which
        would tax the side being measured."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGCONT)

    def tracebacks(self) -> int:
        log = self.folder / "serve.log"
        return log.read_bytes().count(b"Traceback") if log.exists() else 0


# ----- reporting -------------------------------------------------------------------------------


def print_step(side: Side, step: Step) -> None:
    load = " ".join(f"{value:.2f}" for value in step.load)
    print(
        f"{side.label:>6} {step.people:3d} people  {step.rate:6.2f} cards/s  "
        f"wait p50 {step.wait(0.5):6.0f}  p90 {step.wait(0.9):6.0f}  "
        f"p99 {step.wait(0.99):6.0f}  max {step.longest:6.0f} ms  n={len(step.waits_ms):<5d} "
        f"matches {step.matches_finished:<3d} fallbacks {step.fallbacks:<3d} "
        f"(missed {step.missed}) "
        f"errors {len(step.errors):<3d} load {load}",
        flush=True,
    )
    for error in step.errors[:3]:
        print(f"         {error}")


def report(sides: list[Side]) -> None:
    print("\nTurn wait (ms, from sending a card or pass until the page shows the turn again):")
    header = "people  side    cards/s     p50     p90     p99     max  fallbacks  missed  errors"
    print(header)
    counts = sorted({step.people for side in sides for step in side.steps})
    for count in counts:
        for side in sides:
            step = next((s for s in side.steps if s.people == count), None)
            if step is None:
                continue
            print(
                f"{count:6d}  {side.label:<6} {step.rate:8.2f} {step.wait(0.5):7.0f} "
                f"{step.wait(0.9):7.0f} {step.wait(0.99):7.0f} {step.longest:7.0f} "
                f"{step.fallbacks:10d} {step.missed:7d} {len(step.errors):7d}"
            )
        if len(sides) == 2:
            pair = [next((s for s in side.steps if s.people == count), None) for side in sides]
            first, second = pair
            if first and second:
                print(
                    f"{count:6d}  ratio  {ratio(first.rate, second.rate):>8} "
                    f"{ratio(first.wait(0.5), second.wait(0.5)):>7} "
                    f"{ratio(first.wait(0.9), second.wait(0.9)):>7} "
                    f"{ratio(first.wait(0.99), second.wait(0.99)):>7} "
                    f"{ratio(first.longest, second.longest):>7}"
                )
    if len(sides) == 2:
        print(f"ratio: {sides[0].label} / {sides[1].label}")


def ratio(mine: float, theirs: float) -> str:
    return f"{mine / theirs:.2f}" if theirs and theirs == theirs and mine == mine else "-"


# ----- the run ---------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, nargs="+", default=[1, 4, 8, 16])
    parser.add_argument("--seconds", type=float, default=40.0, help="counted time per step")
    parser.add_argument("--other", type=Path, help="another checkout, served side by side")
    parser.add_argument("--other-python", help="its Python (default: its .venv)")
    parser.add_argument(
        "--keep-idle-running",
        action="store_true",
        help="leave the side not being measured running (by default it is paused, SIGSTOP)",
    )
    options = parser.parse_args()
    if any(count < 1 for count in options.people):
        parser.error("--people takes numbers from 1 up")
    if options.other and not (options.other / "manage.py").exists():
        parser.error(f"--other: no manage.py in {options.other}")
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, shared by the servers and "
        f"the people; {options.seconds:g} s per step after {WARM_UP:g} s of warm-up; "
        f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}",
        flush=True,
    )
    workdir = Path(tempfile.mkdtemp(prefix="hearts-turn-wait-"))
    sides = [Side("this", ROOT, sys.executable, workdir / "this")]
    if options.other:
        other = options.other.resolve()
        python = options.other_python or str(other / ".venv" / "bin" / "python")
        sides.append(Side("other", other, python, workdir / "other"))
    # Ctrl+C raises KeyboardInterrupt (even where the shell had it ignored), and so does a TERM
    # signal: either way the servers are stopped below.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    failed = False
    try:
        for side in sides:
            side.start()
            print(f"{side.label}: {side.root} answered {side.started_in:.1f} s after serve began")
        # Each step has people of its own: the matches a step leaves unfinished stay theirs.
        people = {
            side.label: [
                side.create_people(count, f"tw{number}p")
                for number, count in enumerate(options.people)
            ]
            for side in sides
        }
        for number in range(len(options.people)):
            for side in sides if number % 2 == 0 else sides[::-1]:
                names = people[side.label][number]
                idle = [] if options.keep_idle_running else [s for s in sides if s is not side]
                for other_side in idle:
                    other_side.pause()
                try:
                    step = asyncio.run(run_step(side.port, names, options.seconds))
                finally:
                    for other_side in idle:
                        other_side.resume()
                side.steps.append(step)
                failed |= bool(step.errors)
                print_step(side, step)
    except KeyboardInterrupt:
        print("\ninterrupted: stopping the servers", file=sys.stderr)
        failed = True
    finally:
        for side in sides:
            side.resume()  # a paused side would not hear the TERM signal
            side.stop()
            count = side.tracebacks()
            if count or (side.process is not None and not side.started_in):
                kept = Path(tempfile.gettempdir()) / f"hearts-turn-wait-{side.label}.log"
                shutil.copy(side.folder / "serve.log", kept)  # the work folder goes below
                print(f"{side.label}: serve logged {count} traceback(s); see {kept}")
                failed = True
        shutil.rmtree(workdir, ignore_errors=True)
    report(sides)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
