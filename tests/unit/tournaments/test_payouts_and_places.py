"""The prize pool, the places paid and shared places, as properties (TO4, TO7).

For any field size and any valid payout table: the prizes add up to the pool to the
cent, each is a whole unit but first place's odd cents, no lower place gets more than
a higher one, and the rounding differs from the exact share by less than the
remainder's units. Shared places split exactly; players out in one hand take the
places just above those already out.
"""

from __future__ import annotations

import doctest
from itertools import pairwise

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import tournaments.domain.payouts as payouts_module
import tournaments.domain.places as places_module
from tournaments.domain.payouts import (
    BASIS,
    DEFAULT_TABLE,
    PayoutError,
    pool_of,
    prizes,
    satellite,
    shares_for,
    table_check,
)
from tournaments.domain.places import (
    Place,
    PlacesError,
    places_of,
    shared_prizes,
    standings,
)


def test_doctests() -> None:
    for module in (payouts_module, places_module):
        assert doctest.testmod(module).failed == 0


@st.composite
def share_lists(draw: st.DrawFn, max_places: int = 30) -> list[int]:
    """Basis points for 1..max_places places, non-increasing, adding up to 10,000."""
    places = draw(st.integers(1, max_places))
    cuts = sorted(
        draw(st.lists(st.integers(0, BASIS), min_size=places - 1, max_size=places - 1))
    )
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, BASIS], strict=True)]
    return sorted(parts, reverse=True)


@st.composite
def tables(draw: st.DrawFn) -> list[tuple[int, list[int]]]:
    rows = []
    minimum = 1
    for _ in range(draw(st.integers(1, 6))):
        shares = draw(share_lists(max_places=min(minimum, 25)))
        rows.append((minimum, shares))
        minimum += draw(st.integers(1, 40))
    return rows


def test_the_default_table_is_valid() -> None:
    table_check(DEFAULT_TABLE)


@given(
    pool=st.integers(0, 10**10),
    shares=share_lists(),
    unit=st.sampled_from([1, 5, 100, 500, 1_000, 2_500, 10_000]),
    remainder=st.sampled_from(["top", "first"]),
)
def test_prizes_add_up_to_the_pool_to_the_cent(pool, shares, unit, remainder) -> None:
    """TO7: the places paid add up to the pool, whatever the pool, table and unit."""
    amounts = prizes(pool, shares, unit=unit, remainder=remainder)
    assert sum(amounts) == pool
    assert len(amounts) == len(shares)
    assert all(a >= 0 for a in amounts)
    # Every prize is in whole units; only first place takes the cents below one.
    assert all(a % unit == 0 for a in amounts[1:])
    assert amounts[0] % unit == pool % unit
    # The rounding stays close to the exact share: within the units left over.
    for share, amount in zip(shares[1:], amounts[1:], strict=True):
        exact = pool * share / BASIS
        spread = unit * (1 + (len(shares) if remainder == "top" else 0))
        assert abs(amount - exact) <= spread
    if remainder == "top":
        assert all(a >= b for a, b in pairwise(amounts))


@given(
    entries=st.integers(1, 5_000),
    table=st.one_of(st.none(), tables()),
    pool=st.integers(0, 10**9),
)
def test_any_field_size_gets_places_it_can_pay(entries, table, pool) -> None:
    """TO7: a table's row for the field never pays more places than entries."""
    shares = shares_for(entries, table)
    assert sum(shares) == BASIS
    assert len(shares) <= entries
    assert sum(prizes(pool, shares, unit=100)) == pool


@pytest.mark.parametrize(
    "table",
    [
        [],
        [(2, [10_000])],
        [(1, [9_999])],
        [(1, [10_000]), (1, [10_000])],
        [(1, [10_000]), (3, [3_000, 7_000])],
        [(1, [5_000, 5_000])],
    ],
)
def test_a_table_that_can_not_be_paid_is_refused(table) -> None:
    with pytest.raises(PayoutError, match="TO7"):
        table_check(table)


@given(buy_ins=st.integers(0, 10**9), guarantee=st.integers(0, 10**9))
def test_the_pool_is_the_buy_ins_plus_the_overlay(buy_ins, guarantee) -> None:
    """TO7: pool = buy-ins + overlay; the overlay only makes the guarantee."""
    pool, overlay = pool_of(buy_ins, guarantee)
    assert pool == buy_ins + overlay
    assert pool == max(buy_ins, guarantee)
    assert overlay >= 0


@given(pool=st.integers(0, 10**8), seat=st.integers(10_000, 10**7))
def test_a_satellite_pays_seats_and_the_rest_in_cash(pool, seat) -> None:
    """TO7: seats while the pool buys them, then the cash remainder, to the cent."""
    places = satellite(pool, seat)
    assert sum(p.seat_cents + p.cash_cents for p in places) == pool
    assert sum(1 for p in places if p.seat_cents) == pool // seat
    assert sum(1 for p in places if p.cash_cents) == (1 if pool % seat else 0)


