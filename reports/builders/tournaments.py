"""The tournaments in the reports: an event's final report and the daily audit's
tournament section (TO1, TO3, TO5–TO10).

The event's final report is a document of :mod:`reports.document` (rendered as CSV,
XLSX and PDF like the others) that tells the event's whole story: entries by kind,
the prize pool (sold, refunded, the overlay, where it went), every refund with its
four parts (prize pool, fee, staff fee, bounty), every payout line with its status
and, for a held prize, who released or forfeited it, why, and where forfeited money
went; the deals with their figures, bounties, signatures and approval; the
bounties; the chip reconciliation from the tables' latest counts and the colour-up
races. Amounts are integer cents in the document (and so in its CSV); the PDF writes
them as money. Its checks tie the records to the ledger.

The daily audit's section shows, for each event whose accounts moved in the period,
the money in and out of its pools, and checks the purchases and refunds of the
period against the ledger's entries.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone

from accounting.models import Account
from accounting.models import Entry as LedgerEntry
from accounting.services.cage import gaming_day_of
from cardroom.models import Room
from reports.document import BOOL, DATETIME, INT, MONEY, Checks, Column, Section
from reports.document import said as _
from reports.selectors import AccountMovements, Period
from tournaments import chart, selectors
from tournaments.models import (
    BountyPayment,
    ChipMovement,
    ChipRace,
    Deal,
    DealSignature,
    Entry,
    Event,
    Payout,
    PayoutSheet,
    Purchase,
    Refund,
)

POOL_SUFFIX = ":prize_pool"
# The ledger's transaction kinds of a purchase and of its refund (the cage
# receipts' kinds) and of a held prize forfeited.
SOLD_KIND, REFUND_KIND, FORFEIT_KIND = (
    "tournament_entry",
    "entry_refund",
    ("tournament_forfeit"),
)


def audit_section(
    *, period: Period, ledger: dict[str, AccountMovements], checks: Checks
) -> Section:
    """The daily audit's tournament section and its checks (TO1, TO7, TO8, TO10).

    A refund takes out of the pool its own prize-pool part, which is less than
    the purchase's for a partial one (TO10)."""
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
        given_back = refunds.aggregate(n=Count("id"), pool=Sum("prize_pool_cents"))
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
        sold_in_ledger = -pool.by_kind.get(SOLD_KIND, (0, 0))[1]
        refunded_in_ledger = pool.by_kind.get(REFUND_KIND, (0, 0))[0]
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


# --- the event's final report: its sections -------------------------------------


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
        note=_(
            "What was sold. Refunds, whole and in part, are listed under Refunds "
            "and taken off the prize pool (TO10)."
        ),
    )


def _money_section() -> Section:
    return Section(
        key="prize_pool",
        title=_("Prize pool and fees (TO1, TO7)"),
        columns=[
            Column("line", _("line")),
            Column("item", _("item")),
            Column("amount", _("amount"), MONEY),
        ],
    )


def _refunds_section() -> Section:
    return Section(
        key="refunds",
        title=_("Refunds (TO10)"),
        columns=[
            Column("receipt", _("receipt")),
            Column("at", _("at"), DATETIME),
            Column("entry", _("entry")),
            Column("player", _("player")),
            Column("purchase", _("refund of")),
            Column("purchase_receipt", _("purchase receipt")),
            Column("amount", _("amount"), MONEY),
            Column("prize_pool", _("from the prize pool"), MONEY),
            Column("fee", _("fee"), MONEY),
            Column("staff_fee", _("staff fee"), MONEY),
            Column("bounty", _("bounty"), MONEY),
            Column("left", _("left to refund"), MONEY),
            Column("reason", _("why")),
            Column("approved_by", _("approved by")),
            Column("paid_by", _("paid by")),
        ],
        note=_(
            "Each refund, whole or a part of a purchase, split across what was left "
            "of its parts (TO10); left to refund is what remained of the purchase "
            "after it, 0 when it was refunded whole."
        ),
    )


