"""Bad beats and hands of the month over constructed hands (BB1–BB3, HM1).

Each card-use rule of BB2 and each default category is shown with a hand that hits
and with its near miss — aces full of nines, one hole card playing, quads on the
board, quads without a pocket pair, Omaha with one suited hole card — and the miss
names the rule that refused it, so a hand refused for another reason fails.
"""

from __future__ import annotations

import doctest

import pytest

import jackpots.domain.qualification as qualification_module
from jackpots.domain import qualification as q
from jackpots.domain.qualification import (
    HandFacts,
    SeatFacts,
    bad_beat,
    card_use_breach,
    month_hands,
    showdown,
)
from jackpots.domain.rules import DEFAULT_CATEGORIES, CardUse, CategoryRules

HOLDEM = CategoryRules.from_config(DEFAULT_CATEGORIES["1"])
OMAHA = CategoryRules.from_config(DEFAULT_CATEGORIES["2"])


def hand(
    game: str,
    board: str,
    *shown: tuple[int, str],
    folded: tuple[int, ...] = (3, 4),
    absent: tuple[int, ...] = (),
    streets: int = 4,
    pot: int = 2_000,
) -> HandFacts:
    """A hand whose ``shown`` seats table their cards and ``folded`` seats fold."""
    seats = [
        SeatFacts(n, f"P-{n}", n not in absent, False, tuple(cards.split()))
        for n, cards in shown
    ]
    seats += [SeatFacts(n, f"P-{n}", n not in absent, True, None) for n in folded]
    return HandFacts(
        game=game,
        streets=streets,
        board=tuple(board.split()),
        seats=tuple(sorted(seats, key=lambda s: s.seat)),
        pot_cents=pot,
    )


def descriptions(verdict: q.Verdict) -> tuple[list[str], list[str]]:
    assert verdict.bad_beat is not None, verdict.miss
    beat = verdict.bad_beat
    return [s.description for s in beat.losers], [s.description for s in beat.winners]


# Category 1 — Hold'em -----------------------------------------------------------------


def test_aces_full_of_tens_beaten_by_quads_with_a_pocket_pair_hits():
    """The minimum losing hand, both hole cards in both hands: a hit (BB1, BB2)."""
    verdict = bad_beat(
        HOLDEM, hand("NLHE", "Ac Th Td 5s 2c", (1, "As Ad"), (2, "Ts Tc"))
    )
    assert descriptions(verdict) == (
        ["full house, aces full of tens"],
        ["four of a kind, tens"],
    )
    assert verdict.bad_beat is not None and verdict.bad_beat.table == (3, 4)


def test_aces_full_of_nines_is_below_the_minimum():
    """One rank short of aces full of tens: no hit."""
    verdict = bad_beat(
        HOLDEM, hand("NLHE", "Ac 9h 9d 5s 2c", (1, "As Ad"), (2, "9s 9c"))
    )
    assert verdict.miss == q.LOSING_HAND_TOO_LOW


def test_quads_with_a_pocket_pair_beaten_by_a_straight_flush_hits():
    verdict = bad_beat(
        HOLDEM, hand("NLHE", "9h 9d Th Jh 2c", (1, "9s 9c"), (2, "Kh Qh"))
    )
    assert descriptions(verdict) == (
        ["four of a kind, nines"],
        ["straight flush, king high"],
    )


def test_one_hole_card_playing_in_the_losing_hand_misses():
    """Aces full of tens made with the ace alone: the king doesn't play (BB2)."""
    verdict = bad_beat(
        HOLDEM, hand("NLHE", "Ac Ah Th Td 2c", (1, "As Kd"), (2, "Ts Tc"))
    )
    assert verdict.miss == q.LOSER_HOLE_CARDS
    # The same loser with both aces in the hole hits.
    again = bad_beat(HOLDEM, hand("NLHE", "Ac Kh Th Td 2c", (1, "As Ad"), (2, "Ts Tc")))
    assert again.hit


def test_one_hole_card_playing_in_the_winning_hand_misses():
    """Quad tens with the board's ace as kicker: the three doesn't play (BB2)."""
    facts = hand("NLHE", "Ac Th Td Tc 2s", (1, "As Ad"), (2, "Ts 3c"))
    shown, _why = showdown(facts)
    assert shown is not None
    assert [s.description for s in shown] == [
        "full house, aces full of tens",
        "four of a kind, tens",
    ]
    assert bad_beat(HOLDEM, facts).miss == q.WINNER_HOLE_CARDS


def test_quads_on_the_board_miss():
    """Four nines on the board: the board plays, no hole card in the loser's hand."""
    verdict = bad_beat(
        HOLDEM, hand("NLHE", "9c 9d 9h 9s Kd", (1, "Qs Qd"), (2, "As 2c"))
    )
    assert verdict.miss == q.LOSER_HOLE_CARDS


