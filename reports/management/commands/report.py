"""Produce and store reports from the command line, with a progress bar.

    manage.py report daily_audit --day 2026-11-28
    manage.py report daily_audit --from 2026-11-01 --to 2026-11-28   # one a day
    manage.py report player_activity --day 2026-11-28 --output night.pdf
    manage.py report jackpot --month 2026-11
    manage.py report daily_audit --day 2026-11-28 --new-version --by mia \
        --reason "box count corrected"
    manage.py report daily_audit --day 2026-11-28 --new-version --by mia \
        --reason "monthly full check" --full   # add up every entry ever posted

A period already stored is not computed again: the command says so and, with
``--output``, writes the stored report's file.
"""

from __future__ import annotations

import sys
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from core.errors import ApplicationError
from reports.builders import steps
from reports.models import Report
from reports.render import FORMATS, render
from reports.render.files import meta_of
from reports.services import Outcome, month_bounds, report_generate


def _day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise CommandError(f"Not a date (YYYY-MM-DD): {value}") from exc


class Command(BaseCommand):
    help = "Compute and store a report (daily_audit, player_activity, jackpot)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=Report.Kind.values)
        parser.add_argument("--day", help="One gaming day, YYYY-MM-DD.")
        parser.add_argument(
            "--from",
            dest="first",
            help="First gaming day; daily reports are made for each day up to --to.",
        )
        parser.add_argument("--to", dest="last", help="Last gaming day.")
        parser.add_argument("--month", help="A calendar month, YYYY-MM (jackpot).")
        parser.add_argument("--new-version", action="store_true")
        parser.add_argument("--reason", default="", help="Why a new version.")
        parser.add_argument(
            "--by", help="The manager asking for a new version (username)."
        )
        parser.add_argument(
            "--output", help="Write the report to this file (.pdf, .xlsx or .csv)."
        )
        parser.add_argument(
            "--no-progress", action="store_true", help="Don't show a progress bar."
        )
        parser.add_argument(
            "--full",
            action="store_true",
            help="Daily audit: add up every entry ever posted and check each cached "
            "balance against the sum, instead of continuing from the day before.",
        )

    def _periods(self, options: dict[str, Any]) -> list[tuple[date, date]]:
        kind = options["kind"]
        if options["month"]:
            first, last = month_bounds(_day(options["month"] + "-01"))
        elif options["day"]:
            first = last = _day(options["day"])
        elif options["first"]:
            first = _day(options["first"])
            last = _day(options["last"]) if options["last"] else first
        else:
            raise CommandError("Give --day, --from [--to] or --month.")
        if last < first:
            raise CommandError("--to is before --from.")
        if kind == Report.Kind.JACKPOT:
            return [(first, last)]
        return [
            (first + timedelta(days=n), first + timedelta(days=n))
            for n in range((last - first).days + 1)
        ]

    def handle(self, *args: Any, **options: Any) -> None:
        kind = options["kind"]
        periods = self._periods(options)
        by = None
        if options["by"]:
            by = get_user_model().objects.filter(username=options["by"]).first()
            if by is None:
                raise CommandError(f"No staff account {options['by']}.")
        output = Path(options["output"]) if options["output"] else None
        if output is not None and output.suffix.lstrip(".") not in FORMATS:
            raise CommandError("--output ends in .pdf, .xlsx or .csv.")
        if output is not None and len(periods) > 1:
            raise CommandError("--output writes one report; give one day.")

        outcomes: list[Outcome] = []
        progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=Console(file=sys.stderr),
            disable=options["no_progress"],
            transient=False,
        )
        with progress:
            days = progress.add_task("reports", total=len(periods))
            for first, last in periods:
                label = first.isoformat() if first == last else f"{first}–{last}"
                sections = progress.add_task(f"  {label}", total=steps(kind))

                def advance(
                    step: str, task: Any = sections, label: str = label
                ) -> None:
                    progress.update(task, advance=1, description=f"  {label}: {step}")

                try:
                    outcome = report_generate(
                        kind=kind,
                        first=first,
                        last=last,
                        source="command",
                        by=by,
                        new_version=options["new_version"],
                        reason=options["reason"],
                        progress=advance,
                        full=options["full"],
                    )
                except ApplicationError as error:
                    raise CommandError(str(error.detail)) from error
                progress.update(sections, completed=steps(kind))
                progress.update(days, advance=1)
                outcomes.append(outcome)
        for outcome in outcomes:
            r = outcome.report
            failed = f", {r.checks_failed} checks disagree" if r.checks_failed else ""
            self.stdout.write(f"{outcome.detail} #{r.pk} ({r.duration_ms} ms{failed})")
        if output is not None:
            report = outcomes[0].report
            output.write_bytes(
                render(report.data, output.suffix.lstrip("."), meta=meta_of(report))
            )
            self.stdout.write(f"Wrote {output}.")
