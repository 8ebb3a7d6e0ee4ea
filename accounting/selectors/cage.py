"""Reads of the cage: the end-of-shift report, the drawer's running balance,
receipts, payables and the box counts of a gaming day (CA1–CA6)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from itertools import groupby

from django.db.models import QuerySet, Sum
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from accounting import chart
from accounting.domain.cage import (
    CASH_LINES,
    CHIPS_LINES,
    DrawerMovements,
    receipt_line,
    receipt_no_parse,
    slip_line,
)
from accounting.errors import Code, missing
from accounting.models import (
    BoxCount,
    Cage,
    Entry,
    Payable,
    Receipt,
    Shift,
    TableSlip,
)
from accounting.services.cage.shifts import drawer_accounts


def vault_balances(*, cage: Cage) -> tuple[int, int]:
    """Return the cash and chips in the cage's vault, by the ledger."""
    return (
        chart.cage_cash(cage=cage.code, currency=cage.currency).balance_cents,
        chart.cage_chips(cage=cage.code, currency=cage.currency).balance_cents,
    )


def shifts_movements(*, shifts: Iterable[Shift]) -> dict[int, DrawerMovements]:
    """Add up each shift's receipts and issued slips on the drawer's lines (CA1),
    by shift id.

    Every receipt and slip is on a line (:func:`receipt_line`, :func:`slip_line`):
    chip purchases and redemptions, award payouts, receivables paid back, fills and
    credits; tournament entries (re-entries, rebuys and add-ons too), their refunds,
    and the tournaments' prizes and bounties paid at the cage (TO1, TO8–TO10). An
    award payout's line is read from the posting that booked the award. Two grouped
    queries, whatever the number of shifts.
    """
    shifts = list(shifts)
    totals: dict[int, dict[str, int]] = {s.pk: defaultdict(int) for s in shifts}
    for shift_id, kind, booked_as, total in (
        Receipt.objects.filter(shift__in=list(totals))
        .values_list("shift", "kind", "payable__booking__kind")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    ):
        totals[shift_id][receipt_line(kind, booked_as=booked_as or "")] += total
    for shift_id, kind, total in (
        TableSlip.objects.filter(shift__in=list(totals), status=TableSlip.Status.ISSUED)
        .values_list("shift", "kind")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    ):
        totals[shift_id][slip_line(kind)] += total
    return {
        s.pk: DrawerMovements(
            opening_cash=s.opening_cash_cents,
            opening_chips=s.opening_chips_cents,
            **totals[s.pk],
        )
        for s in shifts
    }


def shift_movements(*, shift: Shift) -> DrawerMovements:
    """Add up the shift's receipts and issued slips, line by line (CA1,
    :func:`shifts_movements`)."""
    return shifts_movements(shifts=[shift])[shift.pk]


#: What each line of the drawer is called on the screens and the printed report.
LINE_LABELS: dict[str, str | Promise] = {
    "purchases": gettext_lazy("Chip purchases"),
    "redemptions": gettext_lazy("Chip redemptions"),
    "payouts": gettext_lazy("Award payouts"),
    "collections": gettext_lazy("Receivables paid back"),
    "tournament_entries": gettext_lazy("Tournament entries, rebuys and add-ons"),
    "tournament_refunds": gettext_lazy("Tournament refunds"),
    "tournament_prizes": gettext_lazy("Tournament prizes paid"),
    "tournament_bounties": gettext_lazy("Tournament bounties paid"),
    "fills": gettext_lazy("Fills"),
    "credits": gettext_lazy("Credits"),
}


@dataclass(frozen=True, slots=True)
class ReportRow:
    """A line of a drawer's side as shown: its name, label, direction and total."""

    name: str
    label: str | Promise
    sign: int
    cents: int


@dataclass(frozen=True, slots=True)
class DrawerLine:
    """One side of the drawer (cash or chips) in the report."""

    opening: int
    movements: dict[str, int]
    expected: int
    counted: int | None
    over_short: int | None
    # What the receipts and slips add up to; equals ``expected`` (from the ledger)
    # unless something moved the drawer outside them.
    from_movements: int
    signs: dict[str, int]

    def rows(self) -> list[ReportRow]:
        """The side's lines in order, labelled, each with its direction (+1 into
        the drawer, −1 out)."""
        return [
            ReportRow(name, LINE_LABELS[name], self.signs[name], cents)
            for name, cents in self.movements.items()
        ]

    @property
    def reconciled(self) -> bool:
        return self.expected == self.from_movements


