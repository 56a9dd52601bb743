"""Compile the site's translation catalogues (.po) into the .mo files Django reads.

Pure Python (polib), so neither serving nor testing needs GNU gettext installed. The .mo
files are never committed: `serve` and the test run call this first, and a catalogue is
compiled again whenever its .po is newer than its .mo.
"""

import os
import tempfile
from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser


def catalogues() -> list[Path]:
    """Return every .po file under the project's locale directories."""
    found: list[Path] = []
    for directory in settings.LOCALE_PATHS:
        found.extend(Path(directory).glob("*/LC_MESSAGES/*.po"))
    return sorted(found)


def compile_catalogue(po_path: Path, force: bool = False) -> bool:
    """Write the .mo beside the .po, unless it is already up to date; say whether it wrote."""
    mo_path = po_path.with_suffix(".mo")
    if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
        return False
    catalogue = polib.pofile(str(po_path))
    # Written aside, then moved into place: a server or test process starting at the same time
    # reads the old file or the new one, never half of one.
    handle, temporary = tempfile.mkstemp(dir=mo_path.parent, suffix=".mo.tmp")
    os.close(handle)
    try:
        catalogue.save_as_mofile(temporary)
        os.chmod(temporary, 0o644)  # as a file written the usual way: readable by the server
        os.replace(temporary, mo_path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return True


def compile_all(force: bool = False) -> list[Path]:
    """Compile every catalogue that changed; return the ones written."""
    return [po for po in catalogues() if compile_catalogue(po, force=force)]


class Command(BaseCommand):
    help = "Compile the translation catalogues (locale/*/LC_MESSAGES/*.po) in pure Python."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="Compile even if up to date.")

    def handle(self, *args: object, force: bool, verbosity: int, **options: object) -> None:
        written = compile_all(force=force)
        if verbosity:
            for po in written:
                self.stdout.write(f"Compiled {po.with_suffix('.mo')}")
