"""Buy-in rules as pure decisions (RULES.md BI1–BI7, WL6)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.domain.buyin import (
    BuyInRefused,
    Departure,
    Kind,
    PlayerNight,
    Stakes,
    Structure,
    decide,
    default_min_buy_in,
    seat_allowance,
    top_up_allowance,
)

NOW = datetime(2026, 11, 29, 22, 0, tzinfo=UTC)
DAY = date(2026, 11, 29)
NL12 = Stakes("NLHE", 100, 200, 10_000, 40_000)
NL25 = Stakes("NLHE", 200, 500, 20_000, 100_000)
NL051 = Stakes("NLHE", 50, 100, 5_000, 20_000)
PLO12 = Stakes("PLO", 100, 200, 10_000, 40_000)
PLHE12 = Stakes("PLHE", 100, 200, 10_000, 40_000)


def left(table: str, stakes: Stakes, stack: int, minutes_ago: int = 90, day=DAY):
    return Departure(table, stakes, stack, NOW - timedelta(minutes=minutes_ago), day)


def night(*departures: Departure, buy_ins: int = 0, short_used=False, seated=None):
    return PlayerNight(DAY, seated, buy_ins, short_used, tuple(departures))


def seat(stakes: Stakes, amount: int, n: PlayerNight, table="T01", **kw) -> Kind:
    return decide(
        amount, seat_allowance(table=table, stakes=stakes, night=n, now=NOW, **kw)
    )


def refused(fn, *args, **kwargs) -> BuyInRefused:
    with pytest.raises(BuyInRefused) as info:
        fn(*args, **kwargs)
    return info.value


class TestBI1:
    def test_new_player_buys_between_minimum_and_maximum(self):
        """BI1: the table's minimum and maximum bound a first buy-in."""
        assert seat(NL12, 10_000, night()) is Kind.BUY_IN
        assert seat(NL12, 40_000, night()) is Kind.BUY_IN

    def test_below_minimum_and_above_maximum_are_refused(self):
        """BI1: outside the limits is refused with both limits."""
        low = refused(seat, NL12, 4_000, night())
        assert (low.rule, low.allowed) == ("BI1", {"min": 10_000, "max": 40_000})
        high = refused(seat, NL12, 40_001, night())
        assert (high.rule, high.code) == ("BI1", "above_maximum")

    def test_limit_games_default_to_ten_big_bets(self):
        """BI1: a limit game's default minimum is ten maximum bets."""
        assert default_min_buy_in(Structure.LIMIT, 200) == 4_000
        assert default_min_buy_in(Structure.NO_LIMIT, 200) is None

    def test_no_maximum_means_any_amount_above_the_minimum(self):
        """BI1: limit games may have no maximum."""
        lhe = Stakes("LHE", 100, 200, 4_000, None)
        assert seat(lhe, 1_000_000, night()) is Kind.BUY_IN


class TestBI4:
    def test_short_buy_in_after_running_out_in_pot_limit(self):
        """BI4: after busting, once a day, at least half the minimum."""
        n = night(left("T01", PLO12, 0, 5), buy_ins=1)
        assert seat(PLO12, 5_000, n) is Kind.SHORT_BUY_IN
        assert seat(PLO12, 10_000, n) is Kind.BUY_IN

    def test_short_buy_in_below_half_is_refused(self):
        """BI4: less than half the minimum is refused, saying the short minimum."""
        n = night(left("T01", PLO12, 0, 5), buy_ins=1)
        err = refused(seat, PLO12, 4_999, n)
        assert err.rule == "BI4" and err.allowed["short_min"] == 5_000

    def test_short_buy_in_is_refused_as_first_buy_in_of_the_day(self):
        """BI4: never the first buy-in of the day."""
        err = refused(seat, PLO12, 5_000, night())
        assert (err.code, err.rule) == ("short_buy_in_not_allowed", "BI4")
        assert refused(seat, NL12, 5_000, night()).rule == "BI1"

    def test_short_buy_in_only_once_per_day(self):
        """BI4: the second short buy-in of a day is refused."""
        n = night(left("T01", PLO12, 0, 5), buy_ins=2, short_used=True)
        assert refused(seat, PLO12, 5_000, n).rule == "BI4"

    def test_short_buy_in_is_refused_in_no_limit(self):
        """BI4: pot-limit games only; in no limit the minimum (BI1) stands."""
        n = night(left("T01", NL12, 0, 5), buy_ins=1)
        assert refused(seat, NL12, 5_000, n).rule == "BI1"

    def test_top_up_after_running_out_may_be_short(self):
        """BI4 through a top-up: a seated player who ran out may buy short once."""
        n = night(buy_ins=1)
        assert decide(5_000, top_up_allowance(stack=0, stakes=PLO12, night=n)) is (
            Kind.SHORT_BUY_IN
        )
        used = night(buy_ins=2, short_used=True)
        err = refused(
            decide, 5_000, top_up_allowance(stack=0, stakes=PLO12, night=used)
        )
        assert err.rule == "BI4"


