"""A satellite pays seats (TO7): each seat registers its winner into the target
event as a paid entry, funded from the satellite's prize pool in one balanced
posting with no cash; the rest of the pool is paid in cash to the next place."""

from __future__ import annotations

import pytest

from accounting import chart as ledger
from accounting.models import Receipt
from accounting.selectors import trial_balance
from core.errors import Refusal
from tournaments import chart, selectors, services
from tournaments.models import Entry, Payout, Purchase
from tournaments.services import BustIn

from .conftest import make_event

pytestmark = pytest.mark.django_db


def test_a_satellite_pays_a_seat_and_cash(
    room, structure, event, shift, cashier, floor_person, manager, players
):
    target = event  # 100 + 10 fee + 5 staff fee: a seat is worth 115.00
    satellite = make_event(
        room,
        structure,
        code="sat",
        name="Satellite",
        buy_in_cents=2_500,
        fee_cents=500,
        staff_fee_cents=0,
        rebuy_max=0,
        addon_level=None,
        satellite_target=target,
        payout_unit_cents=100,
    )
    for p in players[:5]:
        services.entry_register(
            event=satellite, player=p.code, cage="MAIN", cashier=cashier
        )
    services.event_start(event=satellite)
    entries = list(Entry.objects.filter(event=satellite).order_by("number"))
    winner, second = entries[4], entries[3]
    for n, out in enumerate(entries[:4], start=1):
        if n == 4:
            # TO5: the last two can't deal the seat as cash.
            with pytest.raises(Refusal) as refused:
                selectors.deal_offers(
                    event=satellite, stacks={second.pk: 1, winner.pk: 1}
                )
            assert (refused.value.code, refused.value.rule) == (
                "satellite_deal",
                "TO5",
            )
        services.busts_record(
            event=satellite,
            hand=f"h{n}",
            busts=[BustIn(out, 1_000)],
            by=floor_person,
        )
    assert selectors.prize_pool_cents(event=satellite) == 12_500

    sheet = services.payout_sheet_prepare(event=satellite, by=floor_person)
    lines = {p.entry_id: (p.amount_cents, p.seat_cents) for p in sheet.lines.all()}
    assert lines == {winner.pk: (0, 11_500), second.pk: (1_000, 0)}
    fees_before = chart.fee_revenue(currency="EUR").balance_cents
    receipts = Receipt.objects.count()
    services.payout_sheet_approve(sheet=sheet, by=manager)

    # The seat: a paid entry in the target, no cash and no receipt.
    seat = Payout.objects.get(entry=winner)
    assert seat.status == Payout.Status.PAID
    won = seat.seat_entry
    assert (won.event_id, won.player_id) == (target.pk, winner.player_id)
    purchase = Purchase.objects.get(entry=won)
    assert purchase.receipt is None and purchase.total_cents == 11_500
    legs = {
        leg.account.code: leg.amount_cents
        for leg in purchase.transaction.entries.select_related("account")
    }
    assert legs[chart.prize_pool_code(event="sat")] == 11_500
    assert legs[chart.prize_pool_code(event=target.code)] == -10_000
    assert sum(legs.values()) == 0
    assert Receipt.objects.count() == receipts

    # Both pools to the cent, the fees of the seat booked, the cash prize owed.
    assert chart.prize_pool(event="sat", currency="EUR").balance_cents == 0
    assert selectors.prize_pool_cents(event=target) == 10_000
    assert chart.fee_revenue(currency="EUR").balance_cents == fees_before + 1_000
    assert chart.staff_fee_revenue(currency="EUR").balance_cents == 500
    assert ledger.awards_payable(currency="EUR").balance_cents == 1_000
    assert Payout.objects.get(entry=second).status == Payout.Status.PAYABLE
    books = trial_balance()
    assert books.balanced and books.cached_balances_agree
    assert won.seat is not None and won.table
    issued = selectors.chip_reconciliation(event=target).reconciliation.issued
    assert issued["entry"] == 20_000
