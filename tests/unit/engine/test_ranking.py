"""Hand names, the cards that make a hand, and Sökö's extra hands (HS9, BB2)."""

from __future__ import annotations

import random

import pytest
from pokerkit import Card, StandardHighHand

from cardroom.domain import ranking
from cardroom.domain.cards import CARD_NAMES, card_name, parse_card, parse_cards
from cardroom.domain.errors import HandError
from cardroom.domain.games import GAMES
from cardroom.domain.ranking import (
    CATEGORIES,
    HIGH_CLASSES,
    Ranking,
    describe_ranks,
    high_five,
)
from cardroom.domain.soko import soko_best, soko_five


def ids(cards: str) -> tuple[int, ...]:
    """Return the card ids of ``"As Kd"``."""
    return parse_cards(cards.split())


def rank(code: str, hole: str, board: str = "", half: str = "high") -> Ranking:
    """Return the seat's Ranking in a game: ``rank("NLHE", "As Ad", "...")``."""
    game = GAMES[code]
    if half == "high":
        return game.rank(ids(hole), ids(board))
    low = game.rank_low(ids(hole), ids(board))
    assert low is not None
    return low


# -- cards -----------------------------------------------------------------------


def test_card_ids_follow_phevaluator() -> None:
    """Cards number as phevaluator counts them: rank * 4 + suit, clubs first."""
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("As") == 51
    assert [card_name(c) for c in range(52)] == list(CARD_NAMES)
    assert len(set(CARD_NAMES)) == 52


@pytest.mark.parametrize("bad", ["10h", "ah", "AH", "Ax", "A", "", 14, None, ["A"]])
def test_malformed_cards_are_refused(bad: object) -> None:
    """Only rank-then-suit pairs of API.md are cards."""
    with pytest.raises(HandError) as refused:
        parse_cards(["As", bad])
    assert refused.value.code == "malformed_card"
    assert refused.value.allowed == {"ranks": "23456789TJQKA", "suits": "cdhs"}


# -- names -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hole", "board", "name"),
    [
        ("As Ad", "Ac Kd 7c 2s Ah", "four of a kind, aces"),
        ("Kh Ks", "Ac Kd 7c 2s Ah", "full house, kings full of aces"),
        ("Ah Kh", "Qh Jh Th 2c 3d", "royal flush"),
        ("5h 4h", "3h 2h Ah Kc Kd", "straight flush, five high"),
        ("9h 2h", "Qh Jh 4h 2c 3d", "flush, queen high"),
        ("As 2d", "3c 4h 5s Kc Qd", "straight, five high"),
        ("Ts Jd", "Qc Kh As 2c 3d", "straight, ace high"),
        ("7s 7d", "7c Kh As 2c 3d", "three of a kind, sevens"),
        ("Ks Kd", "Qc Qh As 2c 3d", "two pair, kings and queens"),
        ("9s 9d", "Qc 8h As 2c 3d", "one pair, nines"),
        ("9s Td", "Qc 8h As 2c 3d", "high card, ace"),
    ],
)
def test_high_hands_are_named_as_people_say_them(
    hole: str, board: str, name: str
) -> None:
    """Descriptions read as API.md's example: "full house, kings full of aces"."""
    assert rank("NLHE", hole, board).description == name


def test_every_high_class_has_a_name_and_pokerkit_category() -> None:
    """All 7,462 classes are named, under pokerkit's label for the class."""
    rng = random.Random(7)
    for _ in range(3000):
        five = rng.sample(range(52), 5)
        made = StandardHighHand([next(iter(Card.parse(card_name(c)))) for c in five])
        ranking = Ranking(GAMES["STUD"].high, "any", high_five(five), tuple(five), ())
        assert ranking.category == made.entry.label.value.lower()
        assert ranking.category in CATEGORIES
        assert ranking.description.startswith(ranking.category.replace("royal", ""))


def test_every_high_class_is_named_as_its_ranks_read() -> None:
    """Each of the 7,462 names read off a class's number and ranks is the name
    that counting its ranks gives (describe_ranks)."""
    classes = ranking._high_classes()
    for key in range(1, HIGH_CLASSES + 1):
        ranks, suited = classes[key]
        assert ranking._name_class(key) == describe_ranks(ranks, suited), key


