"""Refusals told at the cage in the room's words, with the amounts allowed.

The services refuse with a code, a rule and what was allowed (API.md's error
object); the ledger's own refusal names an account (``player:P-1001:chips``),
which a cashier should never read. Here each is said for the person at the desk,
with money in the room's currency.
"""

from __future__ import annotations

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
