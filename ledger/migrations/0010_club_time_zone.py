from django.db import migrations, models


class Migration(migrations.Migration):
    """A club's time zone (issue 26); the clubs of before are in UTC, the time their pages showed."""

    dependencies = [
        ("ledger", "0009_merge_0008_money_history_0008_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="time_zone",
            field=models.CharField(default="UTC", max_length=64),
        ),
    ]
