"""The hand in play and its log counter move onto the match's row, which every move writes."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def point_matches_at_their_hands(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Match = apps.get_model("games", "Match")
    Hand = apps.get_model("games", "Hand")
    for match in Match.objects.filter(hand_no__gt=0).iterator():
        hand = Hand.objects.filter(match=match, number=match.hand_no).first()
        if hand is not None:
            Match.objects.filter(pk=match.pk).update(current_hand=hand, next_seq=hand.next_seq)


def put_counters_back_on_hands(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Match = apps.get_model("games", "Match")
    Hand = apps.get_model("games", "Hand")
    for match in Match.objects.exclude(current_hand=None).iterator():
        Hand.objects.filter(pk=match.current_hand_id).update(next_seq=match.next_seq)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_stock_sessions_and_moves"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="current_hand",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="games.hand",
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="next_seq",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(point_matches_at_their_hands, put_counters_back_on_hands),
        migrations.RemoveField(model_name="hand", name="next_seq"),
    ]
