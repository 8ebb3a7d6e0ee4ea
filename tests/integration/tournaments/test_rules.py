"""Each tournament rule's refusals, and that a refusal changes nothing (TO1–TO10)."""

from __future__ import annotations

import pytest
from django.utils import translation

from accounting.selectors import trial_balance
from core.api.errors import status_of
from core.errors import ApplicationError, Conflict
from tests.integration.cage.helpers import snapshot as cage_snapshot
from tournaments import chart, selectors, services
from tournaments.models import (
    BountyPayment,
    Bust,
    ChipMovement,
    Deal,
    Entry,
    Event,
    Payout,
    PayoutSheet,
    Purchase,
    Refund,
)
from tournaments.services import BustIn

from .conftest import make_event

pytestmark = pytest.mark.django_db


def snapshot() -> dict[str, object]:
    """The cage's books and every tournament record a refusal must leave as it was."""
    return {
        **cage_snapshot(),
        "entries": list(Entry.objects.values_list("pk", "status", "place", "seat")),
        "purchases": Purchase.objects.count(),
        "chips": ChipMovement.objects.count(),
        "busts": Bust.objects.count(),
        "bounties": BountyPayment.objects.count(),
        "deals": list(Deal.objects.values_list("pk", "status")),
        "sheets": list(PayoutSheet.objects.values_list("pk", "status")),
        "payouts": list(Payout.objects.values_list("pk", "status")),
        "refunds": Refund.objects.count(),
        "events": list(Event.objects.values_list("pk", "status")),
    }


def refused(rule: str, call, *args, **kwargs):
    """Call and check the refusal names ``rule`` and wrote nothing."""
    before = snapshot()
    with pytest.raises(ApplicationError) as error:
        call(*args, **kwargs)
    assert error.value.rule == rule, error.value
    assert snapshot() == before
    return error.value


def register(event, code, cashier, level=None):
    return services.entry_register(
        event=event, player=code, cage="MAIN", cashier=cashier, level=level
    )


def clock_to(event, level, by, action="move"):
    """The floor puts the event's clock on the structure's level ``level``."""
    services.clock_change(event_code=event.code, action=action, level=level, by=by)


@pytest.fixture
def running(event, cage, shift, cashier, players):
    for p in players[:4]:
        register(event, p.code, cashier)
    services.event_start(event=event)
    event.refresh_from_db()
    return event


# --- TO1 ------------------------------------------------------------------------------


def test_registration_closes_after_its_level(running, cashier, players, floor_person):
    """TO1 (TDA "MLR"), TO12: late registration closes after the event's level,
    by the server's clock: open at level 3, closed at the break after it."""
    clock_to(running, 3, floor_person, action="start")
    assert register(running, players[5].code, cashier, level=3).seat is not None
    clock_to(running, 4, floor_person)
    error = refused("TO1", register, running, players[6].code, cashier)
    assert error.allowed == {"until_level": 3}
    # A client that believes the clock is still at level 3 is told it isn't.
    error = refused("TO12", register, running, players[6].code, cashier, level=3)
    assert (error.code, error.allowed) == (
        "level_mismatch",
        {"level": 4, "on_break": True},
    )


def test_one_life_at_a_time_and_the_reentry_limit(
    running, cashier, floor_person, players
):
    """TO1: a player plays one entry at a time, re-enters within the limit."""
    code = players[0].code
    refused("TO1", register, running, code, cashier)
    for n, hand in enumerate(["h1", "h2"]):
        services.busts_record(
            event=running,
            hand=hand,
            busts=[BustIn(Entry.objects.get(player__code=code, status="active"), 100)],
            by=floor_person,
        )
        if n == 0:
            assert register(running, code, cashier).kind == Entry.Kind.REENTRY
    error = refused("TO1", register, running, code, cashier)
    assert error.allowed == {"reentries": 1}


