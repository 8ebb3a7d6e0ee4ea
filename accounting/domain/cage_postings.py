"""The cage's money moves as posting plans (:mod:`accounting.domain.postings`).

Pure: each function returns the legs, as (account code, cents) with debits
positive, of one ledger transaction of the cage, and ``accounting.services.cage``
posts it with :func:`accounting.services.plan_post`. How each is booked
(docs/ledger.md, ``accounting.chart``):

- vault fund / withdraw (``sign`` 1 / -1): vault cash against house capital, the
  vault's chips against the chip float;
- shift open (CA1): the counted float from the vault into the shift's drawer;
  close: each count difference between the drawer and over/short, then the
  drawer back to the vault;
- fill / credit (CA3): chips from the drawer to the table's tray, or back;
- box count (CA4): the box emptied by what was recorded, the count into the
  vault, the difference to over/short;
- chip purchase / redemption (CA2): cash into (out of) the drawer, chips out of
  (into) it, the player's chips and the chip float with them;
- award payout (CA6): awards payable settled from the drawer's cash;
- receivable collection (DC3): cash into the drawer, the player's receivable down.

A plan given the ``balances`` it moves (account code to balance, in each
account's normal sense) refuses with :class:`accounting.errors.InsufficientFunds`
rather than take a non-negative account below zero, as the ledger would; without
them the ledger, and PostgreSQL under it, stay the judges.

>>> plan = exchange_plan(cage="MAIN", shift=7, player="P-1", cents=500)
>>> plan.balanced, plan.net()["player:P-1:chips"]
(True, -500)
>>> held = {"cage:MAIN:shift:7:cash": 900, "player:P-1:chips": 300}
>>> exchange_plan(cage="MAIN", shift=7, player="P-1", cents=-500, balances=held)
Traceback (most recent call last):
accounting.errors.InsufficientFunds: player:P-1:chips holds 300; it can't give 500.
"""

from __future__ import annotations

from collections.abc import Mapping

from accounting.domain import accounts as a
from accounting.domain.postings import Plan, normal, overdrawn
from accounting.errors import insufficient

Balances = Mapping[str, int] | None


def guarded(plan: Plan, balances: Balances) -> Plan:
    """Return ``plan``, or refuse it if it overdraws one of ``balances``.

    Raises :class:`accounting.errors.InsufficientFunds` naming the first account
    the plan would take below zero, with the most it can give (``allowed.max``).
    """
    if balances is None:
        return plan
    for code in overdrawn(plan, balances):
        held = balances.get(code, 0)
        moved = normal(code, plan.net()[code])
        raise insufficient(account=code, balance=held, amount=-moved)
    return plan


def vault_plan(
    *, kind: str, cage: str, cash: int, chips: int, sign: int, balances: Balances = None
) -> Plan:
    """House cash and chip stock into the vault (``sign`` 1) or out of it (-1)."""
    return guarded(
        Plan.of(
            kind,
            [
                (a.cage_cash_code(cage=cage), sign * cash),
                (a.HOUSE_CAPITAL, -sign * cash),
                (a.cage_chips_code(cage=cage), sign * chips),
                (a.CHIP_FLOAT, -sign * chips),
            ],
        ),
        balances,
    )


def shift_open_plan(
    *, cage: str, shift: int, cash: int, chips: int, balances: Balances = None
) -> Plan:
    """The counted float, vault → the shift's drawer (CA1)."""
    return guarded(
        Plan.of(
            "shift_open",
            [
                (a.drawer_cash_code(cage=cage, shift=shift), cash),
                (a.cage_cash_code(cage=cage), -cash),
                (a.drawer_chips_code(cage=cage, shift=shift), chips),
                (a.cage_chips_code(cage=cage), -chips),
            ],
        ),
        balances,
    )


def over_short_plan(
    *, cage: str, shift: int, what: str, variance: int, balances: Balances = None
) -> Plan:
    """One count difference (``what``: ``cash`` or ``chips``; counted − expected)
    between the drawer and over/short, so the drawer holds what was counted (CA1)."""
    drawer = (a.drawer_cash_code if what == "cash" else a.drawer_chips_code)(
        cage=cage, shift=shift
    )
    return guarded(
        Plan.of("over_short", [(drawer, variance), (a.OVER_SHORT, -variance)]),
        balances,
    )