def _payouts_section() -> Section:
    return Section(
        key="payouts",
        title=_("Payouts (TO9)"),
        columns=[
            Column("place", _("place")),
            Column("entry", _("entry")),
            Column("player", _("player")),
            Column("amount", _("prize"), MONEY),
            Column("status", _("status")),
            Column("hold_reason", _("why held")),
            Column("decision", _("released or forfeited")),
            Column("decided_by", _("released or forfeited by")),
            Column("decided_at", _("released or forfeited at"), DATETIME),
            Column("decision_reason", _("why released or forfeited")),
            Column("forfeited_to", _("forfeited to")),
            Column("receipt", _("receipt")),
            Column("tax_document", _("tax document")),
        ],
    )


def _deals_section() -> Section:
    return Section(
        key="deals",
        title=_("Deals (TO5, TO8)"),
        columns=[
            Column("method", _("method")),
            Column("status", _("status")),
            Column("pool", _("prize money dealt"), MONEY),
            Column("left_in_play", _("left to play for"), MONEY),
            Column("bounties", _("bounties shared"), MONEY),
            Column("recorded_by", _("recorded by")),
            Column("recorded_at", _("recorded"), DATETIME),
            Column("signed_at", _("signed"), DATETIME),
            Column("approved_by", _("approved by")),
            Column("approved_at", _("approved"), DATETIME),
        ],
        note=_(
            "Every deal recorded; it binds once every player has signed and "
            "another person than who recorded it approved it (TO5)."
        ),
    )


