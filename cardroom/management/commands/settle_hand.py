"""``manage.py settle_hand --policy POLICY.json HAND.json``: settle hands, no database.

Prints the settlement of API.md for one hand record, or an array of settlements for
an array of hand records, as JSON on standard output. ``HAND.json`` may be ``-`` for
standard input. A hand that can't be settled prints API.md's error object on
standard error and exits with status 2.

The work is :mod:`cardroom.domain.settle_cli`'s, which also runs without Django
(``python -m cardroom.domain.settle_cli``, the same arguments, the same output).
``manage.py`` itself hands the plain form of the command (``--policy`` and the hand
file) to it before Django loads; this command answers every other form (``--help``,
Django's own options, an argument error), ``call_command`` and ``manage.py help``.
The details of its error objects are English, as the engine's command prints them.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser, no_translations

from cardroom.domain.settle_cli import add_arguments, settle_files


class Command(BaseCommand):
    help = (
        "Settle hand records (API.md) under a policy and print the settlements as "
        "JSON. Touches no database."
    )
    # Settling is pure computation: no system checks, no migrations check, so no
    # database connection is ever opened (and the embedded server never starts).
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        add_arguments(parser)

    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        stdin = options.get("stdin") or sys.stdin
        status, output = settle_files(options["policy"], options["hand"], stdin)
        # The output ends with a newline, so the wrapper adds none.
        stream = self.stdout if status == 0 else self.stderr
        stream.write(output.decode(), style_func=str)
        if status:
            sys.exit(status)
