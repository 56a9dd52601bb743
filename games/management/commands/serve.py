"""Compile the translations, set up the database and static files, then serve the site with
daphne beside the workers (clocks and bots; long work).

The processes count their metrics together (prometheus_client's multiprocess mode): `serve`
gives them one directory for it, emptied first (`metrics_directory`).

The site is served as a club would run it: Django's debug mode off (the site's own error pages,
never the debug page that lists every address), a secret key made once and kept beside the
project, the addresses it answers to, and `SITE_URL`, which e-mails link to, set from where it
is served. Anything set in the environment wins; `--debug` serves in Django's debug mode.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.core.management.utils import get_random_secret_key

from games.lib.queues import LONG, NOW


def daphne_command(host: str, port: int) -> list[str]:
    """Return the command line of the web server."""
    return [
        sys.executable,
        "-m",
        "daphne",
        "-b",
        host,
        "-p",
        str(port),
        "hearts_site.asgi:application",
    ]


def django_command(*args: str) -> list[str]:
    """Return a `django-admin` command line on this site's settings."""
    settings_module = os.environ.get("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
    return [sys.executable, "-m", "django", *args, "--settings", settings_module]


def worker_command(queues: str | None = None) -> list[str]:
    """Return the command line of a background worker (of the queues of one kind, or of
    every queue), on the same settings."""
    return django_command("worker", *(["--queues", queues] if queues else []))


def worker_commands(now_workers: int) -> list[list[str]]:
    """Return the workers `serve` runs beside daphne: `now_workers` for clocks and bots, and
    one for what may take long (so a round finished by bots never holds up a clock)."""
    return [worker_command(NOW) for _ in range(now_workers)] + [worker_command(LONG)]


def default_now_workers() -> int:
    """One worker for clocks and bots on each core: idle, a worker costs nothing; busy (100
    timeouts due at once, many bots to play), they use every core the web server leaves, while
    the `long` worker runs at a lower priority (bench/README.md, "Clocks under load")."""
    return os.cpu_count() or 1


def run_together(
    commands: Sequence[Sequence[str]],
    stop_timeout: float = 10,
    env: Mapping[str, str] | None = None,
) -> int:
    """Start every command, wait until one ends or we are told to stop, then stop them all.

    Return 0 when asked to stop; otherwise the exit status of the first process that ended,
    or 1 if it ended with 0: the site is no longer whole, and whoever supervises `serve` must
    see a failure and start it again, never a clean exit.
    """
    processes = [subprocess.Popen(list(command), env=env) for command in commands]
    # A stop signal (SIGTERM from a service manager) ends the wait like Ctrl+C does.
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    status = 0
    try:
        ended, raw = os.wait()  # the first child to end, whichever it is
        status = os.waitstatus_to_exitcode(raw) or 1
        for process in processes:
            if process.pid == ended:
                process.returncode = status  # reaped here: Popen must not wait for it again
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=stop_timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    return status


ALL_INTERFACES = {"0.0.0.0", "::", ""}
# `serve` speaks plain HTTP: no redirect to HTTPS and no Secure-only cookies, which a browser
# would not send back over it. Behind a proxy that ends TLS, set these in the environment.
PLAIN_HTTP = {
    "SECURE_SSL_REDIRECT": "0",
    "SESSION_COOKIE_SECURE": "0",
    "CSRF_COOKIE_SECURE": "0",
    "SECURE_HSTS_SECONDS": "0",
}


def kept_secret_key(path: Path) -> str:
    """Return the secret key kept in `path`, making it (readable by its owner only) the first
    time: sessions and password-reset links must outlive a restart."""
    if path.exists():
        key = path.read_text().strip()
        if key:
            return key
    key = get_random_secret_key()
    path.touch(mode=0o600)
    path.write_text(key + "\n")
    return key


def site_url(host: str, port: int) -> str:
    """Return the address people reach the site at, as e-mails should link to it."""
    if host in ALL_INTERFACES:
        # Every interface: name the machine by its own address on the network.
        host = socket.gethostbyname(socket.gethostname())
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def allowed_hosts(host: str, url: str) -> str:
    """Return the host names the site answers to: its address, and this machine's own names."""
    names = {"localhost", "127.0.0.1", "[::1]", urlsplit(url).hostname or "localhost"}
    if host in ALL_INTERFACES:
        names.add(socket.gethostname())
        names.update(socket.gethostbyname_ex(socket.gethostname())[2])
    elif host not in ALL_INTERFACES:
        names.add(f"[{host}]" if ":" in host else host)
    return ",".join(sorted(names))


def served_env(
    host: str, port: int, *, debug: bool, secret_file: Path, base: Mapping[str, str]
) -> dict[str, str]:
    """Return the environment daphne and the worker run in; what `base` sets is kept."""
    env = dict(base)
    env.setdefault("DEBUG", "1" if debug else "0")
    if env["DEBUG"].lower() not in {"1", "true", "yes", "on"}:
        if not env.get("SECRET_KEY"):
            env["SECRET_KEY"] = kept_secret_key(secret_file)
        for name, value in PLAIN_HTTP.items():
            env.setdefault(name, value)
    env.setdefault("SITE_URL", site_url(host, port))
    env.setdefault("ALLOWED_HOSTS", allowed_hosts(host, env["SITE_URL"]))
    return env


METRICS_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"


def metrics_directory(env: dict[str, str]) -> Path | None:
    """Set up prometheus_client's multiprocess mode for the processes `serve` starts: each
    writes its metrics to files in one directory, which the scrape (in daphne) adds up.

    As prometheus_client asks, the directory is empty when they start: one named in the
    environment is emptied of its metric files; otherwise a new one is made and named in `env`.
    Return the directory made (for `serve` to remove when it stops), or None.
    """
    named = env.get(METRICS_DIR_VARIABLE)
    if named:
        directory = Path(named)
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.glob("*.db"):
            stale.unlink()
        return None
    made = Path(tempfile.mkdtemp(prefix="hearts-metrics-"))
    env[METRICS_DIR_VARIABLE] = str(made)
    return made


class Command(BaseCommand):
    help = (
        "Compile the translations, migrate, collect static files, create demo accounts, and "
        "serve with daphne beside the background workers."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-demo", action="store_true", help="Skip the demo accounts.")
        parser.add_argument(
            "--debug", action="store_true", help="Serve in Django's debug mode (development)."
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=default_now_workers(),
            help="Workers for clocks and bots (default: one for each core).",
        )

    def handle(
        self,
        *args: object,
        host: str,
        port: int,
        no_demo: bool,
        debug: bool,
        workers: int,
        **options: object,
    ) -> None:
        secret_file = Path(os.environ.get("SECRET_KEY_FILE", settings.BASE_DIR / ".secret-key"))
        env = served_env(host, port, debug=debug, secret_file=secret_file, base=os.environ)
        call_command("compiletranslations", verbosity=0)
        call_command("migrate", interactive=False, verbosity=0)
        # Static files are collected as the servers will look for them: hashed names and a
        # manifest when debug mode is off (settings.STORAGES).
        subprocess.run(django_command("collectstatic", "--noinput", "-v0"), env=env, check=True)
        if not no_demo:
            call_command("setup_demo")
        self.stdout.write(f"Serving Hearts on {env['SITE_URL']}/ (Ctrl+C stops it)")
        self.stdout.flush()
        made = metrics_directory(env)
        try:
            status = run_together([daphne_command(host, port), *worker_commands(workers)], env=env)
        finally:
            if made is not None:
                shutil.rmtree(made, ignore_errors=True)
        if status:
            # A process of the site ended on its own: so does serve, for its supervisor to see.
            self.stderr.write(f"A process of the site ended (status {status}); stopping.")
            sys.exit(status)
