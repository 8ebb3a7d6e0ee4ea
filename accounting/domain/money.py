"""Exact splits of integer cents, and :class:`Money` for showing an amount.

Plain Python with no Django import. The value type of the application is the
integer cent: services, plans, the ledger and the API take and return ``int``
cents (with the currency beside them: the cage's, the room's). The splits here
(:func:`ratio_split`, :func:`rate_of`) are what the hand engine, the jackpots and
the tournaments share, so a cent is never created or lost by rounding.
:class:`Money` is not passed between layers: it formats an amount for people
(the admin, the cage's templates, the reports' texts) and guards the arithmetic
done on one while doing so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

from core.errors import Invalid


class MoneyError(Invalid, ValueError):
    """A money value was built or combined in a way that would lose exactness:
    malformed input (400, ``invalid_amount``) if it ever reaches the edge."""

    def __init__(self, detail: str) -> None:
        super().__init__("invalid_amount", detail)


@dataclass(frozen=True, slots=True, order=False)
class Money:
    """An amount of one currency in its minor unit (cents), for showing it.

    Refuses floats, decimals and mixed currencies: ``str(Money(2400, "EUR"))`` is
    ``24.00 EUR``. Code that moves money passes the ``int`` cents, not this.
    """

    cents: int
    currency: str

    def __post_init__(self) -> None:
        if isinstance(self.cents, bool) or not isinstance(self.cents, int):
            raise MoneyError(
                f"Money takes integer cents, not {type(self.cents).__name__}."
            )
        if not (isinstance(self.currency, str) and len(self.currency) == 3):
            raise MoneyError(
                f"Currency must be a 3-letter code, not {self.currency!r}."
            )

    def _same(self, other: object) -> Money:
        if not isinstance(other, Money):
            raise MoneyError(f"Can't combine Money with {type(other).__name__}.")
        if other.currency != self.currency:
            raise MoneyError(f"Can't combine {self.currency} with {other.currency}.")
        return other

    def __add__(self, other: Money) -> Money:
        return Money(self.cents + self._same(other).cents, self.currency)

    def __sub__(self, other: Money) -> Money:
        return Money(self.cents - self._same(other).cents, self.currency)

    def __neg__(self) -> Money:
        return Money(-self.cents, self.currency)

    def __lt__(self, other: Money) -> bool:
        return self.cents < self._same(other).cents

    def __le__(self, other: Money) -> bool:
        return self.cents <= self._same(other).cents

    def __gt__(self, other: Money) -> bool:
        return self.cents > self._same(other).cents

    def __ge__(self, other: Money) -> bool:
        return self.cents >= self._same(other).cents

    def __bool__(self) -> bool:
        return self.cents != 0

    def __str__(self) -> str:
        sign = "-" if self.cents < 0 else ""
        whole, frac = divmod(abs(self.cents), 100)
        return f"{sign}{whole}.{frac:02d} {self.currency}"

    def split(self, ratios: Sequence[int], unit: int = 1) -> list[Money]:
        """Split by ``ratios`` with :func:`ratio_split`; the parts add up exactly."""
        return [Money(c, self.currency) for c in ratio_split(self.cents, ratios, unit)]


def ratio_split(amount: int, ratios: Sequence[int], unit: int = 1) -> list[int]:
    """Split ``amount`` in proportion to ``ratios`` by the largest-remainder method.

    Shares are whole multiples of ``unit`` (the smallest chip); whatever can't be
    shared in whole units stays with the earliest largest remainders, ties going to
    the earlier position — callers order the parts by priority (JD4, BB6, HM2, HS5).
    The shares always add up to ``amount``. ``amount`` not a multiple of ``unit``:
    the leftover below one unit goes to the first part with the largest remainder.

    Raises :class:`MoneyError` for negative amounts or ratios, or no positive ratio.

    >>> ratio_split(100, [1, 1, 1])
    [34, 33, 33]
    >>> ratio_split(150, [1, 1], unit=50)
    [100, 50]
    >>> ratio_split(1000, [50, 25, 25])
    [500, 250, 250]
    """
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise MoneyError(
            f"Amount to split must be non-negative integer cents: {amount!r}"
        )
    if unit < 1:
        raise MoneyError(f"Split unit must be at least 1 cent: {unit!r}")
    if not ratios or any(r < 0 for r in ratios) or sum(ratios) <= 0:
        raise MoneyError(f"Ratios must be non-negative with a positive sum: {ratios!r}")
    total_ratio = sum(ratios)
    units, below_unit = divmod(amount, unit)
    floors = [units * r // total_ratio for r in ratios]
    remainders = [units * r % total_ratio for r in ratios]
    left = units - sum(floors)
    # Largest remainder first; equal remainders keep the caller's priority order.
    order = sorted(range(len(ratios)), key=lambda i: (-remainders[i], i))
    for i in order[:left]:
        floors[i] += 1
    shares = [f * unit for f in floors]
    if below_unit:
        shares[order[0]] += below_unit
    return shares


def rate_of(amount: int, rate: Decimal | str, unit: int = 1) -> int:
    """Apply a percentage ``rate`` to ``amount``, rounded once, down, to ``unit``.

    ``rate_of(2550, "5", 50)`` is 5 % of €25.50 rounded down to a 50-cent chip: 100.
    """
    exact = Decimal(amount) * Decimal(rate) / Decimal(100)
    whole_units = (exact / unit).to_integral_value(rounding=ROUND_DOWN)
    return int(whole_units) * unit
