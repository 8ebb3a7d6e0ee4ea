"""Check the books against their signed digests (docs/digest.md, "Verifying").

    manage.py books_verify
    manage.py books_verify --digest 2026-11-27:9f2c…   # as printed on the audit
    manage.py books_verify --digest digest-2026-11-27.json
    manage.py books_verify --digest 9f2c… --public-key 42a5…

Recomputes every sealed gaming day's digest from the ledger and checks the stored
chain: its links, its signatures (the room's key, or ``--public-key``), its leaves
and the ledger against it. With ``--digest`` (a digest kept outside: the hex printed
on a daily audit, with its day, or a digest file), it proves nothing of that day
or before has changed since it was sealed, or names the first day and the first
transaction that differ. Exit status: 0 all holds, 1 something differs, 2 the kept
digest can't be checked.
"""

from __future__ import annotations

import sys
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from reports.services.verification import Kept, books_verify, kept_from_text


class Command(BaseCommand):
    help = "Recompute the sealed days' digests from the ledger and check them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--digest",
            help="A digest kept outside: DIGEST, DAY:DIGEST (as the audit prints "
            "it) or a digest file.",
        )
        parser.add_argument(
            "--day", help="The gaming day of a bare --digest, YYYY-MM-DD."
        )
        parser.add_argument(
            "--public-key",
            help="The room's Ed25519 public key, hex, as the audit prints it "
            "(default: the room's key file's).",
        )
        parser.add_argument(
            "--quiet", action="store_true", help="Don't list the days as checked."
        )

    def _kept(self, options: dict[str, Any]) -> Kept | None:
        if not options["digest"]:
            return None
        try:
            kept = kept_from_text(options["digest"])
            if options["day"]:
                kept = Kept(kept.hash, date.fromisoformat(options["day"]), kept.file)
        except (OSError, ValueError, KeyError) as error:
            raise CommandError(str(error)) from error
        return kept

    def handle(self, *args: Any, **options: Any) -> None:
        kept = self._kept(options)
        key = options["public_key"]
        if key is not None and len(bytes.fromhex(key)) != 32:
            raise CommandError("An Ed25519 public key is 32 bytes (64 hex digits).")

        def progress(day: str) -> None:
            if not options["quiet"]:
                self.stderr.write(_("recomputed %(day)s") % {"day": day})

        found = books_verify(kept=kept, public_key=key, progress=progress)
        out = self.stdout
        out.write(_("%(n)d sealed gaming days recomputed.") % {"n": found.days})
        for finding in found.findings:
            out.write(f"{finding.day}: {finding.text}")
        if not found.findings and found.days:
            out.write(
                _(
                    "The stored chain holds: every digest follows the day before's, "
                    "is signed by the room's key and is what the ledger gives."
                )
            )
        if found.pending:
            out.write(
                _(
                    "%(n)d postings dated into sealed days were written after them; "
                    "the next day sealed holds them: %(ids)s"
                )
                % {"n": len(found.pending), "ids": _ids(found.pending)}
            )
        if found.kept:
            out.write(found.kept)
        if found.first_changed is not None:
            out.write(f"{found.first_changed.day}: {found.first_changed.text}")
        sys.exit(found.status)


def _ids(ids: list[int]) -> str:
    shown = ", ".join(f"#{i}" for i in ids[:20])
    return shown + (" …" if len(ids) > 20 else "")