def _deal_section() -> Section:
    return Section(
        key="deal",
        title=_("Deal (TO5)"),
        columns=[
            Column("entry", _("entry")),
            Column("player", _("player")),
            Column("chips", _("chips"), INT),
            Column("chip_chop", _("chip chop"), MONEY),
            Column("icm", _("ICM"), MONEY),
            Column("agreed", _("agreed"), MONEY),
            Column("bounty", _("bounty"), MONEY),
            Column("signed", _("signed"), BOOL),
            Column("signed_at", _("signed at"), DATETIME),
            Column("witnessed_by", _("witnessed by")),
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


def _chips_section() -> Section:
    return Section(
        key="chips",
        title=_("Chip reconciliation (TO3)"),
        columns=[
            Column("line", _("line")),
            Column("cause", _("cause")),
            Column("chips", _("chips"), INT),
            Column("what", _("what")),
        ],
    )


def _chip_balance_section() -> Section:
    return Section(
        key="chip_balance",
        title=_("Chips: issued, removed, counted (TO3)"),
        columns=[
            Column("issued", _("chips issued"), INT),
            Column("removed", _("chips removed"), INT),
            Column("in_play", _("in play"), INT),
            Column("counted", _("counted"), INT),
            Column("difference", _("difference"), INT),
            Column("balanced", _("balanced"), BOOL),
            Column("counted_at", _("counted at"), DATETIME),
            Column("whole_field", _("whole field counted"), BOOL),
            Column("uncounted", _("tables not counted")),
            Column("moved_since", _("players moved since the count")),
        ],
        note=_(
            "Counted: the latest count of every table in play, or of the whole "
            "field when it is newer; counted at is the oldest count read. No sum "
            "while a table in play has no count."
        ),
    )


def _chip_counts_section() -> Section:
    return Section(
        key="chip_counts",
        title=_("Chip counts read (TO3)"),
        columns=[
            Column("table", _("table")),
            Column("chips", _("chips"), INT),
            Column("at", _("counted at"), DATETIME),
        ],
        note=_(
            "The counts the reconciliation reads: the latest of every table in "
            "play; once nobody plays, of the tables the last players sat at."
        ),
    )


def _races_section() -> Section:
    return Section(
        key="races",
        title=_("Colour-ups and chip races (TO6)"),
        columns=[
            Column("table", _("table")),
            Column("at", _("at"), DATETIME),
            Column("denomination", _("denomination retired"), INT),
            Column("new_denomination", _("raced for"), INT),
            Column("removed", _("chips removed"), INT),
            Column("added", _("chips given"), INT),
            Column("winners", _("seats winning a chip")),
            Column("given", _("seats given a chip")),
            Column("drawn_by", _("race decided by")),
            Column("recorded_by", _("recorded by")),
        ],
        note=_(
            "Odd chips are raced, one chip at most per seat, the rest removed; a "
            "seat the race would leave with nothing is given a chip (TDA R26-A)."
        ),
    )


# --- the event's final report: reading the records ------------------------------


def _user(user: Any) -> str:
    return str(user.get_username()) if user is not None else ""


def _entry_no(entry: Entry) -> str:
    return f"#{entry.number}"


def _purchase_kind(purchase: Purchase) -> str:
    if (
        purchase.kind == Purchase.Kind.BUY_IN
        and purchase.entry.kind == Entry.Kind.REENTRY
    ):
        return str(_("re-entry"))
    return str(purchase.get_kind_display())


def _ledger_moves(code: str) -> dict[str, tuple[int, int]]:
    """The account ``code``'s (debits, credits) by transaction kind, ever; credits
    as a negative number. Nothing for an account never opened."""
    rows = (
        LedgerEntry.objects.filter(account__code=code)
        .values("transaction__kind")
        .annotate(
            debits=Sum("amount_cents", filter=Q(amount_cents__gt=0)),
            credits=Sum("amount_cents", filter=Q(amount_cents__lt=0)),
        )
    )
    return {
        str(r["transaction__kind"]): (r["debits"] or 0, r["credits"] or 0) for r in rows
    }


def _balance(code: str) -> int:
    """The account ``code``'s balance, 0 for an account never opened."""
    found = Account.objects.filter(code=code).values_list("balance_cents", flat=True)
    return int(found.first() or 0)


def _entries(purchases: QuerySet[Purchase]) -> Section:
    """The purchases by kind: counts, the prize pool's and the fees' shares, chips."""
    entries_section = _entries_section()
    rows: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for p in purchases.select_related("entry").order_by("at", "pk"):
        row = rows[_purchase_kind(p)]
        row["count"] += 1
        row["prize_pool"] += p.prize_pool_cents
        row["fees"] += p.fee_cents
        row["staff_fees"] += p.staff_fee_cents
        row["bounties"] += p.bounty_cents
        row["chips"] += p.chips
    for kind, row in rows.items():
        entries_section.add(kind=kind, **row)
    return entries_section


def _refunds(event: Event, period: Period) -> Section:
    """Every refund with its four parts, and what it left of its purchase (TO10)."""
    section = _refunds_section()
    refunds = (
        Refund.objects.filter(purchase__entry__event=event)
        .select_related(
            "purchase__entry__player",
            "purchase__receipt__cage",
            "receipt__cage",
            "approved_by",
            "requested_by",
        )
        .order_by("at", "pk")
    )
    given: dict[int, int] = defaultdict(int)
    for r in refunds:
        purchase = r.purchase
        given[purchase.pk] += r.amount_cents
        section.add(
            receipt=r.receipt.no if r.receipt else "",
            at=period.local(r.at),
            entry=_entry_no(purchase.entry),
            player=purchase.entry.player.code,
            purchase=_purchase_kind(purchase),
            purchase_receipt=purchase.receipt.no if purchase.receipt else "",
            amount=r.amount_cents,
            prize_pool=r.prize_pool_cents,
            fee=r.fee_cents,
            staff_fee=r.staff_fee_cents,
            bounty=r.bounty_cents,
            left=purchase.total_cents - given[purchase.pk],
            reason=r.reason,
            approved_by=_user(r.approved_by),
            paid_by=_user(r.requested_by),
        )
    return section


def _pool(
    event: Event, purchases: QuerySet[Purchase], checks: Checks
) -> tuple[Section, dict[str, int]]:
    """The prize pool from the purchases less their refunds' parts, the house's
    overlay, and the fees the house kept (TO1, TO7, TO10), with their checks
    against the ledger. Returns the section and the refunds' parts summed."""
    sold = purchases.aggregate(
        pool=Sum("prize_pool_cents"),
        fee=Sum("fee_cents"),
        staff=Sum("staff_fee_cents"),
        bounty=Sum("bounty_cents"),
    )
    back = Refund.objects.filter(purchase__entry__event=event).aggregate(
        pool=Sum("prize_pool_cents"),
        fee=Sum("fee_cents"),
        staff=Sum("staff_fee_cents"),
        bounty=Sum("bounty_cents"),
    )
    s = {k: v or 0 for k, v in sold.items()}
    r = {k: v or 0 for k, v in back.items()}
    pool, overlay = selectors.pool_and_overlay(event=event)
    buy_ins = selectors.buy_ins_cents(event=event)
    money = _money_section()
    for line, item, amount in [
        ("sold", _("buy-ins, rebuys and add-ons sold"), s["pool"]),
        ("refunded", _("refunded from the prize pool"), -r["pool"]),
        ("buy_ins", _("buy-ins, rebuys and add-ons, less refunds"), buy_ins),
        ("overlay", _("overlay (the house)"), overlay),
        ("pool", _("prize pool"), pool),
        (
            "held_now",
            _("held in the pool now"),
            selectors.prize_pool_cents(event=event),
        ),
        ("fees", _("fees, less refunds"), s["fee"] - r["fee"]),
        ("staff_fees", _("staff fees, less refunds"), s["staff"] - r["staff"]),
        ("bounties", _("bounties, less refunds"), s["bounty"] - r["bounty"]),
    ]:
        money.add(line=line, item=item, amount=amount)
    checks.compare(
        _("pool = buy-ins − refunds + overlay"), s["pool"] - r["pool"] + overlay, pool
    )
    moves = _ledger_moves(chart.prize_pool_code(event=event.code))
    checks.compare(
        _("buy-ins into the prize pool"),
        s["pool"],
        -moves.get(SOLD_KIND, (0, 0))[1],
    )
    checks.compare(
        _("refunds out of the prize pool"),
        r["pool"],
        moves.get(REFUND_KIND, (0, 0))[0],
    )
    return money, r


def _decision(line: Payout, period: Period) -> dict[str, str]:
    """A held prize's fate: released (to the cage) or forfeited, by whom, when,
    why, and where forfeited money went (TO9)."""
    if line.status == Payout.Status.FORFEITED:
        to = (
            _("jackpot pool %(pool)s") % {"pool": line.forfeit_pool}
            if line.forfeit_destination == Payout.Destination.JACKPOT
            else str(_("house revenue"))
        )
        return {
            "decision": str(_("forfeited")),
            "decided_by": _user(line.forfeited_by),
            "decided_at": period.local(line.forfeited_at),
            "decision_reason": line.forfeit_reason,
            "forfeited_to": to,
        }
    if line.hold_reason and line.payable is not None:
        booking = line.payable.booking
        return {
            "decision": str(_("released to the cage")),
            "decided_by": _user(line.payable.approved_by),
            "decided_at": period.local(booking.posted_at if booking else None),
            "decision_reason": line.payable.memo,
            "forfeited_to": "",
        }
    return {
        "decision": "",
        "decided_by": "",
        "decided_at": "",
        "decision_reason": "",
        "forfeited_to": "",
    }


def _payouts(event: Event, period: Period, checks: Checks) -> Section:
    """The payout sheet's places with their status, held prizes released or
    forfeited, checked against the pool and the held account (TO7, TO9)."""
    payouts = _payouts_section()
    sheet = (
        PayoutSheet.objects.filter(event=event)
        .select_related("prepared_by", "approved_by")
        .first()
    )
    if sheet is None:
        return payouts
    payouts.note = _(
        "Prepared by %(p)s at %(pt)s, approved by %(a)s at %(at)s. A held prize "
        "(TDA RP-23) is released to the cage or forfeited by another person than "
        "who prepared the sheet (TO9)."
    ) % {
        "p": _user(sheet.prepared_by),
        "pt": period.local(sheet.prepared_at),
        "a": _user(sheet.approved_by) or "—",
        "at": period.local(sheet.approved_at) or "—",
    }
    lines = list(
        Payout.objects.filter(sheet=sheet)
        .select_related(
            "entry__player",
            "payable__receipt__cage",
            "payable__approved_by",
            "payable__booking",
            "forfeited_by",
        )
        .order_by("place_high", "pk")
    )
    for line in lines:
        receipt = getattr(line.payable, "receipt", None) if line.payable else None
        payouts.add(
            place=(
                str(line.place_high)
                if line.place_high == line.place_low
                else f"{line.place_high}–{line.place_low}"
            ),
            entry=_entry_no(line.entry),
            player=line.entry.player.code,
            amount=line.amount_cents,
            status=str(line.get_status_display()),
            hold_reason=line.hold_reason,
            receipt=receipt.no if receipt else "",
            tax_document=line.tax_document,
            **_decision(line, period),
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
    held_code = chart.held_prizes_code(event=event.code)
    checks.compare(
        _("prizes held = held prizes account"),
        sum(p.amount_cents for p in lines if p.status == Payout.Status.HELD),
        _balance(held_code),
    )
    checks.compare(
        _("prizes forfeited = out of the held account"),
        sum(p.amount_cents for p in lines if p.status == Payout.Status.FORFEITED),
        _ledger_moves(held_code).get(FORFEIT_KIND, (0, 0))[0],
    )
    return payouts


def _deals(event: Event, period: Period) -> tuple[Section, Section]:
    """Every deal recorded, and the binding one player by player: its figures,
    the agreed amounts and bounties, the signatures (TO5, TO8)."""
    deals_section = _deals_section()
    deal_section = _deal_section()
    deals = list(
        Deal.objects.filter(event=event)
        .select_related("recorded_by", "approved_by")
        .order_by("recorded_at", "pk")
    )
    for d in deals:
        deals_section.add(
            method=str(d.get_method_display()),
            status=str(d.get_status_display()),
            pool=d.pool_cents,
            left_in_play=d.left_in_play_cents,
            bounties=sum(int(v) for v in (d.bounties or {}).values()),
            recorded_by=_user(d.recorded_by),
            recorded_at=period.local(d.recorded_at),
            signed_at=period.local(d.signed_at),
            approved_by=_user(d.approved_by),
            approved_at=period.local(d.approved_at),
        )
    binding = next(
        (d for d in deals if d.status == Deal.Status.APPROVED),
        next((d for d in deals if d.status == Deal.Status.SIGNED), None),
    )
    if binding is None:
        return deals_section, deal_section
    deal_section.note = _(
        "%(method)s, %(status)s: recorded by %(by)s at %(at)s, signed %(signed)s, "
        "approved by %(approver)s at %(approved)s."
    ) % {
        "method": binding.get_method_display(),
        "status": binding.get_status_display(),
        "by": _user(binding.recorded_by),
        "at": period.local(binding.recorded_at),
        "signed": period.local(binding.signed_at) or "—",
        "approver": _user(binding.approved_by) or "—",
        "approved": period.local(binding.approved_at) or "—",
    }
    signatures = {
        s.entry_id: s
        for s in DealSignature.objects.filter(deal=binding).select_related(
            "witnessed_by"
        )
    }
    entries = Entry.objects.select_related("player").in_bulk(
        [int(k) for k in binding.amounts]
    )
    offers = binding.offers
    for key, agreed in sorted(
        binding.amounts.items(), key=lambda kv: (-int(kv[1]), int(kv[0]))
    ):
        entry = entries[int(key)]
        signature = signatures.get(entry.pk)
        deal_section.add(
            entry=_entry_no(entry),
            player=entry.player.code,
            chips=offers.get("stacks", {}).get(key, 0),
            chip_chop=offers.get("chip_chop", {}).get(key, 0),
            icm=offers.get("icm", {}).get(key, 0),
            agreed=agreed,
            bounty=(binding.bounties or {}).get(key, 0),
            signed=signature is not None,
            signed_at=period.local(signature.at) if signature else "",
            witnessed_by=_user(signature.witnessed_by) if signature else "",
        )
    return deals_section, deal_section


def _bounties(
    event: Event, purchases: QuerySet[Purchase], refunded_bounties: int, checks: Checks
) -> Section:
    """The knockouts paid and the bounty pool's check: bounties in, less those paid
    and the bounty parts of refunds (TO8, TO10)."""
    bounty_section = _bounty_section()
    knockouts = (
        BountyPayment.objects.filter(event=event)
        .select_related("winner__player", "bust__entry__player")
        .order_by("at", "pk")
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
    paid = sum(b.amount_cents for b in knockouts)
    checks.compare(
        _("bounty pool = bounties in − paid − refunded"),
        bounties_in - paid - refunded_bounties,
        _balance(chart.bounty_pool_code(event=event.code)),
    )
    return bounty_section


def _cause_label(cause: str) -> str:
    if cause not in ChipMovement.Cause.values:
        return ""
    return str(ChipMovement.Cause(cause).label)


def _joined(values: Iterable[Any]) -> str:
    return ", ".join(str(v) for v in values)


def _chips(event: Event, period: Period) -> list[Section]:
    """The chips issued and removed by cause, in play, counted from the tables'
    latest counts, and the races (TO3, TO6)."""
    report = selectors.chip_reconciliation(event=event)
    r = report.reconciliation
    chips_section = _chips_section()
    for cause, chips in r.issued.items():
        chips_section.add(
            line=_("chips issued"), cause=cause, chips=chips, what=_cause_label(cause)
        )
    for cause, chips in r.removed.items():
        if chips:
            chips_section.add(
                line=_("chips removed"),
                cause=cause,
                chips=chips,
                what=_cause_label(cause),
            )
    chips_section.add(line=_("in play"), cause="", chips=r.in_play, what="")
    chips_section.add(line=_("counted"), cause="", chips=r.counted, what="")
    chips_section.add(line=_("difference"), cause="", chips=r.difference, what="")
    balance = _chip_balance_section()
    balance.add(
        issued=r.issued_total,
        removed=r.removed_total,
        in_play=r.in_play,
        counted=r.counted,
        difference=r.difference,
        balanced=r.balanced,
        counted_at=period.local(report.counted_at),
        whole_field=report.whole_field,
        uncounted=_joined(report.uncounted),
        moved_since=_joined(report.moved_since),
    )
    counts = _chip_counts_section()
    for c in report.counts:
        counts.add(
            table=c.table or _("whole field"), chips=c.chips, at=period.local(c.at)
        )
    races = _races_section()
    for race in ChipRace.objects.filter(event=event).select_related("recorded_by"):
        result = race.result or {}
        drawn_by = (
            _("seeded draw %(seed)s") % {"seed": result["seed"]}
            if result.get("seed") is not None
            else _("cards drawn")
            if result.get("cards")
            else _("order given")
        )
        races.add(
            table=race.table,
            at=period.local(race.at),
            denomination=race.denomination,
            new_denomination=race.new_denomination,
            removed=race.removed_chips,
            added=race.added_chips,
            winners=_joined(result.get("winners", [])),
            given=_joined(result.get("granted", [])),
            drawn_by=drawn_by,
            recorded_by=_user(race.recorded_by),
        )
    return [chips_section, balance, counts, races]


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
    money, refunded = _pool(event, purchases, checks)
    refunds_section = _refunds(event, period)
    payouts = _payouts(event, period, checks)
    deals_section, deal_section = _deals(event, period)
    bounty_section = _bounties(event, purchases, refunded["bounty"], checks)
    chip_sections = _chips(event, period)
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
                refunds_section,
                payouts,
                deals_section,
                deal_section,
                bounty_section,
                *chip_sections,
            ]
        ],
        "charts": [],
    }


__all__ = ["audit_section", "event_report"]
