"""The cage's arithmetic: drawer reconciliation, over/short, sign-off, CA5, receipts.

Plain Python with no Django import, so the rules are tested by the thousand without a
database. Amounts are integer cents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DrawerMovements:
    """What went through a cashier's drawer during a shift (CA1), line by line.

    Every amount is a non-negative total; the direction is the line's
    (:data:`CASH_LINES`, :data:`CHIPS_LINES`): a chip purchase brings cash in and
    sends chips out, a redemption the reverse, a fill sends chips to a table, a
    credit brings them back, an award payout pays cash, a collection brings in cash
    a player owed (DC3); a tournament entry (a re-entry, a rebuy, an add-on) brings
    cash in, its refund, a tournament's prize and a bounty paid at the cage take
    cash out (TO1, TO8–TO10).
    """

    opening_cash: int = 0
    opening_chips: int = 0
    purchases: int = 0
    redemptions: int = 0
    payouts: int = 0
    fills: int = 0
    credits: int = 0
    collections: int = 0
    tournament_entries: int = 0
    tournament_refunds: int = 0
    tournament_prizes: int = 0
    tournament_bounties: int = 0

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be non-negative integer cents.")

    def _signed(self, lines: tuple[tuple[str, int], ...]) -> int:
        total = 0
        for name, sign in lines:
            cents: int = getattr(self, name)
            total += sign * cents
        return total

    def cash_lines(self) -> dict[str, int]:
        """The cash side's lines in the report's order, each its total."""
        return {name: getattr(self, name) for name, _sign in CASH_LINES}

    def chips_lines(self) -> dict[str, int]:
        """The chip side's lines in the report's order, each its total."""
        return {name: getattr(self, name) for name, _sign in CHIPS_LINES}

    @property
    def expected_cash(self) -> int:
        """Cash the drawer should hold: float + purchases − redemptions − payouts
        + collections + tournament entries − their refunds − tournament prizes
        − bounties."""
        return self.opening_cash + self._signed(CASH_LINES)

    @property
    def expected_chips(self) -> int:
        """Chips the drawer should hold: float − purchases + redemptions − fills
        + credits."""
        return self.opening_chips + self._signed(CHIPS_LINES)


#: The drawer's cash lines in the report's order, each with its direction: +1 brings
#: cash into the drawer, −1 takes it out (CA1).
CASH_LINES: tuple[tuple[str, int], ...] = (
    ("purchases", 1),
    ("redemptions", -1),
    ("payouts", -1),
    ("collections", 1),
    ("tournament_entries", 1),
    ("tournament_refunds", -1),
    ("tournament_prizes", -1),
    ("tournament_bounties", -1),
)

#: The drawer's chip lines, as :data:`CASH_LINES` (tournament chips are the event's,
#: not the cage's: no tournament line moves the drawer's chips).
CHIPS_LINES: tuple[tuple[str, int], ...] = (
    ("purchases", -1),
    ("redemptions", 1),
    ("fills", -1),
    ("credits", 1),
)

#: The line each kind of receipt is on (the values of ``Receipt.Kind``). Every kind
#: has one, and a test holds the model's kinds to this table, so a new kind can't
#: move the drawer off the report (CA1).
RECEIPT_LINES: dict[str, str] = {
    "chip_purchase": "purchases",
    "chip_redemption": "redemptions",
    "award_payout": "payouts",
    "collection": "collections",
    "tournament_entry": "tournament_entries",
    "entry_refund": "tournament_refunds",
}

#: The line each kind of issued table slip is on (``TableSlip.Kind``, CA3).
SLIP_LINES: dict[str, str] = {"fill": "fills", "credit": "credits"}

#: The kinds of posting that book a tournament's bounty into awards payable (TO8);
#: every other ``tournament_`` posting that does is a prize (a payout sheet, a held
#: prize released, a deal's, TO5, TO7, TO9).
_BOUNTY_BOOKINGS = frozenset({"tournament_bounty"})


def receipt_line(kind: str, *, booked_as: str = "") -> str:
    """Return the drawer line a receipt of ``kind`` is on (CA1).

    An award payout (CA6) is on the line of what booked the award, ``booked_as``
    (the kind of its payable's posting): a tournament's bounty (TO8), a tournament's
    prize (TO9), else the room's awards (jackpots and promotions).

    >>> receipt_line("tournament_entry")
    'tournament_entries'
    >>> receipt_line("award_payout", booked_as="tournament_payouts")
    'tournament_prizes'
    >>> receipt_line("award_payout", booked_as="jackpot_award")
    'payouts'

    Raises :class:`ValueError` for a kind on no line.
    """
    try:
        line = RECEIPT_LINES[kind]
    except KeyError:
        raise ValueError(
            f"Receipt kind {kind!r} is on no line of the drawer."
        ) from None
    if line == "payouts" and booked_as.startswith("tournament_"):
        if booked_as in _BOUNTY_BOOKINGS:
            return "tournament_bounties"
        return "tournament_prizes"
    return line


def slip_line(kind: str) -> str:
    """Return the drawer line an issued table slip of ``kind`` is on (CA3).

    Raises :class:`ValueError` for a kind on no line.
    """
    try:
        return SLIP_LINES[kind]
    except KeyError:
        raise ValueError(f"Slip kind {kind!r} is on no line of the drawer.") from None


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
