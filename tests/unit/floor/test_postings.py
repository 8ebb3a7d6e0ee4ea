"""Every posting plan of the floor balances and, for the inputs it accepts, never
takes a non-negative account below zero (cardroom.domain.postings)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting.domain import accounts as a
from accounting.domain.postings import Plan, normal, overdrawn
from cardroom.domain import postings
from cardroom.domain.hand_record import parse_hand, parse_policy
from cardroom.domain.settlement import settle
from core.errors import Refusal
from simulation.dealer import deal_hand

POLICY = parse_policy(
    {
        "currency": "EUR",
        "smallest_chip": 50,
        "rake": {"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500},
        "jackpot_drop": {"amount": 100, "min_participants": 6},
    }
)
CENTS = st.integers(0, 200_000)
PLAYERS = st.sampled_from(["P-1", "P-2", "P-3"])


def sound(plan: Plan, balances: dict[str, int]) -> None:
    assert plan.balanced, plan
    assert overdrawn(plan, balances) == [], (plan, balances)


@settings(max_examples=60, deadline=None)
@given(
    player=PLAYERS,
    amount=st.integers(1, 100_000),
    cash=st.booleans(),
    tray=CENTS,
    chips=CENTS,
)
def test_buy_in_balances_or_refuses_to_overdraw(player, amount, cash, tray, chips):
    balances = {
        a.table_tray_code(table="T01"): tray,
        a.player_chips_code(player=player): chips,
    }
    try:
        plan = postings.buy_in(
            kind="seat_buy_in",
            table="T01",
            player=player,
            amount=amount,
            cash=cash,
            balances=balances,
        )
    except Refusal as error:
        assert error.code == "insufficient_funds"
        assert (tray if cash else chips) < amount
        return
    sound(plan, balances)
    assert plan.net()[a.player_stack_code(player=player, table="T01")] == -amount


@settings(max_examples=40, deadline=None)
@given(player=PLAYERS, recorded=CENTS, stack=CENTS)
def test_leave_pick_up_and_custody_move_what_is_there(player, recorded, stack):
    at_table = a.player_stack_code(player=player, table="T01")
    try:
        plan = postings.leave(
            table="T01", player=player, stack=stack, recorded=recorded
        )
    except Refusal as error:
        assert (error.code, error.rule, stack != recorded) == (
            "stack_mismatch",
            "HS6",
            True,
        )
    else:
        sound(plan, {at_table: recorded})
    sound(
        postings.pick_up(table="T01", player=player, stack=recorded),
        {at_table: recorded},
    )
    try:
        back = postings.custody_return(player=player, held=recorded)
    except Refusal as error:
        assert (error.code, recorded) == ("nothing_in_custody", 0)
    else:
        sound(back, {a.custody_code(player=player): recorded})


@settings(max_examples=40, deadline=None)
@given(
    stacks=st.dictionaries(st.integers(1, 9), CENTS, min_size=1, max_size=9),
    charges=st.dictionaries(st.integers(1, 9), st.integers(-100, 5_000), max_size=9),
)
def test_time_is_charged_within_the_stacks(stacks, charges):
    seats = {n: (f"P-{n}", stack) for n, stack in stacks.items()}
    balances = {
        a.player_stack_code(player=p, table="T01"): s for p, s in seats.values()
    }
    try:
        plan = postings.time_collection(table="T01", charges=charges, seats=seats)
    except Refusal as error:
        assert (error.code, error.rule) == ("time_not_payable", "RK6")
        return
    sound(plan, balances)


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(["pot_correction", "hold", "release", "receivable"]),
    amount=st.integers(1, 50_000),
    source=st.none() | PLAYERS,
    target=st.none() | PLAYERS,
    held=CENTS,
    escrow=CENTS,
    tray=CENTS,
)
def test_corrections_and_reviews_balance_within_what_is_held(
    kind, amount, source, target, held, escrow, tray
):
    code = lambda p: p and a.player_stack_code(player=p, table="T01")  # noqa: E731
    balances = {a.ESCROW: escrow, a.table_tray_code(table="T01"): tray}
    balances |= {code(p): held for p in ("P-1", "P-2", "P-3")}
    try:
        plan = postings.correction(
            kind=kind,
            table="T01",
            amount=amount,
            source=code(source),
            target=code(target),
            debtor="P-9" if kind == "receivable" else None,
            balances=balances,
        )
    except Refusal as error:
        assert error.code == "insufficient_funds"
    else:
        sound(plan, balances)
    hold = a.stack_review_hold_code(player="P-1", table="T01")
    resolved = postings.review_resolve(
        kind="stack_review_release",
        table="T01",
        player="P-1",
        amount=min(amount, held),
        to=code(target),
    )
    sound(resolved, {hold: held})


# The hand ---------------------------------------------------------------------

TABLES = st.dictionaries(
    st.integers(1, 9),
    st.sampled_from([100, 450, 2_000, 5_000, 20_000, 40_000]),
    min_size=2,
    max_size=9,
)


@settings(max_examples=40, deadline=None)
@given(
    stacks=TABLES,
    seed=st.integers(0, 2**32),
    game=st.sampled_from(["NLHE", "PLO", "NLHE", "STUD8"]),
    beyond=st.dictionaries(st.integers(1, 9), st.integers(1, 3_000), max_size=3),
)
def test_the_hand_plan_balances_and_leaves_every_stack_at_zero_or_above(
    stacks, seed, game, beyond
):
    """Over dealt hands, with the ledger holding what each seat reports or more
    (HS6: the difference frozen): the legs and the holds balance, no stack goes
    below zero, and each session's new stack is what the ledger then holds."""
    if game == "STUD8" and len(stacks) > 7:
        stacks = dict(sorted(stacks.items())[:7])
    seats = {n: (f"P-{n}", stack) for n, stack in stacks.items()}
    record = deal_hand(
        random.Random(seed),
        table="T01",
        hand_no=3,
        game=game,
        seats=seats,
        button=None,
        small_blind=100,
        big_blind=200,
    )
    parsed = parse_hand(record)
    settlement = settle(parsed, POLICY)
    sittings = {
        n: postings.Sitting(100 + n, n, n, player, stack)
        for n, (player, stack) in seats.items()
    }
    ledger = {
        a.player_stack_code(player=player, table="T01"): stack + beyond.get(n, 0)
        for n, (player, stack) in seats.items()
    }
    planned = postings.hand(
        table="T01",
        parsed=parsed,
        settlement=settlement,
        sittings=sittings,
        ledger=ledger,
        cards={},
        drop_legs=[(a.JACKPOT_DROPS, -settlement.jackpot_drop)],
    )
    holds = [
        postings.review_hold(
            table="T01", player=f.sitting.player, amount=f.held - f.reported
        )
        for f in planned.frozen
    ]
    everything = sum(holds, planned.plan)
    assert planned.plan.balanced and everything.balanced
    assert overdrawn(everything, ledger) == []
    net = everything.net()
    for session_id, final, hand_no in planned.stacks:
        n = session_id - 100
        code = a.player_stack_code(player=f"P-{n}", table="T01")
        assert final == ledger[code] + normal(code, net.get(code, 0)) >= 0
        assert hand_no == 3
    frozen = {f.sitting.seat for f in planned.frozen}
    dealt = {s.seat for s in parsed.seats}
    assert frozen == {n for n in beyond if n in dealt}
    assert [e["code"] for e in planned.exceptions].count("stack_mismatch") == len(
        frozen
    )


def test_the_hand_plan_refuses_more_than_the_ledger_holds():
    seats = {1: ("P-1", 20_000), 2: ("P-2", 20_000)}
    record = deal_hand(
        random.Random(7),
        table="T01",
        hand_no=1,
        game="NLHE",
        seats=seats,
        button=None,
        small_blind=100,
        big_blind=200,
    )
    parsed = parse_hand(record)
    ledger = {a.player_stack_code(player="P-1", table="T01"): 19_000}
    with pytest.raises(Refusal) as refused:
        postings.hand(
            table="T01",
            parsed=parsed,
            settlement=settle(parsed, POLICY),
            sittings={
                n: postings.Sitting(n, n, n, p, s) for n, (p, s) in seats.items()
            },
            ledger=ledger,
            cards={},
        )
    assert (refused.value.code, refused.value.rule) == ("stack_above_ledger", "HS6")
    assert refused.value.allowed == {"seat": 1, "max": 19_000}
