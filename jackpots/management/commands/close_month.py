"""Close a past month of the hand-of-the-month pools by hand (HM3).

``python manage.py close_month 2026-10`` closes October 2026 of every active
hand-of-the-month pool (``--pool CODE`` for one, ``--room CODE`` for a room's),
creating the pending awards of its best hands or carrying an empty month forward.
A month closed already is refused: the scheduled task or an earlier run closed it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import ApplicationError
from jackpots import services
from jackpots.domain.months import month_name, parse_month
from jackpots.models import Pool


class Command(BaseCommand):
    help = "Close a past month (YYYY-MM) of the hand-of-the-month pools (HM3)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("month", help="The month to close, YYYY-MM.")
        parser.add_argument("--pool", help="Only the pool with this code.")
        parser.add_argument("--room", help="Only the pools of this room.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            month = parse_month(options["month"])
        except ValueError as error:
            raise CommandError(str(error)) from error
        pools = Pool.objects.filter(
            kind=Pool.Kind.HAND_OF_THE_MONTH, active=True
        ).select_related("room")
        if options["pool"]:
            pools = pools.filter(code=options["pool"])
        if options["room"]:
            pools = pools.filter(room__code=options["room"])
        if not pools:
            raise CommandError("No active hand-of-the-month pool matches.")
        refused = []
        for pool in pools:
            try:
                closed = services.month_close(
                    pool=pool, month=month, source="close_month command"
                )
            except ApplicationError as error:
                refused.append(f"{pool.room.code}/{pool.code}: {error.detail}")
                continue
            awards = ", ".join(
                f"{a.player.code} {a.amount_cents}"
                for a in closed.awards.select_related("player").order_by("position")
            )
            self.stdout.write(
                f"{pool.room.code}/{pool.code} {month_name(month)}: "
                f"{closed.get_status_display()}"
                + (f", {closed.best_hand}: {awards}" if awards else "")
            )
        if refused:
            raise CommandError("\n".join(refused))
