"""Book hand histories in the PHH format for one table, through the terminal's path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardroom import services
from cardroom.domain.errors import HandError
from cardroom.domain.phh import load_histories, to_record
from cardroom.models import SeatSession, Table
from core.api.errors import ApiError


class Command(BaseCommand):
    help = "Import PHH hand histories for one table: import_phh FILE --table T01"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--table", required=True)
        parser.add_argument(
            "--unit", type=int, default=1, help="Cents per PHH chip (default 1)."
        )
        parser.add_argument(
            "--first-hand",
            type=int,
            default=1,
            help="Hand number of the file's first hand when it gives none; hands "
            "are numbered by their place in the file, so a re-run books nothing.",
        )
        parser.add_argument(
            "--seat",
            action="store_true",
            help="Seat players not yet seated with a cash buy-in of their starting "
            "stack (the buy-in rules apply).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        code = options["table"]
        table = Table.objects.filter(code=code).first()
        if table is None:
            raise CommandError(f"No table {code!r}.")
        source = f"phh:{options['file'].name}"
        booked = repeated = 0
        with options["file"].open("rb") as fp:
            histories = list(load_histories(fp))
        for position, hh in enumerate(histories, start=1):
            number = options["first_hand"] + position - 1
            try:
                record = to_record(hh, table=code, hand_no=number, unit=options["unit"])
                if options["seat"]:
                    self._seat_missing(code, record, source)
                _hand, created = services.hand_record(
                    table_code=code, record=record, source=source
                )
            except HandError as error:
                raise CommandError(f"hand {position}: {error.detail}") from error
            except ApiError as error:
                raise CommandError(f"hand {position}: {error.detail}") from error
            booked += created
            repeated += not created
        self.stdout.write(f"{booked} hands booked at {code}, {repeated} already there.")

    def _seat_missing(self, code: str, record: dict[str, Any], source: str) -> None:
        seated = set(
            SeatSession.objects.filter(
                table__code=code, ended_at__isnull=True
            ).values_list("player__code", flat=True)
        )
        for seat in record["seats"]:
            if seat["player"] not in seated:
                services.seat_take(
                    table_code=code,
                    seat=seat["seat"],
                    player_code=seat["player"],
                    amount=seat["stack"],
                    method="cash",
                    source=source,
                )
