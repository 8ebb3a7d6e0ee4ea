"""The ledger's schedule: fold the summed accounts' entries into their balances.

A summed balance is its stored one plus the entries since its last fold
(``accounting.models``); folding every minute keeps those reads to a minute's
entries whatever the history. Registered with Celery beat like the reports'.
"""

from __future__ import annotations

from typing import Any

from celery import current_app, shared_task

from accounting import services

FOLD = "accounting: fold the summed house accounts' entries into their balances"
FOLD_EVERY_S = 60.0


@shared_task(name="accounting.balances_fold_task")
def balances_fold_task() -> dict[str, int] | None:
    """Fold the summed entries written so far; None if postings kept it waiting."""
    fold = services.balances_fold()
    return None if fold is None else {"id": fold.pk, "accounts": fold.accounts}


def schedule_fold(sender: Any, **kwargs: Any) -> None:
    """Register the fold with beat, every minute."""
    sender.add_periodic_task(FOLD_EVERY_S, balances_fold_task.s(), name=FOLD)


# This module is imported by autodiscovery, which may come after the app finalized.
if current_app.finalized:  # type: ignore[attr-defined]
    schedule_fold(current_app)
else:
    current_app.on_after_finalize.connect(schedule_fold, weak=False)
