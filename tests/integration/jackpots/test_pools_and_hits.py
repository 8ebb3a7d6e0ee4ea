"""Pools in the ledger, qualification after commit, hits decided and booked.

JD4–JD6 (drops split by ratios, held in trust, shown as the ledger), BB1–BB6
(qualification once, four eyes, the amount fixed at the hand, hits paid in hand
order, rejection leaves the pool alone), and what PostgreSQL refuses on its own.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, ProgrammingError, transaction

from accounting import chart
from accounting.models import Payable, Transaction
from accounting.selectors import trial_balance
from cardroom import services as floor_services
from cardroom.models import HandException
from cardroom.services import room_default
from core.errors import Conflict, Refusal
from core.roles import Role
from jackpots import services, tasks
from jackpots.models import (
    Award,
    Category,
    CategoryVersion,
    Hit,
    Pool,
    QualifiedHand,
    SweepCursor,
)
from jackpots.selectors import pool_amount_at
from tests.api.floor.conftest import post_hand

from .conftest import SEED, balance

pytestmark = pytest.mark.django_db
# What PostgreSQL answers: a constraint (IntegrityError) or a trigger (pgtrigger), or
# no privilege: the app's role isn't granted what a trigger refuses every time.
REFUSED = (IntegrityError, ProgrammingError)
TRIGGER = "pgtrigger|permission denied"

POOL = "jackpot:main.bad-beat:pool"
RESERVE = "jackpot:main.bad-beat:reserve"
MONTH_POOL = "jackpot:main.hand-of-the-month:pool"


def approve(hit: Hit, staff: dict) -> Hit:
    services.hit_verify(hit=hit, by=staff["floor"])
    return services.hit_approve(hit=hit, by=staff["manager"])


# Drops (JD4–JD6) ----------------------------------------------------------------------


def test_without_pools_the_drop_is_held_unallocated(dealer):
    """The floor keeps working before any pool exists: the drop waits in trust."""
    assert not Pool.objects.exists()
    dealer.ordinary()
    assert balance("jackpot:drops") == 100
    ledger = trial_balance()
    assert ledger.balanced and ledger.cached_balances_agree


def test_the_drop_is_split_by_the_pools_ratios_and_reserves(pools, dealer, make_staff):
    """JD4: 3 : 1 between the pools; a reserve takes its percent of its pool's part;
    a changed ratio applies from the next hand, an inactive pool takes nothing."""
    dealer.ordinary()
    assert (balance(POOL) - SEED, balance(MONTH_POOL)) == (75, 25)
    services.pool_update(
        pool=pools["bad-beat"], by=make_staff("m", Role.MANAGER), reserve_percent=20
    )
    dealer.ordinary()
    assert (balance(POOL) - SEED, balance(RESERVE), balance(MONTH_POOL)) == (
        75 + 60,
        15,
        50,
    )
    services.pool_update(pool=pools["month"], by=None, active=False)
    dealer.ordinary()
    assert (balance(POOL) - SEED, balance(RESERVE), balance(MONTH_POOL)) == (
        135 + 80,
        35,
        50,
    )
    assert balance("jackpot:drops") == 0
    assert pools["bad-beat"].events.count() >= 2  # django-pghistory kept the changes


def test_a_seed_is_booked_from_house_capital(pools, make_staff):
    """JD5: the pool is a liability held for players; the house's seed is equity."""
    seed = Transaction.objects.get(kind="jackpot_seed")
    legs = dict(seed.entries.values_list("account__code", "amount_cents"))
    assert legs == {"equity:house_capital": SEED, POOL: -SEED}
    assert pools["bad-beat"].seed_cents == SEED
    services.pool_seed(
        pool=pools["bad-beat"],
        amount_cents=5_000,
        to_reserve=True,
        by=make_staff("m", Role.MANAGER),
    )
    assert (balance(POOL), balance(RESERVE)) == (SEED, 5_000)
    assert chart.house_capital().balance_cents == -(SEED + 5_000)


def test_the_database_keeps_a_pool_at_or_above_zero(pools):
    """JD5: nothing takes a pool below zero, whatever the code tries."""
    from accounting.services import InsufficientFunds, Leg, transaction_post

    with pytest.raises(InsufficientFunds):
        transaction_post(
            kind="test",
            legs=[
                Leg(pools["bad-beat"].account, SEED + 1),
                Leg(chart.house_capital(), -(SEED + 1)),
            ],
            source="test",
        )


