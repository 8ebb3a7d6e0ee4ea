"""Write booked hands of a table as PHH hand histories, for any PHH tool to replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardroom import selectors
from cardroom.models import Hand
from core.errors import ApplicationError


class Command(BaseCommand):
    help = (
        "Export booked hands as PHH: export_phh --table T01 [--hand 12 …] "
        "[--unit 100] [--output FILE]; without --hand, every hand of the table, "
        "as one .phhs."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", required=True)
        parser.add_argument(
            "--hand",
            type=int,
            action="append",
            help="A hand number to export (repeat for more); default: every hand.",
        )
        parser.add_argument(
            "--unit",
            type=int,
            default=1,
            help="Cents per PHH chip (default 1; 100 writes euros or dollars).",
        )
        parser.add_argument(
            "--output", type=Path, help="The file to write (default: print it)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        code = options["table"]
        if options["unit"] < 1:
            raise CommandError("--unit is a whole number of cents, 1 or more.")
        numbers = options["hand"] or list(
            Hand.objects.filter(table__code=code)
            .order_by("hand_no")
            .values_list("hand_no", flat=True)
        )
        if not numbers:
            raise CommandError(f"No hands booked at table {code!r}.")
        sections = []
        for position, number in enumerate(numbers, start=1):
            try:
                text = selectors.hand_phh(
                    table_code=code, hand_no=number, unit=options["unit"]
                )
            except ApplicationError as error:
                raise CommandError(f"hand {number}: {error.detail}") from error
            sections.append(text if len(numbers) == 1 else f"[{position}]\n{text}")
        output = "\n".join(sections)
        if options["output"] is None:
            self.stdout.write(output, ending="")
        else:
            options["output"].write_text(output, encoding="utf-8")
            self.stdout.write(
                f"{len(numbers)} hands of {code} written to {options['output']}."
            )
