"""Display names follow the rules of `games.lib.names`: existing ones are made to, then checked.

Names stored before the rules may hold line breaks or other invisible characters, be longer
than 30 characters, match a bot's or another player's name (capitals aside). Each is cleaned
(invisible characters become spaces, NFKC, trimmed, at most 30 characters) and, where that
leaves it empty, taken or a bot's, numbered ("Alice 2"). The cleaning is written out here,
not imported, so that this migration keeps doing what it did when the rules change.
"""

import re
import unicodedata

from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

import games.lib.names

MAX_LENGTH = 30
BOT_NAMES = {"ada", "basil", "cleo", "dmitri", "edith", "felix", "greta"}
BOT_FALLBACK = re.compile(r"bot\s*\d+")
HIDDEN = {"Cc", "Cf", "Zl", "Zp"}


def _clean(name: str) -> str:
    visible = "".join(" " if unicodedata.category(c) in HIDDEN else c for c in name)
    name = re.sub(r" {2,}", " ", unicodedata.normalize("NFKC", visible).strip())
    return name[:MAX_LENGTH].strip()


def _free(name: str, taken: set[str]) -> bool:
    folded = name.casefold()
    return bool(name) and folded not in taken and folded not in BOT_NAMES and not (
        BOT_FALLBACK.fullmatch(folded)
    )


def clean_names(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Profile = apps.get_model("games", "Profile")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    profiles = list(Profile.objects.select_related("user").order_by("pk"))
    # Each name must differ from every other player's name, and from usernames but their own.
    usernames = {u.casefold(): pk for pk, u in User.objects.values_list("pk", "username")}
    taken: set[str] = set()
    for profile in profiles:
        base = _clean(profile.display_name) or _clean(profile.user.username) or "Player"
        candidate, number = base, 1
        while not _free(candidate, taken) or usernames.get(
            candidate.casefold(), profile.user_id
        ) != profile.user_id:
            number += 1
            suffix = f" {number}"
            candidate = base[: MAX_LENGTH - len(suffix)].rstrip() + suffix
        taken.add(candidate.casefold())
        if candidate != profile.display_name:
            profile.display_name = candidate
            profile.save(update_fields=["display_name"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_expect_session"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(clean_names, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="profile",
            name="display_name",
            field=models.CharField(
                help_text="The name other players see at the table.",
                max_length=30,
                validators=[games.lib.names.validate_display_name],
            ),
        ),
    ]