def test_low_hands_are_named_high_card_first() -> None:
    """An eight-or-better low reads from its highest card: "low, 8-6-4-2-A"."""
    low = rank("PLO8", "Ad 2c Ks Kd", "4h 6s 8c Qd Jh", half="low")
    assert low.description == "low, 8-6-4-2-A"
    assert low.category == "low"
    assert low.cards == ("Ad", "2c", "4h", "6s", "8c")


def test_razz_names_lows_and_pairs() -> None:
    """Razz hands are ace-to-five lows; a forced pair reads as a pair."""
    assert rank("RAZZ", "Ah 2c 3d 4s 5h Kd Kc").description == "low, 5-4-3-2-A"
    # Three ranks in seven cards: two pair is the best low, read ace-low.
    paired = rank("RAZZ", "Ah Ac 2d 2s 3h 3d 3c")
    assert paired.description == "two pair, twos and aces"
    assert paired.category == "two pair"
    assert rank("RAZZ", "Ah Ac 2d 9s 3h Jd Qc").description == "low, J-9-3-2-A"
    # One pair beats two; the lowest pair is the best one.
    assert rank("RAZZ", "Ah Ac 2d 2s 3h Td Tc").description == "one pair, aces"


def test_hi_lo_names_both_halves() -> None:
    """Stud hi-lo seats have a high and, when it qualifies, a low."""
    assert rank("STUD8", "Ah 2c 3d 4s 5h Kd Kc").description == "straight, five high"
    assert (
        rank("STUD8", "Ah 2c 3d 4s 5h Kd Kc", half="low").description
        == "low, 5-4-3-2-A"
    )
    assert GAMES["STUD8"].rank_low(ids("Ah 2c 9d 4s 5h Kd Kc")) is None
    assert GAMES["STUD"].rank_low(ids("Ah 2c 3d 4s 5h Kd Kc")) is None


# -- the cards that make the hand (BB2) ---------------------------------------------


def test_pocket_pair_for_quads_shows_in_the_cards() -> None:
    """Quads made with a pocket pair use both hole cards (BB2 category 1)."""
    quads = rank("NLHE", "9s 9d", "9h 9c 2d 3c 4s")
    assert quads.description == "four of a kind, nines"
    assert set(quads.hole_cards_used) == {"9s", "9d"}
    board_quads = rank("NLHE", "Ks 2d", "9h 9c 9s 9d 3c")
    assert board_quads.hole_cards_used == ("Ks",)


def test_a_tie_between_board_and_hole_prefers_the_hole_card() -> None:
    """When a hole card and a board card make the same hand, the hole card plays."""
    ranking = rank("NLHE", "Kh 2c", "9h 9c 9s 9d Ks")
    assert ranking.description == "four of a kind, nines"
    assert ranking.hole_cards_used == ("Kh",)
    assert "Ks" not in ranking.cards


def test_both_hole_cards_play_in_a_royal_flush() -> None:
    """Both hole cards play when the best five need them."""
    royal = rank("NLHE", "Ah Kh", "Qh Jh Th 2c 3d")
    assert set(royal.hole_cards_used) == {"Ah", "Kh"}
    board_plays = rank("NLHE", "2s 3s", "Ah Kh Qh Jh Th")
    assert board_plays.hole_cards_used == ()


def test_omaha_hands_use_exactly_two_hole_cards() -> None:
    """Omaha: one heart in hand makes no flush on a four-heart board (HS9)."""
    no_flush = rank("PLO", "Ac Qd 8s 4h", "Ah Kh 7h 2h 9c")
    assert no_flush.description == "one pair, aces"
    assert len(no_flush.hole_cards_used) == 2
    flush = rank("PLO", "Ac Qh 8s 4h", "Ah Kh 7h 2h 9c")
    assert flush.description == "flush, ace high"
    assert set(flush.hole_cards_used) == {"Qh", "4h"}
    five_card = rank("COURCHEVEL", "Ac Qh 8s 4h 5h", "Ah Kh 7h 2h 9c")
    assert five_card.description == "flush, ace high"
    assert set(five_card.hole_cards_used) == {"Qh", "5h"}


