"""PP1: the identity checks recorded on players before documents were kept are
put on file as documents, with who checked them and when."""

from django.db import migrations


def documents_on_file(apps, schema_editor):
    Player = apps.get_model("accounting", "Player")
    IdentityDocument = apps.get_model("accounting", "IdentityDocument")
    checked = (
        Player.objects.filter(id_verified=True, id_verified_by__isnull=False)
        .exclude(id_document_number="")
        .exclude(documents__isnull=False)
    )
    IdentityDocument.objects.bulk_create(
        IdentityDocument(
            player=player,
            kind=player.id_document_type or "other",
            number=player.id_document_number,
            expires=None,
            checked_at=player.id_verified_at or player.registered_at,
            checked_by_id=player.id_verified_by_id,
        )
        for player in checked
    )


class Migration(migrations.Migration):
    dependencies = [("accounting", "0016_protection_times_from_the_clock")]

    operations = [
        migrations.RunPython(documents_on_file, migrations.RunPython.noop),
    ]
