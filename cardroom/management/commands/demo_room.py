"""Load a demo room: staff of every role, a funded cage, open tables, players."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import transaction

from accounting.cage import cage_vault_fund, shift_open, slip_issue, slip_request
from accounting.models import Cage, Player, Shift, TableSlip
from cardroom import services
from cardroom.models import Table, TerminalKey
from core.roles import Role

POLICY = {
    "currency": "EUR",
    "smallest_chip": 50,
    "rake": {"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500},
    "jackpot_drop": {"amount": 100, "min_participants": 6},
}
TABLES = [
    # code, name, game, blinds, min, max, seats
    ("T01", "Hold'em 1/2", "NLHE", (100, 200), 10_000, 40_000, 9),
    ("T02", "Omaha 1/2", "PLO", (100, 200), 10_000, 40_000, 9),
    ("T03", "Sökö 2/4", "SOKO", (200, 400), 20_000, 80_000, 8),
]
PLAYERS = [
    ("P-1001", "Aino Virtanen", "Aino"),
    ("P-1002", "Mikko Korhonen", "Mikko"),
    ("P-1003", "Ji-woo Kim", "Jiwoo"),
    ("P-1004", "Emma Nieminen", ""),
    ("P-1005", "Seo-yeon Park", "Seoyeon"),
    ("P-1006", "Juha Mäkinen", "Juha"),
]
TRAY = 500_000


def demo_table_open(
    spec: tuple[Any, ...], *, by: User | None, code: str | None = None
) -> Table:
    """Open a table of :data:`TABLES` (as ``code`` if given) with the demo policy."""
    table_code, name, game, (sb, bb), low, high, seats = spec
    table = services.table_open(
        code=code or table_code,
        game_code=game,
        small_blind=sb,
        big_blind=bb,
        min_buy_in=low,
        max_buy_in=high,
        seats=seats,
        policy=POLICY,
        by=by,
    )
    table.name = name
    table.save(update_fields=["name"])
    return table


class Command(BaseCommand):
    help = "Create a demo room and print the staff logins (new passwords each run)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        logins, users = [], {}
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
            users[role] = user
        cage, created = Cage.objects.get_or_create(
            code="MAIN", defaults={"name": "Main cage"}
        )
        if created:
            cage_vault_fund(
                cage=cage,
                cash_cents=5_000_000,
                chips_cents=5_000_000,
                by=users[Role.MANAGER],
                memo="demo room opening",
            )
        cashier = users[Role.CASHIER]
        if not Shift.objects.filter(
            cage=cage, cashier=cashier, status=Shift.Status.OPEN
        ).exists():
            shift_open(
                cage=cage, cashier=cashier, cash_cents=500_000, chips_cents=2_000_000
            )
        for code, name, nickname in PLAYERS:
            Player.objects.get_or_create(
                code=code,
                defaults={"name": name, "nickname": nickname, "id_verified": True},
            )
        keys = []
        for spec in TABLES:
            code = spec[0]
            table = Table.objects.filter(code=code).first()
            if table is None or table.status != Table.Status.OPEN:
                table = demo_table_open(spec, by=users[Role.MANAGER])
                slip = slip_request(
                    kind=TableSlip.Kind.FILL,
                    cage=cage,
                    table=code,
                    amount_cents=TRAY,
                    requested_by=users[Role.FLOOR],
                )
                slip_issue(slip=slip, cashier=cashier)
            if not TerminalKey.objects.filter(table=table, revoked=False).exists():
                _, key = TerminalKey.objects.create_key(
                    name=f"demo terminal {code}", table=table
                )
                keys.append((code, key))
        self.stdout.write("Demo room loaded. Staff logins (admin and API):")
        for role_name, username, password in logins:
            self.stdout.write(f"  {role_name:<8} {username:<14} {password}")
        for code, key in keys:
            self.stdout.write(f"  terminal {code}: Authorization: Api-Key {key}")
