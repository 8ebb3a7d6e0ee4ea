"""Create the database's owner and app roles, as a superuser (core.db.roles).

    DATABASE_ADMIN_URL=postgres://postgres:${POSTGRES_PASSWORD}@db:5432/postgres \\
    DATABASE_OWNER_URL=postgres://cardroom_owner:${OWNER_PASSWORD}@db:5432/cardroom \\
    DATABASE_URL=postgres://cardroom_app:${APP_PASSWORD}@db:5432/cardroom \\
        python manage.py provision_database

The roles and their passwords are those of ``DATABASE_OWNER_URL`` and
``DATABASE_URL``; the database is created when missing. Run it before the first
``migrate`` and after each upgrade (it puts back whatever was changed). The
superuser's URL is read here only; no other process needs it.
"""

from __future__ import annotations

import os
from typing import Any

import environ
import psycopg
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from psycopg import sql

from core.db import roles
from core.db.embedded.base import socket_dir


class Command(BaseCommand):
    help = "Create the owner and app roles of the database, as a superuser."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--admin-url",
            default=os.environ.get("DATABASE_ADMIN_URL", ""),
            help="A superuser's URL (default: DATABASE_ADMIN_URL).",
        )

    def _admin(self, url: str) -> dict[str, Any]:
        named = connection.settings_dict
        if not url:
            if named["ENGINE"] != "core.db.embedded":
                raise CommandError("Give --admin-url or set DATABASE_ADMIN_URL.")
            host = socket_dir(named["DATA_DIR"], named["EMBEDDED_DATABASE"])
            return {"host": host, "user": "postgres"}
        parsed = environ.Env.db_url_config(url)
        return {
            "host": parsed.get("HOST") or None,
            "port": parsed.get("PORT") or None,
            "user": parsed.get("USER") or None,
            "password": parsed.get("PASSWORD") or None,
        }

    def handle(self, *args: Any, **options: Any) -> None:
        named = connection.settings_dict
        database = named["NAME"]
        owner = named.get("OWNER") or {}
        if not owner.get("USER"):
            raise CommandError("Set DATABASE_OWNER_URL: the role that migrates.")
        admin = {k: v for k, v in self._admin(options["admin_url"]).items() if v}
        with psycopg.connect(**admin, dbname="postgres", autocommit=True) as conn:
            if not conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [database]
            ).fetchone():
                conn.execute(
                    sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database))
                )
                self.stdout.write(f"Created the database {database}.")
        with psycopg.connect(**admin, dbname=database) as conn:
            roles.provision(
                conn,
                owner=owner["USER"],
                app=named["USER"],
                owner_password=owner.get("PASSWORD") or None,
                app_password=named.get("PASSWORD") or None,
            )
        self.stdout.write(
            f"{database}: {owner['USER']} owns the tables and migrates; "
            f"{named['USER']} reads and writes rows; the guards are installed."
        )
