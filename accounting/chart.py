"""The chart of accounts: one function per kind of account, opened on first use.

How chips and cash are booked (README "The ledger"):

- Cash the house holds is an asset: the cage's vault, each cashier's drawer, each
  table's drop box.
- Chips the house holds are an asset at face value (chip inventory): the cage's chips,
  each table's tray and rake box and jackpot box. Their counterpart is the equity
  account ``equity:chip_float``: when chips leave the house's hands (a buy-in, a
  purchase) the inventory and the float both go down; when they come back (a
  redemption, rake) both go up. So ``chip_float`` always equals the chips in the
  house's hands.
- Chips in a player's hands are what the house owes him: a liability, never below
  zero, one account for the chips he carries and one for his stack at each table.
- Rake and time collection are revenue; jackpot pools, their reserves, awards payable
  and escrow for held pots are liabilities held for players (JD5).

A buy-in of €200 cash at T01 is then four entries: drop box +200 (asset), player's
stack at T01 +200 (liability), tray −200 (asset), chip float −200 (equity).
"""

from __future__ import annotations

from django.conf import settings

from accounting.models import Account, AccountType
from accounting.services import account_get_or_open


def _currency(currency: str | None) -> str:
    return currency or settings.CARDROOM_CURRENCY


CHIP_FLOAT = "equity:chip_float"
RAKE_REVENUE = "revenue:rake"
JACKPOT_DROPS = "jackpot:drops"


def player_stack_code(*, player: str, table: str) -> str:
    return f"player:{player}:table:{table}"


def table_rake_box_code(*, table: str) -> str:
    return f"table:{table}:rake_box"


def table_jackpot_box_code(*, table: str) -> str:
    return f"table:{table}:jackpot_box"


def chip_float(*, currency: str | None = None) -> Account:
    """Equity matching the chips in the house's hands at face value."""
    return account_get_or_open(
        code=CHIP_FLOAT,
        name="Chip float (house chips at face value)",
        type=AccountType.EQUITY,
        currency=_currency(currency),
    )


def house_capital(*, currency: str | None = None) -> Account:
    """Equity: the cash the house puts into (or takes out of) the cage."""
    return account_get_or_open(
        code="equity:house_capital",
        name="House capital",
        type=AccountType.EQUITY,
        currency=_currency(currency),
    )


def cage_cash(*, cage: str, currency: str | None = None) -> Account:
    """Asset: the cage's vault cash."""
    return account_get_or_open(
        code=f"cage:{cage}:cash",
        name=f"Cage {cage} cash",
        type=AccountType.ASSET,
        currency=_currency(currency),
        non_negative=True,
    )


def cage_chips(*, cage: str, currency: str | None = None) -> Account:
    """Asset: the chips the cage holds."""
    return account_get_or_open(
        code=f"cage:{cage}:chips",
        name=f"Cage {cage} chips",
        type=AccountType.ASSET,
        currency=_currency(currency),
        non_negative=True,
    )


def drawer_cash(*, cage: str, shift: int, currency: str | None = None) -> Account:
    """Asset: the cash in one cashier shift's drawer (CA1)."""
    return account_get_or_open(
        code=f"cage:{cage}:shift:{shift}:cash",
        name=f"Cage {cage} shift {shift} drawer cash",
        type=AccountType.ASSET,
        currency=_currency(currency),
        non_negative=True,
    )


def drawer_chips(*, cage: str, shift: int, currency: str | None = None) -> Account:
    """Asset: the chips in one cashier shift's drawer (CA1)."""
    return account_get_or_open(
        code=f"cage:{cage}:shift:{shift}:chips",
        name=f"Cage {cage} shift {shift} drawer chips",
        type=AccountType.ASSET,
        currency=_currency(currency),
        non_negative=True,
    )


def table_tray(*, table: str, currency: str | None = None) -> Account:
    """Asset: the chips in a table's tray (CA3)."""
    return account_get_or_open(
        code=f"table:{table}:tray",
        name=f"Table {table} tray",
        type=AccountType.ASSET,
        currency=_currency(currency),
        non_negative=True,
    )


def table_drop_box(*, table: str, currency: str | None = None) -> Account:
    """Asset: the cash dropped at a table (CA3), until counted (CA4)."""
    return account_get_or_open(
        code=f"table:{table}:drop_box",
        name=f"Table {table} drop box",
        type=AccountType.ASSET,
        currency=_currency(currency),
        non_negative=True,
    )


def table_rake_box(*, table: str, currency: str | None = None) -> Account:
    """Asset: the rake chips taken at a table, until counted (CA4)."""
    return account_get_or_open(
        code=table_rake_box_code(table=table),
        name=f"Table {table} rake box",
        type=AccountType.ASSET,
        currency=_currency(currency),
        non_negative=True,
    )


def table_jackpot_box(*, table: str, currency: str | None = None) -> Account:
    """Asset: the jackpot drop chips taken at a table, until counted (JD1, CA4)."""
    return account_get_or_open(
        code=table_jackpot_box_code(table=table),
        name=f"Table {table} jackpot box",
        type=AccountType.ASSET,
        currency=_currency(currency),
        non_negative=True,
    )


