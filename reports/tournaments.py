"""The tournaments in the reports: an event's final report and the daily audit's
tournament section (TO1, TO3, TO5, TO7–TO10).

The event's final report is a document of :mod:`reports.document` (rendered as CSV,
XLSX and PDF like the others): entries by kind, fees, the pool and the overlay, the
payouts, the deal, the bounties and the chip reconciliation, with the checks that
tie the records to the ledger. The daily audit's section shows, for each event whose
accounts moved in the period, the money in and out of its pools, and checks the
purchases and refunds of the period against the ledger's entries.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db.models import Count, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.cage import gaming_day_of
from cardroom.models import Room
from reports.document import BOOL, INT, MONEY, Checks, Column, Section
from reports.selectors import AccountMovements, Period
from tournaments import chart, selectors
from tournaments.models import (
    BountyPayment,
    Deal,
    Entry,
    Event,
    Payout,
    PayoutSheet,
    Purchase,
    Refund,
)

POOL_SUFFIX = ":prize_pool"


def audit_section(
    *, period: Period, ledger: dict[str, AccountMovements], checks: Checks
) -> Section:
    """The daily audit's tournament section and its checks (TO1, TO7, TO8, TO10)."""
    section = Section(
        key="tournaments",
        title=_("Tournaments: prize and bounty pools"),
        columns=[
            Column("event", _("event")),
            Column("entries", _("purchases"), INT),
            Column("refunds", _("refunds"), INT),
            Column("pool_opening", _("pool, opening"), MONEY),
            Column("pool_in", _("into the pool"), MONEY),
            Column("pool_out", _("out of the pool"), MONEY),
            Column("pool_closing", _("pool, closing"), MONEY),
            Column("bounty_closing", _("bounties, closing"), MONEY),
            Column("fees", _("fees"), MONEY),
        ],
        note=_(
            "Each event whose pools moved in the period. Into the pool: buy-ins, "
            "rebuys, add-ons and the house's overlay (TO1, TO7); out: approved "
            "prizes and refunds (TO9, TO10)."
        ),
    )
    events = sorted(
        code.removeprefix("tournament:").removesuffix(POOL_SUFFIX)
        for code, account in ledger.items()
        if code.startswith("tournament:")
        and code.endswith(POOL_SUFFIX)
        and (account.debits or account.credits or account.opening)
    )
    for code in events:
        pool = ledger[chart.prize_pool_code(event=code)]
        bounty = ledger.get(chart.bounty_pool_code(event=code))
        purchases = Purchase.objects.filter(
            entry__event__code=code, at__gte=period.start, at__lt=period.end
        )
        refunds = Refund.objects.filter(
            purchase__entry__event__code=code, at__gte=period.start, at__lt=period.end
        )
        sold = purchases.aggregate(
            n=Count("id"), pool=Sum("prize_pool_cents"), fees=Sum("fee_cents")
        )
        given_back = refunds.aggregate(
            n=Count("id"), pool=Sum("purchase__prize_pool_cents")
        )
        section.add(
            event=code,
            entries=sold["n"],
            refunds=given_back["n"],
            pool_opening=pool.opening,
            pool_in=-pool.credits,
            pool_out=pool.debits,
            pool_closing=pool.closing,
            bounty_closing=bounty.closing if bounty else 0,
            fees=sold["fees"] or 0,
        )
        sold_in_ledger = -pool.by_kind.get("tournament_entry", (0, 0))[1]
        refunded_in_ledger = pool.by_kind.get("entry_refund", (0, 0))[0]
        checks.compare(
            f"{code} " + _("buy-ins into the prize pool"),
            sold["pool"] or 0,
            sold_in_ledger,
        )
        checks.compare(
            f"{code} " + _("refunds out of the prize pool"),
            given_back["pool"] or 0,
            refunded_in_ledger,
        )
    return section


def _entries_section() -> Section:
    return Section(
        key="entries",
        title=_("Entries, rebuys and add-ons (TO1)"),
        columns=[
            Column("kind", _("kind")),
            Column("count", _("count"), INT),
            Column("prize_pool", _("to the prize pool"), MONEY),
            Column("fees", _("fees"), MONEY),
            Column("staff_fees", _("staff fees"), MONEY),
            Column("bounties", _("bounties"), MONEY),
            Column("chips", _("chips"), INT),
        ],
        note=_("Refunded purchases are shown on their own line (TO10)."),
    )


