"""The reads of accounting, for the API, the screens and the reports.

- :mod:`~accounting.selectors.ledger`: balances (now or at a time) and the trial
  balance;
- :mod:`~accounting.selectors.cage`: the end-of-shift report, the drawer's running
  balance, receipts, payables and the box counts of a gaming day (CA1–CA6);
- :mod:`~accounting.selectors.protection`: what the player-protection API reads
  (PP1–PP4, PP7).

Other apps import from this package; the writes are :mod:`accounting.services`'s.
"""

from accounting.selectors.cage import (
    LINE_LABELS,
    DrawerLine,
    DrawerRow,
    ReportRow,
    ShiftReport,
    box_counts_of_day,
    drawer_running_balance,
    payable_list,
    receipt_get,
    shift_movements,
    shift_report,
    shifts_movements,
    vault_balances,
)
from accounting.selectors.ledger import (
    TrialBalance,
    TrialBalanceLine,
    balance_expression,
    balances_at,
    trial_balance,
)
from accounting.selectors.protection import (
    documents_of,
    player_age,
    protection_settings_versions,
    restrictions_in_force,
    restrictions_list,
)

__all__ = [
    "LINE_LABELS",
    "DrawerLine",
    "DrawerRow",
    "ReportRow",
    "ShiftReport",
    "TrialBalance",
    "TrialBalanceLine",
    "balance_expression",
    "balances_at",
    "box_counts_of_day",
    "documents_of",
    "drawer_running_balance",
    "payable_list",
    "player_age",
    "protection_settings_versions",
    "receipt_get",
    "restrictions_in_force",
    "restrictions_list",
    "shift_movements",
    "shift_report",
    "shifts_movements",
    "trial_balance",
    "vault_balances",
]
