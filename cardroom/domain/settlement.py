"""Settle a hand: returns, pots, rake, drop, winners, odd chips and final stacks.

:func:`settle` answers a hand record with the settlement of API.md; it is pure (no
database, no clock) so the API, the CLI (``manage.py settle_hand``) and the tests
share it. For every hand::

    sum(put_in) == sum(returned) + sum(won) + rake + jackpot_drop

Beyond API.md's fields (which may only grow, docs/api.md lists them), a hi-lo game's
pots list the shares of each half in ``high`` and ``low`` (HS4); a hand run more than
once gives each pot's ``runs`` and the settlement's ``runs`` with each run's board
(HS10); seats show their ``dead`` money (HS2) and a showdown muck (HS3); and a
``mispaid_pot`` exception lists each seat whose push differs as
``{"seat", "awarded", "due"}`` (HS7).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NoReturn

import msgspec
import orjson
from msgspec import Struct

from accounting.domain.money import ratio_split
from cardroom.domain.cards import CARD_IDS, card_name
from cardroom.domain.drop import jackpot_drop, participants
from cardroom.domain.errors import TEXTS, Code, HandError, refuse
from cardroom.domain.games import GAMES, Game, OddChip
from cardroom.domain.hand_record import (
    MAX_SEATS,
    HandJSON,
    HandRecord,
    Policy,
    Seat,
    parse_hand,
    parse_policy,
    typed_record,
)
from cardroom.domain.pots import (
    Pot,
    add_dead_money,
    build_pots,
    pots_by_levels,
    uncalled_bet,
)
from cardroom.domain.rake import rake_by_pot, rake_of_one_pot
from cardroom.domain.ranking import (
    HIGH_CLASSES,
    HIGH_TEXTS,
    NATIVE_OMAHA,
    NATIVE_SEVEN,
    describe_high,
    high_any,
    high_omaha,
)

new_pot = tuple.__new__  # a Pot without the named tuple's __new__, a Python call

ONE_PASS = True
"""Whether the one-pass ways settle the hands they can: :func:`_settle_one_pot`
(a checked record's one pot), :func:`_settle_decoded_one_pot` (the batch command's
common hand, straight from the decoded JSON) and :func:`_form_live_pots` (a hand
without dead money or a muck). False sends every hand the general way
(:func:`_form_pots_with_dead`, :func:`~cardroom.domain.pots.pots_by_levels`,
``rake_by_pot``, each game's own ranking), which settles any hand the same, only
slower: the tests that require the same settlement from every way set it
(``tests/unit/engine/test_settlement_routes.py``), and so may anyone who doubts a
settlement (docs/performance.md)."""

MISPAID_DETAIL = TEXTS[Code.MISPAID_POT]
"""The ``mispaid_pot`` exception's detail, in English on the wire as the settlement
is booked; marked for the catalogues, for a screen that shows it to translate."""

# -- the settlement's values: each field is the API.md key of the same name ---------


class Share(Struct, frozen=True, gc=False):
    """Chips of one seat: returned as uncalled (RK5), or won from a pot or a part."""

    seat: int
    amount: int


class PotRun(Struct, frozen=True, gc=False):
    """One run's part of a pot run more than once, and who won it (HS10)."""

    run: int
    amount: int
    winners: tuple[Share, ...]


class SettledPot(Struct, frozen=True, gc=False, omit_defaults=True):
    """A pot: ``amount`` before rake, ``winners`` after rake and drop (API.md).

    ``high`` and ``low`` are the halves' shares in a hi-lo game (HS4), ``runs`` the
    parts of a pot run more than once (HS10); None, and left out, otherwise.
    """

    amount: int
    eligible: tuple[int, ...]
    rake: int
    jackpot_drop: int
    winners: tuple[Share, ...]
    high: tuple[Share, ...] | None = None
    low: tuple[Share, ...] | None = None
    runs: tuple[PotRun, ...] | None = None


class SeatResult(Struct, frozen=True, gc=False, omit_defaults=True):
    """A seat after the hand: ``final_stack = stack - put_in + returned + won``.

    ``hand`` names its ranked hand at a showdown; ``dead`` is its dead money (HS2),
    ``mucked`` a showdown muck (HS3); each left out when None, 0 or false.
    """

    seat: int
    player: str
    stack: int
    put_in: int
    returned: int
    won: int
    final_stack: int
    hand: str | None = None
    dead: int = 0
    mucked: bool = False


class MispaidSeat(Struct, frozen=True, gc=False):
    """A seat whose push differs from its due (HS7)."""

    seat: int
    awarded: int
    due: int


class MispaidPot(Struct, frozen=True, gc=False):
    """The ``mispaid_pot`` exception: pushes that differ from the rules (HS7)."""

    code: str
    rule: str
    detail: str
    seats: tuple[MispaidSeat, ...]


class Run(Struct, frozen=True, gc=False):
    """A run's board and each contender's hand on it, by seat number (HS10)."""

    run: int
    board: tuple[str, ...]
    hands: dict[str, str]


class Settlement(Struct, frozen=True, gc=False, omit_defaults=True):
    """The settlement of a hand (API.md "Settlement"); ``runs`` only when run twice.

    For every hand ``sum(put_in) == sum(returned) + sum(won) + rake + jackpot_drop``.
    """

    table: str
    hand_no: int
    participants: int
    returned: tuple[Share, ...]
    pots: tuple[SettledPot, ...]
    rake: int
    jackpot_drop: int
    seats: tuple[SeatResult, ...]
    exceptions: tuple[MispaidPot, ...]
    runs: tuple[Run, ...] | None = None

    def as_json(self) -> bytes:
        """Return API.md's JSON of the settlement, as ``settle_hand`` prints it."""
        return encode(self)

    def as_api(self) -> dict[str, Any]:
        """Return API.md's JSON of the settlement as decoded JSON (a dict)."""
        settlement: dict[str, Any] = orjson.loads(encode(self))
        return settlement


encode = msgspec.json.Encoder().encode
"""Return the JSON of settlements (one, or a list of them), keys in API.md's order."""

# -- settling ------------------------------------------------------------------------

Shown = list[tuple[int, tuple[int, ...]]]
"""The seats that table cards at the showdown and the cards, by seat number."""
Formed = tuple[list[Pot], tuple[int, int] | None, Shown, int]
"""The pots, the uncalled bet ``(seat, amount)``, the seats that show and the
participants (JD1)."""


def settle(
    hand: HandRecord | Mapping[str, Any], policy: Policy | Mapping[str, Any]
) -> Settlement:
    """Return the settlement of a hand under a policy (HS2-HS5, HS7, HS10, RK1-RK5).

    ``hand`` and ``policy`` may be decoded JSON or already parsed; parse the policy
    once with :func:`~cardroom.domain.hand_record.parse_policy` to settle many hands.

    1. The live bet nobody called goes back (RK5); dead money never does (HS2).
    2. Pots form by all-in levels of the live money, folded and mucked money where
       it reached; dead money joins the main pot, or the pots its amount reaches
       (HS2, :func:`~cardroom.domain.pots.add_dead_money`).
    3. Each pot pays rake (RK1-RK3, RK7's caps by players and minimum pot) unless
       the hand never went past the initial deal (RK4); the main pot then pays the
       jackpot drop (JD1-JD3).
    4. Each pot goes to the best hand among its eligible seats, cards speak, or to
       its one eligible seat without a showdown (HS3); a mucked seat wins nothing;
       a pot run more than once is split into equal parts, one per run, odd chips
       to the first runs (HS10); hi-lo pots are halved (HS4); ties split to the
       smallest chip with odd chips in HS5's order (stud hi-lo's low half by the
       lowest card).
    5. ``awarded`` pushes that differ from what the rules give are flagged as a
       ``mispaid_pot`` exception (HS7).

    Raises :class:`HandError` for a record :func:`parse_hand` refuses, and:

    * ``no_contender`` (HS3): chips went in but no seat still in put in any;
    * ``incomplete_showdown`` (HS3): seats still contest a pot before the last
      street was dealt;
    * ``showdown_without_cards`` (HS3): a seat contesting a pot shows no cards.
    """
    if not isinstance(hand, HandRecord):
        hand = parse_hand(hand)
    if not isinstance(policy, Policy):
        policy = parse_policy(policy)
    seats = sorted(hand.seats)  # named tuples: by seat number, which is unique
    game = hand.game
    if (
        ONE_PASS
        and hand.simple
        and game.low is None
        and hand.streets == game.streets
        and hand.awarded is None
        and not hand.boards
    ):
        settled = _settle_one_pot(hand, policy, seats)
        if settled is not None:
            return settled
    return _settle_any(hand, policy, seats)


def _settle_any(hand: HandRecord, policy: Policy, seats: list[Seat]) -> Settlement:
    """Return the settlement of any hand, its seats by seat number (:func:`settle`)."""
    game = hand.game
    if ONE_PASS and (hand.simple or not any(s.dead or s.mucked for s in seats)):
        pots, back, shown, participant_count = _form_live_pots(seats)
    else:
        pots, back, shown, participant_count = _form_pots_with_dead(seats)
    runs = hand.boards or (hand.board,)
    final = hand.streets == game.streets
    highs, lows = _rank(game, shown, runs) if final else ([{}], [{}])
    # Each pot's eligible seats are among the previous pot's, so the main pot's
    # are everyone who contests any pot; each of them needs a ranked hand.
    if pots and len(pots[0].eligible) > 1:
        contenders = pots[0].eligible
        for seat in contenders:
            if seat not in highs[0]:
                _refuse_showdown(hand, contenders, final)
    rakes, drop = _rake_and_drop(hand, policy, pots, participant_count)
    won: dict[int, int] = {}
    return Settlement(
        hand.table,
        hand.hand_no,
        participant_count,
        () if back is None else (Share(*back),),
        _award(hand, policy.smallest_chip, pots, rakes, drop, highs, lows, won),
        sum(rakes),
        drop,
        _seat_results(game, seats, back, won, highs[0], lows[0]),
        _mispaid(hand, won) if hand.awarded is not None else (),
        _runs(game, runs, highs, lows) if len(runs) > 1 else None,
    )


def settle_record(
    hand: HandRecord | Mapping[str, Any], policy: Policy | Mapping[str, Any]
) -> dict[str, Any]:
    """Return :func:`settle`'s settlement as decoded JSON (API.md), for callers that
    read dictionaries. Raises :class:`HandError` as :func:`settle` does."""
    return settle(hand, policy).as_api()


def settle_many(hands: Sequence[Any], policy: Policy) -> list[Settlement]:
    """Return the settlements of decoded hand records, in order (batch CLI).

    Raises :class:`HandError` for the first hand that can't be settled, with its
    position in ``index`` and in the detail.
    """
    settlements = []
    for index, data in enumerate(hands):
        try:
            settlements.append(settle(parse_hand(data), policy))
        except HandError as error:
            error.in_batch(index)
            raise
    return settlements


_RANK_MODES: dict[str, int] = {}
"""How each game ranks a hand at its last street, by game code: 7 for seven
cards (Hold'em, stud), 4 for Omaha's four hole cards, 0 by its own function."""


def _rank_mode(game: Game) -> int:
    """Return (and remember) how :func:`_settle_one_pot` ranks ``game``'s hands."""
    mode = _RANK_MODES.get(game.code)
    if mode is None:
        board = game.board_cards[-1]
        mode = 0
        if game.high.best is high_any and board + (game.hole_cards or 7) == 7:
            mode = 7
        elif game.high.best is high_omaha and board == 5 and game.hole_cards == 4:
            mode = 4
        _RANK_MODES[game.code] = mode
    return mode


def _settle_one_pot(
    hand: HandRecord, policy: Policy, seats: list[Seat]
) -> Settlement | None:
    """Return the settlement of a hand with one pot, or None for any other.

    The common hand: dealt to the last street, no dead money and no muck (HS2,
    HS3), no ``awarded``, one run and no low half, and the seats still in put in
    the same once RK5's uncalled bet is back. One pass over the seats finds the
    bet nobody called (the top amount above the second), the pot, its eligible
    seats, the participants (JD1) and the hands shown; then the pot pays rake
    (RK1-RK3, RK7) and the drop (JD1-JD3; the last street is past the initial
    deal, RK4) and goes to the best hand (HS3, HS5), as :func:`settle` says.
    """
    top = second = bettor = total = participant_count = 0
    in_pot = []  # seats still in with chips in, by seat number
    levels = set()  # what they put in
    shown = []
    for number, _, _, present, put_in, folded, cards, _, _, _ in seats:
        total += put_in
        if put_in > top:
            second, top, bettor = top, put_in, number
        elif put_in > second:
            second = put_in
        if present:
            participant_count += 1
        if not folded:
            if put_in:
                in_pot.append(number)
                levels.add(put_in)
            if cards is not None:
                shown.append((number, cards))
    returned = _uncalled(top, second, bettor, levels, in_pot)
    if returned:
        total -= top - second
    if len(levels) != 1:
        return None
    high = _rank_shown(hand.game, hand.board, shown)
    return _one_pot_settlement(
        hand, policy, seats, total, tuple(in_pot), returned, participant_count, high
    )


def settle_decoded(hand: HandJSON, policy: Policy) -> Settlement:
    """Return the settlement of a decoded hand record (``settle_hand``'s batches).

    The same as ``settle(typed_record(hand), policy)``, which settles any hand
    :func:`_settle_decoded_one_pot` does not: that checks and settles the common
    hand in one pass over the decoded seats, without building the record.
    Raises :class:`HandError` (or KeyError for an unknown card) as
    :func:`~cardroom.domain.hand_record.typed_record` and :func:`settle` do.
    """
    settled = _settle_decoded_one_pot(hand, policy) if ONE_PASS else None
    if settled is None:
        return settle(typed_record(hand), policy)
    return settled


def _settle_decoded_one_pot(hand: HandJSON, policy: Policy) -> Settlement | None:
    """Return the settlement of a plainly valid common hand, else None.

    Every check of :func:`~cardroom.domain.hand_record.parse_hand` holds for a
    hand this settles (types by the decoder; here HS1's seat numbers, unique
    because they rise, BI3, the cards of HS9 and RK8, a seat still in, HS3); it
    settles what :func:`_settle_one_pot` settles, with no straddle and the seats
    in order, and leaves anything else, valid or not, to the record's way.
    """
    game = GAMES.get(hand.game)
    button = hand.button
    raw_board = hand.board
    if (
        game is None
        or game.low is not None
        or hand.streets != game.streets
        or not hand.table
        or hand.hand_no < 0
        or type(button) is not int
        or not 1 <= button <= MAX_SEATS
        or type(raw_board) is not list
        or hand.boards is not None
        or hand.bring_in
        or hand.awarded is not None
        or not 2 <= len(hand.seats) <= MAX_SEATS
        or (hand.started_at is not None and type(hand.started_at) is not str)
        or (hand.ended_at is not None and type(hand.ended_at) is not str)
    ):
        return None
    try:
        board = tuple(map(CARD_IDS.__getitem__, raw_board))
    except (KeyError, TypeError):
        return None
    if len(board) != game.board_cards[-1]:
        return None
    return _settle_decoded_seats(hand, policy, game, board)


def _settle_decoded_seats(
    hand: HandJSON, policy: Policy, game: Game, board: tuple[int, ...]
) -> Settlement | None:
    """Check and settle the seats of :func:`_settle_decoded_one_pot`'s hand."""
    card_of = CARD_IDS.__getitem__
    dealt = game.hole_cards or game.seat_cards[-1]
    seen = list(board)
    shown = []
    in_pot = []
    levels = set()
    previous = top = second = bettor = total = participant_count = 0
    for row in hand.seats:
        number, put_in, raw = row.seat, row.put_in, row.cards
        if not (
            previous < number <= MAX_SEATS
            and row.player
            and 0 <= put_in <= row.stack
            and not (row.dead or row.straddle or row.mucked)
        ):
            return None
        previous = number
        total += put_in
        if put_in > top:
            second, top, bettor = top, put_in, number
        elif put_in > second:
            second = put_in
        if row.present:
            participant_count += 1
        if raw is not None:
            try:
                cards = tuple(map(card_of, raw))
            except KeyError:
                return None
            if len(cards) != dealt:
                return None
            seen += cards
        if not row.folded:
            if put_in:
                in_pot.append(number)
                levels.add(put_in)
            if raw is not None:
                shown.append((number, cards))
    if len(set(seen)) != len(seen):
        return None
    returned = _uncalled(top, second, bettor, levels, in_pot)
    if returned:
        total -= top - second
    if len(levels) == 1:
        pots = [new_pot(Pot, (total, tuple(in_pot)))]
    else:  # side pots (HS2), or no seat still in with chips in
        if not returned:
            bettor = 0  # nothing went back; seat numbers start at 1
        pots = build_pots(
            [
                (row.seat, second if row.seat == bettor else row.put_in, row.folded)
                for row in hand.seats
            ]
        )
        if not pots:
            return None
    return _settle_decoded_pots(
        hand, policy, game, _rank_shown(game, board, shown), pots, returned,
        participant_count,
    )  # fmt: skip


def _uncalled(
    top: int, second: int, bettor: int, levels: set[int], in_pot: list[int]
) -> tuple[Share, ...]:
    """Return the bet nobody called, back to its bettor (RK5): the most put in,
    above the second most. ``levels`` (what the seats still in put in) and
    ``in_pot`` (those seats) then count the bettor, if still in, at the second
    level, or not at all when nobody else put anything in."""
    if top <= second:
        return ()
    if top in levels:
        levels.discard(top)
        if second:
            levels.add(second)
        else:
            in_pot.remove(bettor)
    return (Share(bettor, top - second),)


def _rank_shown(game: Game, board: tuple[int, ...], shown: Shown) -> dict[int, int]:
    """Return the high key of each seat that shows, by seat number (HS9)."""
    mode = _RANK_MODES.get(game.code) or _rank_mode(game)
    best = game.high.best
    high: dict[int, int] = {}
    for number, cards in shown:
        if mode == 7:
            high[number] = HIGH_CLASSES + 1 - NATIVE_SEVEN(*(cards + board))
        elif mode == 4:
            high[number] = HIGH_CLASSES + 1 - NATIVE_OMAHA(*(board + cards))
        else:
            key = best(cards, board)
            if key is not None:
                high[number] = key
    return high


def _settle_decoded_pots(
    hand: HandJSON,
    policy: Policy,
    game: Game,
    high: dict[int, int],
    pots: list[Pot],
    returned: tuple[Share, ...],
    participant_count: int,
) -> Settlement | None:
    """Settle the pots of :func:`_settle_decoded_seats`: rake (RK1-RK3, RK7), the
    main pot's drop (JD1-JD3) and each pot's best hands (HS3, HS5 clockwise from
    the button); None when a seat contesting a pot shows no cards or stud hands
    tie (the record's way then says or settles it)."""
    eligible = pots[0].eligible
    if len(eligible) > 1:
        for seat in eligible:
            if seat not in high:
                return None
    chip = policy.smallest_chip
    total = pots[0].amount
    if len(pots) == 1:
        rakes = [rake_of_one_pot(total, policy.rake, chip, len(hand.seats))]
    else:
        amounts = [pot.amount for pot in pots]
        rakes = rake_by_pot(amounts, policy.rake, chip, len(hand.seats))
        total = sum(amounts)
    drop = 0
    drop_policy = policy.jackpot_drop
    if (
        drop_policy is not None
        and participant_count >= drop_policy.min_participants
        and total >= drop_policy.min_pot
    ):
        drop = max(0, min(drop_policy.amount, pots[0].amount - rakes[0]))
    won: dict[int, int] = {}
    settled = []
    for pot, rake in zip(pots, rakes, strict=True):
        net = pot.amount - rake - drop
        winners = _best(pot.eligible, high) if len(pot.eligible) > 1 else pot.eligible
        if len(winners) == 1:
            shares: tuple[Share, ...] = (Share(winners[0], net),)
        elif game.odd_chip == "button":
            shares = _split_from_button(net, winners, hand.button, chip)
        else:
            return None
        for share in shares:
            won[share.seat] = won.get(share.seat, 0) + share.amount
        settled.append(SettledPot(pot.amount, pot.eligible, rake, drop, shares))
        drop = 0  # the main pot's alone (JD3)
    return Settlement(
        hand.table,
        hand.hand_no,
        participant_count,
        returned,
        tuple(settled),
        sum(rakes),
        settled[0].jackpot_drop,
        _decoded_results(hand, game, returned, won, high),
        (),
    )


def _split_from_button(
    amount: int, winners: Sequence[int], button: int, chip: int
) -> tuple[Share, ...]:
    """Return :func:`_split`'s shares of a tie in a button game, by seat (HS5)."""
    ranked = sorted(winners, key=lambda w: (w - button - 1) % MAX_SEATS)
    parts = ratio_split(amount, [1] * len(ranked), chip)
    return _shares(zip(ranked, parts, strict=True))


def _decoded_results(
    hand: HandJSON,
    game: Game,
    returned: tuple[Share, ...],
    won: dict[int, int],
    high: dict[int, int],
) -> tuple[SeatResult, ...]:
    """Return each seat's result, its hand named when it showed down (API.md)."""
    describe = game.high.describe
    text_of = (HIGH_TEXTS if describe is describe_high else {}).get
    back_seat, back_amount = (
        (returned[0].seat, returned[0].amount) if returned else (0, 0)
    )
    high_of, won_by = high.get, won.get
    # Most seats folded: nothing back, nothing won, no hand to name.
    named = {back_seat, *won, *high}
    rows = []
    for row in hand.seats:
        number, stack, put_in = row.seat, row.stack, row.put_in
        if number not in named:
            rows.append(
                SeatResult(number, row.player, stack, put_in, 0, 0, stack - put_in)
            )
            continue
        seat_back = back_amount if number == back_seat else 0
        seat_won = won_by(number, 0)
        key = high_of(number)
        rows.append(
            SeatResult(
                number,
                row.player,
                stack,
                put_in,
                seat_back,
                seat_won,
                stack - put_in + seat_back + seat_won,
                None if key is None else text_of(key) or describe(key),
            )
        )
    return tuple(rows)


def _form_pots_with_dead(seats: list[Seat]) -> Formed:
    """Return the pots of a hand with dead money or a muck, RK5's return first (HS2)."""
    back = uncalled_bet([(s.seat, s.put_in - s.dead) for s in seats])
    lives = [(s.seat, s.put_in - s.dead, s.folded or s.mucked) for s in seats]
    if back is None:
        contributions = lives
    else:
        contributions = [
            (seat, amount - back[1] if seat == back[0] else amount, out)
            for seat, amount, out in lives
        ]
    pots = add_dead_money(
        build_pots(contributions) if ONE_PASS else pots_by_levels(contributions),
        [(s.seat, s.dead, s.folded or s.mucked) for s in seats],
        contributions,
        back[0] if back is not None else None,
    )
    if not pots:
        _check_contender(contributions, seats)
    shown = [(s.seat, s.cards) for s in seats if s.cards is not None and not s.out]
    return pots, back, shown, participants(seats)


def _form_live_pots(seats: list[Seat]) -> Formed:
    """Return the pots of a hand where every chip is live (no dead money, no muck).

    One pass over the seats finds RK5's uncalled bet (the top amount above the
    second), the pot when the seats still in all put in the same, the seats that
    show and the participants (JD1).
    """
    top = second = bettor = total = participant_count = 0
    in_pot = []  # seats still in with chips in, by seat number
    levels = set()  # what they put in
    shown = []
    for s in seats:
        amount = s[4]
        total += amount
        if amount > top:
            second, top, bettor = top, amount, s[0]
        elif amount > second:
            second = amount
        if s[3]:
            participant_count += 1
        if not s[5]:
            if amount:
                in_pot.append(s[0])
                levels.add(amount)
            cards = s.cards
            if cards is not None:
                shown.append((s[0], cards))
    back = None
    if top > second:
        back = (bettor, top - second)
        total -= top - second
        if top in levels:  # the bettor is still in: his level is the second
            levels.discard(top)
            if second:
                levels.add(second)
            else:
                in_pot.remove(bettor)
    else:
        bettor = 0  # nothing goes back; seat numbers start at 1
    if len(levels) == 1:
        return [new_pot(Pot, (total, tuple(in_pot)))], back, shown, participant_count
    contributions = [(s[0], second if s[0] == bettor else s[4], s[5]) for s in seats]
    pots = build_pots(contributions)
    if not pots:
        _check_contender(contributions, seats)
    return pots, back, shown, participant_count


def _one_pot_settlement(
    hand: HandRecord,
    policy: Policy,
    seats: list[Seat],
    total: int,
    eligible: tuple[int, ...],
    returned: tuple[Share, ...],
    participant_count: int,
    high: dict[int, int],
) -> Settlement:
    """Return the settlement of :func:`_settle_one_pot`'s pot of ``total``: rake
    (RK1-RK3, RK7), drop (JD1-JD3), the best hand's win (HS3, HS5) and each seat's
    result; raise ``showdown_without_cards`` for a contender without cards (HS3)."""
    if len(eligible) > 1:
        for seat in eligible:
            if seat not in high:
                _refuse_showdown(hand, eligible, True)
    rake = rake_of_one_pot(total, policy.rake, policy.smallest_chip, len(seats))
    drop = 0
    drop_policy = policy.jackpot_drop
    if (
        drop_policy is not None
        and participant_count >= drop_policy.min_participants
        and total >= drop_policy.min_pot
    ):
        drop = max(0, min(drop_policy.amount, total - rake))
    net = total - rake - drop
    winners = _best(eligible, high) if len(eligible) > 1 else list(eligible)
    if len(winners) == 1:
        won = {winners[0]: net}
    else:
        won = dict(_split(net, winners, hand, policy.smallest_chip, hand.game.odd_chip))
    describe = hand.game.high.describe
    texts = HIGH_TEXTS if describe is describe_high else {}
    back_seat, back_amount = (
        (returned[0].seat, returned[0].amount) if returned else (0, 0)
    )
    won_from, high_of, text_of = won.get, high.get, texts.get
    rows = []
    for number, player, stack, _, put_in, _, _, _, _, _ in seats:
        seat_back = back_amount if number == back_seat else 0
        seat_won = won_from(number, 0)
        key = high_of(number)
        rows.append(
            SeatResult(
                number,
                player,
                stack,
                put_in,
                seat_back,
                seat_won,
                stack - put_in + seat_back + seat_won,
                None if key is None else text_of(key) or describe(key),
            )
        )
    pot = SettledPot(total, eligible, rake, drop, _shares(won.items()))
    return Settlement(
        hand.table,
        hand.hand_no,
        participant_count,
        returned,
        (pot,),
        rake,
        drop,
        tuple(rows),
        (),
    )


def _check_contender(
    contributions: Sequence[tuple[int, int, bool]], seats: Sequence[Seat]
) -> None:
    """Refuse chips put in when no pot formed: nobody still in put in any (HS3)."""
    if any(amount for _, amount, _ in contributions) or any(s.dead for s in seats):
        raise refuse(Code.NO_CONTENDER, text="chips", rule="HS3")


def _rank(
    game: Game, shown: Shown, runs: Sequence[tuple[int, ...]]
) -> tuple[list[dict[int, int]], list[dict[int, int]]]:
    """Return each run's ranking keys of the seats that show, high and low."""
    highs: list[dict[int, int]] = []
    lows: list[dict[int, int]] = []
    best_high = game.high.best
    best_low = game.low.best if game.low is not None else None
    for board in runs:
        high: dict[int, int] = {}
        low: dict[int, int] = {}
        for number, cards in shown:
            key = best_high(cards, board)
            if key is not None:
                high[number] = key
            if best_low is not None:
                low_key = best_low(cards, board)
                if low_key is not None:
                    low[number] = low_key
        highs.append(high)
        lows.append(low)
    return highs, lows


def _rake_and_drop(
    hand: HandRecord, policy: Policy, pots: list[Pot], participant_count: int
) -> tuple[list[int], int]:
    """Return each pot's rake and the main pot's jackpot drop (RK1-RK4, JD1-JD3)."""
    past_deal = hand.game.past_initial_deal(hand.streets)
    if not pots or not past_deal:
        return [0] * len(pots), 0
    amounts = [pot.amount for pot in pots]
    rakes = rake_by_pot(amounts, policy.rake, policy.smallest_chip, len(hand.seats))
    drop_policy = policy.jackpot_drop
    drop = jackpot_drop(
        drop_policy,
        participant_count,
        past_deal,
        pots[0].amount - rakes[0],
        sum(amounts) if drop_policy is not None and drop_policy.min_pot else 0,
    )
    return rakes, drop


def _award(
    hand: HandRecord,
    chip: int,
    pots: list[Pot],
    rakes: list[int],
    drop: int,
    highs: list[dict[int, int]],
    lows: list[dict[int, int]],
    won: dict[int, int],
) -> tuple[SettledPot, ...]:
    """Return the settled pots; add what each seat wins to ``won`` (HS3-HS5, HS10)."""
    hi_lo = hand.game.low is not None
    several = len(highs) > 1
    settled = []
    for i, pot in enumerate(pots):
        pot_drop = drop if i == 0 else 0
        rake = rakes[i]
        net = pot.amount - rake - pot_drop
        runs = None
        if several:
            high, low, pot_won, runs = _award_runs(
                net, pot.eligible, highs, lows, hand, chip
            )
        else:
            high, low = _share(net, pot.eligible, highs[0], lows[0], hand, chip)
            pot_won = _add(high + low) if low else high
        winners = _shares(pot_won)
        for share in winners:
            won[share.seat] = won.get(share.seat, 0) + share.amount
        settled.append(
            SettledPot(
                pot.amount,
                pot.eligible,
                rake,
                pot_drop,
                winners,
                _shares(high) if hi_lo else None,
                _shares(low) if hi_lo else None,
                runs,
            )
        )
    return tuple(settled)


Shares = list[tuple[int, int]]
"""``(seat, amount)`` pairs."""


def _award_runs(
    net: int,
    eligible: tuple[int, ...],
    highs: list[dict[int, int]],
    lows: list[dict[int, int]],
    hand: HandRecord,
    chip: int,
) -> tuple[Shares, Shares, Shares, tuple[PotRun, ...]]:
    """Return the high, low and whole shares of a pot run more than once, and its
    runs: equal parts, one per run, odd chips to the first runs (HS10)."""
    high_all: dict[int, int] = {}
    low_all: dict[int, int] = {}
    pot_won: dict[int, int] = {}
    runs = []
    for r, part in enumerate(ratio_split(net, [1] * len(highs), chip)):
        high_shares, low_shares = _share(part, eligible, highs[r], lows[r], hand, chip)
        run_won: dict[int, int] = {}
        for seat, amount in high_shares:
            high_all[seat] = high_all.get(seat, 0) + amount
            run_won[seat] = run_won.get(seat, 0) + amount
        for seat, amount in low_shares:
            low_all[seat] = low_all.get(seat, 0) + amount
            run_won[seat] = run_won.get(seat, 0) + amount
        for seat, amount in run_won.items():
            pot_won[seat] = pot_won.get(seat, 0) + amount
        runs.append(PotRun(r + 1, part, _shares(run_won.items())))
    return (
        list(high_all.items()),
        list(low_all.items()),
        list(pot_won.items()),
        tuple(runs),
    )


def _add(shares: Shares) -> Shares:
    """Return the shares with each seat's amounts added up."""
    total: dict[int, int] = {}
    for seat, amount in shares:
        total[seat] = total.get(seat, 0) + amount
    return list(total.items())


def _shares(shares: Iterable[tuple[int, int]]) -> tuple[Share, ...]:
    """Return ``(seat, amount)`` pairs as shares by seat number."""
    return tuple([Share(seat, amount) for seat, amount in sorted(shares)])


def _seat_results(
    game: Game,
    seats: list[Seat],
    back: tuple[int, int] | None,
    won: Mapping[int, int],
    high: Mapping[int, int],
    low: Mapping[int, int],
) -> tuple[SeatResult, ...]:
    """Return each seat's result, by seat number, its hand named at a showdown."""
    describe = game.high.describe if game.low is None else None
    back_seat, back_amount = back if back is not None else (0, 0)
    won_from = won.get
    rows = []
    # Unpacking the named tuples is cheaper than reading their fields by name.
    for number, player, stack, _, put_in, _, _, dead, _, mucked in seats:
        seat_back = back_amount if number == back_seat else 0
        seat_won = won_from(number, 0)
        key = high.get(number)
        name = None
        if key is not None:
            name = (
                describe(key)
                if describe is not None
                else _describe(game, key, low.get(number))
            )
        rows.append(
            SeatResult(
                number,
                player,
                stack,
                put_in,
                seat_back,
                seat_won,
                stack - put_in + seat_back + seat_won,
                name,
                dead,
                mucked,
            )
        )
    return tuple(rows)


def _runs(
    game: Game,
    runs: Sequence[tuple[int, ...]],
    highs: list[dict[int, int]],
    lows: list[dict[int, int]],
) -> tuple[Run, ...]:
    """Return each run's board and hands (HS10)."""
    return tuple(
        [
            Run(
                r + 1,
                tuple([card_name(c) for c in board]),
                {
                    str(seat): _describe(game, key, lows[r].get(seat))
                    for seat, key in sorted(highs[r].items())
                },
            )
            for r, board in enumerate(runs)
        ]
    )


def _share(
    amount: int,
    eligible: tuple[int, ...],
    high: Mapping[int, int],
    low: Mapping[int, int],
    hand: HandRecord,
    chip: int,
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Return the high and low shares of ``amount`` among ``eligible`` (HS3-HS5).

    One eligible seat takes it all without a showdown. Otherwise the best hands
    split it; in hi-lo the amount is halved to the chip, the odd chip to the high
    half, and scooped by the high hand when no low qualifies (HS4).
    """
    if len(eligible) == 1:
        return [(eligible[0], amount)], []
    high_winners = _best(eligible, high)
    low_winners = _best(eligible, low) if low else []
    if not low_winners:
        return _split(amount, high_winners, hand, chip, hand.game.odd_chip), []
    high_half, low_half = ratio_split(amount, [1, 1], chip)
    return (
        _split(high_half, high_winners, hand, chip, hand.game.odd_chip),
        # HS5: in stud hi-lo the low half's odd chip goes by the lowest card.
        _split(low_half, low_winners, hand, chip, hand.game.low_odd_chip),
    )


def _refuse_showdown(
    hand: HandRecord, contenders: tuple[int, ...], final: bool
) -> NoReturn:
    """Raise the error of a showdown the cards can't settle (HS3)."""
    game = hand.game
    if not final:
        raise refuse(
            Code.INCOMPLETE_SHOWDOWN,
            rule="HS3",
            allowed={"streets": game.streets},
            seats=_seat_list(contenders),
            game=game.code,
            streets=hand.streets,
            last=game.streets,
        )
    blind = sorted(s.seat for s in hand.seats if not s.cards and s.seat in contenders)
    if blind:
        raise refuse(
            Code.SHOWDOWN_WITHOUT_CARDS,
            rule="HS3",
            allowed={"seats": blind},
            seats=_seat_list(blind),
        )
    raise AssertionError("a contender without a ranked hand")  # pragma: no cover


def _seat_list(seats: Sequence[int] | set[int]) -> str:
    return ", ".join(str(s) for s in sorted(seats))


def _best(eligible: Sequence[int], keys: Mapping[int, int]) -> list[int]:
    """Return the eligible seats with the best key (all of them on a tie)."""
    best: list[int] = []
    top = -1
    for seat in eligible:
        key = keys.get(seat)
        if key is None:
            continue
        if key > top:
            best, top = [seat], key
        elif key == top:
            best.append(seat)
    return best


def _odd_chip_place(hand: HandRecord, seat: Seat, rule: OddChip) -> int:
    """Return a seat's place in line for odd chips, first place 0 (HS5).

    Button games: clockwise from the button, the seat left of it first and the
    button last (a dead button, not dealt in, works the same). Stud games: by the
    seat's highest card, rank then suit ♠ ♥ ♦ ♣, among the cards it tabled; razz
    (a low game) by its lowest card, the ace lowest, and ♣ before ♦ ♥ ♠ on equal
    ranks; so does the low half of stud hi-lo. Only seats that tabled cards ever
    split a pot.
    """
    if rule == "button":
        return (seat.seat - (hand.button or 0) - 1) % MAX_SEATS
    cards = seat.cards or ()
    if rule == "high_card":
        return 51 - max(cards)  # a card id orders by rank, then suit
    return min((((c >> 2) + 1) % 13) * 4 + (c & 3) for c in cards)


def _split(
    amount: int, winners: list[int], hand: HandRecord, chip: int, rule: OddChip
) -> list[tuple[int, int]]:
    """Split ``amount`` among tied ``winners`` to the chip, odd chips in order (HS5).

    Each winner gets the same number of whole chips; the chips left over, fewer
    than the winners, go one each to the first winners in HS5's order, and
    anything below one chip (a pot that isn't a multiple of the chip) goes to the
    first of them.
    """
    if len(winners) == 1:
        return [(winners[0], amount)]
    seats = {s.seat: s for s in hand.seats}
    ranked = sorted(winners, key=lambda w: _odd_chip_place(hand, seats[w], rule))
    return list(zip(ranked, ratio_split(amount, [1] * len(ranked), chip), strict=True))


def _describe(game: Game, high: int, low: int | None) -> str:
    text = game.high.describe(high)
    if game.low is None:
        return text
    low_text = game.low.describe(low) if low is not None else "no low"
    return f"{text}; {low_text}"


def _mispaid(hand: HandRecord, won: Mapping[int, int]) -> tuple[MispaidPot, ...]:
    """Return a ``mispaid_pot`` exception when the pushes differ (HS7), else ()."""
    pushed = dict(hand.awarded or ())
    differences = tuple(
        [
            MispaidSeat(s.seat, pushed.get(s.seat, 0), won.get(s.seat, 0))
            for s in sorted(hand.seats)
            if pushed.get(s.seat, 0) != won.get(s.seat, 0)
        ]
    )
    if not differences:
        return ()
    return (MispaidPot(Code.MISPAID_POT.value, "HS7", MISPAID_DETAIL, differences),)
