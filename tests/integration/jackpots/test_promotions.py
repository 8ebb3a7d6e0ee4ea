"""Promotions: an hourly high hand, fixed bonuses, aces cracked, dealt over the API
and decided by people (PR1–PR5)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from accounting.models import Payable
from accounting.selectors import trial_balance
from cardroom import services as floor_services
from cardroom.models import Hand, Table
from cardroom.services import room_default
from core.errors import Conflict, Forbidden, Invalid, Refusal
from core.roles import Role
from jackpots import selectors, services
from jackpots.domain.promotions import EXAMPLES
from jackpots.models import Award, PromotionEntry, PromotionPrize
from tests.api.floor.conftest import HELSINKI, post_hand
from tests.api.jackpots.conftest import Dealer

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
    return make_staff("promoter", Role.MANAGER)


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


def post(dealer, record) -> Hand:
    """Post a record the dealer made, following the stacks."""
    answer = post_hand(dealer.terminal, dealer.table, record)
    assert answer.status_code == 201, answer.content
    for row in answer.json()["seats"]:
        dealer.stacks[row["seat"]] = row["final_stack"]
    return Hand.objects.get(table__code=dealer.table, hand_no=record["hand_no"])


def void(hand, staff):
    """Void a raked hand for a foul deck: a floor person asks, a manager books."""
    floor_services.hand_void(
        table_code="T01", hand_no=hand.hand_no, reason="foul_deck", by=staff["floor"]
    )
    [request] = hand.voids.all()
    floor_services.hand_void_decide(void=request, approve=True, by=staff["manager"])
    hand.refresh_from_db()
    assert hand.status == Hand.Status.VOIDED


def royal_flush(dealer, **kw) -> Hand:
    """A royal flush with both hole cards against a pair."""
    return dealer.deal("As Ks Qs 2d 3c", {1: "Js Ts", 2: "Ah 4d"}, **kw)


def test_fixed_bonuses_pay_each_seat_once_the_best_line_it_reaches(
    promote, dealer, clock, sweep, staff
):
    """PR3: a royal flush pays the royal line, not the straight flush's too; four
    of a kind without a pocket pair pays nothing; the hand waits for people and is
    booked from the house (PR1, PR5)."""
    promote("royal", EXAMPLES["royal-flush"])
    clock.advance(minutes=1)
    royal_flush(dealer)
    dealer.deal("9c 9d 9h Ks 3c", {1: "9s 2h", 2: "As Kd"})  # one nine in hand
    sweep()
    (prize,) = PromotionPrize.objects.all()
    assert [(h["seat"], h["bonus"], h["amount"]) for h in prize.details["hands"]] == [
        (1, "royal_flush", 50_000)
    ]
    assert (prize.house_cents, prize.pool_cents) == (50_000, 0)
    approve(prize, staff)
    assert Payable.objects.get(jackpot_award__prize=prize).amount_cents == 50_000
    assert balance(EXPENSE) == 50_000
    assert trial_balance().balanced


def test_aces_cracked_pays_the_loser_of_a_showdown_with_pocket_aces(
    promote, dealer, clock, sweep, staff
):
    """PR3: pocket aces beaten at the showdown pay their player; aces that win,
    or a pot under ten big blinds, pay nothing."""
    promote("aces", EXAMPLES["aces-cracked"])
    clock.advance(minutes=1)
    dealer.deal("Kc 7d 9h Js 3d", {1: "Ah Ad", 2: "Kh Kd"})  # cracked by a set
    dealer.ordinary()  # the aces hold
    dealer.deal("Kc 7d 9h Js 3d", {1: "Ah Ad", 2: "Kh Kd"}, put_in=500)  # €10 pot
    sweep()
    (prize,) = PromotionPrize.objects.all()
    assert [(h["seat"], h["player"]) for h in prize.details["hands"]] == [(1, "P-1")]
    assert prize.house_cents == 5_000


def test_only_the_first_run_counts_and_bomb_pots_are_left_out(
    promote, dealer, clock, sweep
):
    """PR4, HS10: four nines on the second run of a pot run twice count for
    nothing; nor does a bomb pot (the promotion leaves them out)."""
    promo = promote("high-hand", high_hand())
    clock.set("2026-11-29T21:10")
    record = dealer.record("2c 7d 3h Js 4d", {1: "9s 9h", 2: "As Kd"})
    record["boards"] = [["2c", "7d", "3h", "Js", "4d"], ["9c", "9d", "2h", "Ks", "3c"]]
    post(dealer, record)
    bomb = dealer.record("9c 9d 2h Ks 3c", {1: "9s 9h", 2: "As Kd"})
    bomb["bomb_pot"] = True
    assert post(dealer, bomb).record["bomb_pot"] is True
    sweep()
    assert not PromotionEntry.objects.filter(promotion=promo).exists()
    quads_nines(dealer)
    sweep()
    assert PromotionEntry.objects.filter(promotion=promo).count() == 1


def test_omaha_made_on_the_flop(promote, open_table, players, clock, sweep):
    """PR2: "Omaha hands must be made on the flop": a flush completed on the river
    doesn't count; a set made on the flop counts as it stood on the flop."""
    omaha = high_hand(
        games=["PLO"],
        min_hand=["2c", "2d", "2h", "3s", "4c"],
        board="flop",
        card_use={"hole_cards": 2},
        min_pot_big_blinds=0,
    )
    promo = promote("omaha", omaha)
    plo = Dealer(open_table("T02", game="PLO12"), table="T02", game="PLO")
    plo.sit_down()
    clock.set("2026-11-29T21:10")
    plo.deal("Kh 7h 2c 3h 9d", {1: "Ah Qh Jc Tc", 2: "Ks Kd 5c 6c"})
    sweep()
    (entry,) = PromotionEntry.objects.filter(promotion=promo)
    assert (entry.seat, entry.description) == (2, "three of a kind, kings")
    assert entry.cards[:2] == ["Ks", "Kd"] and len(entry.cards) == 5


