"""Tournament tables are watched from their tournament's page: they are not private matches.

They were marked private only to keep them out of the lobby, which lists open matches and so
never showed them; private now means "its players and staff only" (games/access.py).
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def make_public(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Match = apps.get_model("games", "Match")
    Match.objects.filter(tournament_table__isnull=False).update(is_private=False)


class Migration(migrations.Migration):
    dependencies = [("games", "0008_display_names")]

    operations = [migrations.RunPython(make_public, migrations.RunPython.noop)]