def player_chips(*, player: str, currency: str | None = None) -> Account:
    """Liability: the chips a player carries away from any table (BI10)."""
    return account_get_or_open(
        code=f"player:{player}:chips",
        name=f"Player {player} chips",
        type=AccountType.LIABILITY,
        currency=_currency(currency),
        non_negative=True,
    )


def player_stack(*, player: str, table: str, currency: str | None = None) -> Account:
    """Liability: a player's stack on a table (BI3 table stakes, HS6)."""
    return account_get_or_open(
        code=player_stack_code(player=player, table=table),
        name=f"Player {player} stack at {table}",
        type=AccountType.LIABILITY,
        currency=_currency(currency),
        non_negative=True,
    )


def rake_revenue(*, currency: str | None = None) -> Account:
    """Revenue: pot rake (RK1–RK3, RK7)."""
    return account_get_or_open(
        code=RAKE_REVENUE,
        name="Rake revenue",
        type=AccountType.REVENUE,
        currency=_currency(currency),
    )


def time_revenue(*, currency: str | None = None) -> Account:
    """Revenue: time collection (RK6)."""
    return account_get_or_open(
        code="revenue:time",
        name="Time collection revenue",
        type=AccountType.REVENUE,
        currency=_currency(currency),
    )


def jackpot_pool(*, pool: str, currency: str | None = None) -> Account:
    """Liability held in trust: a jackpot pool's current amount (JD5, JD6)."""
    return account_get_or_open(
        code=f"jackpot:{pool}:pool",
        name=f"Jackpot {pool}",
        type=AccountType.LIABILITY,
        currency=_currency(currency),
        non_negative=True,
    )


def jackpot_reserve(*, pool: str, currency: str | None = None) -> Account:
    """Liability held in trust: a pool's reserve, the next jackpot's seed (JD5)."""
    return account_get_or_open(
        code=f"jackpot:{pool}:reserve",
        name=f"Jackpot {pool} reserve",
        type=AccountType.LIABILITY,
        currency=_currency(currency),
        non_negative=True,
    )


def awards_payable(*, currency: str | None = None) -> Account:
    """Liability: approved awards not yet paid at the cage (BB5, CA6)."""
    return account_get_or_open(
        code="liability:awards_payable",
        name="Awards payable",
        type=AccountType.LIABILITY,
        currency=_currency(currency),
        non_negative=True,
    )


def escrow(*, currency: str | None = None) -> Account:
    """Liability: pots held while a ruling is pending (HS8)."""
    return account_get_or_open(
        code="liability:escrow",
        name="Held pots (escrow)",
        type=AccountType.LIABILITY,
        currency=_currency(currency),
        non_negative=True,
    )


def receivables(*, player: str, currency: str | None = None) -> Account:
    """Asset: money a player owes back (DC3)."""
    return account_get_or_open(
        code=f"receivable:{player}",
        name=f"Receivable from {player}",
        type=AccountType.ASSET,
        currency=_currency(currency),
        non_negative=True,
    )


def over_short(*, currency: str | None = None) -> Account:
    """Expense (a credit balance when over): count differences (CA1, CA4)."""
    return account_get_or_open(
        code="expense:over_short",
        name="Over/short",
        type=AccountType.EXPENSE,
        currency=_currency(currency),
    )


def jackpot_drops(*, currency: str | None = None) -> Account:
    """Liability held in trust: hands' jackpot drops before they reach pools (JD1)."""
    return account_get_or_open(
        code=JACKPOT_DROPS,
        name="Jackpot drops",
        type=AccountType.LIABILITY,
        currency=_currency(currency),
        non_negative=True,
        summed=True,  # every hand's drop in a room without pools
    )


def table_suspense(*, table: str, currency: str | None = None) -> Account:
    """Asset: chips a table's stacks hold beyond (or below) the record (HS6)."""
    return account_get_or_open(
        code=f"table:{table}:suspense",
        name=f"Table {table} chip differences",
        type=AccountType.ASSET,
        currency=_currency(currency),
    )


def stack_review_hold(
    *, player: str, table: str, currency: str | None = None
) -> Account:
    """Liability: a player's chips at a table frozen while a stack review is open.

    HS6: what the ledger held for his stack beyond what the table reported; no leave
    or redemption pays from it; only an approved review moves it (DC2).
    """
    return account_get_or_open(
        code=f"{player_stack_code(player=player, table=table)}:review",
        name=f"Player {player} chips at {table} frozen for review",
        type=AccountType.LIABILITY,
        currency=_currency(currency),
        non_negative=True,
    )


def custody(*, player: str, currency: str | None = None) -> Account:
    """Liability: a player's chips picked up from the table into the cage (BI9)."""
    return account_get_or_open(
        code=f"player:{player}:custody",
        name=f"Player {player} chips in cage custody",
        type=AccountType.LIABILITY,
        currency=_currency(currency),
        non_negative=True,
    )
