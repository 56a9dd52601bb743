"""Set up the database and static files, then serve the site with daphne."""

import subprocess
import sys

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Migrate, collect static files, create demo accounts, and serve with daphne."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-demo", action="store_true", help="Skip the demo accounts.")

    def handle(self, *args, host: str, port: int, no_demo: bool, **options) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        if not no_demo and settings.DEBUG:
            call_command("setup_demo")
        self.stdout.write(f"Serving Hearts on http://{host}:{port}/ (Ctrl+C stops it)")
        self.stdout.flush()
        command = [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            host,
            "-p",
            str(port),
            "hearts_site.asgi:application",
        ]
        server = subprocess.Popen(command)
        try:
            server.wait()
        except KeyboardInterrupt:
            server.terminate()
            server.wait(timeout=10)