def test_quads_without_a_pocket_pair_miss():
    """Four aces with a king kicker from the hole: both cards play, but the quads
    need a pocket pair (BB2)."""
    verdict = bad_beat(
        HOLDEM, hand("NLHE", "Ac Ad Ah Kh Qh", (1, "As Kd"), (2, "Jh Th"))
    )
    assert verdict.miss == q.LOSER_POCKET_PAIR


def test_winning_quads_without_a_pocket_pair_miss():
    verdict = bad_beat(
        HOLDEM, hand("NLHE", "Kh Kd Kc 9h 9d", (1, "9s 9c"), (2, "Ks Ac"))
    )
    assert verdict.miss == q.WINNER_POCKET_PAIR


def test_several_qualifying_losers_the_best_is_the_loser_the_rest_take_table_shares():
    """BB3: quad aces is the loser, quad kings a table share beside the folders."""
    facts = hand(
        "NLHE",
        "Ah Kh Th Kd Ad",
        (1, "As Ac"),
        (2, "Ks Kc"),
        (5, "Qh Jh"),
        folded=(3, 4, 6),
    )
    verdict = bad_beat(HOLDEM, facts)
    assert descriptions(verdict) == (["four of a kind, aces"], ["royal flush"])
    assert verdict.bad_beat is not None
    assert [s.seat for s in verdict.bad_beat.other_losers] == [2]
    assert verdict.bad_beat.table == (2, 3, 4, 6)


def test_split_winners_share_the_winner_role():
    """BB3: two winners with the same hand are both winners (a looser category)."""
    rules = CategoryRules.from_config(
        {**DEFAULT_CATEGORIES["1"], "min_losing_hand": ["2c", "2d", "2h", "4s", "3d"]}
    )
    facts = hand(
        "NLHE",
        "9c 8d 7h 2s 3c",
        (1, "3s 3d"),
        (2, "Jh Ts"),
        (5, "Jc Td"),
        folded=(3, 4),
    )
    verdict = bad_beat(rules, facts)
    assert descriptions(verdict) == (
        ["three of a kind, threes"],
        ["straight, jack high", "straight, jack high"],
    )
    assert verdict.bad_beat is not None
    assert [s.seat for s in verdict.bad_beat.winners] == [2, 5]
    assert verdict.bad_beat.table == (3, 4)


def test_the_table_and_the_pot_must_be_big_enough():
    """Four participants present (JD1, BB2), and the category's minimum pot."""
    three = hand("NLHE", "Ac Th Td 5s 2c", (1, "As Ad"), (2, "Ts Tc"), absent=(4,))
    assert bad_beat(HOLDEM, three).miss == q.TOO_FEW_PARTICIPANTS
    rich = CategoryRules.from_config({**DEFAULT_CATEGORIES["1"], "min_pot": 5_000})
    facts = hand("NLHE", "Ac Th Td 5s 2c", (1, "As Ad"), (2, "Ts Tc"), pot=4_999)
    assert bad_beat(rich, facts).miss == q.POT_TOO_SMALL
    assert bad_beat(rich, hand(*_HIT, pot=5_000)).hit


_HIT = ("NLHE", "Ac Th Td 5s 2c", (1, "As Ad"), (2, "Ts Tc"))


def test_a_hand_not_dealt_to_the_end_or_without_showdown_misses():
    turn = hand("NLHE", "Ac Th Td 5s", (1, "As Ad"), (2, "Ts Tc"), streets=3)
    assert bad_beat(HOLDEM, turn).miss == q.NOT_DEALT_TO_THE_END
    mucked = hand("NLHE", "Ac Th Td 5s 2c", (1, "As Ad"), folded=(2, 3, 4))
    assert bad_beat(HOLDEM, mucked).miss == q.NO_SHOWDOWN


def test_an_absent_loser_does_not_qualify():
    facts = hand(*_HIT, absent=(1,), folded=(3, 4, 5))
    assert bad_beat(HOLDEM, facts).miss == q.LOSER_ABSENT


def test_a_category_covers_only_its_games():
    """Category 1 doesn't cover Omaha, nor Category 2 Hold'em; hi-lo is not
    covered unless a category says so, and then on the high hand (BB2)."""
    plo = hand("PLO", "Kh Qh Jh Kd 2c", (1, "Ks Kc 7d 4s"), (2, "Ah Th 3c 5d"))
    assert bad_beat(HOLDEM, plo).miss == q.GAME_NOT_COVERED
    assert bad_beat(OMAHA, hand(*_HIT)).miss == q.GAME_NOT_COVERED
    hi_lo = hand("PLO8", "Kh Qh Jh Kd 2c", (1, "Ks Kc 7d 4s"), (2, "Ah Th 3c 5d"))
    assert bad_beat(OMAHA, hi_lo).miss == q.GAME_NOT_COVERED
    with_hi_lo = CategoryRules.from_config(
        {**DEFAULT_CATEGORIES["2"], "games": ["PLO", "PLO8"]}
    )
    assert descriptions(bad_beat(with_hi_lo, hi_lo)) == (
        ["four of a kind, kings"],
        ["royal flush"],
    )