@dataclass(frozen=True, slots=True)
class ShiftReport:
    """The end-of-shift report (CA1): it adds up, and says so in ``reconciled``."""

    shift: Shift
    cash: DrawerLine
    chips: DrawerLine
    receipts: int
    slips: int
    reconciled: bool


def shift_report(*, shift: Shift) -> ShiftReport:
    """Return the shift's report: float, movements, expected, counted, over/short.

    While the shift is open, ``expected`` is the drawer's ledger balance now and
    nothing is counted; once closed, the balance the count was compared with.
    """
    moves = shift_movements(shift=shift)
    if shift.status == Shift.Status.OPEN:
        cash_account, chips_account = drawer_accounts(shift)
        expected_cash, expected_chips = (
            cash_account.balance_cents,
            chips_account.balance_cents,
        )
    else:
        expected_cash = shift.expected_cash_cents or 0
        expected_chips = shift.expected_chips_cents or 0
    cash = DrawerLine(
        opening=moves.opening_cash,
        movements=moves.cash_lines(),
        expected=expected_cash,
        counted=shift.counted_cash_cents,
        over_short=shift.over_short_cash_cents,
        from_movements=moves.expected_cash,
        signs=dict(CASH_LINES),
    )
    chips = DrawerLine(
        opening=moves.opening_chips,
        movements=moves.chips_lines(),
        expected=expected_chips,
        counted=shift.counted_chips_cents,
        over_short=shift.over_short_chips_cents,
        from_movements=moves.expected_chips,
        signs=dict(CHIPS_LINES),
    )
    return ShiftReport(
        shift=shift,
        cash=cash,
        chips=chips,
        receipts=Receipt.objects.filter(shift=shift).count(),
        slips=TableSlip.objects.filter(shift=shift).count(),
        reconciled=cash.reconciled and chips.reconciled,
    )


@dataclass(frozen=True, slots=True)
class DrawerRow:
    """A posting on the drawer, with the balances after it."""

    posted_at: datetime
    kind: str
    reference: str
    cash: int
    chips: int
    cash_balance: int
    chips_balance: int


def drawer_running_balance(*, shift: Shift) -> list[DrawerRow]:
    """Return every posting on the shift's drawer in order, with running balances."""
    cash, chips = drawer_accounts(shift)
    entries = (
        Entry.objects.filter(account__in=[cash, chips])
        .select_related("transaction")
        .order_by("transaction__posted_at", "transaction_id")
    )
    rows: list[DrawerRow] = []
    cash_balance = chips_balance = 0
    for txn, legs in groupby(entries, key=lambda entry: entry.transaction):
        moved = {entry.account_id: entry.amount_cents for entry in legs}
        cash_balance += moved.get(cash.pk, 0)
        chips_balance += moved.get(chips.pk, 0)
        rows.append(
            DrawerRow(
                posted_at=txn.posted_at,
                kind=txn.kind,
                reference=txn.reference,
                cash=moved.get(cash.pk, 0),
                chips=moved.get(chips.pk, 0),
                cash_balance=cash_balance,
                chips_balance=chips_balance,
            )
        )
    return rows


def receipt_get(*, no: str) -> Receipt:
    """Return the receipt printed as ``no`` (``MAIN-000123``).

    Raises :class:`core.errors.NotFound` (404, ``receipt_not_found``) when there is
    none.
    """
    try:
        cage, number = receipt_no_parse(no)
    except ValueError:
        receipt = None
    else:
        receipt = (
            Receipt.objects.select_related(
                "cage", "player", "issued_by", "payable", "shift"
            )
            .filter(cage__code=cage, number=number)
            .first()
        )
    if receipt is None:
        raise missing(Code.RECEIPT_NOT_FOUND, no=no)
    return receipt


def payable_list(
    *, player: str | None = None, status: str | None = None
) -> QuerySet[Payable]:
    """Return awards owed, newest first, optionally of one player (by id) or status."""
    payables = Payable.objects.select_related("player", "approved_by")
    if player:
        payables = payables.filter(player__code=player)
    if status:
        payables = payables.filter(status=status)
    return payables


def box_counts_of_day(*, gaming_day: date) -> QuerySet[BoxCount]:
    """Return the box counts of a gaming day with their variances, per table (CA4)."""
    return BoxCount.objects.filter(gaming_day=gaming_day).order_by("table", "box")
