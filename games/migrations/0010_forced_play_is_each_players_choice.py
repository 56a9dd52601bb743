"""'Play my forced card for me' becomes each player's own setting (their profile, on by default).

A match's own switch was its creator's choice for every seat; it now only lets staff turn forced
plays off for a whole table, so every match is switched back on and its players' settings rule.
"""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def let_players_choose(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Match = apps.get_model("games", "Match")
    Match.objects.filter(auto_play_forced=False).update(auto_play_forced=True)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0009_tournament_tables_are_public'),
    ]

    operations = [
        migrations.RunPython(let_players_choose, migrations.RunPython.noop),
        migrations.AddField(
            model_name='profile',
            name='auto_play_forced',
            field=models.BooleanField(default=True, help_text='When only one card in your hand may be played, play it for you at once.', verbose_name='play my forced card for me'),
        ),
        migrations.AlterField(
            model_name='match',
            name='auto_play_forced',
            field=models.BooleanField(default=True, help_text='Let forced cards be played automatically at this table: each player chooses for themselves on their profile. Staff may turn it off for everyone here.'),
        ),
    ]
