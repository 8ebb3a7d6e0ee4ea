"""The daily audit: the gaming day's tables, cage, shifts, receivables, exceptions,
the trial balance and the database's own guards, each reconciled to the ledger."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from accounting.models import BalanceSnapshot, Shift, TableSlip
from accounting.selectors import balances_at
from accounting.services.cage import receivables_open
from cardroom.models import StackMovement
from reports import selectors as q
from reports.builders import promotions, protection, tournaments
from reports.builders.common import (
    CASH,
    CHIPS,
    Progress,
    gaming_day_hours,
    quiet,
    report_document,
)
from reports.builders.guards import database_guards
from reports.builders.jackpot import awards_check, jackpot_funds, trial_balance_totals
from reports.document import (
    BOOL,
    DATE,
    DATETIME,
    INT,
    MONEY,
    Checks,
    Column,
    Section,
)
from reports.document import said as _
from reports.selectors import HAND_KINDS, AccountMovements, Period

# --- The daily audit ------------------------------------------------------------------


def daily_audit(
    *,
    period: Period,
    now: datetime,
    progress: Progress = quiet,
    full: bool = False,
    snapshot: BalanceSnapshot | None = None,
) -> dict[str, Any]:
    """Build the daily audit of ``period`` (one gaming day, or several).

    Without ``full`` it reads the period's entries and those after it, whatever
    the history: the openings are the stored ``snapshot`` of the balances at the
    period's start (:class:`accounting.models.BalanceSnapshot`, which
    ``report_generate`` stores) plus the postings dated before it made since.
    With ``full``, every entry ever posted is added up and each cached balance
    checked against the sum, as an audit without a snapshot or an audit of the
    day before does: what catches an edit of entries of a day already audited
    that left the cached balances alone.
    """
    checks = Checks()
    previous, snapshot, ledger = _audit_ledger(period, full=full, snapshot=snapshot)
    progress(_("ledger"))
    hands = q.hands_by_table(period=period)
    movements = q.movements_by_table(period=period)
    slips = q.slips_by_table(period=period)
    boxes = q.table_accounts(ledger)
    progress(_("tables"))

    hands_section, chips_section = _tables(
        hands=hands, movements=movements, slips=slips, boxes=boxes, checks=checks
    )
    count_section = _box_counts(
        period, hands=hands, movements=movements, boxes=boxes, checks=checks
    )
    progress(_("box counts"))

    shift_section, drawer_section = _shifts(period, checks)
    progress(_("cage shifts"))

    funds = _funds_checked(period, ledger, hands, checks)
    progress(_("jackpot funds"))

    tournament_section = tournaments.audit_section(
        period=period, ledger=ledger, checks=checks
    )
    progress(_("tournaments"))

    exception_sections = _exceptions(period)
    receivables = _receivables(period)
    protection_sections = protection.audit_sections(period)
    progress(_("exceptions"))
    trial = _trial_balance(ledger, checks, previous, snapshot)
    progress(_("trial balance"))

    database, schema_changes = database_guards(period)
    progress(_("database"))

    return report_document(
        kind="daily_audit",
        title=_("Daily audit"),
        period=period,
        now=now,
        sections=[
            checks,
            database,
            hands_section,
            chips_section,
            count_section,
            shift_section,
            drawer_section,
            *funds,
            tournament_section,
            *exception_sections,
            receivables,
            *protection_sections,
            trial,
            schema_changes,
        ],
        charts=[_rake_chart(period)],
    )


def _funds_checked(
    period: Period,
    ledger: dict[str, AccountMovements],
    hands: dict[str, dict[str, int]],
    checks: Checks,
) -> list[Section]:
    """The jackpot funds, checked against the hands' drops and the awards; the
    promotions' pools, prizes and carry-overs, and the house's promotion expense
    (PR1, PR2, PR5)."""
    funds, drops = jackpot_funds(ledger, checks)
    hand_drops = sum(h["drop"] for h in hands.values())
    checks.compare(_("jackpot drops of the hands"), hand_drops, drops)
    awards_check(period, ledger, checks)
    return [
        funds,
        *promotions.promotion_sections(period, ledger, checks),
        promotions.promotion_expense(period, ledger, checks),
    ]


def _audit_ledger(
    period: Period, *, full: bool, snapshot: BalanceSnapshot | None
) -> tuple[
    tuple[str, dict[str, int]] | None,
    BalanceSnapshot | None,
    dict[str, AccountMovements],
]:
    """The audit of the day before (None with ``full``), the stored snapshot the
    day opens from, and every account's movements."""
    previous = None if full else q.previous_closings(period=period)
    if full:
        snapshot = None
    elif snapshot is None or snapshot.at != period.start:
        snapshot = BalanceSnapshot.objects.filter(at=period.start).first()
    # The day starts from the balances stored at its opening (report_generate
    # stores them), else from the cached balances less what came since.
    opening = None if snapshot is None else balances_at(snapshot=snapshot)
    ledger = q.ledger_movements(
        period=period,
        since_start=opening is not None or previous is not None,
        opening=opening,
    )
    return previous, snapshot, ledger