# Qualification (BB1–BB3) --------------------------------------------------------------


def test_the_same_hand_qualified_twice_makes_one_hit(pools, dealer):
    """Qualification may run twice (the sweeps, a task by hand): one hit, one
    exception."""
    hand = dealer.bad_beat()
    assert tasks.qualify_new_task() == 1
    tasks.qualify_hand_task(hand.pk)
    assert tasks.qualify_missed_task() == 0
    # Even with the record of the first run gone, no second hit is made.
    QualifiedHand.objects.filter(hand=hand).delete()
    services.hand_qualify(hand_id=hand.pk)
    assert Hit.objects.filter(hand=hand).count() == 1
    assert Award.objects.count() == 6
    assert HandException.objects.filter(hand=hand).count() == 1
    # And PostgreSQL refuses a second hit for the hand and category outright.
    hit = Hit.objects.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        Hit.objects.create(
            hand=hand,
            hand_ended_at=hand.ended_at,
            category=hit.category,
            category_version=hit.category_version,
            pool=hit.pool,
            details={},
            pool_cents=0,
            payout_cents=0,
            found_at=hit.found_at,
        )


def test_a_hand_the_sweeps_missed_is_picked_up_every_five_minutes(pools, dealer):
    """A hand that committed later than the sweep's look-back below its cursor
    is qualified by the five-minute sweep."""
    hand = dealer.bad_beat()
    SweepCursor.objects.update_or_create(
        name=services.SWEEP,
        defaults={"last_hand_id": hand.pk + services.SWEEP_LOOKBACK},
    )
    assert tasks.qualify_new_task() == 0
    assert not Hit.objects.exists()
    assert tasks.qualify_missed_task() == 1
    assert Hit.objects.get().hand == hand
    assert tasks.qualify_missed_task() == 0


def test_the_amount_is_the_pool_after_the_hands_drop(pools, dealer, clock):
    """BB4: the hand's own drop is in; later drops and seeds are not."""
    clock.advance(minutes=1)
    dealer.ordinary()
    clock.advance(minutes=1)
    hand = dealer.bad_beat()
    services.hand_qualify(hand_id=hand.pk)
    hit = Hit.objects.get()
    assert hit.pool_cents == SEED + 2 * 75
    clock.advance(minutes=1)
    dealer.ordinary()
    services.pool_seed(pool=pools["bad-beat"], amount_cents=1_000, by=None)
    assert pool_amount_at(pool=pools["bad-beat"], at=hand.ended_at) == SEED + 2 * 75
    assert balance(POOL) == SEED + 3 * 75 + 1_000


def test_a_new_category_version_applies_to_later_hands(
    pools, dealer, make_staff, clock
):
    """BB2 is configuration: a version asking four of a kind leaves aces full out;
    a retired category finds nothing; a hit keeps the version it was found under."""
    manager = make_staff("m", Role.MANAGER)
    first = dealer.bad_beat()
    services.hand_qualify(hand_id=first.pk)
    category = Category.objects.get(code="1")
    v1 = category.versions.get()
    config = v1.config() | {"min_losing_hand": ["2c", "2d", "2h", "2s", "3c"]}
    v2 = services.category_publish(
        category=category, config=config, pool_code="bad-beat", by=manager
    )
    assert v2.version == 2
    clock.advance(minutes=1)
    second = dealer.bad_beat()
    services.hand_qualify(hand_id=second.pk)
    assert [h.category_version for h in Hit.objects.all()] == [v1]
    services.category_publish(
        category=category,
        config=v1.config(),
        pool_code="bad-beat",
        by=manager,
        active=False,
    )
    third = dealer.bad_beat()
    services.hand_qualify(hand_id=third.pk)
    assert Hit.objects.count() == 1
    with pytest.raises(REFUSED, match=TRIGGER), transaction.atomic():
        CategoryVersion.objects.filter(pk=v1.pk).update(min_participants=2)


def test_a_category_without_its_pool_still_raises_the_candidate(dealer):
    """No pool to pay from: no hit, but the floor sees the bad beat (BB1)."""
    hand = dealer.bad_beat()
    assert services.hand_qualify(hand_id=hand.pk) == []
    exception = HandException.objects.get(hand=hand)
    assert (exception.kind, exception.details["hit"], exception.details["pool"]) == (
        "bad_beat_candidate",
        None,
        None,
    )


# Hits decided and booked (BB4–BB6) ----------------------------------------------------


