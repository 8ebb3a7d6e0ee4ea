"""Add the demo room's jackpot pools, a bad beat and a hand of the month, and its
promotions: an hourly high hand on a share of the drop and an aces-cracked bonus
the house pays (PR1–PR3)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from cardroom.services import room_default
from jackpots.domain.promotions import EXAMPLES
from jackpots.models import Pool, Promotion
from jackpots.services import pool_create, promotion_create

PROMOTIONS = [
    ("high-hand", "Hourly high hand", "hourly-high-hand", 1),
    ("aces-cracked", "Aces cracked", "aces-cracked", 0),
]


class Command(BaseCommand):
    help = (
        "Create the demo pools and promotions (run after demo_room); does nothing"
        " for those that exist."
    )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        room = room_default()
        manager = get_user_model().objects.filter(username="demo-manager").first()
        made = []
        for code, name, kind, ratio, reserve, seed in [
            ("bad-beat", "Bad beat jackpot", Pool.Kind.BAD_BEAT, 3, 10, 500_000),
            ("hotm", "Hand of the month", Pool.Kind.HAND_OF_THE_MONTH, 1, 0, 50_000),
        ]:
            if Pool.objects.filter(room=room, code=code).exists():
                continue
            pool_create(
                room=room,
                code=code,
                name=name,
                kind=kind,
                by=manager,
                drop_ratio=ratio,
                reserve_percent=reserve,
                seed_cents=seed,
            )
            made.append(name)
        for code, name, example, ratio in PROMOTIONS:
            if Promotion.objects.filter(room=room, code=code).exists():
                continue
            promotion_create(
                room=room,
                code=code,
                name=name,
                rules=EXAMPLES[example],
                by=manager,
                drop_ratio=ratio,
            )
            made.append(name)
        self.stdout.write(f"Jackpot pools: {', '.join(made) or 'already there'}.")