def _tables_hands_section() -> Section:
    return Section(
        key="tables_hands",
        title=_("Tables: hands, rake and drop"),
        columns=[
            Column("table", _("table")),
            Column("dealt", _("hands dealt"), INT),
            Column("voided", _("voided"), INT),
            Column("raked", _("raked hands"), INT),
            Column("pots", _("pots"), MONEY),
            Column("rake", _("rake"), MONEY),
            Column("drop", _("jackpot drop"), MONEY),
            Column("time", _("time collection"), MONEY),
        ],
        note=_(
            "Hands dealt include voided ones (RK8); pots, rake and drop are of the "
            "booked hands. Time collection (RK6) is from the ledger."
        ),
    )


def _tables_chips_section() -> Section:
    return Section(
        key="tables_chips",
        title=_("Tables: buy-ins, fills and credits"),
        columns=[
            Column("table", _("table")),
            Column("buy_ins_cash", _("buy-ins, cash"), MONEY),
            Column("buy_ins_chips", _("buy-ins, chips"), MONEY),
            Column("left_with", _("players left with"), MONEY),
            Column("picked_up", _("picked up (BI9)"), MONEY),
            Column("fills", _("fills"), MONEY),
            Column("fill_slips", _("fill slips"), INT),
            Column("credits", _("credits"), MONEY),
            Column("credit_slips", _("credit slips"), INT),
        ],
        note=_("Buy-ins include top-ups, returns and transfers (BI2, BI5)."),
    )


def _tables(
    *,
    hands: dict[str, dict[str, int]],
    movements: dict[str, dict[Any, int]],
    slips: dict[str, dict[Any, tuple[int, int]]],
    boxes: dict[str, dict[str, AccountMovements]],
    checks: Checks,
) -> tuple[Section, Section]:
    """Each table's hands, rake and drop, and its buy-ins, fills and credits,
    checked against its boxes and tray."""
    tables = sorted(set(hands) | set(movements) | set(slips) | set(boxes))
    hands_section = _tables_hands_section()
    chips_section = _tables_chips_section()
    empty: dict[str, AccountMovements] = {}
    for t in tables:
        h = hands.get(t, {})
        m = movements.get(t, {})
        s = slips.get(t, {})
        box = boxes.get(t, empty)
        rake_box, jackpot_box = box.get("rake_box"), box.get("jackpot_box")
        drop_box, tray = box.get("drop_box"), box.get("tray")
        hands_section.add(
            table=t,
            dealt=h.get("dealt", 0),
            voided=h.get("voided", 0),
            raked=h.get("raked", 0),
            pots=h.get("pots", 0),
            rake=h.get("rake", 0),
            drop=h.get("drop", 0),
            time=rake_box.net("time_collection") if rake_box else 0,
        )
        cash = sum(m.get((k, CASH), 0) for k in q.BUY_IN_KINDS)
        fills, credits = (
            s.get(TableSlip.Kind.FILL, (0, 0)),
            s.get(TableSlip.Kind.CREDIT, (0, 0)),
        )
        chips_section.add(
            table=t,
            buy_ins_cash=cash,
            buy_ins_chips=sum(m.get((k, CHIPS), 0) for k in q.BUY_IN_KINDS),
            left_with=m.get((StackMovement.Kind.LEAVE, CHIPS), 0),
            picked_up=m.get((StackMovement.Kind.PICK_UP, CHIPS), 0),
            fills=fills[1],
            fill_slips=fills[0],
            credits=credits[1],
            credit_slips=credits[0],
        )
        seat_kinds = [f"seat_{k}" for k in q.BUY_IN_KINDS]
        for what, records, account in [
            (_("rake"), h.get("rake", 0), rake_box and rake_box.net(*HAND_KINDS)),
            (
                _("jackpot drop"),
                h.get("drop", 0),
                jackpot_box and jackpot_box.net(*HAND_KINDS),
            ),
            (_("cash buy-ins"), cash, drop_box and drop_box.net(*seat_kinds)),
            (_("fills"), fills[1], tray and tray.net("fill")),
            (_("credits"), credits[1], tray and -tray.net("credit")),
        ]:
            if records or account:
                checks.compare(f"{t} {what}", records, account or 0)
    return hands_section, chips_section


