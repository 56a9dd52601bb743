"""On PostgreSQL, a function that refuses a transaction whose match changed since it was kept.

A process keeps each active match as its last move left it (`games.services.kept_tables`),
so that the next move need not read it back. Such a move sends this check first, with the
writes and the COMMIT: it locks the match row, and if the row or the people seated at it
changed since the copy was kept, it raises, so that the writes after it never run and the
move is made again from the rows themselves. SQLite, which has no round trip to save, reads
the rows on every move and needs no such function.
"""

from django.conf import settings
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

FUNCTION = "games_expect_table"
SQLSTATE = "HT409"  # a class of its own: nothing else raises it
MODELS = ("Match", "Seat", "Profile")


def _sql(apps: StateApps) -> str:
    match, seat, profile = (apps.get_model("games", name)._meta for name in MODELS)
    user = apps.get_model(settings.AUTH_USER_MODEL)._meta
    # The people's mark must be written exactly as `games.services.table_rows` reads it.
    return f"""
CREATE OR REPLACE FUNCTION {FUNCTION}(
    kept_match bigint, kept_version integer, kept_status text,
    kept_forced boolean, kept_finish boolean, kept_people text
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    row_now record;
    people_now text;
BEGIN
    SELECT m.version, m.status, m.auto_play_forced, m.auto_finish INTO row_now
      FROM {match.db_table} m WHERE m.{match.pk.column} = kept_match FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'match % is gone', kept_match USING ERRCODE = '{SQLSTATE}';
    END IF;
    SELECT string_agg(concat_ws(':', s.user_id, u.xmin, p.xmin), ',' ORDER BY s.position)
      INTO people_now
      FROM {seat.db_table} s
      LEFT JOIN {user.db_table} u ON u.{user.pk.column} = s.user_id
      LEFT JOIN {profile.db_table} p ON p.user_id = s.user_id
     WHERE s.match_id = kept_match;
    IF row_now.version IS DISTINCT FROM kept_version
       OR row_now.status IS DISTINCT FROM kept_status
       OR row_now.auto_play_forced IS DISTINCT FROM kept_forced
       OR row_now.auto_finish IS DISTINCT FROM kept_finish
       OR people_now IS DISTINCT FROM kept_people THEN
        RAISE EXCEPTION 'match % changed since it was kept', kept_match
            USING ERRCODE = '{SQLSTATE}';
    END IF;
END
$$;
"""


def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_sql(apps), params=None)  # its `%` are PL/pgSQL's own


def backwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"DROP FUNCTION IF EXISTS {FUNCTION}(bigint, integer, text, boolean, boolean, text)"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_sessions_name_the_games_backend"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
