"""One progressive-knockout event from the first entry to the last payout (TO1–TO10).

Nine entries (one a re-entry), a rebuy, two add-ons, a colour-up race, hidden chips,
two players out in the same hand, a deal among the last three by ICM, the payout
sheet prepared and approved by two people, and every prize and bounty paid at the
cage. At the end the trial balance is zero, the prize and bounty pools are empty,
nothing is owed, and the chip reconciliation is exact.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounting import chart as ledger
from accounting.models import Payable, Receipt, Transaction
from accounting.selectors import trial_balance
from accounting.services import cage as cage_services
from accounting.services.cage import gaming_day_of
from core.errors import Refusal
from reports.builders import daily_audit
from reports.builders.tournaments import event_report
from reports.render import render
from reports.selectors import Period
from tournaments import chart, selectors, services
from tournaments.models import (
    BountyPayment,
    Bust,
    ChipMovement,
    Entry,
    Event,
    Payout,
    PayoutSheet,
)
from tournaments.services import BustIn
from tournaments.services.deals import deal_approve

from .conftest import make_event

pytestmark = pytest.mark.django_db

BOUNTY = 2_000


def _entry(event: Event, code: str) -> Entry:
    return Entry.objects.get(event=event, player__code=code, status="active")


def _out(event: Event, hand: str, by, *busts: tuple[str, int, str]) -> list[Bust]:
    return services.busts_record(
        event=event,
        hand=hand,
        busts=[
            BustIn(_entry(event, loser), stack, [_entry(event, winner)])
            for loser, stack, winner in busts
        ],
        by=by,
    )


def test_one_event_from_the_first_entry_to_the_last_payout(
    room,
    structure,
    cage,
    shift,
    cashier,
    manager,
    floor_person,
    players,
):
    event = make_event(
        room,
        structure,
        bounty_kind=Event.Bounty.PROGRESSIVE,
        bounty_cents=BOUNTY,
        guarantee_cents=150_000,
    )
    codes = [p.code for p in players[:8]]
    receipts_before = Receipt.objects.filter(cage=cage).count()

    # TO1, TO2: eight entries at the cage, each one receipt, a full stack, a seat.
    for code in codes:
        services.entry_register(
            event=event, player=code, cage="MAIN", cashier=cashier, level=0
        )
    entries = Entry.objects.filter(event=event)
    assert entries.count() == 8
    seats = {(e.table, e.seat) for e in entries}
    assert len(seats) == 8 and all(seat is not None for _t, seat in seats)
    first = entries.get(player__code=codes[0]).purchases.get()
    assert first.receipt.kind == Receipt.Kind.TOURNAMENT_ENTRY
    assert first.receipt.amount_cents == 10_000 + 1_000 + 500 + BOUNTY
    assert {
        e.account.code: e.amount_cents for e in first.transaction.entries.all()
    } == {
        f"cage:MAIN:shift:{shift.pk}:cash": 13_500,
        f"tournament:{event.code}:prize_pool": -10_000,
        "revenue:tournament_fees": -1_000,
        "revenue:tournament_staff_fees": -500,
        f"tournament:{event.code}:bounty_pool": -BOUNTY,
    }
    # TO12: the floor starts the clock, and the event with it, at level 2.
    services.clock_change(
        event_code=event.code, action="start", level=2, by=floor_person
    )
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING

    # TO1: a rebuy at level 2 with a short stack.
    services.rebuy_buy(
        entry=_entry(event, codes[0]),
        cage="MAIN",
        cashier=cashier,
        level=2,
        stack=4_000,
    )
    # The first bust, and the player's re-entry before registration closes.
    _out(event, "TT1#12", floor_person, (codes[1], 20_000, codes[2]))
    assert Entry.objects.get(event=event, player__code=codes[1]).place == 8
    services.clock_change(
        event_code=event.code, action="move", level=3, by=floor_person
    )
    reentry = services.entry_register(
        event=event, player=codes[1], cage="MAIN", cashier=cashier, level=3
    )
    assert reentry.kind == Entry.Kind.REENTRY and reentry.seat is not None

    # TO1: the add-on at its break, for two players.
    services.clock_change(
        event_code=event.code, action="move", level=4, by=floor_person
    )
    for code in (codes[0], codes[2]):
        services.addon_buy(
            entry=_entry(event, code), cage="MAIN", cashier=cashier, level=4
        )

    # TO6: the colour-up race of the 25s at TT1: 150 in odd chips, one 100 raced.
    race = services.chip_race_record(
        event=event,
        table="TT1",
        denomination=25,
        new_denomination=100,
        stacks={"1": 40_075, "4": 20_050, "6": 18_025},
        retired={"1": 3, "4": 2, "6": 1},
        race_order=["4", "6", "1"],
        by=floor_person,
    )
    assert race.removed_chips == 50
    assert race.result["winners"] == ["4"]
    # TO3: hidden chips found after an all-in are taken out, with a note.
    services.chips_remove(
        event=event,
        cause="hidden",
        chips=500,
        by=floor_person,
        note="TT2 seat 3 kept a 500 behind his cards (TDA R64)",
    )

    # TO4: two players out in the same hand: the bigger stack finishes higher.
    out = _out(
        event,
        "TT2#40",
        floor_person,
        (codes[3], 8_000, codes[5]),
        (codes[4], 3_000, codes[5]),
    )
    assert {b.entry.player.code: (b.place_high, b.place_low) for b in out} == {
        codes[3]: (7, 7),
        codes[4]: (8, 8),
    }
    _out(event, "TT1#51", floor_person, (codes[6], 9_000, codes[0]))
    _out(event, "TT1#60", floor_person, (codes[7], 12_000, codes[2]))
    _out(event, "TT2#77", floor_person, (codes[1], 15_000, codes[5]))
    assert selectors.entries_left(event=event) == 3

    # TO8: progressive knockouts pay half at each bust and add half to the head.
    knocked = BountyPayment.objects.filter(event=event, reason="bust")
    assert knocked.count() == 6
    assert sum(b.amount_cents + b.added_to_bounty_cents for b in knocked) == 6 * BOUNTY

    # TO3: chips issued 9 × 20,000 + a 20,000 rebuy + two 30,000 add-ons, less the
    # race's 50 and the 500 hidden; the count of the three stacks agrees.
    stacks_by_code = {codes[0]: 120_000, codes[2]: 89_450, codes[5]: 50_000}
    services.chip_count_record(
        event=event, chips=sum(stacks_by_code.values()), by=floor_person
    )
    chips = selectors.chip_reconciliation(event=event).reconciliation
    assert chips.issued == {
        "entry": 180_000,
        "rebuy": 20_000,
        "addon": 60_000,
        "race_minimum": 0,
    }
    assert chips.removed["race"] == 50 and chips.removed["hidden"] == 500
    assert chips.balanced and chips.in_play == 259_450

    # TO5: the deal among every player left, by ICM, signed by all three and
    # approved by a manager.
    stacks = {_entry(event, c).pk: s for c, s in stacks_by_code.items()}
    offers = selectors.deal_offers(event=event, stacks=stacks)
    pool, overlay = selectors.pool_and_overlay(event=event)
    assert (pool, overlay) == (150_000, 30_000)  # 120,000 of buy-ins + the overlay
    assert sum(offers["icm"].values()) == sum(offers["chip_chop"].values()) == pool
    # The seats from the button: codes[5], then codes[0], then codes[2].
    button = [_entry(event, c).pk for c in (codes[5], codes[0], codes[2])]
    deal = services.deal_propose(
        event=event,
        method="icm",
        stacks=stacks,
        button_order=button,
        amounts=offers["icm"],
        by=floor_person,
    )
    for code in stacks_by_code:
        assert deal.status == "proposed"
        deal = services.deal_sign(
            deal=deal, entry=_entry(event, code), witnessed_by=floor_person
        )
    assert deal.status == "signed"
    assert Entry.objects.filter(event=event, status="active").count() == 3
    own = {c: selectors.bounty_of(entry=_entry(event, c)) for c in stacks_by_code}
    assert (
        sum(own.values())
        == chart.bounty_pool(event=event.code, currency="EUR").balance_cents
        > 3 * BOUNTY
    )  # progressive knockouts grew the heads
    deal = deal_approve(deal=deal, by=manager)
    assert deal.status == "approved"
    assert not Entry.objects.filter(event=event, status="active").exists()
    # TO8: a deal is not a chopped pot: by default each keeps the bounty on his head.
    heads = dict(
        BountyPayment.objects.filter(event=event, reason="deal").values_list(
            "winner__player__code", "amount_cents"
        )
    )
    assert heads == {c: v for c, v in own.items() if v}
    assert chart.bounty_pool(event=event.code, currency="EUR").balance_cents == 0

    # TO9: the payout sheet, prepared by the floor and approved by a manager.
    sheet = services.payout_sheet_prepare(event=event, by=floor_person)
    assert sheet.pool_cents == 150_000 and sheet.overlay_cents == 30_000
    assert sum(sheet.lines.values_list("amount_cents", flat=True)) == 150_000
    transactions = Transaction.objects.count()
    with pytest.raises(Refusal) as refused:
        services.payout_sheet_approve(sheet=sheet, by=floor_person)
    assert refused.value.rule == "TO9"
    assert Transaction.objects.count() == transactions
    assert PayoutSheet.objects.get(pk=sheet.pk).status == "prepared"
    sheet = services.payout_sheet_approve(sheet=sheet, by=manager)
    assert chart.prize_pool(event=event.code, currency="EUR").balance_cents == 0
    # The overlay is the house's expense (TO7).
    assert chart.overlay_expense(currency="EUR").balance_cents == 30_000

    # Prizes at the cage, to the identified player, against his signature; the
    # biggest with its tax document (TO9, CA6).
    for line in Payout.objects.filter(sheet=sheet).select_related("entry__player"):
        code = line.entry.player.code
        if line.amount_cents >= event.tax_document_threshold_cents:
            before = Receipt.objects.count()
            with pytest.raises(Refusal) as refused:
                services.payout_pay(
                    payout=line,
                    cage="MAIN",
                    cashier=cashier,
                    player=code,
                    player_signed=True,
                )
            assert refused.value.rule == "TO9"
            assert Receipt.objects.count() == before
            assert Payout.objects.get(pk=line.pk).status == "payable"
        receipt = services.payout_pay(
            payout=line,
            cage="MAIN",
            cashier=cashier,
            player=code,
            player_signed=True,
            tax_document=f"TAX-{code}",
        )
        assert receipt.kind == Receipt.Kind.AWARD_PAYOUT
        assert receipt.amount_cents == line.amount_cents
    # Bounties are awards payable too, paid at the cage.
    for bounty in BountyPayment.objects.filter(event=event, payable__isnull=False):
        cage_services.payable_pay(
            payable=bounty.payable,
            cage="MAIN",
            cashier=cashier,
            player=bounty.winner.player.code,
            player_signed=True,
        )

    # The books: balanced, the pools empty, nothing owed, the chips exact.
    books = trial_balance()
    assert books.balanced and books.cached_balances_agree
    assert chart.prize_pool(event=event.code, currency="EUR").balance_cents == 0
    assert chart.bounty_pool(event=event.code, currency="EUR").balance_cents == 0
    assert ledger.awards_payable(currency="EUR").balance_cents == 0
    assert not Payable.objects.filter(status="open").exists()
    assert Payout.objects.filter(sheet=sheet).exclude(status="paid").count() == 0
    assert chart.fee_revenue(currency="EUR").balance_cents == 9 * 1_000 + 3 * 500
    assert chart.staff_fee_revenue(currency="EUR").balance_cents == 9 * 500
    assert selectors.chip_reconciliation(event=event).reconciliation.balanced
    assert ChipMovement.objects.filter(event=event, chips__lt=0).count() == 2
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    # Every cage receipt numbered without gaps (CA2).
    numbers = sorted(Receipt.objects.filter(cage=cage).values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    # Entries, the rebuy, the add-ons, the prizes, six knockouts, the deal's heads.
    assert len(numbers) - receipts_before == 9 + 1 + 2 + 3 + 6 + len(heads)

    # The event's final report: every check agrees; CSV, XLSX and PDF render.
    report = event_report(event=event)
    sections = {s["key"]: s for s in report["sections"]}
    assert sections["checks"]["rows"] and all(
        row[-1] for row in sections["checks"]["rows"]
    )
    chip_lines = {(r[0], r[1]): r[2] for r in sections["chips"]["rows"]}
    assert chip_lines[("difference", "")] == 0
    for fmt in ("csv", "xlsx", "pdf"):
        assert render(report, fmt, meta={"report": event.code})
    assert b"prize_pool" in render(report, "csv", meta={})
    # The daily audit's tournament section: the pool in and out, checks agreeing.
    audit = daily_audit(period=Period.of(room, gaming_day_of()), now=timezone.now())
    audited = {s["key"]: s for s in audit["sections"]}
    (row,) = audited["tournaments"]["rows"]
    assert row[0] == event.code
    assert row[4] == 120_000 + 30_000 and row[5] == 150_000 and row[6] == 0
    tournament_checks = [
        r for r in audited["checks"]["rows"] if r[0].startswith(event.code)
    ]
    assert len(tournament_checks) == 2 and all(r[-1] for r in tournament_checks)