def _box_counts(
    period: Period,
    *,
    hands: dict[str, dict[str, int]],
    movements: dict[str, dict[Any, int]],
    boxes: dict[str, dict[str, AccountMovements]],
    checks: Checks,
) -> Section:
    """The drop, rake and jackpot boxes counted in the period (CA4)."""
    empty: dict[str, AccountMovements] = {}
    counts = q.box_counts(period=period)
    count_section = Section(
        key="box_counts",
        title=_("Drop, rake and jackpot box counts (CA4)"),
        columns=[
            Column("table", _("table")),
            Column("box", _("box")),
            Column("day_records", _("the day's records"), MONEY),
            Column("recorded", _("recorded"), MONEY),
            Column("counted", _("counted"), MONEY),
            Column("variance", _("variance"), MONEY),
            Column("counted_by", _("counted by")),
            Column("counted_at", _("counted at"), DATETIME),
        ],
        note=_(
            "Recorded is the box's ledger balance when counted; variance is counted "
            "− recorded. The day's records are what the day's hands and buy-ins put "
            "in the box; they differ from recorded when the box held money of "
            "another day."
        ),
    )
    for c in counts:
        h, m = hands.get(c.table, {}), movements.get(c.table, {})
        rake_box = boxes.get(c.table, empty).get("rake_box")
        day_records = {
            "drop": sum(m.get((k, CASH), 0) for k in q.BUY_IN_KINDS),
            "rake": h.get("rake", 0)
            + (rake_box.net("time_collection") if rake_box else 0),
            "jackpot": h.get("drop", 0),
        }[c.box]
        count_section.add(
            table=c.table,
            box=c.box,
            day_records=day_records,
            recorded=c.recorded,
            counted=c.counted,
            variance=c.variance,
            counted_by=c.counted_by,
            counted_at=period.local(c.counted_at),
        )
        checks.compare(
            f"{c.table} {c.box} box: " + _("emptied"), c.recorded, c.ledger_emptied
        )
        checks.compare(
            f"{c.table} {c.box} box: " + _("variance"), c.variance, c.ledger_variance
        )
    return count_section


def _rake_chart(period: Period) -> dict[str, Any]:
    """The rake of each hour of the day by table, as a stacked bar chart."""
    by_hour = q.rake_by_hour(period=period)
    hours = gaming_day_hours(period.room.gaming_day_cutoff_hour)
    chart_tables = sorted({t for t, _h in by_hour})
    return {
        "key": "rake_by_hour",
        "title": _("Rake by hour and table"),
        "type": "stacked_bar",
        "x": [f"{h:02d}" for h in hours],
        "x_label": _("hour (local)"),
        "y_label": period.room.currency,
        "series": [
            {"name": t, "values": [by_hour.get((t, h), 0) for h in hours]}
            for t in chart_tables
        ],
    }


def _shifts_section() -> Section:
    return Section(
        key="shifts",
        title=_("Cashier shifts (CA1)"),
        columns=[
            Column("shift", _("shift"), INT),
            Column("cage", _("cage")),
            Column("cashier", _("cashier")),
            Column("status", _("status")),
            Column("opened_at", _("opened"), DATETIME),
            Column("closed_at", _("closed"), DATETIME),
            Column("needs_sign_off", _("needs sign-off"), BOOL),
            Column("signed_off_by", _("signed off by")),
        ],
    )


def _drawers_section() -> Section:
    return Section(
        key="shift_drawers",
        title=_("Shift drawers: float, movements, count, over/short"),
        columns=[
            Column("shift", _("shift"), INT),
            Column("side", _("drawer")),
            Column("opening", _("float"), MONEY),
            Column("purchases", _("chip purchases"), MONEY),
            Column("redemptions", _("redemptions"), MONEY),
            Column("payouts", _("award payouts"), MONEY),
            Column("collections", _("receivables paid back"), MONEY),
            Column("tournament_entries", _("tournament entries"), MONEY),
            Column("tournament_refunds", _("tournament refunds"), MONEY),
            Column("tournament_prizes", _("tournament prizes paid"), MONEY),
            Column("tournament_bounties", _("tournament bounties paid"), MONEY),
            Column("fills", _("fills"), MONEY),
            Column("credits", _("credits"), MONEY),
            Column("expected", _("expected"), MONEY),
            Column("counted", _("counted"), MONEY),
            Column("over_short", _("over/short"), MONEY),
        ],
        note=_(
            "Expected is the drawer's ledger balance at the close; an open shift "
            "has none yet."
        ),
    )