def drawer_return_plan(
    *, cage: str, shift: int, cash: int, chips: int, balances: Balances = None
) -> Plan:
    """The drawer's counted cash and chips back to the vault (CA1)."""
    return guarded(
        Plan.of(
            "shift_close",
            [
                (a.drawer_cash_code(cage=cage, shift=shift), -cash),
                (a.cage_cash_code(cage=cage), cash),
                (a.drawer_chips_code(cage=cage, shift=shift), -chips),
                (a.cage_chips_code(cage=cage), chips),
            ],
        ),
        balances,
    )


def slip_plan(
    *,
    kind: str,
    cage: str,
    shift: int,
    table: str,
    cents: int,
    balances: Balances = None,
) -> Plan:
    """A fill (chips drawer → tray) or a credit (tray → drawer) of ``cents`` (CA3)."""
    sign = 1 if kind == "fill" else -1
    return guarded(
        Plan.of(
            kind,
            [
                (a.table_tray_code(table=table), sign * cents),
                (a.drawer_chips_code(cage=cage, shift=shift), -sign * cents),
            ],
        ),
        balances,
    )


_BOXES = {
    "drop": a.table_drop_box_code,
    "rake": a.table_rake_box_code,
    "jackpot": a.table_jackpot_box_code,
}


def box_account(box: str, table: str) -> str:
    """The code of ``table``'s ``box`` (``drop``, ``rake`` or ``jackpot``)."""
    return _BOXES[box](table=table)


def box_count_plan(
    *,
    cage: str,
    table: str,
    box: str,
    recorded: int,
    counted: int,
    balances: Balances = None,
) -> Plan:
    """A box emptied by ``recorded``, ``counted`` into the vault (cash for the drop
    box, chips for the others), the difference to over/short (CA4)."""
    vault = (
        a.cage_cash_code(cage=cage) if box == "drop" else a.cage_chips_code(cage=cage)
    )
    return guarded(
        Plan.of(
            f"{box}_count",
            [
                (box_account(box, table), -recorded),
                (vault, counted),
                (a.OVER_SHORT, recorded - counted),
            ],
        ),
        balances,
    )


def exchange_plan(
    *, cage: str, shift: int, player: str, cents: int, balances: Balances = None
) -> Plan:
    """A chip purchase of ``cents`` through the drawer (CA2); a negative ``cents``
    is a redemption."""
    return guarded(
        Plan.of(
            "chip_purchase" if cents >= 0 else "chip_redemption",
            [
                (a.drawer_cash_code(cage=cage, shift=shift), cents),
                (a.player_chips_code(player=player), -cents),
                (a.drawer_chips_code(cage=cage, shift=shift), -cents),
                (a.CHIP_FLOAT, cents),
            ],
        ),
        balances,
    )


def award_payout_plan(
    *, cage: str, shift: int, cents: int, balances: Balances = None
) -> Plan:
    """An approved award paid in cash from the drawer (CA6)."""
    return guarded(
        Plan.of(
            "award_payout",
            [
                (a.AWARDS_PAYABLE, cents),
                (a.drawer_cash_code(cage=cage, shift=shift), -cents),
            ],
        ),
        balances,
    )


def award_forfeit_plan(*, cents: int, balances: Balances = None) -> Plan:
    """An award a manager decided a restricted player doesn't get (PP6): out of
    awards payable into forfeited awards, a liability until it goes where the
    licence says."""
    return guarded(
        Plan.of(
            "award_forfeit",
            [(a.AWARDS_PAYABLE, cents), (a.AWARDS_FORFEITED, -cents)],
        ),
        balances,
    )


def collection_plan(
    *, cage: str, shift: int, player: str, cents: int, balances: Balances = None
) -> Plan:
    """Cash a player pays back of his receivable, into the drawer (DC3)."""
    return guarded(
        Plan.of(
            "collection",
            [
                (a.drawer_cash_code(cage=cage, shift=shift), cents),
                (a.receivables_code(player=player), -cents),
            ],
        ),
        balances,
    )
