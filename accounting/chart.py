"""The chart of accounts: one function per kind of account, opened on first use.

How chips and cash are booked (docs/ledger.md):

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

from accounting.domain import accounts
from accounting.models import Account
from accounting.services.posting import account_for

CHIP_FLOAT = accounts.CHIP_FLOAT
RAKE_REVENUE = accounts.RAKE_REVENUE
JACKPOT_DROPS = accounts.JACKPOT_DROPS
player_stack_code = accounts.player_stack_code
table_rake_box_code = accounts.table_rake_box_code
table_jackpot_box_code = accounts.table_jackpot_box_code


def chip_float(*, currency: str | None = None) -> Account:
    """Equity matching the chips in the house's hands at face value."""
    return account_for(accounts.CHIP_FLOAT, currency=currency)


def house_capital(*, currency: str | None = None) -> Account:
    """Equity: the cash the house puts into (or takes out of) the cage."""
    return account_for(accounts.HOUSE_CAPITAL, currency=currency)


def cage_cash(*, cage: str, currency: str | None = None) -> Account:
    """Asset: the cage's vault cash."""
    return account_for(accounts.cage_cash_code(cage=cage), currency=currency)


def cage_chips(*, cage: str, currency: str | None = None) -> Account:
    """Asset: the chips the cage holds."""
    return account_for(accounts.cage_chips_code(cage=cage), currency=currency)


def drawer_cash(*, cage: str, shift: int, currency: str | None = None) -> Account:
    """Asset: the cash in one cashier shift's drawer (CA1)."""
    return account_for(
        accounts.drawer_cash_code(cage=cage, shift=shift), currency=currency
    )


def drawer_chips(*, cage: str, shift: int, currency: str | None = None) -> Account:
    """Asset: the chips in one cashier shift's drawer (CA1)."""
    return account_for(
        accounts.drawer_chips_code(cage=cage, shift=shift), currency=currency
    )


def table_tray(*, table: str, currency: str | None = None) -> Account:
    """Asset: the chips in a table's tray (CA3)."""
    return account_for(accounts.table_tray_code(table=table), currency=currency)


def table_drop_box(*, table: str, currency: str | None = None) -> Account:
    """Asset: the cash dropped at a table (CA3), until counted (CA4)."""
    return account_for(accounts.table_drop_box_code(table=table), currency=currency)


def table_rake_box(*, table: str, currency: str | None = None) -> Account:
    """Asset: the rake chips taken at a table, until counted (CA4)."""
    return account_for(accounts.table_rake_box_code(table=table), currency=currency)


def table_jackpot_box(*, table: str, currency: str | None = None) -> Account:
    """Asset: the jackpot drop chips taken at a table, until counted (JD1, CA4)."""
    return account_for(accounts.table_jackpot_box_code(table=table), currency=currency)


def player_chips(*, player: str, currency: str | None = None) -> Account:
    """Liability: the chips a player carries away from any table (BI10)."""
    return account_for(accounts.player_chips_code(player=player), currency=currency)


def player_stack(*, player: str, table: str, currency: str | None = None) -> Account:
    """Liability: a player's stack on a table (BI3 table stakes, HS6)."""
    return account_for(
        accounts.player_stack_code(player=player, table=table), currency=currency
    )


def rake_revenue(*, currency: str | None = None) -> Account:
    """Revenue: pot rake (RK1–RK3, RK7)."""
    return account_for(accounts.RAKE_REVENUE, currency=currency)


def time_revenue(*, currency: str | None = None) -> Account:
    """Revenue: time collection (RK6)."""
    return account_for(accounts.TIME_REVENUE, currency=currency)


def jackpot_pool(*, pool: str, currency: str | None = None) -> Account:
    """Liability held in trust: a jackpot pool's current amount (JD5, JD6)."""
    return account_for(accounts.jackpot_pool_code(pool=pool), currency=currency)


def jackpot_reserve(*, pool: str, currency: str | None = None) -> Account:
    """Liability held in trust: a pool's reserve, the next jackpot's seed (JD5)."""
    return account_for(accounts.jackpot_reserve_code(pool=pool), currency=currency)


def awards_payable(*, currency: str | None = None) -> Account:
    """Liability: approved awards not yet paid at the cage (BB5, CA6)."""
    return account_for(accounts.AWARDS_PAYABLE, currency=currency)


def escrow(*, currency: str | None = None) -> Account:
    """Liability: pots held while a ruling is pending (HS8)."""
    return account_for(accounts.ESCROW, currency=currency)


def receivables(*, player: str, currency: str | None = None) -> Account:
    """Asset: money a player owes back (DC3)."""
    return account_for(accounts.receivables_code(player=player), currency=currency)


def over_short(*, currency: str | None = None) -> Account:
    """Expense (a credit balance when over): count differences (CA1, CA4)."""
    return account_for(accounts.OVER_SHORT, currency=currency)


def jackpot_drops(*, currency: str | None = None) -> Account:
    """Liability held in trust: hands' jackpot drops before they reach pools (JD1)."""
    return account_for(accounts.JACKPOT_DROPS, currency=currency)


def table_suspense(*, table: str, currency: str | None = None) -> Account:
    """Asset: chips a table's stacks hold beyond (or below) the record (HS6)."""
    return account_for(accounts.table_suspense_code(table=table), currency=currency)


def stack_review_hold(
    *, player: str, table: str, currency: str | None = None
) -> Account:
    """Liability: a player's chips at a table frozen while a stack review is open.

    HS6: what the ledger held for his stack beyond what the table reported; no leave
    or redemption pays from it; only an approved review moves it (DC2).
    """
    return account_for(
        accounts.stack_review_hold_code(player=player, table=table), currency=currency
    )


def custody(*, player: str, currency: str | None = None) -> Account:
    """Liability: a player's chips picked up from the table into the cage (BI9)."""
    return account_for(accounts.custody_code(player=player), currency=currency)


def promotions_expense(*, currency: str | None = None) -> Account:
    """Expense: what the house pays into promotions' prizes (PR1)."""
    return account_for(accounts.PROMOTIONS_EXPENSE, currency=currency)
