"""Cut-ins at a table's break (issue 37): a table of a night plays games one after another (`game`,
each a session; the game a cut-in opened keeps how its players were cut), and a check-in keeps its
place in the waiting line (`queue`: its arrival's, until the player cuts out and joins the end)."""

from typing import Any

from django.db import migrations, models
from django.db.models import F, Q


def queue_is_arrival(apps: Any, schema_editor: Any) -> None:
    apps.get_model("ledger", "CheckIn").objects.update(queue=F("arrival"))


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0014_nights"),
    ]

    operations = [
        migrations.AddField(
            model_name="checkin",
            name="queue",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.RunPython(queue_is_arrival, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="checkin",
            name="queue",
            field=models.PositiveIntegerField(),
        ),
        migrations.AddConstraint(
            model_name="checkin",
            constraint=models.UniqueConstraint(fields=("night", "queue"), name="checkin_unique_night_queue"),
        ),
        migrations.RemoveConstraint(
            model_name="nighttable",
            name="nighttable_unique_night_number",
        ),
        migrations.AlterModelOptions(
            name="nighttable",
            options={"ordering": ["night", "number", "game"]},
        ),
        migrations.AddField(
            model_name="nighttable",
            name="game",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="nighttable",
            name="cut_method",
            field=models.CharField(blank=True, choices=[("longest", "Longest"), ("lot", "Lot")], max_length=8),
        ),
        migrations.AddField(
            model_name="nighttable",
            name="cut_seed",
            field=models.BigIntegerField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name="nighttable",
            constraint=models.UniqueConstraint(
                fields=("night", "number", "game"), name="nighttable_unique_night_number_game"
            ),
        ),
        migrations.AddConstraint(
            model_name="nighttable",
            constraint=models.CheckConstraint(condition=Q(game__gte=1), name="nighttable_game_positive"),
        ),
        migrations.AddConstraint(
            model_name="nighttable",
            constraint=models.CheckConstraint(
                condition=Q(game=1, cut_method="", cut_seed__isnull=True)
                | Q(game__gt=1, cut_method__in=["longest", "lot"], cut_seed__isnull=False),
                name="nighttable_cut_complete",
            ),
        ),
    ]