def _shifts(period: Period, checks: Checks) -> tuple[Section, Section]:
    shifts = _shifts_section()
    drawers = _drawers_section()
    for line in q.shifts(period=period):
        s = line.shift
        shifts.add(
            shift=s.pk,
            cage=s.cage.code,
            cashier=s.cashier.get_username(),
            status=s.status,
            opened_at=period.local(s.opened_at),
            closed_at=period.local(s.closed_at),
            needs_sign_off=s.needs_sign_off,
            signed_off_by=s.signed_off_by.get_username() if s.signed_off_by else "",
        )
        moves = line.movements
        closed = s.status != Shift.Status.OPEN
        for side, opening, expected, counted, over_short, ledger, from_moves in [
            (
                "cash",
                s.opening_cash_cents,
                s.expected_cash_cents,
                s.counted_cash_cents,
                s.over_short_cash_cents,
                line.ledger_over_short_cash,
                moves.expected_cash,
            ),
            (
                "chips",
                s.opening_chips_cents,
                s.expected_chips_cents,
                s.counted_chips_cents,
                s.over_short_chips_cents,
                line.ledger_over_short_chips,
                moves.expected_chips,
            ),
        ]:
            # Each side shows its own lines (CA1); a line of the other side is 0.
            lines = moves.cash_lines() if side == "cash" else moves.chips_lines()
            drawers.add(
                shift=s.pk,
                side=side,
                opening=opening,
                purchases=lines.get("purchases", 0),
                redemptions=lines.get("redemptions", 0),
                payouts=lines.get("payouts", 0),
                collections=lines.get("collections", 0),
                tournament_entries=lines.get("tournament_entries", 0),
                tournament_refunds=lines.get("tournament_refunds", 0),
                tournament_prizes=lines.get("tournament_prizes", 0),
                tournament_bounties=lines.get("tournament_bounties", 0),
                fills=lines.get("fills", 0),
                credits=lines.get("credits", 0),
                expected=expected,
                counted=counted,
                over_short=over_short,
            )
            if closed:
                label = _("shift %(id)d %(side)s") % {"id": s.pk, "side": side}
                checks.compare(f"{label}: " + _("over/short"), over_short or 0, ledger)
                checks.compare(
                    f"{label}: " + _("expected from receipts and slips"),
                    from_moves,
                    expected or 0,
                )
    return shifts, drawers


def _receivables(period: Period) -> Section:
    """Players who owe money back at the period's end (DC3), from the ledger."""
    section = Section(
        key="receivables",
        title=_("Open receivables (DC3)"),
        columns=[
            Column("player", _("player")),
            Column("name", _("name")),
            Column("booked", _("booked"), MONEY),
            Column("collected", _("paid back"), MONEY),
            Column("open", _("open"), MONEY),
            Column("due", _("due"), MONEY),
            Column("oldest_due_at", _("due since"), DATETIME),
        ],
        note=_(
            "What players got and weren't due, booked by two people (DC2), less "
            "what they paid back at the cage. A player with an amount due can't "
            "buy in."
        ),
    )
    for r in receivables_open(now=period.end):
        s = r.standing
        section.add(
            player=r.player,
            name=r.name,
            booked=s.booked,
            collected=s.collected,
            open=s.open,
            due=s.due,
            oldest_due_at=period.local(s.oldest_due_at),
        )
    return section


def _describe(details: dict[str, Any]) -> str:
    """One line for a hand exception's details."""
    skip = {"code", "rule", "detail"}
    parts = [f"{k} {v}" for k, v in details.items() if k not in skip]
    return "; ".join(parts) or str(details.get("detail", ""))


def _summary_section() -> Section:
    return Section(
        key="exceptions_summary",
        title=_("Exceptions of the day"),
        columns=[
            Column("what", _("what")),
            Column("status", _("status")),
            Column("count", _("count"), INT),
        ],
        note=_(
            "Stack mismatches (HS6), mispaid pots (HS7), bad-beat candidates (BB1), "
            "voids (RK8), corrections (HS7, HS8, DC2–DC3) and held pots still open."
        ),
    )


