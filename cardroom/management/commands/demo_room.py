"""Load a demo room: staff of every role, a funded cage, open tables, players."""

from __future__ import annotations

import secrets
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import transaction

from accounting.models import Cage, Player, Restriction, Shift, TableSlip
from accounting.services.cage import (
    cage_vault_fund,
    player_register,
    restriction_set,
    shift_open,
    slip_issue,
    slip_request,
)
from accounting.services.cage.protection import player_correct
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
    # code, name, nickname, date of birth
    ("P-1001", "Aino Virtanen", "Aino", date(1985, 1, 1)),
    ("P-1002", "Mikko Korhonen", "Mikko", date(1978, 6, 14)),
    ("P-1003", "Ji-woo Kim", "Jiwoo", date(1992, 3, 30)),
    ("P-1004", "Emma Nieminen", "", date(1969, 11, 2)),
    ("P-1005", "Seo-yeon Park", "Seoyeon", date(1996, 8, 21)),
    ("P-1006", "Juha Mäkinen", "Juha", date(1981, 12, 9)),
]
TRAY = 500_000
BIRTH_DATE = date(1985, 1, 1)
"""The date of birth of the players the demo and the simulation make up."""


def demo_player(
    *,
    code: str,
    name: str,
    by: User,
    nickname: str = "",
    birth_date: date = BIRTH_DATE,
) -> Player:
    """Return the demo player ``code``, registered with a verified identity and
    a date of birth if he is new (BI10, PP1): every door refuses a player without
    one (PP2). One already on file without a date of birth is given ``birth_date``
    as a correction, recorded with who and why (PP7); one on file with a date of
    birth is left as he is.
    """
    player = Player.objects.filter(code=code).first()
    if player is None:
        return player_register(
            code=code,
            name=name,
            nickname=nickname,
            id_verified=True,
            registered_by=by,
            birth_date=birth_date,
        )
    if player.birth_date is None:
        player = player_correct(
            player=player,
            by=by,
            reason="demo player: date of birth on file (PP1)",
            birth_date=birth_date,
        )
    return player


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


def _demo_protection(by: User) -> None:
    """A minor and a barred player, for every door to refuse (PP2, PP3)."""
    demo_player(code="P-1007", name="Leo Salo", by=by, birth_date=date(2010, 4, 1))
    barred = demo_player(code="P-1008", name="Ville Barred", by=by)
    if not Restriction.objects.filter(player=barred).exists():
        restriction_set(
            player=barred,
            kind="bar",
            scope="room",
            until=None,
            reason="demo: chip dumping seen on camera",
            by=by,
        )


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
        for code, name, nickname, born in PLAYERS:
            demo_player(
                code=code,
                name=name,
                nickname=nickname,
                birth_date=born,
                by=users[Role.MANAGER],
            )
        _demo_protection(users[Role.MANAGER])
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
