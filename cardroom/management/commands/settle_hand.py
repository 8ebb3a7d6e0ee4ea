"""``manage.py settle_hand --policy POLICY.json HAND.json``: settle hands, no database.

Prints the settlement of API.md for one hand record, or an array of settlements for
an array of hand records, as JSON on standard output. ``HAND.json`` may be ``-`` for
standard input. A hand that can't be settled prints API.md's error object on
standard error and exits with status 2.
"""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

try:  # orjson reads and writes JSON several times faster, when it is installed
    import orjson
except ImportError:  # pragma: no cover - depends on the environment
    orjson = None  # type: ignore[assignment]

from cardroom.domain.errors import HandError
from cardroom.domain.hand_record import parse_policy
from cardroom.domain.settlement import settle, settle_many


def _load(path: str, what: str, stdin: Any) -> Any:
    """Return the decoded JSON of ``path`` (``-``: ``stdin``); raise HandError."""
    try:
        if path == "-":
            data = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read()
        else:
            data = Path(path).read_bytes()
    except OSError as error:
        raise HandError(
            "unreadable_file", f"Can't read the {what} file {path!r}: {error.strerror}."
        ) from None
    try:
        return orjson.loads(data) if orjson is not None else json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise HandError(
            "malformed_json", f"The {what} file {path!r} is not JSON: {error}."
        ) from None


def _dump(value: Any) -> str:
    """Return ``value`` as compact JSON."""
    if orjson is not None:
        encoded: bytes = orjson.dumps(value)
        return encoded.decode()
    return json.dumps(value, separators=(",", ":"))


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
        parser.add_argument(
            "--policy", required=True, metavar="POLICY.json", help="the game's policy"
        )
        parser.add_argument(
            "hand",
            metavar="HAND.json",
            help="a hand record or an array of them; - reads standard input",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        stdin = options.get("stdin") or sys.stdin
        # A batch builds millions of small objects without cycles; the cyclic
        # garbage collector would only walk them again and again (a third of the
        # run time at 50,000 hands).
        collecting = gc.isenabled()
        gc.disable()
        try:
            self._settle(options, stdin)
        finally:
            if collecting:
                gc.enable()

    def _settle(self, options: dict[str, Any], stdin: Any) -> None:
        try:
            policy = parse_policy(_load(options["policy"], "policy", stdin))
            hands = _load(options["hand"], "hand", stdin)
            if isinstance(hands, list):
                result: Any = settle_many(hands, policy)
            else:
                result = settle(hands, policy)
        except HandError as error:
            self.stderr.write(_dump(error.as_dict()), style_func=str)
            sys.exit(2)
        self.stdout.write(_dump(result), style_func=str)
