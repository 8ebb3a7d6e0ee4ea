"""Chips, deals and bounties as properties (TO3, TO5, TO6, TO8).

Chips are conserved through colour-ups, races and removals: what is in play is what
was issued less what was removed for a recorded cause. Chip-chop and ICM figures add
up to the prizes dealt, to the cent. Bounties paid and added add up to the bounties
knocked out.
"""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import tournaments.domain.bounties as bounties_module
import tournaments.domain.chips as chips_module
import tournaments.domain.deals as deals_module
from tournaments.domain.bounties import BountyError, chop_leftover, knockout
from tournaments.domain.chips import (
    ISSUING,
    REMOVING,
    ChipsError,
    colour_up,
    race_draw,
    race_order,
    reconcile,
)
from tournaments.domain.deals import DealError, chip_chop, icm, icm_fractions


def test_doctests() -> None:
    for module in (chips_module, deals_module, bounties_module):
        assert doctest.testmod(module).failed == 0


# --- TO3: the reconciliation --------------------------------------------------------


@given(
    issued=st.lists(
        st.tuples(st.sampled_from(ISSUING), st.integers(1, 10**6)), min_size=1
    ),
    removed=st.lists(st.tuples(st.sampled_from(REMOVING), st.integers(1, 10**4))),
)
def test_the_reconciliation_balances_exactly_when_the_count_agrees(
    issued, removed
) -> None:
    """TO3: issued − removed by cause = in play; another count shows its difference."""
    movements = issued + [(cause, -chips) for cause, chips in removed]
    expected = sum(c for _k, c in issued) - sum(c for _k, c in removed)
    assume(expected >= 0)
    ok = reconcile(movements, expected)
    assert ok.balanced and ok.in_play == expected
    assert ok.issued_total == sum(c for _k, c in issued)
    assert sum(ok.removed.values()) == sum(c for _k, c in removed)
    off = reconcile(movements, expected + 25)
    assert not off.balanced and off.difference == 25


def test_chips_leave_only_for_a_recorded_cause() -> None:
    with pytest.raises(ChipsError, match="TO3"):
        reconcile([("entry", 100), ("lost", -5)], 95)
    with pytest.raises(ChipsError, match="TO3"):
        reconcile([("entry", -100)], 0)
    with pytest.raises(ChipsError, match="TO3"):
        reconcile([("race", 100)], 100)


# --- TO6: colour-up and chip race -------------------------------------------------


@st.composite
def tables_at_a_colour_up(draw: st.DrawFn):
    denomination = draw(st.sampled_from([25, 100, 500]))
    factor = draw(st.sampled_from([2, 4, 5, 10]))
    players = draw(st.integers(1, 10))
    stacks, retired = {}, {}
    for i in range(players):
        count = draw(st.integers(0, 30))
        others = draw(st.integers(0, 200)) * denomination * factor
        stacks[f"s{i}"] = count * denomination + others
        retired[f"s{i}"] = count
    assume(all(s > 0 for s in stacks.values()))
    racing = [
        k for k in stacks if (retired[k] * denomination) % (denomination * factor)
    ]
    order = draw(st.permutations(racing))
    return stacks, retired, denomination, denomination * factor, list(order)


@given(tables_at_a_colour_up())
def test_chips_are_conserved_through_a_colour_up_and_race(case) -> None:
    """TO3, TO6: after + removed = before + added, the recorded movements; one chip
    at most per player; what is removed is less than one new chip and nothing is
    both removed and added; no retired chip is left; the cards decide who wins."""
    stacks, retired, old, new, order = case
    up = colour_up(
        stacks, retired, denomination=old, new_denomination=new, race_order=order
    )
    assert up.conserved
    assert sum(up.after.values()) + up.removed == sum(stacks.values()) + up.added
    assert up.removed == 0 or up.added == 0
    assert 0 <= up.removed < new
    assert len(up.race_winners) == len(set(up.race_winners))
    assert up.race_winners == order[: len(up.race_winners)]
    assert not set(up.race_winners) & set(up.granted)
    assert up.removed - up.added == sum(up.odd.values()) - new * (
        len(up.race_winners) + len(up.granted)
    )
    for key, after in up.after.items():
        assert after % new == (stacks[key] - retired[key] * old) % new
        won = after - (stacks[key] - up.odd[key])
        assert won in (0, new)  # one chip at most, won or given
        assert (won == new) == (key in up.race_winners or key in up.granted)


@given(tables_at_a_colour_up())
def test_no_player_is_raced_out(case) -> None:
    """TO6, TDA R26-A: a player with chips before the colour-up has chips after it;
    a chip is given only to one the race left with nothing."""
    stacks, retired, old, new, order = case
    up = colour_up(
        stacks, retired, denomination=old, new_denomination=new, race_order=order
    )
    assert all(up.after[k] > 0 for k in stacks if stacks[k] > 0)
    assert all(stacks[k] == up.odd[k] for k in up.granted)
    assert up.added <= new * len(up.granted)


def test_a_player_with_only_odd_chips_who_loses_the_race_gets_one_chip() -> None:
    """TO6, TDA R26-A: two players with a single 25 each at a colour-up to 100: the
    odd chips buy no chip, neither is raced out; each gets a 100 and the 150 that
    adds comes into play as a cause of its own."""
    up = colour_up(
        {"1": 25, "2": 25, "3": 10_000},
        {"1": 1, "2": 1, "3": 0},
        denomination=25,
        new_denomination=100,
        race_order=["2", "1"],
    )
    assert up.after == {"1": 100, "2": 100, "3": 10_000}
    assert (up.race_winners, up.granted) == ([], ["2", "1"])
    assert (up.removed, up.added) == (0, 150)