# Category 2 — Omaha -------------------------------------------------------------------


def test_omaha_quads_beaten_by_a_royal_flush_hits():
    facts = hand("PLO", "Kh Qh Jh Kd 2c", (1, "Ks Kc 7d 4s"), (2, "Ah Th 3c 5d"))
    assert descriptions(bad_beat(OMAHA, facts)) == (
        ["four of a kind, kings"],
        ["royal flush"],
    )


def test_omaha_straight_flush_with_two_suited_hole_cards_hits():
    facts = hand("PLO", "Jh Th 9h 3c 2d", (1, "8h 7h 5s 4d"), (2, "Kh Qh 6c 6d"))
    assert descriptions(bad_beat(OMAHA, facts)) == (
        ["straight flush, jack high"],
        ["straight flush, king high"],
    )


def test_omaha_with_one_suited_hole_card_is_only_a_straight():
    """The seven of clubs instead of hearts: exactly two hole cards play, so the
    eight of hearts alone makes no flush (Omaha rule, BB2)."""
    facts = hand("PLO", "Jh Th 9h 3c 2d", (1, "8h 7c 5s 4d"), (2, "Kh Qh 6c 6d"))
    shown, _why = showdown(facts)
    assert shown is not None and shown[0].description == "straight, jack high"
    assert bad_beat(OMAHA, facts).miss == q.LOSING_HAND_TOO_LOW


def test_omaha_quads_on_the_board_are_not_the_players():
    """Four kings on the board: an Omaha hand uses three board cards at most."""
    facts = hand("PLO", "Ks Kh Kd Kc 2h", (1, "As Ad 7c 8c"), (2, "Qs Qd 3c 4c"))
    shown, _why = showdown(facts)
    assert shown is not None
    assert shown[0].description == "full house, kings full of aces"
    assert bad_beat(OMAHA, facts).miss == q.LOSING_HAND_TOO_LOW


@pytest.mark.parametrize("game", ["PLO5", "COURCHEVEL"])
def test_five_card_omaha_games_are_category_2(game):
    facts = hand(game, "Kh Qh Jh Kd 2c", (1, "Ks Kc 7d 4s 3s"), (2, "Ah Th 3c 5d 6d"))
    assert bad_beat(OMAHA, facts).hit
    assert bad_beat(HOLDEM, facts).miss == q.GAME_NOT_COVERED


# The card-use rules themselves --------------------------------------------------------


def test_card_use_counts_the_hole_cards_in_the_best_five():
    """When the board and a hole card make the same five, the hole card plays."""
    facts = hand("NLHE", "Ac Ah Ad 9s 2c", (1, "As 9d"), (2, "Kd Qd"))
    shown, _why = showdown(facts)
    assert shown is not None
    quads = shown[0]
    assert quads.description == "four of a kind, aces"
    assert set(quads.hole_cards_used) == {"As", "9d"}
    assert card_use_breach(quads, CardUse(hole_cards=2)) is None
    assert card_use_breach(quads, CardUse(hole_cards=2, quads_pocket_pair=True)) == (
        q.POCKET_PAIR
    )


# Hand of the month (HM1) --------------------------------------------------------------


def test_month_hands_are_the_tabled_hands_that_use_their_cards():
    """Both showdown hands count when both use their hole cards; a hand the board
    plays doesn't; folded seats and hands without a showdown never count."""
    rules = {"NLHE": HOLDEM.loser}
    both = hand("NLHE", "Ac Th Td 5s 2c", (1, "As Ad"), (2, "Ts Tc"))
    assert [s.description for s in month_hands(both, rules)] == [
        "full house, aces full of tens",
        "four of a kind, tens",
    ]
    board_plays = hand("NLHE", "9c 9d 9h 9s Kd", (1, "Qs Qd"), (2, "Ah 2c"))
    assert month_hands(board_plays, rules) == []
    mucked = hand("NLHE", "Ac Th Td 5s 2c", (1, "As Ad"), folded=(2, 3, 4))
    assert month_hands(mucked, rules) == []
    assert month_hands(both, {"PLO": OMAHA.loser}) == []


def test_the_module_examples_hold():
    results = doctest.testmod(qualification_module)
    assert results.attempted >= 2 and results.failed == 0
