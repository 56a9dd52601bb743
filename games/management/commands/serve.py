"""Compile the translations, set up the database and static files, then serve the site with
daphne beside the worker."""

import os
import signal
import subprocess
import sys
from collections.abc import Sequence

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand


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


def worker_command() -> list[str]:
    """Return the command line of the background worker, on the same settings."""
    settings_module = os.environ.get("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
    return [sys.executable, "-m", "django", "worker", "--settings", settings_module]


def run_together(commands: Sequence[Sequence[str]], stop_timeout: float = 10) -> int:
    """Start every command, wait until one ends or we are told to stop, then stop them all.

    Return the exit status of the first process that ended (0 when asked to stop).
    """
    processes = [subprocess.Popen(list(command)) for command in commands]
    # A stop signal (SIGTERM from a service manager) ends the wait like Ctrl+C does.
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    status = 0
    try:
        ended, raw = os.wait()  # the first child to end, whichever it is
        status = os.waitstatus_to_exitcode(raw)
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


class Command(BaseCommand):
    help = (
        "Compile the translations, migrate, collect static files, create demo accounts, and "
        "serve with daphne beside the background worker."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-demo", action="store_true", help="Skip the demo accounts.")

    def handle(self, *args, host: str, port: int, no_demo: bool, **options) -> None:
        call_command("compiletranslations", verbosity=0)
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        if not no_demo and settings.DEBUG:
            call_command("setup_demo")
        self.stdout.write(f"Serving Hearts on http://{host}:{port}/ (Ctrl+C stops it)")
        self.stdout.flush()
        run_together([daphne_command(host, port), worker_command()])