def test_a_voided_hand_cancels_its_pending_prizes_and_the_period_is_decided_again(
    promote, dealer, clock, sweep, staff
):
    """PR4: a bonus found in a hand voided afterwards is cancelled; the hour the
    hand led is decided again without it, and the hand is no leader any more.
    After approval, the void is refused (RK8)."""
    promo = promote("high-hand", high_hand())
    promote("royal", EXAMPLES["royal-flush"])
    clock.set("2026-11-29T21:10")
    full_house(dealer)
    clock.set("2026-11-29T21:20")
    royal = royal_flush(dealer)
    sweep()
    clock.set("2026-11-29T22:05")
    (period,) = services.periods_close_due()
    assert period.details["hands"][0]["hand"] == "royal flush"
    bonus = PromotionPrize.objects.get(kind="bonus")
    void(royal, staff)
    for prize in (period, bonus):
        prize.refresh_from_db()
        assert prize.status == PromotionPrize.Status.CANCELLED
        assert "PR4" in prize.rejection_reason
    again = PromotionPrize.objects.get(promotion=promo, kind="period", status="pending")
    assert again.details["hands"][0]["hand"] == "full house, aces full of kings"
    approve(again, staff)
    with pytest.raises(Refusal) as refused:
        floor_services.hand_void(
            table_code="T01",
            hand_no=again.awards.get().hand.hand_no,
            reason="foul_deck",
            by=staff["floor"],
        )
    assert refused.value.rule == "RK8"


def test_a_drop_funded_prize_is_a_share_of_the_pool_and_a_period_is_closed_once(
    promote, pools, dealer, clock, sweep, staff
):
    """PR1, JD4: the promotion's pool takes its ratio of each drop; its prize is
    its percent of what the pool holds free at the hour's end; the hour closes
    once, the next one only after it (PR2)."""
    promo = promote(
        "high-hand",
        high_hand(prize={"pool_percent": 50, "funding": "drop"}, min_pot_big_blinds=0),
        drop_ratio=4,
    )
    clock.set("2026-11-29T21:10")
    for _ in range(3):
        dealer.ordinary()  # €1 drop each: 4 parts of 8 to the promotion
    quads_nines(dealer)
    sweep()
    code = PROMO_POOL.format(code="high-hand")
    assert balance(code) == 4 * 50
    clock.set("2026-11-29T23:30")
    with pytest.raises(Refusal) as refused:
        services.period_close(
            promotion=promo,
            at=datetime(2026, 11, 29, 22, 30, tzinfo=HELSINKI),
            by=staff["manager"],
        )
    assert refused.value.code == "earlier_period_open"
    prize = services.period_close(
        promotion=promo,
        at=datetime(2026, 11, 29, 21, 30, tzinfo=HELSINKI),
        by=staff["manager"],
    )
    assert (prize.house_cents, prize.pool_cents) == (0, 100)
    with pytest.raises(Conflict):
        services.period_close(
            promotion=promo, at=prize.period_start, by=staff["manager"]
        )
    approve(prize, staff)
    assert balance(code) == 100
    assert trial_balance().balanced