def test_approving_twice_pays_once(pools, dealer, staff):
    hand = dealer.bad_beat()
    [hit] = services.hand_qualify(hand_id=hand.pk)
    approved = approve(hit, staff)
    with pytest.raises(Conflict) as again:
        services.hit_approve(hit=hit, by=staff["manager2"])
    assert again.value.code == "already_approved"
    assert Transaction.objects.filter(kind="jackpot_award").count() == 1
    assert Payable.objects.count() == 6
    assert sum(Payable.objects.values_list("amount_cents", flat=True)) == (
        approved.payout_cents
    )
    # The database refuses what the service refused: a decided hit is final.
    with pytest.raises(REFUSED, match=TRIGGER), transaction.atomic():
        Hit.objects.filter(pk=hit.pk).update(status="verified")


def test_the_database_refuses_an_approval_by_the_verifier(pools, dealer, staff):
    """BB5 behind the service's check: CHECK hit_four_eyes."""
    hand = dealer.bad_beat()
    [hit] = services.hand_qualify(hand_id=hand.pk)
    services.hit_verify(hit=hit, by=staff["manager"])
    with pytest.raises(Refusal) as refused:
        services.hit_approve(hit=hit, by=staff["manager"])
    assert (refused.value.code, refused.value.rule) == ("four_eyes", "BB5")
    with pytest.raises(IntegrityError, match="hit_four_eyes"), transaction.atomic():
        Hit.objects.filter(pk=hit.pk).update(approved_by=staff["manager"])


def test_two_hits_are_paid_in_hand_order_the_second_from_what_is_left(
    pools, dealer, staff, clock
):
    """BB4: the earlier hand is decided first; the later hit gets the pool as it
    stood after its hand, less what the earlier hit took."""
    first = dealer.bad_beat()
    clock.advance(minutes=3)
    second = dealer.bad_beat()
    clock.advance(minutes=3)
    dealer.ordinary()  # a later drop belongs to the next jackpot
    [hit1] = services.hand_qualify(hand_id=first.pk)
    [hit2] = services.hand_qualify(hand_id=second.pk)
    at_first, at_second = SEED + 75, SEED + 2 * 75
    assert (hit1.pool_cents, hit2.pool_cents) == (at_first, at_second)

    services.hit_verify(hit=hit2, by=staff["floor"])
    with pytest.raises(Refusal) as refused:
        services.hit_approve(hit=hit2, by=staff["manager"])
    assert (refused.value.rule, refused.value.allowed) == ("BB4", {"hit": hit1.pk})

    paid1 = approve(hit1, staff).payout_cents
    assert paid1 == at_first * 90 // 100
    hit2 = services.hit_approve(hit=hit2, by=staff["manager2"])
    assert hit2.pool_cents == at_second - paid1
    assert hit2.payout_cents == (at_second - paid1) * 90 // 100
    assert balance(POOL) == SEED + 3 * 75 - paid1 - hit2.payout_cents
    assert sum(Award.objects.values_list("amount_cents", flat=True)) == (
        paid1 + hit2.payout_cents
    )
    ledger = trial_balance()
    assert ledger.balanced and ledger.cached_balances_agree


def test_a_rejected_earlier_hit_leaves_the_later_one_the_whole_pool(
    pools, dealer, staff, clock
):
    first = dealer.bad_beat()
    clock.advance(minutes=3)
    second = dealer.bad_beat()
    [hit1] = services.hand_qualify(hand_id=first.pk)
    [hit2] = services.hand_qualify(hand_id=second.pk)
    services.hit_reject(hit=hit1, by=staff["floor"], reason="misdeal on camera")
    hit2 = approve(hit2, staff)
    assert hit2.pool_cents == SEED + 2 * 75
    assert Award.objects.filter(hit=hit1, status="rejected").count() == 6


def test_the_reserve_becomes_the_next_jackpots_seed(pools, dealer, staff, make_staff):
    """On a payout the pool pays its share and receives its reserve."""
    services.pool_update(pool=pools["bad-beat"], by=None, reserve_percent=40)
    services.pool_seed(
        pool=pools["bad-beat"], amount_cents=2_000, to_reserve=True, by=None
    )
    hand = dealer.bad_beat()
    assert (balance(POOL), balance(RESERVE)) == (SEED + 45, 2_000 + 30)
    [hit] = services.hand_qualify(hand_id=hand.pk)
    hit = approve(hit, staff)
    assert hit.payout_cents == (SEED + 45) * 90 // 100
    assert balance(RESERVE) == 0
    assert balance(POOL) == SEED + 45 - hit.payout_cents + 2_030
    legs = dict(hit.booking.entries.values_list("account__code", "amount_cents"))
    assert legs == {
        POOL: hit.payout_cents - 2_030,
        RESERVE: 2_030,
        "liability:awards_payable": -hit.payout_cents,
    }


