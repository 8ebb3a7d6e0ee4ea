"""Receivables (RULES.md DC3): what a player owes back, what is open, what is due.

Plain Python with no Django import. A player's receivable account holds, in its
entries, each amount booked against him (a debit, approved by a second person under
DC2) and each amount collected from him (a credit). Collections pay the oldest
amounts first; what is left of each is open. An open amount is due ``terms`` after
it was booked: RULES.md DC3 gives no time to pay ("pays it back even when it is
found later"), so the house default is none, due when booked.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

DC3_DEFAULT_TERMS = timedelta(0)


@dataclass(frozen=True, slots=True)
class Movement:
    """One entry of a receivable account: ``amount`` > 0 booked, < 0 collected."""

    at: datetime
    amount: int
    reference: str = ""
    memo: str = ""
    transaction_id: int | None = None


@dataclass(frozen=True, slots=True)
class OpenAmount:
    """What is left of one booked amount, and when it is (or was) due."""

    booked: Movement
    open: int
    due_at: datetime


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's receivables at a moment: open, due, and each open amount."""

    booked: int
    collected: int
    open: int
    due: int
    parts: tuple[OpenAmount, ...]

    @property
    def oldest_due_at(self) -> datetime | None:
        return self.parts[0].due_at if self.parts else None


def standing(
    movements: list[Movement], *, now: datetime, terms: timedelta = DC3_DEFAULT_TERMS
) -> Standing:
    """Return what is open and due of ``movements`` at ``now`` (DC3).

    Collections go to the oldest booked amounts first, whatever their order in time
    (a collection can't be earlier than what it pays, as the ledger never goes
    below zero, but the list may come in any order; ties go by the ledger's
    transaction number). An amount is due at its booking plus ``terms``.
    """
    ordered = sorted(movements, key=lambda m: (m.at, m.transaction_id or 0, m.amount))
    booked = [m for m in ordered if m.amount > 0]
    collected = -sum(m.amount for m in ordered if m.amount < 0)
    left = collected
    parts: list[OpenAmount] = []
    for m in booked:
        paid = min(left, m.amount)
        left -= paid
        if m.amount > paid:
            parts.append(OpenAmount(m, m.amount - paid, m.at + terms))
    total = sum(m.amount for m in booked)
    open_ = sum(p.open for p in parts)
    due = sum(p.open for p in parts if p.due_at <= now)
    return Standing(total, collected, open_, due, tuple(parts))
