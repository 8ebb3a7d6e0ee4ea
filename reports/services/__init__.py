"""The reports' use cases: generate a report of a closed period and store it once,
or build a provisional one for a period still open; the scheduled runs.

The builders (:mod:`reports.builders`) assemble the documents; these store them,
check who may ask for which (the auditor's role), and keep one snapshot of the
database for every figure of a report.
"""

from reports.services.generation import (
    Outcome,
    jackpot_report_of_last_month,
    month_bounds,
    report_generate,
    report_language,
    report_provisional,
    report_snapshot,
    reports_of_last_gaming_day,
)

__all__ = [
    "Outcome",
    "jackpot_report_of_last_month",
    "month_bounds",
    "report_generate",
    "report_language",
    "report_provisional",
    "report_snapshot",
    "reports_of_last_gaming_day",
]
