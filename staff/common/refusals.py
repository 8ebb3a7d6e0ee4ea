"""Refusals told at the cage in the room's words, with the amounts allowed.

The services refuse with a code, a rule and what was allowed (API.md's error
object); the ledger's own refusal names an account (``player:P-1001:chips``),
which a cashier should never read. Here each is said for the person at the desk,
with money in the room's currency. The floor's overdrafts (a tray that can't pay a
buy-in, CA3) are said by :func:`floor_shortfall`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _

from core.errors import ApplicationError

Money = Callable[[int], str]


def _short(short_of: str, held_cents: int, money: Money, who: str) -> str:
    held = money(held_cents)
    texts = {
        "player_chips": _(
            "CA2: %(who)s holds chips worth %(held)s; at most %(held)s can be cashed."
        ),
        "drawer_cash": _(
            "CA1: your drawer holds %(held)s in cash; at most %(held)s can be paid "
            "out. Ask the vault for cash."
        ),
        "drawer_chips": _(
            "CA1: your drawer holds %(held)s in chips; at most %(held)s can leave it. "
            "Ask the vault for chips."
        ),
        "table_tray": _(
            "CA3: the table's tray holds %(held)s in chips; a credit can take at most "
            "%(held)s."
        ),
    }
    return texts[short_of] % {"who": who, "held": held}


def refusal_text(
    error: ApplicationError,
    *,
    money: Money,
    short_of: str = "",
    who: str = "",
    held: int | None = None,
) -> str:
    """Say why the cage refused, for the cashier: the rule and the amounts allowed.

    ``short_of`` names what ran short when the ledger refuses an overdraft
    (``player_chips``, ``drawer_cash``, ``drawer_chips``, ``table_tray``);
    ``who`` is the player's name; ``held`` what the account holds when the
    caller knows it (the ledger names the first account it finds short).
    """
    allowed = error.allowed or {}
    if error.code == "insufficient_funds" and short_of:
        found = held if held is not None else allowed.get("max", 0)
        return _short(short_of, found, money, who)
    if error.code == "insufficient_funds" and (
        said := floor_shortfall(error, money=money)
    ):
        return said
    if error.code == "identity_required":
        return _(
            "CA5: %(who)s has no verified identity document; without one he may move "
            "at most %(max)s more in cash tonight. Check his document first."
        ) % {"who": who, "max": money(allowed.get("max", 0))}
    if error.code == "receivable_open":
        return _(
            "DC3: %(who)s owes the house %(open)s (%(due)s of it due); he pays it back "
            "before he buys chips."
        ) % {
            "who": who,
            "open": money(allowed.get("open", 0)),
            "due": money(allowed.get("due", 0)),
        }
    if error.code == "no_open_shift":
        return _("CA1: open your shift with a counted float first.")
    if error.code == "invalid_amount":
        return _("Type an amount more than zero.")
    rule = (
        f"{error.rule}: "
        if error.rule and not error.detail.startswith(error.rule)
        else ""
    )
    return f"{rule}{error.detail}"


_TRAY = re.compile(r"table:(?P<table>[^:]+):tray")


def _overdrawn(error: ApplicationError) -> tuple[str, int, int | None] | None:
    """The account an overdraft ran short on, what it held and what was asked,
    from either shape of the refusal: the ledger's (``account``, ``balance``,
    ``amount``) or the floor's plan check (``allowed`` by account)."""
    params = error.params or {}
    if "account" in params:
        return (
            str(params["account"]),
            int(params.get("balance") or 0),
            int(params["amount"]) if "amount" in params else None,
        )
    for account, held in (error.allowed or {}).items():
        if ":" in str(account):
            return str(account), int(held or 0), None
    return None


def floor_shortfall(
    error: ApplicationError, *, money: Money, wanted: int | None = None
) -> str | None:
    """Say an overdraft met at a table for the floor, never the ledger's account
    name and raw cents; None for any other refusal.

    A cash buy-in takes its chips from the table's tray (CA3): a tray that can't
    pay it, a new table's empty one above all, is said with what it holds and the
    least fill that seats the player, which the floor asks of the cage from its
    screen. ``wanted`` is the buy-in asked for, when the refusal doesn't carry it.
    """
    if error.code in ("tray_short", "chips_short"):
        # The floor's own refusals (CA3, CA2) carry the table, what was there and
        # what was asked (cardroom.errors.overdraft_said).
        params = error.params or {}
        held = int(params.get("held") or 0)
        if error.code == "chips_short":
            return _(
                "CA2: the player carries chips worth %(held)s; a buy-in in his chips "
                "is at most %(held)s."
            ) % {"held": money(held)}
        return _(
            "%(table)s's tray has %(held)s; ask the cage for a fill of at least "
            "%(short)s (CA3)."
        ) % {
            "table": params.get("t", ""),
            "held": money(held),
            "short": money(max(int(params.get("amount") or 0) - held, 0)),
        }
    if error.code != "insufficient_funds":
        return None
    short = _overdrawn(error)
    if short is None:
        return _("Nothing was booked: there isn't enough where the money comes from.")
    account, held, asked = short
    asked = asked if asked is not None else wanted
    tray = _TRAY.fullmatch(account)
    if tray is not None:
        if asked is None:
            return _(
                "%(table)s's tray has %(held)s; ask the cage for a fill (CA3)."
            ) % {"table": tray["table"], "held": money(held)}
        return _(
            "%(table)s's tray has %(held)s; ask the cage for a fill of at least "
            "%(short)s (CA3)."
        ) % {
            "table": tray["table"],
            "held": money(held),
            "short": money(max(asked - held, 0)),
        }
    if account.startswith("player:") and account.endswith(":chips"):
        return _(
            "CA2: the player carries chips worth %(held)s; a buy-in in his chips is "
            "at most %(held)s."
        ) % {"held": money(held)}
    return _("Nothing was booked: only %(held)s is there to take it from.") % {
        "held": money(held)
    }