# --- TO4: places of players out in the same hand -----------------------------------


@given(
    left=st.integers(2, 500),
    stacks=st.lists(st.integers(0, 50), min_size=1, max_size=9),
    hand_for_hand=st.booleans(),
)
def test_players_out_in_one_hand_take_the_places_above_those_out(
    left, stacks, hand_for_hand
) -> None:
    """TO4: the bigger stack finishes higher, equal stacks share, hand-for-hand all
    share; together they take exactly places left-out+1 .. left."""
    assume(len(stacks) < left)
    keyed = {f"p{i}": s for i, s in enumerate(stacks)}
    places = places_of(left, keyed, hand_for_hand=hand_for_hand)
    first = left - len(stacks) + 1
    assert min(p.high for p in places.values()) == first
    assert max(p.low for p in places.values()) == left
    # Each group shares as many places as it has players.
    groups: dict[Place, list[str]] = {}
    for key, place in places.items():
        groups.setdefault(place, []).append(key)
    assert sum(len(g) for g in groups.values()) == len(stacks)
    for place, members in groups.items():
        assert place.shared_by == len(members)
    for a in keyed:
        for b in keyed:
            if hand_for_hand or keyed[a] == keyed[b]:
                assert places[a] == places[b]
            elif keyed[a] > keyed[b]:
                assert places[a].low < places[b].high


def test_hand_for_hand_bubble_shares_the_last_place_paid() -> None:
    """TO4, TDA RP-8-A: 50 paid, 52 left, 3 out in one hand → the three share 50th."""
    paid = [*([50_000] * 49), 1_000]  # 50 places paid; 50th pays €10
    places = places_of(52, {"a": 9_000, "b": 100, "c": 4_000}, hand_for_hand=True)
    assert set(places.values()) == {Place(50, 52)}
    split = shared_prizes(Place(50, 52), paid, ["a", "b", "c"], unit=1)
    assert split == {"a": 334, "b": 333, "c": 333}
    assert sum(split.values()) == 1_000


@given(
    prizes_=st.lists(st.integers(0, 10**7), min_size=1, max_size=40),
    high=st.integers(1, 45),
    players=st.integers(1, 9),
    unit=st.sampled_from([1, 100, 500]),
)
def test_shared_places_split_exactly(prizes_, high, players, unit) -> None:
    """TO4: the players sharing places get those places' prizes, to the cent, equal
    up to one unit, the earlier in the house's order never less."""
    place = Place(high, high + players - 1)
    keys = [f"p{i}" for i in range(players)]
    split = shared_prizes(place, prizes_, keys, unit=unit)
    total = sum(
        prizes_[p - 1] for p in range(place.high, place.low + 1) if p <= len(prizes_)
    )
    assert sum(split.values()) == total
    amounts = [split[k] for k in keys]
    assert all(a >= b for a, b in pairwise(amounts))
    assert amounts[0] - amounts[-1] <= unit + total % unit


def test_impossible_busts_are_refused() -> None:
    with pytest.raises(PlacesError, match="TO4"):
        places_of(2, {"a": 1, "b": 2})
    with pytest.raises(PlacesError, match="TO4"):
        places_of(5, {})
    with pytest.raises(PlacesError, match="TO4"):
        shared_prizes(Place(2, 3), [10, 5, 1], ["a"])


@given(
    finishers=st.integers(1, 5),
    hands=st.lists(
        st.tuples(st.lists(st.integers(0, 20), min_size=1, max_size=4), st.booleans()),
        max_size=12,
    ),
)
def test_final_standings_place_the_whole_field_once(finishers, hands) -> None:
    """TO4: every entry of the field gets one place; the places shared by a group
    are as many as its players; together they are exactly 1..field size, and an
    earlier hand's players finish below a later hand's."""
    first = {f"w{i}": i + 1 for i in range(finishers)}
    rounds = [
        ({f"h{n}p{i}": s for i, s in enumerate(stacks)}, hfh)
        for n, (stacks, hfh) in enumerate(hands)
    ]
    final = standings(first, rounds)
    field = finishers + sum(len(stacks) for stacks, _hfh in rounds)
    assert len(final) == field
    covered: list[int] = []
    for place in set(final.values()):
        members = [k for k, p in final.items() if p == place]
        assert len(members) == place.shared_by
        covered.extend(range(place.high, place.low + 1))
    assert sorted(covered) == list(range(1, field + 1))
    for later, earlier in pairwise(rounds):
        assert max(final[k].low for k in later[0]) < min(
            final[k].high for k in earlier[0]
        )