class TestBI2:
    def test_top_up_with_a_big_blind_up_to_the_maximum(self):
        """BI2: with at least a big blind, any amount up to the maximum."""
        allowance = top_up_allowance(stack=30_000, stakes=NL12, night=night(buy_ins=1))
        assert decide(100, allowance) is Kind.TOP_UP
        assert decide(10_000, allowance) is Kind.TOP_UP
        err = refused(decide, 10_001, allowance)
        assert (err.rule, err.allowed["max"]) == ("BI2", 10_000)

    def test_run_out_player_must_buy_the_minimum(self):
        """BI2: a player who has run out buys at least the minimum."""
        allowance = top_up_allowance(stack=0, stakes=NL12, night=night(buy_ins=1))
        assert refused(decide, 9_000, allowance).allowed["min"] == 10_000
        assert decide(10_000, allowance) is Kind.TOP_UP

    def test_at_the_maximum_nothing_can_be_added(self):
        """BI2: a stack at the maximum can't grow by a top-up."""
        allowance = top_up_allowance(stack=40_000, stakes=NL12, night=night(buy_ins=1))
        assert refused(decide, 100, allowance).allowed == {"min": 1, "max": 0}


class TestBI5:
    def test_a_returning_to_the_same_table_keeps_his_stack(self):
        """BI5 a: back at the same table the same day, at least his old stack."""
        n = night(left("T01", NL12, 35_000))
        err = refused(seat, NL12, 20_000, n)
        assert (err.rule, err.allowed["min"]) == ("BI5", 35_000)
        assert seat(NL12, 35_000, n) is Kind.RETURN

    def test_a_returning_short_stack_tops_up_to_the_minimum(self):
        """BI5 a: but at least the table minimum."""
        n = night(left("T01", NL12, 3_000))
        assert seat_allowance(table="T01", stakes=NL12, night=n, now=NOW).min == 10_000

    def test_a_big_stack_may_return_above_the_maximum(self):
        """BI5 a: a stack above the maximum comes back whole."""
        n = night(left("T01", NL12, 90_000))
        allowance = seat_allowance(table="T01", stakes=NL12, night=n, now=NOW)
        assert (allowance.min, allowance.max) == (90_000, 90_000)

    def test_b_same_structure_and_stakes_brings_the_whole_stack(self):
        """BI5 b: another table, same structure and stakes: the whole stack."""
        n = night(left("T02", PLHE12, 25_000))
        err = refused(seat, PLO12, 10_000, n)
        assert err.rule == "BI5"
        assert seat(PLO12, 25_000, n) is Kind.TRANSFER

    def test_c_moving_down_brings_the_stack_capped_at_the_new_maximum(self):
        """BI5 c: moving down in stakes, whole stack but not above the new maximum."""
        n = night(left("T02", NL25, 60_000))
        allowance = seat_allowance(table="T01", stakes=NL12, night=n, now=NOW)
        assert (allowance.min, allowance.max) == (40_000, 40_000)
        small = night(left("T02", NL25, 12_000))
        assert seat_allowance(table="T01", stakes=NL051, night=small, now=NOW).min == (
            12_000
        )

    def test_d_another_structure_may_start_with_the_minimum(self):
        """BI5 d: no limit to pot limit: the minimum is enough."""
        n = night(left("T02", NL12, 60_000))
        assert seat(PLO12, 10_000, n) is Kind.TRANSFER

    def test_e_moving_up_tops_up_to_the_new_minimum(self):
        """BI5 e (house default): moving up, the whole stack, at least the minimum."""
        n = night(left("T02", NL12, 15_000))
        allowance = seat_allowance(table="T03", stakes=NL25, night=n, now=NOW)
        assert allowance.min == 20_000
        rich = night(left("T02", NL12, 50_000))
        assert (
            seat_allowance(table="T03", stakes=NL25, night=rich, now=NOW).min == 50_000
        )

    def test_yesterdays_stack_does_not_bind_after_an_hour(self):
        """BI5 counts per gaming day; after 60 minutes BI6 is over too."""
        n = night(left("T01", NL12, 35_000, 120, day=DAY - timedelta(days=1)))
        assert seat(NL12, 10_000, n) is Kind.BUY_IN


