"""Create a table terminal's API key and print it once (API.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardroom.models import Table, TerminalKey


class Command(BaseCommand):
    help = "Create an API key for a table's terminal: terminal_key T01"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("table", help="The table's code, e.g. T01.")
        parser.add_argument("--name", default="", help="What the key is for.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            table = Table.objects.get(code=options["table"])
        except Table.DoesNotExist:
            raise CommandError(f"No table {options['table']!r}.") from None
        name = options["name"] or f"terminal {table.code}"
        _, key = TerminalKey.objects.create_key(name=name, table=table)
        self.stdout.write(key)