def _exceptions_section() -> Section:
    return Section(
        key="hand_exceptions",
        title=_("Hand exceptions"),
        columns=[
            Column("table", _("table")),
            Column("hand_no", _("hand"), INT),
            Column("kind", _("kind")),
            Column("status", _("status")),
            Column("details", _("details")),
            Column("resolved_by", _("resolved by")),
            Column("resolution", _("resolution")),
        ],
    )


def _voided_section() -> Section:
    return Section(
        key="voids",
        title=_("Voided hands (RK8)"),
        columns=[
            Column("table", _("table")),
            Column("hand_no", _("hand"), INT),
            Column("pots", _("pots"), MONEY),
            Column("rake", _("rake returned"), MONEY),
            Column("drop", _("drop returned"), MONEY),
            Column("posting", _("posting")),
            Column("reversal", _("reversal")),
            Column("by", _("voided by")),
            Column("reason", _("reason")),
        ],
    )


def _corrected_section() -> Section:
    return Section(
        key="corrections",
        title=_("Corrections (HS7, HS8, DC2, DC3)"),
        columns=[
            Column("id", _("id"), INT),
            Column("kind", _("kind")),
            Column("status", _("status")),
            Column("table", _("table")),
            Column("hand_no", _("hand"), INT),
            Column("amount", _("amount"), MONEY),
            Column("from_player", _("from")),
            Column("to_player", _("to")),
            Column("requested_by", _("asked by")),
            Column("decided_by", _("decided by")),
            Column("posting", _("posting")),
            Column("reason", _("reason")),
        ],
    )


def _held_section() -> Section:
    return Section(
        key="open_holds",
        title=_("Held pots still open (HS8)"),
        columns=[
            Column("id", _("id"), INT),
            Column("table", _("table")),
            Column("hand_no", _("hand"), INT),
            Column("gaming_day", _("gaming day"), DATE),
            Column("held", _("held"), MONEY),
            Column("released", _("released"), MONEY),
            Column("still_held", _("still held"), MONEY),
            Column("posting", _("posting")),
            Column("reason", _("reason")),
        ],
        note=_("Every approved hold not yet released in full, whenever it was made."),
    )


def _exceptions(period: Period) -> list[Section]:
    raised = q.hand_exceptions(period=period)
    voids = q.voided_hands(period=period)
    fixes = q.corrections(period=period)
    holds = q.open_holds()
    summary = _summary_section()
    tally: dict[tuple[str, str], int] = defaultdict(int)
    for e in raised:
        tally[(e["kind"], e["status"])] += 1
    for _v in voids:
        tally[("void", "booked")] += 1
    for c in fixes:
        tally[(f"correction: {c['kind']}", c["status"])] += 1
    for _h in holds:
        tally[("held pot", "open")] += 1
    for (what, status), n in sorted(tally.items()):
        summary.add(what=what, status=status, count=n)

    exceptions = _exceptions_section()
    for e in raised:
        exceptions.add(
            table=e["hand__table__code"],
            hand_no=e["hand__hand_no"],
            kind=e["kind"],
            status=e["status"],
            details=_describe(e["details"]),
            resolved_by=e["resolved_by__username"] or "",
            resolution=e["resolution"],
        )
    voided = _voided_section()
    for v in voids:
        voided.add(
            table=v["table__code"],
            hand_no=v["hand_no"],
            pots=v["pot_cents"],
            rake=v["rake_cents"],
            drop=v["jackpot_drop_cents"],
            posting=_ref(v["ledger_transaction"]),
            reversal=_ref(v["ledger_transaction__reversed_by"]),
            by=v["ledger_transaction__reversed_by__posted_by__username"]
            or v["ledger_transaction__reversed_by__source"]
            or "",
            reason=v["ledger_transaction__reversed_by__memo"] or "",
        )
    corrected = _corrected_section()
    for c in fixes:
        corrected.add(
            id=c["id"],
            kind=c["kind"],
            status=c["status"],
            table=c["table__code"],
            hand_no=c["hand__hand_no"],
            amount=c["amount_cents"],
            from_player=c["from_player__code"] or "",
            to_player=c["to_player__code"] or "",
            requested_by=c["requested_by__username"],
            decided_by=c["decided_by__username"] or "",
            posting=_ref(c["ledger_transaction"]),
            reason=c["reason"],
        )
    held = _held_section()
    for h in holds:
        held.add(
            id=h["id"],
            table=h["table__code"],
            hand_no=h["hand__hand_no"],
            gaming_day=(
                h["hand__gaming_day"].isoformat() if h["hand__gaming_day"] else ""
            ),
            held=h["amount_cents"],
            released=h["released"],
            still_held=h["amount_cents"] - h["released"],
            posting=_ref(h["ledger_transaction"]),
            reason=h["reason"],
        )
    return [summary, exceptions, voided, corrected, held]