def test_a_played_hand_with_a_hit_is_no_misdeal(pools, dealer, staff):
    """RK8: a bad beat reached the showdown, so players acted with bets and calls:
    a misdeal is refused, the drop stays in the pools, the hit goes on."""
    hand = dealer.bad_beat()
    [hit] = services.hand_qualify(hand_id=hand.pk)
    pool = balance(POOL)
    with pytest.raises(Refusal) as refused:
        floor_services.hand_void(
            table_code="T01",
            hand_no=hand.hand_no,
            reason="misdeal",
            by=staff["floor"],
        )
    assert (refused.value.rule, refused.value.code) == ("RK8", "void_after_action")
    assert balance(POOL) == pool
    services.hit_verify(hit=hit, by=staff["floor"])


def test_a_hand_whose_hit_was_approved_is_not_voided(pools, dealer, staff):
    """RK8, BB5: the approval booked the awards from the pool; a duplicate card
    found afterwards can't take them back, and the void is refused naming the hit."""
    hand = dealer.bad_beat()
    [hit] = services.hand_qualify(hand_id=hand.pk)
    services.hit_verify(hit=hit, by=staff["floor"])
    services.hit_approve(hit=hit, by=staff["manager"])
    pool = balance(POOL)
    with pytest.raises(Refusal) as refused:
        floor_services.hand_void(
            table_code="T01",
            hand_no=hand.hand_no,
            reason="duplicate_card",
            by=staff["floor"],
        )
    assert (refused.value.rule, refused.value.code) == ("RK8", "award_booked")
    assert refused.value.allowed == {"hit": hit.pk}
    assert balance(POOL) == pool


def test_a_hand_voided_for_a_foul_deck_leaves_its_hit_only_to_reject(
    pools, dealer, staff
):
    """RK8: a foul deck voids the bad beat's hand however far it went; its hit,
    still waiting, can't be verified any more, only rejected."""
    hand = dealer.bad_beat()
    [hit] = services.hand_qualify(hand_id=hand.pk)
    floor_services.hand_void(
        table_code="T01", hand_no=hand.hand_no, reason="foul_deck", by=staff["floor"]
    )
    hand.refresh_from_db()
    assert hand.status == hand.Status.BOOKED  # waits for a manager: raked
    [void] = hand.voids.all()
    floor_services.hand_void_decide(void=void, approve=True, by=staff["manager"])
    hand.refresh_from_db()
    assert hand.status == hand.Status.VOIDED
    with pytest.raises(Refusal) as refused:
        services.hit_verify(hit=hit, by=staff["floor"])
    assert (refused.value.rule, refused.value.code) == ("RK8", "hand_voided")


def test_late_hands_count_in_the_ledger_by_their_end_time(pools, dealer, clock):
    """A hand posted late with an earlier end time is in the pool from that time;
    the seed, posted when the pool started, is not yet."""
    clock.advance(minutes=1)
    dealer.ordinary()
    late = dealer.record("2c 7d 9h Js 3d", {1: "Ah Ad", 2: "Kh Kd"})
    late["ended_at"] = (clock.now - timedelta(hours=1)).isoformat()
    assert post_hand(dealer.terminal, "T01", late).status_code == 201
    before_the_seed = clock.now - timedelta(minutes=59)
    assert pool_amount_at(pool=pools["bad-beat"], at=before_the_seed) == 75
    assert pool_amount_at(pool=pools["bad-beat"], at=clock.now) == SEED + 150


def test_the_room_is_the_hands_room(pools):
    assert {p.room for p in pools.values()} == {room_default()}


def test_a_flushed_database_gets_the_default_categories_back():
    """BB2's defaults: written by the data migration, and again after a flush."""
    from django.core.management import call_command

    call_command("flush", interactive=False, verbosity=0)
    versions = CategoryVersion.objects.select_related("category").order_by(
        "category__code"
    )
    assert [(v.category.code, v.version, v.payout_percent) for v in versions] == [
        ("1", 1, 90),
        ("2", 1, 50),
    ]