def _money_section() -> Section:
    return Section(
        key="prize_pool",
        title=_("Prize pool (TO7)"),
        columns=[Column("item", _("item")), Column("amount", _("amount"), MONEY)],
    )


def _payouts_section() -> Section:
    return Section(
        key="payouts",
        title=_("Payouts (TO9)"),
        columns=[
            Column("place", _("place")),
            Column("player", _("player")),
            Column("amount", _("prize"), MONEY),
            Column("status", _("status")),
            Column("receipt", _("receipt")),
            Column("tax_document", _("tax document")),
        ],
    )


def _deal_section() -> Section:
    return Section(
        key="deal",
        title=_("Deal (TO5)"),
        columns=[
            Column("player", _("player")),
            Column("chips", _("chips"), INT),
            Column("chip_chop", _("chip chop"), MONEY),
            Column("icm", _("ICM"), MONEY),
            Column("agreed", _("agreed"), MONEY),
            Column("signed", _("signed"), BOOL),
        ],
    )


def _bounty_section() -> Section:
    return Section(
        key="bounties",
        title=_("Bounties (TO8)"),
        columns=[
            Column("winner", _("won by")),
            Column("busted", _("bounty of")),
            Column("reason", _("why")),
            Column("paid", _("paid"), MONEY),
            Column("added", _("added to his bounty"), MONEY),
        ],
    )


def _chips_section(period: Period, report: Any) -> Section:
    return Section(
        key="chips",
        title=_("Chip reconciliation (TO3)"),
        columns=[
            Column("line", _("line")),
            Column("cause", _("cause")),
            Column("chips", _("chips"), INT),
        ],
        note=_("Counted: %(at)s.") % {"at": period.local(report.counted_at)}
        if report.counted_at
        else _("No count of the field recorded."),
    )


def _entries(purchases: Any) -> Section:
    """The entries by kind: counts, the prize pool's and the fees' shares, chips."""
    entries_section = _entries_section()
    rows: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for p in purchases.select_related("entry"):
        kind = str(p.get_kind_display())
        if p.kind == Purchase.Kind.BUY_IN and p.entry.kind == Entry.Kind.REENTRY:
            kind = str(_("re-entry"))
        if Refund.objects.filter(purchase=p).exists():
            kind = f"{kind} (" + _("refunded") + ")"
        row = rows[kind]
        row["count"] += 1
        row["prize_pool"] += p.prize_pool_cents
        row["fees"] += p.fee_cents
        row["staff_fees"] += p.staff_fee_cents
        row["bounties"] += p.bounty_cents
        row["chips"] += p.chips
    for kind, row in rows.items():
        entries_section.add(kind=kind, **row)
    return entries_section


def _pool(event: Event, checks: Checks) -> Section:
    """The prize pool: buy-ins, the house's overlay, what it holds now (TO3)."""
    pool, overlay = selectors.pool_and_overlay(event=event)
    buy_ins = selectors.buy_ins_cents(event=event)
    money = _money_section()
    money.add(item=_("buy-ins, rebuys and add-ons"), amount=buy_ins)
    money.add(item=_("overlay (the house)"), amount=overlay)
    money.add(item=_("prize pool"), amount=pool)
    money.add(
        item=_("held in the pool now"), amount=selectors.prize_pool_cents(event=event)
    )
    checks.compare(_("pool = buy-ins + overlay"), buy_ins + overlay, pool)
    return money


def _payouts(event: Event, checks: Checks) -> Section:
    """The payout sheet's places, paid at the cage, checked against the pool."""
    payouts = _payouts_section()
    sheet = PayoutSheet.objects.filter(event=event).first()
    if sheet is not None:
        payouts.note = _("Prepared by %(p)s, approved by %(a)s.") % {
            "p": sheet.prepared_by.get_username(),
            "a": sheet.approved_by.get_username() if sheet.approved_by else "—",
        }
        lines = Payout.objects.filter(sheet=sheet).select_related(
            "entry__player", "payable__receipt__cage"
        )
        for line in lines:
            receipt = getattr(line.payable, "receipt", None) if line.payable else None
            payouts.add(
                place=(
                    str(line.place_high)
                    if line.place_high == line.place_low
                    else f"{line.place_high}–{line.place_low}"
                ),
                player=line.entry.player.code,
                amount=line.amount_cents,
                status=str(line.get_status_display()),
                receipt=receipt.no if receipt else "",
                tax_document=line.tax_document,
            )
        checks.compare(
            _("places paid = prize pool"),
            sum(line.amount_cents for line in lines),
            sheet.pool_cents,
        )
        if sheet.status == PayoutSheet.Status.APPROVED:
            checks.compare(
                _("prize pool left after approval"),
                0,
                selectors.prize_pool_cents(event=event),
            )
    return payouts


