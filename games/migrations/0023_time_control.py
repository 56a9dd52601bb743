"""The time control's fields move to one abstract model that `Match` and `Tournament` share.

State only: a tournament's time for each decision loses its own verbose name (the admin's
form names it), and no column changes (`sqlmigrate games 0023` emits no SQL).
"""

import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0022_one_stored_result"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tournament",
            name="decision_seconds",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="Seconds allowed for each decision (1 minute to 14 days); empty: untimed.",
                null=True,
                validators=[
                    django.core.validators.MinValueValidator(60),
                    django.core.validators.MaxValueValidator(1209600),
                ],
            ),
        ),
    ]