def test_a_freezeout_has_no_rebuys_and_no_reentries(
    room, structure, cage, shift, cashier, players, floor_person
):
    event = make_event(
        room, structure, code="freeze", reentry_max=0, rebuy_max=0, addon_level=None
    )
    entry = register(event, players[0].code, cashier)
    register(event, players[1].code, cashier)
    services.event_start(event=event)
    refused(
        "TO1",
        services.rebuy_buy,
        entry=entry,
        cage="MAIN",
        cashier=cashier,
        stack=0,
    )
    refused("TO1", services.addon_buy, entry=entry, cage="MAIN", cashier=cashier)
    services.busts_record(
        event=event, hand="h1", busts=[BustIn(entry, 5)], by=floor_person
    )
    refused("TO1", register, event, players[0].code, cashier)


def test_rebuys_follow_the_period_the_stack_limit_and_the_count(
    running, cashier, floor_person
):
    """TO1: rebuys during their period, at or below the stack limit, up to the count;
    the period by the server's clock (TO12)."""
    entry = Entry.objects.filter(event=running).first()
    rebuy = {"entry": entry, "cage": "MAIN", "cashier": cashier}
    error = refused("TO1", services.rebuy_buy, **rebuy, stack=0)
    assert (error.code, error.allowed) == (
        "rebuy_period_not_started",
        {"until_level": 3},
    )
    clock_to(running, 4, floor_person, action="start")
    assert refused("TO1", services.rebuy_buy, **rebuy, stack=0).allowed == {
        "until_level": 3
    }
    clock_to(running, 2, floor_person)
    assert refused(
        "TO1", services.rebuy_buy, **rebuy, level=2, stack=20_001
    ).allowed == {"max_stack": 20_000}
    services.rebuy_buy(**rebuy, level=2, stack=0)
    clock_to(running, 3, floor_person)
    services.rebuy_buy(**rebuy, level=3, stack=20_000)
    assert refused("TO1", services.rebuy_buy, **rebuy, level=3, stack=0).allowed == {
        "rebuys": 2
    }
    # Every rebuy is in the prize pool: 4 buy-ins and 2 rebuys.
    assert selectors.prize_pool_cents(event=running) == 6 * 10_000


def test_the_addon_is_sold_once_at_its_level(running, cashier, floor_person):
    """TO1: the add-on at its level (the break), once, by the server's clock."""
    entry = Entry.objects.filter(event=running).first()
    addon = {"entry": entry, "cage": "MAIN", "cashier": cashier}
    clock_to(running, 3, floor_person, action="start")
    assert refused("TO1", services.addon_buy, **addon, level=3).allowed == {"level": 4}
    clock_to(running, 4, floor_person)
    services.addon_buy(**addon, level=4)
    refused("TO1", services.addon_buy, **addon, level=4)


def test_an_entry_is_refused_to_an_unregistered_player(event, cage, shift, cashier):
    """CA2: entries are sold to registered players only."""
    refused("CA2", register, event, "P-NOBODY", cashier)


def test_an_entry_needs_an_open_shift(event, cage, cashier, players):
    """CA1: every cage transaction belongs to the cashier's open shift."""
    refused("CA1", register, event, players[0].code, cashier)


# --- TO2 ------------------------------------------------------------------------------


def test_alternates_wait_for_a_seat_with_a_full_stack(
    room, structure, cage, shift, cashier, players
):
    """TO2: when every seat is taken the entrant is an alternate, with a full stack."""
    event = make_event(room, structure, code="small")
    event.tables.update(seats=2)
    seated = [register(event, p.code, cashier) for p in players[:4]]
    assert len({(e.table, e.seat) for e in seated}) == 4
    alternate = register(event, players[4].code, cashier)
    assert alternate.seat is None and alternate.table == ""
    assert ChipMovement.objects.get(entry=alternate).chips == event.starting_stack


# --- TO3 ------------------------------------------------------------------------------


def test_chips_leave_only_for_a_recorded_cause(running, floor_person):
    refused(
        None,
        services.chips_remove,
        event=running,
        cause="lost",
        chips=5,
        by=floor_person,
    )
    refused(
        "TO3",
        services.chips_remove,
        event=running,
        cause="penalty",
        chips=500,
        by=floor_person,
    )
    services.chips_remove(
        event=running, cause="penalty", chips=500, by=floor_person, note="soft play"
    )
    report = selectors.chip_reconciliation(event=running, counted=4 * 20_000 - 500)
    assert report.reconciliation.balanced
    assert report.reconciliation.removed["penalty"] == 500
    off = selectors.chip_reconciliation(event=running, counted=4 * 20_000)
    assert off.reconciliation.difference == 500