def test_the_race_follows_the_cards_spades_breaking_a_tie() -> None:
    """TO6, TDA R26: the highest card first, a tie of ranks to spades, hearts,
    diamonds, clubs; a card drawn twice is refused."""
    assert race_order({"1": "Kc", "2": "Kh", "3": "2s", "4": "Ks"}) == [
        "4",
        "2",
        "1",
        "3",
    ]
    with pytest.raises(ChipsError, match="TO6"):
        race_order({"1": "Kc", "2": "Kc"})
    with pytest.raises(ChipsError, match="TO6"):
        race_order({"1": "1c"})
    drawn = race_draw(["1", "2", "3"], seed=42)
    assert drawn == race_draw(["1", "2", "3"], seed=42)
    assert len(set(drawn.values())) == 3


def test_a_race_must_include_every_player_with_odd_chips() -> None:
    with pytest.raises(ChipsError, match="TO6"):
        colour_up(
            {"a": 75, "b": 50},
            {"a": 3, "b": 2},
            denomination=25,
            new_denomination=100,
            race_order=["a"],
        )


# --- TO5: deals -------------------------------------------------------------------


@st.composite
def final_tables(draw: st.DrawFn, max_players: int = 7):
    players = draw(st.integers(2, max_players))
    stacks = {f"p{i}": draw(st.integers(1, 10**6)) for i in range(players)}
    prizes = sorted(
        draw(st.lists(st.integers(0, 10**7), min_size=players, max_size=players)),
        reverse=True,
    )
    assume(sum(prizes) > 0)
    return stacks, prizes


@given(final_tables(), st.sampled_from([1, 100, 500]))
def test_chip_chop_adds_up_and_follows_the_chips(table, unit) -> None:
    """TO5: chip chop figures add up to the prizes; more chips never get less."""
    stacks, prizes = table
    figures = chip_chop(stacks, prizes, unit=unit)
    assert sum(figures.values()) == sum(prizes)
    assert all(f >= prizes[-1] for f in figures.values())
    for a in stacks:
        for b in stacks:
            if stacks[a] > stacks[b]:
                assert figures[a] + unit >= figures[b]


@settings(deadline=None, max_examples=60)
@given(final_tables(max_players=6), st.sampled_from([1, 100, 500]))
def test_icm_figures_sum_to_the_pool(table, unit) -> None:
    """TO5: ICM figures add up to the prizes to the cent, each within a unit (and the
    cents below one) of the exact equity, between the last and the first prize."""
    stacks, prizes = table
    figures = icm(stacks, prizes, unit=unit)
    assert sum(figures.values()) == sum(prizes)
    order = sorted(stacks, key=lambda k: -stacks[k])
    exact = icm_fractions([stacks[k] for k in order], prizes)
    assert sum(exact) == sum(prizes)
    for key, equity in zip(order, exact, strict=True):
        assert abs(figures[key] - equity) < unit + sum(prizes) % unit
        assert prizes[-1] <= equity <= prizes[0]


def test_icm_of_equal_stacks_is_an_even_split() -> None:
    figures = icm({"a": 100, "b": 100, "c": 100}, [6_000, 3_000, 0])
    assert figures == {"a": 3_000, "b": 3_000, "c": 3_000}
    assert icm_fractions([1, 1], [10, 0]) == [Fraction(5), Fraction(5)]


def test_a_deal_with_a_player_missing_is_refused() -> None:
    """TO5: a deal includes every remaining player: one prize per player left."""
    with pytest.raises(DealError, match="TO5"):
        icm({"a": 100, "b": 50, "c": 25}, [5_000, 3_000])
    with pytest.raises(DealError, match="TO5"):
        chip_chop({"a": 100}, [5_000])


# --- TO8: bounties ------------------------------------------------------------------


@given(
    bounty=st.integers(0, 10**6),
    winners=st.integers(1, 4),
    progressive=st.booleans(),
    unit=st.sampled_from([1, 100, 500]),
)
def test_a_knockout_pays_and_adds_exactly_the_bounty(
    bounty, winners, progressive, unit
) -> None:
    """TO8: paid + added = the bounty knocked out; a standard bounty adds nothing, a
    progressive one pays half (rounded down to the unit) and adds the rest."""
    keys = [f"w{i}" for i in range(winners)]
    shares = knockout(bounty, keys, progressive=progressive, unit=unit)
    assert sum(k.paid + k.added for k in shares.values()) == bounty
    for k in shares.values():
        if progressive:
            assert k.paid % unit == 0 and k.added >= k.paid
            assert k.added - k.paid < 2 * unit + 1
        else:
            assert k.added == 0


def test_chop_leftover_goes_to_the_biggest_stack_then_nearest_the_button() -> None:
    """TO8, APL, TDA R21."""
    assert chop_leftover({"a": 900, "b": 300}, ["b", "a"]) == "a"
    assert chop_leftover({"a": 900, "b": 900, "c": 1}, ["c", "b", "a"]) == "b"
    with pytest.raises(BountyError, match="TO8"):
        chop_leftover({"a": 1}, ["a", "b"])
