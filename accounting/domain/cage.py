"""The cage's arithmetic: drawer reconciliation, over/short, sign-off, CA5, receipts.

Plain Python with no Django import, so the rules are tested by the thousand without a
database. Amounts are integer cents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DrawerMovements:
    """What went through a cashier's drawer during a shift (CA1).

    Every amount is a non-negative total; the direction is the kind's: a chip
    purchase brings cash in and sends chips out, a redemption the reverse, a fill
    sends chips to a table, a credit brings them back, an award payout pays cash,
    a collection brings in cash a player owed (DC3).
    """

    opening_cash: int = 0
    opening_chips: int = 0
    purchases: int = 0
    redemptions: int = 0
    payouts: int = 0
    fills: int = 0
    credits: int = 0
    collections: int = 0

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be non-negative integer cents.")

    @property
    def expected_cash(self) -> int:
        """Cash the drawer should hold: float + purchases − redemptions − payouts
        + collections."""
        return (
            self.opening_cash
            + self.purchases
            - self.redemptions
            - self.payouts
            + self.collections
        )

    @property
    def expected_chips(self) -> int:
        """Chips the drawer should hold: float − purchases + redemptions − fills
        + credits."""
        return (
            self.opening_chips
            - self.purchases
            + self.redemptions
            - self.fills
            + self.credits
        )


@dataclass(frozen=True, slots=True)
class Variance:
    """A count against what was expected: positive over, negative short."""

    expected: int
    counted: int

    @property
    def over_short(self) -> int:
        return self.counted - self.expected


def needs_sign_off(*, variances: list[int], threshold_cents: int) -> bool:
    """Say whether a close needs a supervisor's sign-off (CA1).

    The amount in question is the sum of the absolute differences (a cash over
    doesn't hide a chip short); a sign-off is needed when it is above the threshold.
    """
    if threshold_cents < 0:
        raise ValueError("The sign-off threshold can't be negative.")
    return sum(abs(v) for v in variances) > threshold_cents


def identity_allowance(
    *, day_total_cents: int, threshold_cents: int, verified: bool
) -> int | None:
    """Return the most a player may still move in cash this gaming day (CA5).

    ``None`` means no limit: the player has a verified identity document on file.
    Without one, the day's cash transactions must stay below the threshold
    ("reaching €2,000 needs a verified ID"), so the answer is what keeps the total
    one cent under it, never below zero.

    >>> identity_allowance(day_total_cents=150_000, threshold_cents=200_000,
    ...                    verified=False)
    49999
    >>> identity_allowance(day_total_cents=0, threshold_cents=200_000, verified=True)
    """
    if verified:
        return None
    return max(threshold_cents - 1 - day_total_cents, 0)


_RECEIPT_NO = re.compile(r"^(?P<cage>[A-Za-z0-9_-]+)-(?P<number>\d{1,12})$")


def receipt_no(cage: str, number: int) -> str:
    """Format a receipt number as printed: ``MAIN-000123`` (CA2)."""
    if number < 1:
        raise ValueError("Receipt numbers start at 1.")
    return f"{cage}-{number:06d}"


def receipt_no_parse(text: str) -> tuple[str, int]:
    """Split ``MAIN-000123`` into ``("MAIN", 123)``.

    Raises :class:`ValueError` for anything that isn't a receipt number.
    """
    match = _RECEIPT_NO.match(text)
    if match is None or int(match["number"]) < 1:
        raise ValueError(f"Not a receipt number: {text!r}")
    return match["cage"], int(match["number"])
