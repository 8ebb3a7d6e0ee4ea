"""Create (or update) a staff account with a role."""

from __future__ import annotations

import getpass
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from core.roles import Role


class Command(BaseCommand):
    help = "Create a staff account: create_staff NAME --role cashier [--password PW]"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--role", required=True, action="append", choices=[r.value for r in Role]
        )
        parser.add_argument("--password", help="Prompted for when not given.")
        parser.add_argument("--email", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        # Asked before the transaction: no connection is held while someone types.
        password = options["password"] or self._password_asked()
        self._save(options, password)

    @transaction.atomic
    def _save(self, options: dict[str, Any], password: str) -> None:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=options["username"], defaults={"email": options["email"]}
        )
        try:
            validate_password(password, user)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        user.set_password(password)
        # Staff status gives the admin site; the groups decide what they may do there.
        user.is_staff = True
        user.save()
        for role in options["role"]:
            user.groups.add(Group.objects.get(name=role))
        verb = "Created" if created else "Updated"
        self.stdout.write(f"{verb} {user.username} ({', '.join(options['role'])})")

    def _password_asked(self) -> str:
        """Ask for the password at the terminal; raise CommandError without one.

        Without a terminal (a script, a container's entrypoint, a pipe) getpass
        would read whatever stdin holds, or end in EOFError.
        """
        if not sys.stdin.isatty():
            raise CommandError(
                "No password given and no terminal to ask for one: "
                "pass --password, or run the command in a terminal."
            )
        try:
            password = getpass.getpass("Password: ")
        except (EOFError, KeyboardInterrupt) as exc:
            raise CommandError("No password given.") from exc
        if not password:
            raise CommandError("No password given.")
        return password
