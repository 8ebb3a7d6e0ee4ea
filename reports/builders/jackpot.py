"""The jackpot report, and the jackpot funds' reconciliation the daily audit shares
(JD5): opening + drops + in - out = closing, for each pool."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import get_language

from accounting.models import BalanceSnapshot
from core.money import money_format
from reports import selectors as q
from reports.builders import jackpot_sources, promotions
from reports.builders.common import Progress, quiet, report_document
from reports.document import (
    DATE,
    MONEY,
    Checks,
    Column,
    Section,
)
from reports.document import said as _
from reports.selectors import HAND_KINDS, AccountMovements, Period

# --- Jackpot funds (shared by the daily audit and the jackpot report) ---------------


def jackpot_funds(
    ledger: dict[str, AccountMovements], checks: Checks
) -> tuple[Section, int]:
    """Reconcile each jackpot account: opening + drops + in − out = closing (JD5).

    ``closing`` is from the entries up to the period's end; the ledger's figure is
    the cached balance less what was posted after the end. Returns the section and
    the drops of the period over all jackpot accounts (raw credits, as cents).
    """
    section = Section(
        key="jackpot_funds",
        title=_("Jackpot fund reconciliation"),
        columns=[
            Column("account", _("account")),
            Column("opening", _("opening"), MONEY),
            Column("drops", _("drops"), MONEY),
            Column("awards", _("awards and other out"), MONEY),
            Column("other_in", _("other in"), MONEY),
            Column("closing", _("closing"), MONEY),
            Column("ledger_closing", _("ledger balance at end"), MONEY),
            Column("out_by_kind", _("out by kind")),
        ],
        note=_(
            "opening + drops + other in − awards and other out = closing, per "
            "account, from the entries; checked against the account's balance."
        ),
    )
    total_drops = 0
    for code, account in sorted(ledger.items()):
        if not code.startswith("jackpot:"):
            continue
        # Liabilities: a credit (negative entry) adds to the fund.
        drops = -account.net(*HAND_KINDS)
        debit, credit = account.net_except(*HAND_KINDS)
        out_kinds = ", ".join(
            f"{k} {money_format(d, account.currency, get_language() or 'en')}"
            for k, (d, _c) in sorted(account.by_kind.items())
            if k not in HAND_KINDS and d
        )
        closing = account.opening + drops - credit - debit
        section.add(
            account=code,
            opening=account.opening,
            drops=drops,
            awards=debit,
            other_in=-credit,
            closing=closing,
            ledger_closing=account.closing_from_cache,
            out_by_kind=out_kinds,
        )
        if account.cache_checked:
            # Otherwise the balance at the end is the cache's by construction; the
            # daily audit's continuity check tests it.
            checks.compare(
                _("%(account)s closing balance") % {"account": code},
                closing,
                account.closing_from_cache,
            )
        total_drops += drops
    return section, total_drops


def awards_check(
    period: Period, ledger: dict[str, AccountMovements], checks: Checks
) -> None:
    """What approved hits and months booked = what left the pools as awards."""
    out = sum(
        account.by_kind.get(jackpot_sources.AWARD_KIND, (0, 0))[0]
        for code, account in ledger.items()
        if code.startswith("jackpot:")
    )
    checks.compare(
        _("jackpot awards booked (BB5, HM3)"),
        jackpot_sources.awards_booked(period=period),
        out,
    )


# --- The jackpot report ---------------------------------------------------------------


def jackpot_report(
    *, period: Period, now: datetime, progress: Progress = quiet
) -> dict[str, Any]:
    """Build the jackpot report of ``period``: funds, drops by day, hits, standings."""
    checks = Checks()
    ledger = q.ledger_movements(period=period, code_prefix="jackpot:")
    funds, drops = jackpot_funds(ledger, checks)
    hands = q.hands_by_table(period=period)
    checks.compare(
        _("jackpot drops of the hands"), sum(h["drop"] for h in hands.values()), drops
    )
    awards_check(period, ledger, checks)
    progress(_("funds"))

    daily = q.jackpot_daily(period=period)
    days = [
        period.first + timedelta(days=n)
        for n in range((period.last - period.first).days + 1)
    ]
    contributions = Section(
        key="contributions",
        title=_("Contributions per day"),
        columns=[
            Column("gaming_day", _("gaming day"), DATE),
            Column("account", _("account")),
            Column("drops", _("drops"), MONEY),
            Column("other", _("other movements"), MONEY),
            Column("closing", _("closing"), MONEY),
        ],
        note=_("Drops are the hands' (JD1); other movements are awards and transfers."),
    )
    series = []
    for code, account in sorted(ledger.items()):
        balance = account.opening
        values = []
        for day in days:
            raw_drops, raw_other = daily.get((code, day), (0, 0))
            balance += account.normal * (raw_drops + raw_other)
            values.append(balance)
            if raw_drops or raw_other:
                contributions.add(
                    gaming_day=day.isoformat(),
                    account=code,
                    drops=account.normal * raw_drops,
                    other=account.normal * raw_other,
                    closing=balance,
                )
        series.append({"name": code, "values": values})
        checks.compare(
            _("%(account)s closing by day") % {"account": code},
            balance,
            account.closing,
        )
    progress(_("contributions"))

    hits = _hits_and_prizes(period, ledger, checks)
    progress(_("hits and awards"))
    standings = jackpot_sources.hand_of_the_month_standings(
        period=period, month=period.last.replace(day=1)
    )
    progress(_("hand of the month"))
    charts = [
        {
            "key": "pools_over_time",
            "title": _("Jackpot pools over time"),
            "type": "line",
            "x": [d.isoformat() for d in days],
            "x_label": _("gaming day"),
            "y_label": period.room.currency,
            "series": series,
        }
    ]
    return report_document(
        kind="jackpot",
        title=_("Jackpot report"),
        period=period,
        now=now,
        sections=[checks, funds, contributions, *hits, standings],
        charts=charts,
    )


def _hits_and_prizes(
    period: Period, ledger: dict[str, AccountMovements], checks: Checks
) -> list[Section]:
    """The hits and months with their awards, then the promotions' pools, prizes
    and carry-overs (PR1, PR2, PR5)."""
    return [
        jackpot_sources.hits_and_awards(period=period),
        *promotions.promotion_sections(period, ledger, checks),
    ]


def trial_balance_totals(
    checks: Checks,
    debit_balances: dict[str, int],
    credit_balances: dict[str, int],
    sums: dict[str, list[int]],
    cached: dict[str, list[int]],
    *,
    previous: tuple[str, dict[str, int]] | None,
    snapshot: BalanceSnapshot | None,
) -> None:
    """The checks on every currency's balances as a whole."""
    for currency in sorted(set(debit_balances) | set(credit_balances)):
        checks.compare(
            _("trial balance %(c)s: debit balances = credit balances")
            % {"c": currency},
            debit_balances[currency],
            credit_balances[currency],
        )
        if snapshot is not None:
            checks.compare(
                _("%(c)s closings = cached balances less later entries (Σ)")
                % {"c": currency},
                cached[currency][0],
                cached[currency][1],
            )
        if previous is None and snapshot is not None:
            continue
        checks.compare(
            (
                _("%(c)s cached balances = sums of entries (Σ of balances)")
                if previous is None
                else _("%(c)s openings = previous closings (Σ of balances)")
            )
            % {"c": currency},
            sums[currency][0],
            sums[currency][1],
        )
