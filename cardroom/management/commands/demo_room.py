"""Load a demo room: staff accounts of every role and tables with terminal keys."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from cardroom.models import Table, TerminalKey
from core.roles import Role

TABLES = [("T01", "Hold'em 1/2", 9), ("T02", "Omaha 1/2", 9), ("T03", "Sökö 2/4", 8)]


class Command(BaseCommand):
    help = "Create a demo room and print the staff logins (new passwords each run)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        logins = []
        for role in Role:
            username = f"demo-{role.value}"
            password = secrets.token_urlsafe(9)
            user, _ = user_model.objects.get_or_create(username=username)
            user.set_password(password)
            user.is_staff = True
            user.is_superuser = False
            user.save()
            user.groups.set([Group.objects.get(name=role.value)])
            logins.append((role.value, username, password))
        keys = []
        for code, name, seats in TABLES:
            table, _ = Table.objects.get_or_create(
                code=code, defaults={"name": name, "seats": seats}
            )
            if not TerminalKey.objects.filter(table=table, revoked=False).exists():
                _, key = TerminalKey.objects.create_key(
                    name=f"demo terminal {code}", table=table
                )
                keys.append((code, key))
        self.stdout.write("Demo room loaded. Staff logins (admin and API):")
        for role, username, password in logins:
            self.stdout.write(f"  {role:<8} {username:<14} {password}")
        for code, key in keys:
            self.stdout.write(f"  terminal {code}: Authorization: Api-Key {key}")