def test_a_race_that_breaks_the_rule_is_refused(running, floor_person):
    """TO6: every player with odd chips draws in the race."""
    refused(
        "TO6",
        services.chip_race_record,
        event=running,
        table="TT1",
        denomination=25,
        new_denomination=100,
        stacks={"1": 75, "2": 50},
        retired={"1": 3, "2": 2},
        race_order=["1"],
        by=floor_person,
    )


# --- TO4 ------------------------------------------------------------------------------


def test_hand_for_hand_busts_share_their_places(
    room, structure, cage, shift, cashier, floor_person, players
):
    """TO4, TDA RP-8-A: out in the same hand-for-hand hand → they share the places,
    whatever their stacks; with three places paid and five left, three out share
    third: its prize split three ways, to the cent."""
    event = make_event(
        room,
        structure,
        code="bubble",
        payout_unit_cents=1,
        payout_table=[
            {"min_entries": 1, "shares": [10_000]},
            {"min_entries": 5, "shares": [5_000, 3_000, 2_000]},
        ],
    )
    entries = [register(event, p.code, cashier) for p in players[:5]]
    services.event_start(event=event)
    busts = services.busts_record(
        event=event,
        hand="hfh-1",
        busts=[
            BustIn(entries[2], 9_000),
            BustIn(entries[3], 100),
            BustIn(entries[4], 4_000),
        ],
        by=floor_person,
        hand_for_hand=True,
    )
    assert {(b.place_high, b.place_low) for b in busts} == {(3, 5)}
    services.busts_record(
        event=event, hand="final", busts=[BustIn(entries[1], 30_000)], by=floor_person
    )
    sheet = services.payout_sheet_prepare(event=event, by=floor_person)
    amounts = dict(sheet.lines.values_list("entry_id", "amount_cents"))
    pool = 5 * 10_000
    third = pool * 2_000 // 10_000
    assert sorted(amounts[e.pk] for e in entries[2:]) == [
        third // 3,
        third // 3,
        third // 3 + third % 3,
    ]
    assert amounts[entries[0].pk] == pool // 2
    assert sum(amounts.values()) == pool


def test_equal_stacks_out_in_one_hand_share(running, floor_person):
    entries = list(Entry.objects.filter(event=running))
    busts = services.busts_record(
        event=running,
        hand="h9",
        busts=[BustIn(entries[0], 5_000), BustIn(entries[1], 5_000)],
        by=floor_person,
    )
    assert {(b.place_high, b.place_low) for b in busts} == {(3, 4)}


def test_a_bust_of_every_player_is_refused(running, floor_person):
    entries = list(Entry.objects.filter(event=running))
    refused(
        "TO4",
        services.busts_record,
        event=running,
        hand="h1",
        busts=[BustIn(e, 100) for e in entries],
        by=floor_person,
    )


def test_a_bounty_bust_names_its_winner(
    room, structure, cage, shift, cashier, floor_person, players
):
    """TO8: in a bounty event the bust says who won the bounty; paid at the bust."""
    event = make_event(
        room, structure, code="ko", bounty_kind="standard", bounty_cents=2_500
    )
    a, b, _c = (register(event, p.code, cashier) for p in players[:3])
    services.event_start(event=event)
    refused(
        "TO8",
        services.busts_record,
        event=event,
        hand="h1",
        busts=[BustIn(a, 10)],
        by=floor_person,
    )
    services.busts_record(
        event=event, hand="h1", busts=[BustIn(a, 10, [b])], by=floor_person
    )
    paid = BountyPayment.objects.get(event=event)
    assert (paid.winner, paid.amount_cents, paid.added_to_bounty_cents) == (b, 2_500, 0)
    assert (
        chart.bounty_pool(event=event.code, currency="EUR").balance_cents == 2 * 2_500
    )


# --- TO5 ------------------------------------------------------------------------------


