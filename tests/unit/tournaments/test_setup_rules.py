"""Setting an event up, the pure rules: a payout table can be paid (TO7), a structure
can be run (TO12), an event's settings can be played (TO1, TO8), and what may
change when (TO1, TO7)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.api.errors import status_of
from tournaments.domain.payouts import BASIS, prizes, shares_for
from tournaments.domain.setup import (
    PRICE_FIELDS,
    UNTIL_THE_SHEET,
    LevelSpec,
    SetupError,
    payout_table_check,
    settings_check,
    settings_locked,
    structure_check,
)


@st.composite
def shares(draw: st.DrawFn, places: int) -> list[int]:
    """``places`` positive shares adding up to 10,000, never going up."""
    cuts = sorted(
        draw(
            st.sets(st.integers(1, BASIS - 1), min_size=places - 1, max_size=places - 1)
        )
    )
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, BASIS], strict=True)]
    return sorted(parts, reverse=True)


@st.composite
def tables(draw: st.DrawFn) -> list[tuple[int, list[int]]]:
    """A payout table that can be paid: rows from one entry up."""
    sizes = sorted(draw(st.sets(st.integers(2, 500), max_size=6)))
    rows = [(1, [BASIS])]
    for size in sizes:
        places = draw(st.integers(1, min(size, 12)))
        rows.append((size, draw(shares(places))))
    return rows


def variant(error: SetupError) -> str:
    return error.template


@given(tables())
def test_a_table_that_can_be_paid_is_taken_as_it_is(table):
    checked = payout_table_check(table)
    assert checked == tuple((n, tuple(s)) for n, s in table)


@given(tables(), st.integers(1, 1_000), st.integers(0, 10**9), st.integers(1, 10_000))
def test_what_the_check_takes_the_payouts_pay_to_the_cent(table, entries, pool, unit):
    """The set-up's check and the payout sheet's agree: every table it takes pays
    the pool exactly, first place first."""
    payout_table_check(table)
    paid = prizes(pool, shares_for(entries, table), unit=unit, remainder="top")
    assert sum(paid) == pool
    assert all(a >= b for a, b in pairwise(paid))


@given(tables(), st.data())
def test_shares_off_the_basis_are_refused_naming_the_row(table, data):
    row = data.draw(st.integers(0, len(table) - 1))
    extra = data.draw(st.integers(1, 500))
    n, row_shares = table[row]
    broken = [*table]
    broken[row] = (n, [row_shares[0] + extra, *row_shares[1:]])
    with pytest.raises(SetupError) as refused:
        payout_table_check(broken)
    error = refused.value
    assert error.code == "payout_table_invalid" and error.rule == "TO7"
    assert error.params["row"] == row + 1
    assert error.params["sum"] == BASIS + extra


@given(tables(), st.data())
def test_a_lower_place_paying_more_is_refused(table, data):
    rows = [i for i, (_n, s) in enumerate(table) if len(set(s)) > 1]
    if not rows:
        return
    row = data.draw(st.sampled_from(rows))
    n, row_shares = table[row]
    broken = [*table]
    broken[row] = (n, list(reversed(row_shares)))
    with pytest.raises(SetupError) as refused:
        payout_table_check(broken)
    assert refused.value.params["row"] == row + 1
    assert "pays more than the place above" in variant(refused.value)


@given(tables(), st.data())
def test_rows_out_of_order_or_twice_are_refused(table, data):
    if len(table) < 2:
        return
    row = data.draw(st.integers(1, len(table) - 1))
    broken = [*table]
    broken[row] = (table[row - 1][0], table[row][1])  # the size before it, again
    with pytest.raises(SetupError) as refused:
        payout_table_check(broken)
    assert refused.value.params["row"] == row + 1
    assert "go up by field size" in variant(refused.value)


@given(st.integers(2, 50))
def test_more_places_than_entries_are_refused(size):
    places = size + 1
    row = [BASIS // places] * places
    row[0] += BASIS - sum(row)
    with pytest.raises(SetupError) as refused:
        payout_table_check([(1, [BASIS]), (size, row)])
    assert refused.value.params == {"row": 2, "places": places, "entries": size}


@pytest.mark.parametrize(
    ("table", "text"),
    [
        ([], "at least one row"),
        ([(2, [BASIS])], "for 1 entry"),
        ([(1, [])], "pays no place"),
        ([(1, [BASIS]), (3, [BASIS, 0])], "no share"),
        ([(1, [BASIS]), (3, [6_000, -1_000, 5_000])], "no share"),
    ],
)
def test_a_table_without_rows_places_or_shares_is_refused(table, text):
    with pytest.raises(SetupError) as refused:
        payout_table_check(table)
    assert text in str(refused.value) and status_of(refused.value) == 422


# ---------------------------------------------------------------- structures


def play(sb: int, bb: int, **kw) -> LevelSpec:
    return LevelSpec(minutes=kw.pop("minutes", 20), small_blind=sb, big_blind=bb, **kw)


@given(
    st.lists(
        st.one_of(
            st.builds(
                lambda bb, half, m: play(bb // 2 if half else bb, bb, minutes=m),
                st.integers(1, 10**9),
                st.booleans(),
                st.integers(1, 600),
            ),
            st.builds(
                lambda m, d: LevelSpec(minutes=m, is_break=True, retire_denomination=d),
                st.integers(1, 60),
                st.one_of(st.none(), st.integers(1, 10_000)),
            ),
        ),
        max_size=30,
    )
)
def test_a_structure_of_levels_and_breaks_after_a_first_level_runs(levels):
    structure_check([play(100, 200), *levels])


@pytest.mark.parametrize(
    ("levels", "text"),
    [
        ([], "at least one level"),
        ([LevelSpec(minutes=10, is_break=True)], "starts with a level of play"),
        ([play(100, 200, minutes=0)], "level 1 lasts no time"),
        ([play(300, 200)], "small blind is above"),
        ([play(0, 0)], "no big blind"),
        (
            [play(1, 2), LevelSpec(minutes=5, is_break=True, ante=5)],
            "level 2 is a break",
        ),
        (
            [play(1, 2), LevelSpec(minutes=5, is_break=True, big_blind_ante=True)],
            "level 2 is a break",
        ),
        ([play(1, 2, retire_denomination=5)], "at a break"),
        (
            [play(1, 2), LevelSpec(minutes=5, is_break=True, retire_denomination=0)],
            "has a value",
        ),
        ([play(1, 2)] * 201, "at most 200 levels"),
    ],
)
def test_a_structure_the_clock_cant_run_is_refused(levels, text):
    with pytest.raises(SetupError) as refused:
        structure_check(levels)
    assert text in str(refused.value)
    assert refused.value.rule in ("TO12", "TO6")


# ---------------------------------------------------------------- settings

FREEZEOUT = {
    "bounty_kind": "none",
    "bounty_cents": 0,
    "late_registration_level": 3,
    "rebuy_max": 0,
    "rebuy_until_level": 0,
    "rebuy_stack_limit": 0,
    "rebuy_cents": 0,
    "rebuy_fee_cents": 0,
    "rebuy_chips": 0,
    "addon_level": None,
    "addon_cents": 0,
    "addon_fee_cents": 0,
    "addon_chips": 0,
}
REBUYS = {
    **FREEZEOUT,
    "rebuy_max": 2,
    "rebuy_until_level": 4,
    "rebuy_cents": 5_000,
    "rebuy_chips": 10_000,
    "addon_level": 5,
    "addon_cents": 5_000,
    "addon_chips": 15_000,
}


@pytest.mark.parametrize("settings", [FREEZEOUT, REBUYS])
def test_settings_that_can_be_played(settings):
    settings_check(settings, levels=6)


@pytest.mark.parametrize(
    ("changes", "rule", "text"),
    [
        ({"bounty_kind": "progressive"}, "TO8", "a bounty event has a bounty"),
        ({"bounty_cents": 1_000}, "TO8", "a bounty event has a bounty"),
        ({"late_registration_level": 7}, "TO1", "after level 7; the structure has 6"),
        ({"rebuy_max": 1}, "TO1", "rebuys give chips"),
        ({"rebuy_chips": 100}, "TO1", "a freezeout has none"),
        ({"rebuy_stack_limit": 100}, "TO1", "a freezeout has none"),
        ({"addon_level": 2}, "TO1", "the add-on gives chips"),
        ({"addon_cents": 100}, "TO1", "the add-on's level"),
    ],
)
def test_settings_that_cant_be_played_are_refused(changes, rule, text):
    with pytest.raises(SetupError) as refused:
        settings_check({**FREEZEOUT, **changes}, levels=6)
    assert refused.value.rule == rule and text in str(refused.value)


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        ({"rebuy_until_level": 9}, "rebuys last until level 9"),
        ({"addon_level": 9}, "sold at level 9"),
    ],
)
def test_rebuys_and_the_addon_fall_within_the_structure(changes, text):
    with pytest.raises(SetupError) as refused:
        settings_check({**REBUYS, **changes}, levels=6)
    assert text in str(refused.value)


@given(
    st.sets(
        st.sampled_from(
            sorted(
                PRICE_FIELDS
                | UNTIL_THE_SHEET
                | {"guarantee_cents", "structure", "starts_at", "rebuy_max"}
            )
        )
    ),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_what_may_change_when(changed, started, sold, sheet):
    locked = set(settings_locked(changed, started=started, sold=sold, sheet=sheet))
    assert locked <= changed
    if sheet:
        assert locked == changed
    elif started:
        assert locked == changed - UNTIL_THE_SHEET
    elif sold:
        assert locked == changed & PRICE_FIELDS
    else:
        assert locked == set()
    # Prices never change once an entry is sold; the name until the sheet.
    if sold or started or sheet:
        assert changed & PRICE_FIELDS <= locked
    if not sheet:
        assert "name" not in locked
