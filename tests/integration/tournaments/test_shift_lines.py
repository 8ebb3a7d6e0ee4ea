"""The cashier's shift sees every cent of tournament money (CA1).

One shift at the cage sells and cashes chips, pays a jackpot award, and runs a
bounty event's money: four entries, a whole refund and a partial one, a rebuy, a
re-entry, an add-on, the bounties and the prize paid. The end-of-shift report has
each on a named line, to the cent; the lines add up to the drawer's ledger balance
(``reconciled``), before and after the close; the close books €5 short; the daily
audit's drawer lines and checks agree; and the closed shift's screen shows the lines.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounting import chart as ledger
from accounting.domain.cage import CASH_LINES, CHIPS_LINES, RECEIPT_LINES, SLIP_LINES
from accounting.models import Receipt, Shift, TableSlip
from accounting.selectors import LINE_LABELS, shift_report
from accounting.services import cage as cage_services
from accounting.services.cage import gaming_day_of
from reports.builders import daily_audit
from reports.document import rows_of
from reports.selectors import Period
from tests.integration.cage.helpers import book_award
from tournaments import services
from tournaments.models import BountyPayment, Entry, Event, Payout
from tournaments.services import BustIn

from .conftest import FLOAT, make_event

pytestmark = pytest.mark.django_db

ENTRY = 10_000 + 1_000 + 500 + 2_000  # buy-in, fee, staff fee, bounty (TO1, TO8)
REBUY = 10_000 + 500
ADDON = 10_000 + 500
PARTIAL = 2_700  # a fifth of an entry: 2,000 pool, 200 fee, 100 staff, 400 bounty


def test_every_receipt_and_slip_kind_has_a_line_and_a_label():
    """A kind added to the models without a line fails here, not in a drawer that
    no longer adds up: every receipt kind, every slip kind, every line labelled."""
    assert set(RECEIPT_LINES) == set(Receipt.Kind.values)
    assert set(SLIP_LINES) == set(TableSlip.Kind.values)
    names = {name for name, _sign in CASH_LINES + CHIPS_LINES}
    assert set(LINE_LABELS) == names


def _active(event: Event, code: str) -> Entry:
    return Entry.objects.get(event=event, player__code=code, status="active")


def _receipt_of(entry: Entry) -> str:
    return entry.purchases.get().receipt.no


def test_the_shift_report_has_every_tournament_cent_on_a_named_line(
    room, structure, cage, shift, cashier, manager, floor_person, players
):
    event = make_event(
        room,
        structure,
        code="ko-135",
        bounty_kind=Event.Bounty.STANDARD,
        bounty_cents=2_000,
        payout_unit_cents=1,
        payout_table=[{"min_entries": 1, "shares": [10_000]}],
    )
    p = [player.code for player in players[:5]]
    t0 = timezone.now()

    # The cash game: chips sold and cashed, a jackpot award paid (CA2, CA6).
    cage_services.chip_purchase(
        cage="MAIN", cashier=cashier, player=p[0], amount_cents=40_000
    )
    cage_services.chip_redemption(
        cage="MAIN", cashier=cashier, player=p[0], amount_cents=15_000
    )
    award = cage_services.payable_create(
        player=players[0],
        amount_cents=8_000,
        reference="bad beat 7",
        approved_by=manager,
        booking=book_award(p[0], 8_000),
    )
    cage_services.payable_pay(
        payable=award, cage="MAIN", cashier=cashier, player=p[0], player_signed=True
    )

    # Four entries before the clock starts (TO1); one refunded whole, one in part
    # (TO10), each approved by a manager and paid by the cashier.
    for n, code in enumerate(p[1:5]):
        services.entry_register(
            event=event,
            player=code,
            cage="MAIN",
            cashier=cashier,
            at=t0 + timedelta(seconds=n),
        )
    for code, amount in ((p[4], None), (p[3], PARTIAL)):
        receipt = _receipt_of(_active(event, code))
        services.refund_approve(
            event=event,
            receipt=receipt,
            by=manager,
            reason="announced change",
            amount_cents=amount,
            at=t0 + timedelta(seconds=10),
        )
        services.refund_pay(
            event=event,
            receipt=receipt,
            cage="MAIN",
            cashier=cashier,
            at=t0 + timedelta(seconds=11),
        )

    # The clock on the server: level 1, a rebuy, a bust and its re-entry; the
    # add-on at the level-4 break (TO1, TO12).
    services.clock_change(
        event_code=event.code,
        action="start",
        by=floor_person,
        now=t0 + timedelta(minutes=1),
    )
    services.rebuy_buy(
        entry=_active(event, p[1]),
        cage="MAIN",
        cashier=cashier,
        stack=4_000,
        at=t0 + timedelta(minutes=5),
    )
    services.busts_record(
        event=event,
        hand="TT1#3",
        busts=[BustIn(_active(event, p[2]), 20_000, [_active(event, p[1])])],
        by=floor_person,
        at=t0 + timedelta(minutes=6),
    )
    services.entry_register(
        event=event,
        player=p[2],
        cage="MAIN",
        cashier=cashier,
        at=t0 + timedelta(minutes=7),
    )
    services.clock_change(
        event_code=event.code,
        action="move",
        level=4,
        by=floor_person,
        now=t0 + timedelta(minutes=8),
    )
    services.addon_buy(
        entry=_active(event, p[1]),
        cage="MAIN",
        cashier=cashier,
        at=t0 + timedelta(minutes=9),
    )
    for n, code in enumerate((p[2], p[3])):
        services.busts_record(
            event=event,
            hand=f"TT1#{10 + n}",
            busts=[BustIn(_active(event, code), 20_000, [_active(event, p[1])])],
            by=floor_person,
            at=t0 + timedelta(minutes=10 + n),
        )
    assert Entry.objects.get(event=event, player__code=p[1]).status == "won"

    # The prize (TO9) and every bounty (TO8) paid at the cage.
    sheet = services.payout_sheet_prepare(event=event, by=floor_person)
    sheet = services.payout_sheet_approve(sheet=sheet, by=manager)
    (prize,) = Payout.objects.filter(sheet=sheet)
    services.payout_pay(
        payout=prize,
        cage="MAIN",
        cashier=cashier,
        player=p[1],
        player_signed=True,
        tax_document="TAX-1",
    )
    bounties = BountyPayment.objects.filter(event=event, payable__isnull=False)
    for bounty in bounties:
        cage_services.payable_pay(
            payable=bounty.payable,
            cage="MAIN",
            cashier=cashier,
            player=bounty.winner.player.code,
            player_signed=True,
        )

    # Five entries (one a re-entry), less one refunded whole and a fifth of one.
    pool = 5 * 10_000 + 10_000 + 10_000 - 10_000 - 2_000
    bounty_pool = 5 * 2_000 - 2_000 - 400
    assert prize.amount_cents == pool == 58_000
    assert sum(b.amount_cents for b in bounties) == bounty_pool == 7_600
    report = shift_report(shift=shift)
    cash_lines = {
        "purchases": 40_000,
        "redemptions": 15_000,
        "payouts": 8_000,
        "collections": 0,
        "tournament_entries": 5 * ENTRY + REBUY + ADDON,
        "tournament_refunds": ENTRY + PARTIAL,
        "tournament_prizes": pool,
        "tournament_bounties": bounty_pool,
    }
    assert report.cash.movements == cash_lines
    assert report.chips.movements == {
        "purchases": 40_000,
        "redemptions": 15_000,
        "fills": 0,
        "credits": 0,
    }
    expected_cash = FLOAT + 40_000 - 15_000 - 8_000 + 88_500 - 16_200 - 58_000 - 7_600
    drawer_cash = ledger.drawer_cash(cage="MAIN", shift=shift.pk)
    assert report.cash.expected == drawer_cash.balance_cents == expected_cash
    assert report.cash.from_movements == expected_cash
    assert report.chips.expected == report.chips.from_movements == FLOAT - 25_000
    assert report.reconciled
    receipts = Receipt.objects.filter(shift=shift)
    assert report.receipts == receipts.count() == 3 + 7 + 2 + 1 + bounties.count()
    assert (
        sum(r.amount_cents for r in receipts.filter(kind="tournament_entry"))
        == (cash_lines["tournament_entries"])
    )
    # The labels and directions the screens print, in order.
    assert [(r.name, r.sign) for r in report.cash.rows()] == list(CASH_LINES)
    assert [r.cents for r in report.cash.rows()] == list(cash_lines.values())

    # The close: €5 short in cash, the chips exact; the report still adds up.
    closed = cage_services.shift_close(
        shift=shift,
        cashier=cashier,
        cash_cents=expected_cash - 500,
        chips_cents=FLOAT - 25_000,
    )
    assert closed.status == Shift.Status.CLOSED
    report = shift_report(shift=closed)
    assert report.cash.movements == cash_lines
    assert report.cash.expected == report.cash.from_movements == expected_cash
    assert (report.cash.counted, report.cash.over_short) == (expected_cash - 500, -500)
    assert (report.chips.over_short, report.reconciled) == (0, True)
    assert ledger.over_short(currency="EUR").balance_cents == 500

    # The daily audit's drawer lines are the report's, and its checks agree.
    audit = daily_audit(period=Period.of(room, gaming_day_of()), now=timezone.now())
    sections = {s["key"]: s for s in audit["sections"]}
    (cash_row,) = [
        r
        for r in rows_of(audit, "shift_drawers")
        if r["shift"] == shift.pk and r["side"] == "cash"
    ]
    assert {k: cash_row[k] for k in cash_lines} == cash_lines
    assert (cash_row["expected"], cash_row["over_short"]) == (expected_cash, -500)
    checks = [
        r for r in sections["checks"]["rows"] if r[0].startswith(f"shift {shift.pk} ")
    ]
    assert len(checks) == 4 and all(r[-1] for r in checks)

    # The closed shift's screen shows every line, labelled, and that it adds up.
    desk = Client()
    desk.force_login(cashier)
    page = desk.get(f"/cage/shifts/{shift.pk}").content.decode()
    for label in (
        "Tournament entries, rebuys and add-ons",
        "Tournament refunds",
        "Tournament prizes paid",
        "Tournament bounties paid",
        "Award payouts",
    ):
        assert label in page
    assert 'data-line="tournament_entries"' in page and "€885.00" in page
    assert 'data-reconciled="true"' in page
