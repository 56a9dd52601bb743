"""Draw the app icons (`games/icons.py`) into games/static/games/icons/."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

from games.icons import ICONS, png

FOLDER = Path(__file__).resolve().parents[2] / "static" / "games" / "icons"


class Command(BaseCommand):
    help = "Draw the site's app icons (the web app manifest's) into games/static/games/icons/."

    def handle(self, *args: Any, **options: Any) -> None:
        FOLDER.mkdir(parents=True, exist_ok=True)
        for icon in ICONS:
            (FOLDER / icon.name).write_bytes(png(icon))
            self.stdout.write(f"{icon.name}: {icon.size}x{icon.size}")
