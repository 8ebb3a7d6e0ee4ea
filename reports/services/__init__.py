"""The reports' use cases: generate a report of a closed period and store it once,
or build a provisional one for a period still open; the scheduled runs; each
gaming day's signed digest of the ledger, sent out, verified, and the proofs of
a single figure in it (docs/digest.md).

The builders (:mod:`reports.builders`) assemble the documents; these store them,
check who may ask for which (the auditor's role), and keep one snapshot of the
database for every figure of a report.
"""

from reports.services.delivery import digests_deliver
from reports.services.digests import digest_key_make, digests_seal
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
from reports.services.proofs import award_proof, hand_proof, receipt_proof
from reports.services.verification import books_verify

__all__ = [
    "Outcome",
    "award_proof",
    "books_verify",
    "digest_key_make",
    "digests_deliver",
    "digests_seal",
    "hand_proof",
    "jackpot_report_of_last_month",
    "month_bounds",
    "receipt_proof",
    "report_generate",
    "report_language",
    "report_provisional",
    "report_snapshot",
    "reports_of_last_gaming_day",
]