def _deal(event: Event, period: Period) -> Section:
    """The signed deal, if the players made one."""
    deal_section = _deal_section()
    deal = Deal.objects.filter(event=event, status=Deal.Status.SIGNED).first()
    if deal is not None:
        deal_section.note = _("%(method)s, signed %(at)s.") % {
            "method": deal.get_method_display(),
            "at": period.local(deal.signed_at),
        }
        signed = set(deal.signatures.values_list("entry_id", flat=True))
        for key, agreed in deal.amounts.items():
            entry = Entry.objects.select_related("player").get(pk=int(key))
            deal_section.add(
                player=entry.player.code,
                chips=deal.offers["stacks"].get(key, 0),
                chip_chop=deal.offers.get("chip_chop", {}).get(key, 0),
                icm=deal.offers.get("icm", {}).get(key, 0),
                agreed=agreed,
                signed=entry.pk in signed,
            )
    return deal_section


def _bounties(event: Event, purchases: Any, checks: Checks) -> Section:
    """The knockouts paid and the bounty pool's check."""
    bounty_section = _bounty_section()
    knockouts = BountyPayment.objects.filter(event=event).select_related(
        "winner__player", "bust__entry__player"
    )
    for b in knockouts:
        bounty_section.add(
            winner=b.winner.player.code,
            busted=b.bust.entry.player.code if b.bust else "",
            reason=b.reason,
            paid=b.amount_cents,
            added=b.added_to_bounty_cents,
        )
    bounties_in = purchases.aggregate(total=Sum("bounty_cents"))["total"] or 0
    refunded_bounties = (
        Refund.objects.filter(purchase__entry__event=event).aggregate(
            total=Sum("purchase__bounty_cents")
        )["total"]
        or 0
    )
    paid = sum(b.amount_cents for b in knockouts)
    checks.compare(
        _("bounty pool = bounties in − paid − refunded"),
        bounties_in - paid - refunded_bounties,
        chart.bounty_pool(event=event.code, currency=event.currency).balance_cents,
    )
    return bounty_section


def _chips(event: Event, period: Period) -> Section:
    """The chips issued, removed, in play and counted."""
    report = selectors.chip_reconciliation(event=event)
    r = report.reconciliation
    chips_section = _chips_section(period, report)
    for cause, chips in r.issued.items():
        chips_section.add(line=_("issued"), cause=cause, chips=chips)
    for cause, chips in r.removed.items():
        if chips:
            chips_section.add(line=_("removed"), cause=cause, chips=chips)
    chips_section.add(line=_("in play"), cause="", chips=r.in_play)
    chips_section.add(line=_("counted"), cause="", chips=r.counted)
    chips_section.add(line=_("difference"), cause="", chips=r.difference)
    return chips_section


def event_report(*, event: Event, now: datetime | None = None) -> dict[str, Any]:
    """The event's final report as a stored-report document (TO1–TO10)."""
    now = now or timezone.now()
    room: Room = event.room
    first = gaming_day_of(event.starts_at)
    last = max(first, gaming_day_of(now))
    period = Period.of(room, first, last)
    checks = Checks()

    purchases = Purchase.objects.filter(entry__event=event)
    entries_section = _entries(purchases)
    money = _pool(event, checks)
    payouts = _payouts(event, checks)
    deal_section = _deal(event, period)
    bounty_section = _bounties(event, purchases, checks)
    chips_section = _chips(event, period)
    return {
        "kind": "tournament",
        "title": _("Tournament final report: %(name)s") % {"name": event.name},
        "period": {
            "first": period.first.isoformat(),
            "last": period.last.isoformat(),
            "start": period.start.isoformat(),
            "end": period.end.isoformat(),
        },
        "room": {
            "name": str(room.name),
            "time_zone": room.time_zone,
            "cutoff_hour": room.gaming_day_cutoff_hour,
        },
        "currency": event.currency,
        "as_of": now.isoformat(),
        "sections": [
            s.as_json()
            for s in [
                checks,
                entries_section,
                money,
                payouts,
                deal_section,
                bounty_section,
                chips_section,
            ]
        ],
        "charts": [],
    }


__all__ = ["audit_section", "event_report"]