class TestBI6:
    def test_return_within_the_hour_across_the_day_boundary(self):
        """BI6: back in the same game within 60 minutes, even after the cut-off."""
        n = night(left("T02", NL12, 30_000, 30, day=DAY - timedelta(days=1)))
        err = refused(seat, NL12, 10_000, n)
        assert (err.rule, err.allowed["min"]) == ("BI6", 30_000)
        assert seat(NL12, 30_000, n) is Kind.BUY_IN

    def test_after_sixty_minutes_bi6_no_longer_applies(self):
        """BI6: after an hour (and another gaming day) he buys as a new player."""
        n = night(left("T02", NL12, 30_000, 61, day=DAY - timedelta(days=1)))
        assert seat(NL12, 10_000, n) is Kind.BUY_IN

    def test_bi6_is_for_the_same_game_only(self):
        """BI6: another game (other stakes) is not bound by it."""
        n = night(left("T02", NL25, 30_000, 30, day=DAY - timedelta(days=1)))
        assert seat(NL12, 10_000, n) is Kind.BUY_IN


class TestBI7AndWL6:
    def test_house_move_keeps_a_short_stack(self):
        """BI7: moved by the house, he keeps a stack below the new minimum."""
        allowance = seat_allowance(
            table="T03", stakes=NL25, night=night(), now=NOW, house_move_stack=7_000
        )
        assert decide(7_000, allowance) is Kind.TRANSFER

    def test_one_seat_at_a_time(self):
        """WL6: a seated player can't take a second seat."""
        err = refused(seat, NL12, 10_000, night(seated="T02"))
        assert (err.rule, err.code) == ("WL6", "already_seated")


stakes_strategy = st.builds(
    lambda game, bb, mult, cap: Stakes(game, bb // 2, bb, bb * mult, bb * mult * cap),
    st.sampled_from(["NLHE", "PLO", "PLHE", "SOKO"]),
    st.sampled_from([100, 200, 500]),
    st.integers(20, 100),
    st.integers(2, 5),
)


@given(
    stakes_strategy,
    stakes_strategy,
    st.integers(0, 500_000),
    st.booleans(),
    st.integers(0, 200),
    st.integers(1, 600_000),
)
def test_a_decision_is_always_within_what_it_says_is_allowed(
    stakes, previous, stack, same_table, minutes, amount
):
    """Accepted amounts lie in the allowance; refusals name a rule and the bounds."""
    dep = left("T01" if same_table else "T02", previous, stack, minutes)
    allowance = seat_allowance(
        table="T01", stakes=stakes, night=night(dep, buy_ins=1), now=NOW
    )
    assert allowance.max is None or allowance.min <= allowance.max
    assert allowance.min >= stakes.min_buy_in
    try:
        kind = decide(amount, allowance)
    except BuyInRefused as err:
        assert err.rule in {"BI1", "BI4", "BI5", "BI6"}
        assert err.allowed["min"] == allowance.min
        fits = allowance.max is None or amount <= allowance.max
        assert not (allowance.min <= amount and fits)
        return
    if kind is Kind.SHORT_BUY_IN:
        assert stakes.min_buy_in <= amount * 2 and amount < stakes.min_buy_in
        assert stack == 0
        return
    assert amount >= stakes.min_buy_in
    # BI5 binds per game: a stack left in another betting structure asks only the
    # minimum (d), even at the same table once its game has changed.
    one_stack = stack > 0 and previous.structure is stakes.structure
    if one_stack:
        # One night, one stack: the whole stack, capped only when moving down (c).
        moving_down = stakes.big_blind < previous.big_blind
        assert amount >= (min(stack, stakes.max_buy_in) if moving_down else stack)