def test_a_deal_must_include_every_player_left(running, floor_person):
    entries = list(Entry.objects.filter(event=running))
    stacks = {e.pk: 20_000 for e in entries[:3]}
    refused("TO5", selectors.deal_offers, event=running, stacks=stacks)
    everyone = {e.pk: 20_000 for e in entries}
    offers = selectors.deal_offers(event=running, stacks=everyone)
    amounts = dict(offers["chip_chop"])
    amounts[entries[0].pk] += 100
    refused(
        "TO5",
        services.deal_propose,
        event=running,
        method="custom",
        stacks=everyone,
        button_order=list(everyone),
        amounts=amounts,
        by=floor_person,
    )


def test_a_deal_the_domain_refuses_reads_in_the_callers_language(running):
    entries = list(Entry.objects.filter(event=running))
    stacks = {e.pk: 20_000 for e in entries} | {entries[0].pk: 0}
    error = refused("TO5", selectors.deal_offers, event=running, stacks=stacks)
    assert (error.code, status_of(error)) == ("deal_refused", 422)
    assert error.detail == "TO5: every player in a deal has chips."
    with translation.override("fi"):
        assert error.detail == "TO5: jokaisella diilin pelaajalla on pelimerkkejä."
    with translation.override("ko"):
        assert (
            error.detail
            == "TO5: 딜에 참여하는 모든 플레이어는 칩을 가지고 있어야 합니다."
        )


# --- TO9 ------------------------------------------------------------------------------


def _heads_up_finished(event, floor_person):
    entries = list(Entry.objects.filter(event=event).order_by("number"))
    services.busts_record(
        event=event,
        hand="h1",
        busts=[BustIn(e, 1_000) for e in entries[1:]],
        by=floor_person,
    )
    return entries


def test_a_held_prize_waits_until_released_by_another_person(
    running, floor_person, manager, cashier, second_cashier, second_shift
):
    """TO9, TDA RP-23: a held prize isn't payable; released, it is paid at the cage."""
    entries = _heads_up_finished(running, floor_person)
    sheet = services.payout_sheet_prepare(
        event=running, by=floor_person, holds={entries[0].pk: "absent at the end"}
    )
    sheet = services.payout_sheet_approve(sheet=sheet, by=manager)
    held = sheet.lines.get(entry=entries[0])
    assert held.status == "held"
    assert (
        chart.held_prizes(event=running.code, currency="EUR").balance_cents
        == held.amount_cents
    )
    pay = {
        "cage": "MAIN",
        "cashier": cashier,
        "player": entries[0].player.code,
        "player_signed": True,
        "tax_document": "T-1",
    }
    refused("TO9", services.payout_pay, payout=held, **pay)
    refused("TO9", services.payout_release, payout=held, by=floor_person, reason="back")
    services.payout_release(payout=held, by=manager, reason="came back with his ID")
    receipt = services.payout_pay(payout=held, **{**pay, "cashier": second_cashier})
    assert receipt.amount_cents == held.amount_cents
    assert chart.held_prizes(event=running.code, currency="EUR").balance_cents == 0
    assert chart.prize_pool(event=running.code, currency="EUR").balance_cents == 0
    assert trial_balance().balanced


def test_a_prize_goes_only_to_its_player(running, floor_person, manager, cashier):
    """TO9, CA6: paid to the identified player whose prize it is, signed."""
    entries = _heads_up_finished(running, floor_person)
    sheet = services.payout_sheet_approve(
        sheet=services.payout_sheet_prepare(event=running, by=floor_person), by=manager
    )
    line = sheet.lines.get(entry=entries[0])
    pay = {"payout": line, "cage": "MAIN", "cashier": cashier, "tax_document": "T-9"}
    refused(
        "CA6",
        services.payout_pay,
        **pay,
        player=entries[1].player.code,
        player_signed=True,
    )
    refused(
        "CA6",
        services.payout_pay,
        **pay,
        player=entries[0].player.code,
        player_signed=False,
    )
    services.payout_pay(**pay, player=entries[0].player.code, player_signed=True)
    before = snapshot()
    with pytest.raises(Conflict):
        services.payout_pay(**pay, player=entries[0].player.code, player_signed=True)
    assert snapshot() == before


