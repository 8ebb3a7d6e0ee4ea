"""Create RULES.md BB2's default bad-beat categories: 1 (Hold'em) and 2 (Omaha)."""

from django.db import migrations

from jackpots.services import categories_ensure


def create(apps, schema_editor):
    categories_ensure(apps=apps)


class Migration(migrations.Migration):
    dependencies = [("jackpots", "0001_initial")]

    operations = [migrations.RunPython(create, migrations.RunPython.noop)]