def _ref(transaction_id: int | None) -> str:
    return f"#{transaction_id}" if transaction_id else ""


def _trial_balance_section(
    previous: tuple[str, dict[str, int]] | None, snapshot: BalanceSnapshot | None
) -> Section:
    return Section(
        key="trial_balance",
        title=_("Trial balance"),
        columns=[
            Column("account", _("account")),
            Column("type", _("type")),
            Column("currency", _("currency")),
            Column("previous_closing", _("closing of the previous audit"), MONEY),
            Column("opening", _("opening"), MONEY),
            Column("debits", _("debits"), MONEY),
            Column("credits", _("credits"), MONEY),
            Column("closing", _("closing"), MONEY),
            Column("ledger_closing", _("balance at end (cached)"), MONEY),
        ],
        note=(
            _(
                "Balances in each account's normal sign; accounts with no balance "
                "and no movement in the period are left out."
            )
            + " "
            + (
                _(
                    "First audit: every entry added up, each cached balance checked "
                    "against the sum."
                )
                if snapshot is None
                else _(
                    "Opening from the balances stored at %(at)s and the postings "
                    "dated before it made since; each closing checked against the "
                    "cached balance less the later entries."
                )
                % {"at": snapshot.at.isoformat()}
                if previous is None
                else _(
                    "Opening from the balances stored at %(at)s and the postings "
                    "dated before it made since, checked against audit %(prev)s; "
                    "each closing checked against the cached balance less the "
                    "later entries."
                )
                % {"at": snapshot.at.isoformat(), "prev": previous[0]}
            )
        ),
    )


def _trial_balance(
    ledger: dict[str, AccountMovements],
    checks: Checks,
    previous: tuple[str, dict[str, int]] | None,
    snapshot: BalanceSnapshot | None = None,
) -> Section:
    """Every account's opening, movements and closing, and the checks on them.

    A full audit adds up every entry ever posted and checks each account's cached
    balance against that sum (DESIGN.md). The others read only their own period's
    entries (and those after it): each account's opening is the stored snapshot
    of the balances at the day's opening plus the postings dated before it made
    since, and its closing must equal the cached balance less the later entries.
    With an audit of the day before, each opening must also be the closing it
    stored: a posting dated into an audited day after its audit shows as a
    difference.
    """
    section = _trial_balance_section(previous, snapshot)
    closings = previous[1] if previous is not None else {}
    debit_balances: dict[str, int] = defaultdict(int)
    credit_balances: dict[str, int] = defaultdict(int)
    sums: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    cached: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for code, a in sorted(ledger.items()):
        raw_closing = a.before + a.during
        if raw_closing > 0:
            debit_balances[a.currency] += raw_closing
        else:
            credit_balances[a.currency] -= raw_closing
        if snapshot is not None:
            cached[a.currency][0] += abs(a.closing_from_cache)
            cached[a.currency][1] += abs(a.closing)
            if a.closing != a.closing_from_cache:
                checks.compare(
                    _("%(account)s closing = cached balance less later entries")
                    % {"account": code},
                    a.closing_from_cache,
                    a.closing,
                )
        if previous is None and snapshot is None:
            records, found = a.normal * a.total, a.cached_balance
            label = _("%(account)s cached balance = sum of its entries")
        elif previous is not None:
            records, found = closings.get(code, 0), a.opening
            label = _("%(account)s opening = previous closing")
        else:
            records = found = 0
        sums[a.currency][0] += abs(records)
        sums[a.currency][1] += abs(found)
        if records != found:
            checks.compare(label % {"account": code}, records, found)
        if not (a.before or a.debits or a.credits or code in closings):
            continue
        section.add(
            account=code,
            type=a.type,
            currency=a.currency,
            previous_closing=closings.get(code) if previous is not None else None,
            opening=a.opening,
            debits=a.debits,
            credits=-a.credits,
            closing=a.closing,
            ledger_closing=a.closing_from_cache,
        )
    trial_balance_totals(
        checks,
        debit_balances,
        credit_balances,
        sums,
        cached,
        previous=previous,
        snapshot=snapshot,
    )
    return section