def test_a_disqualified_player_loses_his_chips_and_a_finished_one_his_prize_is_held(
    running, floor_person, manager
):
    """TO3: a disqualified player's chips leave play for that cause, and he takes no
    place; TO9, TDA RP-23: one disqualified after finishing has his prize held."""
    entries = list(Entry.objects.filter(event=running).order_by("number"))
    refused(
        "TO3",
        services.entry_disqualify,
        entry=entries[3],
        by=floor_person,
        reason=" ",
        stack=20_000,
    )
    services.entry_disqualify(
        entry=entries[3], by=floor_person, reason="collusion", stack=20_000
    )
    assert selectors.chip_reconciliation(
        event=running, counted=3 * 20_000
    ).reconciliation.balanced
    services.busts_record(
        event=running,
        hand="h1",
        busts=[BustIn(entries[2], 10_000), BustIn(entries[1], 30_000)],
        by=floor_person,
    )
    services.entry_disqualify(entry=entries[1], by=floor_person, reason="abuse")
    sheet = services.payout_sheet_prepare(event=running, by=floor_person)
    lines = {line.entry_id: line for line in sheet.lines.all()}
    assert entries[3].pk not in lines
    assert lines[entries[1].pk].hold_reason
    assert not lines[entries[0].pk].hold_reason
    sheet = services.payout_sheet_approve(sheet=sheet, by=manager)
    held = chart.held_prizes(event=running.code, currency="EUR").balance_cents
    assert held == lines[entries[1].pk].amount_cents > 0


def test_a_satellite_is_not_paid_in_cash_by_the_payout_table(
    room, structure, cage, shift, cashier, floor_person, players
):
    """TO7: a satellite pays seats; the sheet refuses rather than pay them as cash."""
    event = make_event(room, structure, code="sat", satellite_seat_cents=20_000)
    entries = [register(event, p.code, cashier) for p in players[:3]]
    services.event_start(event=event)
    services.busts_record(
        event=event,
        hand="h1",
        busts=[BustIn(e, 10) for e in entries[1:]],
        by=floor_person,
    )
    refused("TO7", services.payout_sheet_prepare, event=event, by=floor_person)


def test_no_payout_sheet_while_players_play(running, floor_person):
    refused("TO7", services.payout_sheet_prepare, event=running, by=floor_person)


# --- TO10 -----------------------------------------------------------------------------


def test_a_cancelled_event_refunds_each_purchase_by_a_reversing_receipt(
    running, cashier, manager
):
    """TO10, DC2: each refund is a numbered receipt reversing its purchase, approved
    by another person; the pool ends empty and the chips leave play."""
    entry = Entry.objects.filter(event=running).first()
    clock_to(running, 1, manager, action="start")
    services.rebuy_buy(entry=entry, cage="MAIN", cashier=cashier, level=1, stack=0)
    services.event_cancel(event=running, by=manager, reason="power cut")
    purchases = list(Purchase.objects.filter(entry__event=running))
    refused(
        "TO10",
        services.purchase_refund,
        purchase=purchases[0],
        cage="MAIN",
        cashier=cashier,
        approved_by=cashier,
        reason="cancelled",
    )
    for purchase in purchases:
        refund = services.purchase_refund(
            purchase=purchase,
            cage="MAIN",
            cashier=cashier,
            approved_by=manager,
            reason="event cancelled: power cut",
        )
        assert refund.transaction.reverses_id == purchase.transaction_id
        assert refund.receipt.amount_cents == purchase.total_cents
        mirrored = sorted(
            (e.account_id, -e.amount_cents) for e in purchase.transaction.entries.all()
        )
        # The cash comes from the refunding shift's drawer, which here is the same.
        assert (
            sorted(refund.transaction.entries.values_list("account_id", "amount_cents"))
            == mirrored
        )
    before = snapshot()
    with pytest.raises(Conflict):
        services.purchase_refund(
            purchase=purchases[0],
            cage="MAIN",
            cashier=cashier,
            approved_by=manager,
            reason="again",
        )
    assert snapshot() == before
    assert chart.prize_pool(event=running.code, currency="EUR").balance_cents == 0
    assert chart.fee_revenue(currency="EUR").balance_cents == 0
    assert not Entry.objects.filter(event=running).exclude(status="refunded").exists()
    assert selectors.chip_reconciliation(
        event=running, counted=0
    ).reconciliation.balanced
    assert trial_balance().balanced
