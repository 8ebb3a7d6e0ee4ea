"""``migrate``, connected as the database's owner; then the app's role is granted
what it needs (:mod:`core.db.roles`).

The owner is the ``OWNER`` entry of the database's settings (``DATABASE_OWNER_URL``,
or the embedded server's owner role). Without one, Django's ``migrate`` as it is:
one role does everything.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import migrate
from django.db import connections

from core.db import roles


class Command(migrate.Command):
    help = (
        "Migrate as the database's owner (DATABASE_OWNER_URL), then grant the app's "
        "role (DATABASE_URL) what it needs."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        with roles.as_owner(connection) as app:
            super().handle(*args, **options)
            if app is not None:
                roles.grant_app(connection, app)
