"""Make the room's digest signing key, or show the one there is.

    manage.py digest_key

Writes an Ed25519 private key (PEM, PKCS#8, readable by its owner only) to
``CARDROOM_DIGEST_KEY`` (default: ``digest_key.pem`` in the data folder) unless one
is there, and prints its public key and fingerprint: what the daily audit
publishes and what ``scripts/verify_proof.py`` checks with (docs/digest.md).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from reports.domain.digest import fingerprint
from reports.services.digests import digest_key_make


class Command(BaseCommand):
    help = "Make the room's Ed25519 digest key if missing; print its public key."

    def handle(self, *args: Any, **options: Any) -> None:
        path, public, made = digest_key_make()
        if made:
            self.stdout.write(
                _("Made the room's digest key in %(path)s.") % {"path": path}
            )
        else:
            self.stdout.write(_("The room's digest key is %(path)s.") % {"path": path})
        self.stdout.write(_("public key: %(key)s") % {"key": public})
        self.stdout.write(_("fingerprint: %(f)s") % {"f": fingerprint(public)})
