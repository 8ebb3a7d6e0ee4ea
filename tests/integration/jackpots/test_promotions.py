"""Promotions: an hourly high hand, fixed bonuses, aces cracked, dealt over the API
and decided by people (PR1–PR5)."""

from __future__ import annotations

from datetime import datetime

import pytest

from accounting.selectors import trial_balance
from cardroom.models import Hand
from cardroom.services import room_default
from core.errors import Forbidden, Refusal
from core.roles import Role
from jackpots import selectors, services
from jackpots.models import Award, PromotionEntry, PromotionPrize
from tests.api.floor.conftest import HELSINKI

from .conftest import balance

pytestmark = pytest.mark.django_db

PROMO_POOL = "jackpot:main.{code}:pool"
EXPENSE = "expense:promotions"


def high_hand(**changes):
    rules = {
        "kind": "high_hand",
        "games": ["NLHE"],
        "min_hand": ["As", "Ah", "Ad", "Ks", "Kh"],
        "card_use": {"hole_cards": 2, "quads_pocket_pair": True},
        "min_pot_big_blinds": 10,
        "min_dealt_in": 4,
        "period_minutes": 60,
        "carry_over": True,
        "prize": {"fixed": 10_000, "funding": "house"},
    }
    rules.update(changes)
    return rules


@pytest.fixture
def boss(make_staff):
    return make_staff("owner", Role.MANAGER)


@pytest.fixture
def promote(boss, clock):
    def make(code, rules, drop_ratio=0):
        return services.promotion_create(
            room=room_default(),
            code=code,
            name=code.replace("-", " ").title(),
            rules=rules,
            by=boss,
            drop_ratio=drop_ratio,
        )

    return make


def quads_nines(dealer, **kw) -> Hand:
    """Four nines with a pocket pair against two pair."""
    return dealer.deal("9c 9d 2h Ks 3c", {1: "9s 9h", 2: "As Kd"}, **kw)


def full_house(dealer, **kw) -> Hand:
    """Aces full of kings (both hole cards play) against a pair."""
    return dealer.deal("Ac Kc Kd 7s 3d", {1: "As Ad", 2: "Qh 4d"}, **kw)


def approve(prize, staff):
    services.prize_verify(prize=prize, by=staff["floor"])
    return services.prize_approve(prize=prize, by=staff["manager"])


def test_an_hourly_high_hand_goes_to_the_best_hand_of_its_hour(
    promote, dealer, clock, sweep, staff
):
    """PR2: the best hand tabled in the hour leads; a better one later takes the
    lead; the period closes after its end and the prize waits for people (PR5);
    approved, the house's prize is payable at the cage (PR1, CA6)."""
    clock.set("2026-11-29T21:00")
    promo = promote("high-hand", high_hand())
    clock.set("2026-11-29T21:05")
    full_house(dealer)
    clock.set("2026-11-29T21:20")
    quads_nines(dealer)
    clock.set("2026-11-29T21:40")
    dealer.ordinary()
    sweep()
    start = datetime(2026, 11, 29, 21, 0, tzinfo=HELSINKI)
    leaders = selectors.period_leaders(promotion=promo, start=start)
    assert [(e.player.code, e.description) for e in leaders] == [
        ("P-1", "four of a kind, nines")
    ]
    assert PromotionEntry.objects.count() == 2  # aces full and four nines
    clock.set("2026-11-29T22:00:30")
    assert services.periods_close_due() == []  # a minute's grace for late hands
    clock.set("2026-11-29T22:01")
    (prize,) = services.periods_close_due()
    assert prize.status == PromotionPrize.Status.PENDING
    assert (prize.house_cents, prize.pool_cents) == (10_000, 0)
    assert [h["hand"] for h in prize.details["hands"]] == ["four of a kind, nines"]
    with pytest.raises(Refusal) as refused:
        services.prize_approve(prize=prize, by=staff["manager"])
    assert refused.value.rule == "PR5"
    services.prize_verify(prize=prize, by=staff["floor"])
    with pytest.raises(Forbidden):
        services.prize_approve(prize=prize, by=staff["floor2"])  # not a manager
    services.prize_approve(prize=prize, by=staff["manager"])
    (award,) = Award.objects.filter(prize=prize)
    assert award.player.code == "P-1" and award.amount_cents == 10_000
    assert award.payable.amount_cents == 10_000
    assert balance(EXPENSE) == 10_000
    assert trial_balance().balanced


def test_an_empty_hour_carries_its_prize_and_ties_share(
    promote, dealer, clock, sweep, staff
):
    """PR2: an hour without a qualifying hand carries over (the house's part
    booked into the pool, PR1); the next hour's two equal best hands share the
    two prizes, the earlier hand the odd cent."""
    clock.set("2026-11-29T21:00")
    promote("high-hand", high_hand(prize={"fixed": 10_001, "funding": "house"}))
    clock.set("2026-11-29T21:30")
    dealer.ordinary()
    clock.set("2026-11-29T22:10")
    quads_nines(dealer)
    clock.set("2026-11-29T22:20")
    dealer.deal("9c 9d 2h Ks 3c", {3: "9s 9h", 4: "As Kd"})  # impossible twice
    sweep()
    clock.set("2026-11-29T23:05")
    first, second = services.periods_close_due()
    assert first.status == PromotionPrize.Status.CARRIED_OVER
    assert balance(PROMO_POOL.format(code="high-hand")) == 10_001
    assert second.carried_in_cents == 10_001
    assert second.house_cents + second.pool_cents == 20_002
    approve(second, staff)
    assert sorted(
        Award.objects.filter(prize=second).values_list("player__code", "amount_cents")
    ) == [("P-1", 10_001), ("P-3", 10_001)]
    assert balance(PROMO_POOL.format(code="high-hand")) == 0
    assert trial_balance().balanced