def test_best_five_make_the_ranked_hand() -> None:
    """The five cards named are a hand the game allows, with the hand's key."""
    rng = random.Random(11)
    for code, hole_count in (("NLHE", 2), ("PLO", 4), ("PLO5", 5), ("STUD", 7)):
        game = GAMES[code]
        for _ in range(200):
            cards = rng.sample(range(52), hole_count + (0 if game.is_stud else 5))
            hole, board = tuple(cards[:hole_count]), tuple(cards[hole_count:])
            ranking = game.rank(hole, board)
            five = parse_cards(ranking.cards)
            assert high_five(five) == ranking.key
            if game.selection == "omaha":
                assert len(ranking.hole_cards_used) == 2


# -- Sökö (HS9) --------------------------------------------------------------------


def soko(cards: str) -> int:
    return soko_best(parse_cards(cards.split()))


def describe_soko(cards: str) -> str:
    return rank("SOKO", cards).description


def test_soko_order_of_the_new_hands() -> None:
    """Two pairs > four flush > four straight > one pair (HS9)."""
    two_pair = soko("2c 2d 3h 3s 4c")
    four_flush = soko("2h 5h 9h Jh Kc")
    four_straight = soko("2c 3d 4h 5s 9c")
    one_pair = soko("Ac Ad Kh Qs 9c")
    high_card = soko("Ac Kd Qh 9s 7c")
    assert two_pair > four_flush > four_straight > one_pair > high_card


def test_soko_four_card_straight_flush_is_a_four_flush() -> None:
    """Four suited cards in a row are a four flush; there is no four straight flush."""
    assert describe_soko("5h 6h 7h 8h Kc") == "four flush, eight high"
    assert soko("5h 6h 7h 8h Kc") < soko("2c 2d 3h 3s 4c")
    assert soko("5h 6h 7h 8h Kc") > soko("5c 6d 7h 8s Kc")


def test_soko_ties_compare_all_five_cards() -> None:
    """Four flushes compare their cards high to low, then the fifth card."""
    assert soko("Kh 8h 6h 4h 8d") > soko("Qs Js Ts 9s Tc")  # the example of the rules
    assert soko("Kh 8h 6h 4h 9d") > soko("Ks 8s 6s 4s 8d")  # kicker
    assert soko("Kh 8h 6h 4h 9d") == soko("Ks 8s 6s 4s 9c")  # suits are equal
    assert soko("Kh 8h 6h 5h 2d") > soko("Ks 8s 6s 4s Ad")  # fourth card first


def test_soko_four_straights_compare_top_then_fifth_card() -> None:
    """An ace below a deuce is low: A-2-3-4 is four high, the lowest four straight."""
    assert describe_soko("Ac 2d 3h 4s 9c") == "four straight, four high"
    assert describe_soko("Jc Qd Kh As 3c") == "four straight, ace high"
    assert soko("Ac 2d 3h 4s 9c") < soko("2c 3d 4h 5s 7c")
    assert soko("2c 3d 4h 5s 9c") > soko("2d 3h 4s 5c 7d")  # kicker
    assert soko("5c 6d 7h 8s 8c") > soko("5d 6h 7s 8c 2c")  # a pair as fifth card
    assert soko("5c 6d 7h 8s 8c") < soko("6c 7d 8h 9s 2d")
    assert soko("Jc Qd Kh As 3c") > soko("Tc Jd Qh Ks 2c")


def test_soko_a_flush_draw_beats_a_pair_and_a_straight_draw() -> None:
    """A hand that is both a pair and a four flush ranks as the four flush."""
    assert describe_soko("As Ks 7s 2s 2d") == "four flush, ace high"
    assert describe_soko("5c 6d 7h 8s 8c") == "four straight, eight high"
    assert soko("As Ks 7s 2s 2d") > soko("Ac Kd 7h 8s 8c")


def test_soko_standard_hands_keep_their_order() -> None:
    """Straights, flushes and better rank above the new hands, as usual."""
    assert soko("2c 3d 4h 5s 6c") > soko("Ac Ad Ah 3s 2c") > soko("Kc Kd Qh Qs 2c")
    assert describe_soko("2c 3d 4h 5s 6c") == "straight, six high"
    assert soko_five(ids("Ac Kc Qc Jc 9c")) > soko("2c 3d 4h 5s 6c")


def test_soko_is_five_cards() -> None:
    """A Sökö hand is exactly five cards."""
    with pytest.raises(HandError) as refused:
        soko("Ac Kd Qh 9s")
    assert refused.value.rule == "HS9"