def test_rules_that_cannot_be_used_are_refused_naming_the_field(promote):
    """PR1–PR4 as configuration: what can't be used is a 400 naming the field."""
    for rules, field in (
        (high_hand(period_minutes=7), "period_minutes"),
        (high_hand(first_run_only=False), "first_run_only"),
        (
            high_hand(prize={"pool_percent": 10, "funding": "house"}),
            "prize.pool_percent",
        ),
        (high_hand(games=["RAZZ"]), "games"),
        (high_hand(time_zone="Mars/Olympus"), "time_zone"),
        ({**EXAMPLES["royal-flush"], "bonuses": []}, "bonuses"),
    ):
        with pytest.raises(Invalid) as refused:
            promote("bad", rules)
        assert refused.value.allowed == {"field": field}
    with pytest.raises(Refusal) as refused:
        promote("unfunded", high_hand(prize={"fixed": 100, "funding": "drop"}))
    assert refused.value.rule == "PR1"


def test_the_scheduler_closes_every_hour_of_the_night_the_clocks_go_back(
    promote, dealer, clock, sweep, staff
):
    """PR2 across DST: Helsinki's 25-hour night of 25 October. The scheduler,
    down all night, catches up at 06:05: eight hours close, the repeated
    03:00 twice, in order; a hand tabled in the second 03:00 hour wins that hour
    alone; each empty hour carries its prize on, the house's part booked into the
    pool (PR1)."""
    clock.set("2026-10-24T23:30")
    promote("high-hand", high_hand())
    Table.objects.filter(code="T01").update(gaming_day=date(2026, 10, 24))
    second_three = datetime(2026, 10, 25, 1, 20, tzinfo=UTC)  # 03:20 EET
    assert second_three.astimezone(HELSINKI).strftime("%H:%M %Z") == "03:20 EET"
    clock.now = second_three
    quads_nines(dealer)
    sweep()
    clock.now = datetime(2026, 10, 25, 4, 5, tzinfo=UTC)  # 06:05 EET
    closed = services.periods_close_due()
    walls = [p.period_start.astimezone(HELSINKI).strftime("%H:%M") for p in closed]
    assert walls == [
        "23:00",
        "00:00",
        "01:00",
        "02:00",
        "03:00",
        "03:00",
        "04:00",
        "05:00",
    ]
    assert all(p.period_end - p.period_start == timedelta(hours=1) for p in closed)
    statuses = [p.status for p in closed]
    assert statuses[5] == PromotionPrize.Status.PENDING  # the second 03:00
    assert statuses.count(PromotionPrize.Status.CARRIED_OVER) == 7
    won = closed[5]
    assert won.carried_in_cents == 5 * 10_000
    assert won.house_cents + won.pool_cents == 6 * 10_000
    assert closed[6].carried_in_cents == 0
    assert balance(PROMO_POOL.format(code="high-hand")) == 7 * 10_000
    approve(won, staff)
    assert balance(PROMO_POOL.format(code="high-hand")) == 2 * 10_000
    assert services.periods_close_due() == []  # each hour closes once
    assert trial_balance().balanced


def test_a_promotions_pool_is_not_retired_while_a_prize_waits_on_it(
    promote, pools, dealer, clock, sweep, staff
):
    """JD5, PR5: the pool's money stays while a prize promised from it waits."""
    promo = promote(
        "high-hand",
        high_hand(prize={"pool_percent": 100, "funding": "drop"}),
        drop_ratio=4,
    )
    clock.set("2026-11-29T21:10")
    quads_nines(dealer)
    sweep()
    clock.set("2026-11-29T22:05")
    (prize,) = services.periods_close_due()
    with pytest.raises(Refusal) as refused:
        services.pool_retire(
            pool=promo.pool,
            successor=pools["bad-beat"],
            by=staff["manager"],
            reason="the promotion ended",
        )
    assert refused.value.code == "pool_owes"
    services.prize_reject(prize=prize, by=staff["manager"], reason="misread cards")
    services.pool_retire(
        pool=promo.pool,
        successor=pools["bad-beat"],
        by=staff["manager"],
        reason="the promotion ended",
    )


def test_a_hand_is_looked_at_once_however_often_it_is_qualified(
    promote, dealer, clock, sweep
):
    """PR3: the sweep and a hand qualified again by hand record its bonus once."""
    promote("royal", EXAMPLES["royal-flush"])
    clock.advance(minutes=1)
    hand = royal_flush(dealer)
    sweep()
    services.hand_qualify(hand_id=hand.pk)
    services.hands_qualify_batch(hand_ids=[hand.pk, hand.pk])
    assert PromotionPrize.objects.count() == 1
    assert Award.objects.filter(prize__isnull=False).count() == 1
