"""Create (or update) a staff account with a role."""

from __future__ import annotations

import getpass
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

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        password = options["password"] or getpass.getpass("Password: ")
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
