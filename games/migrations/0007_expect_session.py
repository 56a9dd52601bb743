"""On PostgreSQL, a function that refuses a transaction whose session changed since it was known.

A process remembers each session's row as it last loaded or saved it (`hearts_site.sessions`),
and a move on a kept table may take its session from that memory instead of reading it. The
move's first statement, sent with its writes and its COMMIT, then checks the session along
with the table (`games_expect_table`, migration 0006): unless the session's row still holds
exactly the data remembered and has not expired (signed out, signed in again, or changed
anywhere since), the whole transaction fails, and the move is made again with its session and
its table read afresh.
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

FUNCTION = "games_expect_session"
SQLSTATE = "HT409"  # as `games_expect_table` raises: the same "made again" for the move


def _sql(apps: StateApps) -> str:
    session = apps.get_model("sessions", "Session")._meta
    return f"""
CREATE OR REPLACE FUNCTION {FUNCTION}(known_key text, known_data text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM {session.db_table} k
      WHERE k.session_key = known_key AND k.session_data = known_data AND k.expire_date > now();
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the session changed since it was known' USING ERRCODE = '{SQLSTATE}';
    END IF;
END
$$;
"""


def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_sql(apps), params=None)


def backwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {FUNCTION}(text, text)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_expect_table"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
