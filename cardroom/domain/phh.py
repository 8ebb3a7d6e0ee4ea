"""Hand histories in the PHH format (the open standard of pokerkit) ↔ hand records.

Import: :func:`load_histories` reads a ``.phh`` or ``.phhs`` file and
:func:`to_record` turns one history into an API.md hand record. The history's
actions are replayed here, chip by chip in exact decimal arithmetic, for what every
seat put in: antes (dead money, ``dead``), blinds and straddles (``straddle``),
bring-ins, calls, bets and raises. A bet nobody called stays in ``put_in``: the
engine returns it (RK5). Amounts are the file's; ``unit`` (cents per PHH chip)
turns them into integer cents, and an amount that isn't a whole number of cents is
refused, never rounded. Who folded, who showed what at the showdown, who mucked
(``pN sm`` without cards), and the board come from the actions too; a seat the
history leaves without an action at the end while others show down is folded.
:class:`Seating` keeps each player in one seat across the hands of a file.

Export: :func:`to_phh` writes a booked hand (its record and settlement) as PHH that
any PHH tool replays to the settlement's final stacks; see its docstring.
"""

from __future__ import annotations

import itertools
import json
import tomllib
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, BinaryIO

from cardroom.domain.errors import Code, HandError, Phrase, refuse
from cardroom.domain.hand_record import MAX_SEATS
from core.errors import gettext_noop as _

VARIANTS = {
    "NT": "NLHE",
    "FT": "LHE",
    "PO": "PLO",
    "FO/8": "PLO8",
    "F7S": "STUD",
    "F7S/8": "STUD8",
    "FR": "RAZZ",
}
"""PHH variant codes → the room's game codes (API.md). Betting limits don't change a
settlement, so fixed-limit Omaha hi-lo books as PLO8."""

PHH_VARIANTS = {
    **{game: variant for variant, game in VARIANTS.items()},
    "PLHE": "NT",
    "PLSTUD": "F7S",
}
"""The room's games that PHH can say, → their PHH variant (export). An export deals
and shows but bets nothing, so pot-limit Hold'em and pot-limit stud replay as the
Hold'em and stud PHH has; ``_cardroom.game`` keeps the game for the import."""

STUD = {"STUD", "STUD8", "RAZZ"}

Amount = int | Decimal

MALFORMED = Code.MALFORMED_HAND

Refuser = Callable[..., HandError]
"""Builds the error of an action that can't be replayed: ``bad(variant, **params)``."""


def load_histories(fp: BinaryIO) -> list[dict[str, Any]]:
    """Return every hand of a ``.phh`` (one hand) or ``.phhs`` (sections) file.

    Each hand is its decoded TOML table; amounts with a decimal point are
    :class:`~decimal.Decimal`, never floats. Raises :class:`HandError` for a file
    that isn't PHH.
    """
    try:
        data = tomllib.loads(fp.read().decode(), parse_float=Decimal)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise refuse(MALFORMED, text="phh_file", reason=str(error)) from None
    if "variant" in data:
        return [data]
    hands = [v for v in data.values() if isinstance(v, dict) and "variant" in v]
    if not hands:
        raise refuse(MALFORMED, text="phh_no_hand")
    return hands


def cents(value: Any, unit: int, what: str | Phrase) -> int:
    """Return ``value`` PHH chips in integer cents at ``unit`` cents a chip.

    Exact: ``Decimal("0.25")`` at unit 100 is 25. A value that isn't a whole number
    of cents at that unit (``0.125`` at unit 100) is refused, not truncated.
    """
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise refuse(MALFORMED, text="number", field=what, value=value)
    try:
        exact = Decimal(value) * unit
    except InvalidOperation:  # pragma: no cover - Decimal * int of finite values
        raise refuse(MALFORMED, text="no_amount", field=what, value=value) from None
    if not exact.is_finite() or exact != exact.to_integral_value():
        raise refuse(
            Code.INEXACT_AMOUNT,
            allowed={"unit": unit},
            field=what,
            value=value,
            cents=f"{exact.normalize():f}",
            unit=unit,
        )
    return int(exact)


def _cards(text: str) -> list[str]:
    """Return the card ids in a PHH card string, unknown ``??`` cards as None."""
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def _known(cards: Sequence[str]) -> list[str]:
    return [c for c in cards if c != "??"]


def _number(value: Any, what: str | Phrase) -> Amount:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise refuse(MALFORMED, text="number", field=what, value=value)
    if value < 0:
        raise refuse(Code.NEGATIVE_AMOUNT, text="phh", field=what, value=value)
    return value


def _amounts(hh: Mapping[str, Any], key: str, count: int) -> list[Amount]:
    raw = hh.get(key) or []
    if not isinstance(raw, list) or len(raw) > count:
        raise refuse(MALFORMED, text="amounts", field=key, count=count)
    values = [_number(v, key) for v in raw]
    return values + [0] * (count - len(values))


@dataclass
class Replay:
    """What a history's actions did, per player in PHH order (p1 first)."""

    put_in: list[Amount]
    dead: list[Amount]
    straddle: list[Amount]
    folded: list[bool]
    mucked: list[bool]
    dealt: list[list[str]]
    shown: list[list[str] | None]
    board: list[str] = field(default_factory=list)
    board_deals: int = 0


def replay(hh: Mapping[str, Any]) -> Replay:
    """Replay a history's actions and return what each player put in and showed.

    Antes are posted first (dead money), then the blinds and straddles
    (``blinds_or_straddles``: the small blind, the big blind, then straddles), each
    at most what the player has left; heads-up, PHH lists the big blind's first, as
    pokerkit does. ``pN pb`` posts the bring-in, ``pN cc`` calls the street's
    biggest bet (or checks), ``pN cbr X`` makes the player's bet on the street X,
    and a deal after a betting action starts a new street. Raises
    :class:`HandError` ``malformed_hand`` for an action that can't be replayed.
    """
    stacks = hh.get("starting_stacks")
    if not isinstance(stacks, list) or len(stacks) < 2:
        raise refuse(MALFORMED, text="stacks")
    n = len(stacks)
    table = _Replaying([_number(s, "starting_stacks") for s in stacks])
    antes = _amounts(hh, "antes", n)
    blinds = _amounts(hh, "blinds_or_straddles", n)
    if n == 2:
        antes.reverse()
        blinds.reverse()
    table.post(antes, blinds)
    table.bring_in = hh.get("bring_in") or 0
    actions = hh.get("actions")
    if not isinstance(actions, list):
        raise refuse(MALFORMED, text="actions")
    for text in actions:
        if not isinstance(text, str):
            raise refuse(MALFORMED, text="action_text", action=text)
        words = text.split("#", 1)[0].split()
        if words:
            table.play(text, words)
    return table.replay


class _Replaying:
    """A history's table as its actions replay: stacks, the street's bets."""

    def __init__(self, start: list[Amount]) -> None:
        n = len(start)
        self.n = n
        self.start = start
        self.bets: list[Amount] = [0] * n
        self.acted = False  # a betting action on this street
        self.bring_in: Any = 0
        self.replay = Replay(
            [0] * n,
            [0] * n,
            [0] * n,
            [False] * n,
            [False] * n,
            [[] for _ in range(n)],
            [None] * n,
        )

    def pay(self, i: int, amount: Amount) -> Amount:
        """Move up to ``amount`` of player ``i``'s stack in; return what moved."""
        put_in = self.replay.put_in
        amount = min(amount, self.start[i] - put_in[i])
        put_in[i] += amount
        return amount

    def post(self, antes: list[Amount], blinds: list[Amount]) -> None:
        """Post the antes (dead money), then the blinds and straddles."""
        r = self.replay
        for i in range(self.n):
            r.dead[i] = self.pay(i, antes[i])
        for i in range(self.n):
            posted = self.pay(i, blinds[i])
            self.bets[i] = posted
            if i >= 2 and posted:
                r.straddle[i] = posted

    def play(self, text: str, words: list[str]) -> None:
        """Replay one action, ``words`` its words without the comment."""

        def bad(why: str, **params: Any) -> HandError:
            return refuse(MALFORMED, text=why, action=text, **params)

        r = self.replay
        if words[0] == "d":
            self.deal(words, bad)
            return
        i = _player(words[0], self.n, bad)
        verb = words[1] if len(words) > 1 else ""
        if verb == "sm":
            if len(words) == 2:
                r.mucked[i], r.shown[i] = True, None
            elif words[2] == "-":  # pokerkit: show the cards dealt
                r.mucked[i], r.shown[i] = False, list(r.dealt[i])
            else:
                r.mucked[i], r.shown[i] = False, _cards(words[2])
            return
        if r.folded[i]:
            raise bad("folded")
        self.acted = True
        if verb == "f" and len(words) == 2:
            r.folded[i] = True
        elif verb == "cc" and len(words) == 2:
            self.bets[i] += self.pay(i, max(self.bets) - self.bets[i])
        elif verb == "pb" and len(words) == 2:
            self.bets[i] += self.pay(i, _number(self.bring_in, "bring_in"))
        elif verb == "cbr" and len(words) == 3:
            self.bet(i, words[2], bad)
        else:
            raise bad("unknown_action")

    def deal(self, words: list[str], bad: Refuser) -> None:
        """Deal hole or board cards; after a betting action a new street starts."""
        r = self.replay
        if self.acted:  # the bets of a finished street are in
            self.bets = [0] * self.n
            self.acted = False
        if words[1:2] == ["dh"] and len(words) == 4:
            r.dealt[_player(words[2], self.n, bad)] += _cards(words[3])
        elif words[1:2] == ["db"] and len(words) == 3:
            r.board += _cards(words[2])
            r.board_deals += 1
        else:
            raise bad("deal")

    def bet(self, i: int, amount: str, bad: Refuser) -> None:
        """Make player ``i``'s bet on the street ``amount`` (``cbr``)."""
        try:
            to = _number(_value(amount), Phrase(_("the bet")))
        except InvalidOperation:
            raise bad("bet_amount") from None
        behind = self.start[i] - self.replay.put_in[i]
        if to < self.bets[i] or to - self.bets[i] > behind:
            raise bad("bet", to=to, bet=self.bets[i], behind=behind)
        self.bets[i] += self.pay(i, to - self.bets[i])


def _value(text: str) -> Amount:
    text = text.replace(",", "")
    try:
        return int(text)
    except ValueError:
        return Decimal(text)


def _player(label: str, n: int, bad: Refuser) -> int:
    if label[:1] == "p" and label[1:].isdigit() and 1 <= int(label[1:]) <= n:
        return int(label[1:]) - 1
    raise bad("no_player", label=label, count=n)


class Seating:
    """Seat numbers for the players of a file's hands, the same seat every hand.

    A history's ``seats`` field gives them. Without it, a player keeps the seat he
    had in the file's earlier hands; a player new to the table takes the first seat
    no one has sat in, then the first seat whose player isn't in this hand. The
    table has ``seat_count`` seats when the history says so, else as many as the
    file's biggest hand has players (at most 12, HS1).
    """

    def __init__(self, seat_count: int | None = None) -> None:
        self.seat_count = seat_count
        self.seat_of: dict[str, int] = {}

    def seats(self, hh: Mapping[str, Any], names: Sequence[str]) -> list[int]:
        """Return the seat number of each player of one history, in PHH order."""
        given = hh.get("seats")
        count = hh.get("seat_count") or self.seat_count or len(names)
        if type(count) is not int or not len(names) <= count <= MAX_SEATS:
            raise refuse(
                Code.TOO_MANY_SEATS,
                text="seat_count",
                rule="HS1",
                allowed={"min": len(names), "max": MAX_SEATS},
                count=count,
                players=len(names),
                max=MAX_SEATS,
            )
        if given is not None:
            count = hh.get("seat_count") or MAX_SEATS
            if (
                not isinstance(given, list)
                or len(given) != len(names)
                or any(type(s) is not int or not 1 <= s <= count for s in given)
                or len(set(given)) != len(given)
            ):
                raise refuse(
                    Code.DUPLICATE_SEAT,
                    text="phh_seats",
                    rule="HS1",
                    allowed={"min": 1, "max": count},
                    seats=given,
                    count=count,
                )
            self.seat_of.update(zip(names, given, strict=True))
            return list(given)
        self.seat_count = max(self.seat_count or 0, count)
        taken: dict[int, str] = {}
        for name in names:
            seat = self.seat_of.get(name)
            if seat is not None and seat not in taken and seat <= count:
                taken[seat] = name
        ever = set(self.seat_of.values())
        for name in names:
            if name in taken.values():
                continue
            free = [s for s in range(1, count + 1) if s not in taken]
            seat = next((s for s in free if s not in ever), free[0])
            taken[seat] = name
            self.seat_of[name] = seat
        return [self.seat_of[name] for name in names]


def to_record(
    hh: Mapping[str, Any],
    *,
    table: str,
    hand_no: int,
    players: Iterable[str] | None = None,
    unit: int = 1,
    seating: Seating | None = None,
) -> dict[str, Any]:
    """Return the API.md hand record of one history.

    ``players`` names the seats' registered player ids in PHH order (default: the
    history's ``players`` field, else ``p1`` …); ``unit`` is cents per PHH chip;
    ``seating`` keeps seat numbers across the hands of a file. Raises
    :class:`HandError` for a variant the room doesn't deal, a history that can't be
    replayed or an amount that isn't whole cents.
    """
    game = _game_of(hh)
    if type(unit) is not int or unit < 1:
        raise refuse(MALFORMED, text="unit", unit=unit)
    r = replay(hh)
    count = len(r.put_in)
    default = [f"p{i + 1}" for i in range(count)]
    names = list(players if players is not None else (hh.get("players") or default))
    if len(names) != count or not all(isinstance(n, str) and n for n in names):
        raise refuse(MALFORMED, text="player_ids", count=count, given=len(names))
    seats = (seating or Seating()).seats(hh, names)
    cards_shown, in_hand, showdown = _showdown(r)
    if game in STUD:
        # Third street deals three cards to a seat, each later street one more.
        streets = max(1, min(5, max(len(d) for d in r.dealt) - 2))
    else:
        streets = 1 + r.board_deals
    stack_of = hh["starting_stacks"]
    seat_rows = []
    for i in range(count):
        row = _seat_row(r, i, seats[i], names[i], stack_of[i], unit)
        cards = cards_shown[i]
        if showdown and in_hand[i]:
            if game in STUD and len(_known(r.dealt[i])) > len(cards or ()):
                cards = _known(r.dealt[i])
            if cards:
                row["cards"] = cards
        seat_rows.append(row)
    record: dict[str, Any] = {
        "table": table,
        "hand_no": hand_no,
        "game": game,
        "button": None if game in STUD else seats[-1],
        "streets": streets,
        "board": _known(r.board),
        "seats": seat_rows,
    }
    _restore(hh, record, unit)
    return record


def _game_of(hh: Mapping[str, Any]) -> str:
    """Return the room's game of a history's variant; raise ``unknown_game``."""
    variant = hh.get("variant")
    game = VARIANTS.get(variant) if isinstance(variant, str) else None
    if game is None:
        raise refuse(
            Code.UNKNOWN_GAME,
            text="phh_variant",
            rule="HS9",
            allowed={"variants": sorted(VARIANTS)},
            variant=variant,
        )
    return game


def _showdown(r: Replay) -> tuple[list[list[str] | None], list[bool], bool]:
    """Return the known cards each player showed, who is still in, and whether the
    hand went to a showdown; whoever a showdown leaves in without showing folded."""
    count = len(r.put_in)
    cards_shown = [_known(s) if s is not None else None for s in r.shown]
    in_hand = [not (r.folded[i] or r.mucked[i]) for i in range(count)]
    if sum(in_hand) > 1 and any(cards_shown[i] for i in range(count) if in_hand[i]):
        for i in range(count):
            if in_hand[i] and not cards_shown[i]:
                r.folded[i], in_hand[i] = True, False
    # A showdown: more than one seat went to it, to show or to muck.
    showdown = (
        sum(in_hand) + sum(r.mucked[i] and not r.folded[i] for i in range(count)) > 1
    )
    return cards_shown, in_hand, showdown


def _seat_row(
    r: Replay, i: int, seat: int, player: str, stack: Any, unit: int
) -> dict[str, Any]:
    """Return player ``i``'s seat of the hand record, without its cards."""
    row: dict[str, Any] = {
        "seat": seat,
        "player": player,
        "stack": cents(stack, unit, Phrase(_("p%(n)s's starting stack"), n=i + 1)),
        "present": True,
        "put_in": cents(r.put_in[i], unit, Phrase(_("p%(n)s's chips put in"), n=i + 1)),
        "folded": r.folded[i],
    }
    if r.dead[i]:
        row["dead"] = cents(r.dead[i], unit, Phrase(_("p%(n)s's ante"), n=i + 1))
    if r.straddle[i]:
        row["straddle"] = cents(
            r.straddle[i], unit, Phrase(_("p%(n)s's straddle"), n=i + 1)
        )
    if r.mucked[i] and not r.folded[i]:
        row["mucked"] = True
    return row


def _restore(hh: Mapping[str, Any], record: dict[str, Any], unit: int) -> None:
    """Take back what an export by :func:`to_phh` keeps beyond standard PHH."""
    kept = hh.get("_cardroom")
    if not isinstance(kept, Mapping):
        return
    game = kept.get("game")
    if isinstance(game, str) and PHH_VARIANTS.get(game) == hh.get("variant"):
        record["game"] = game
    if isinstance(kept.get("button"), int):
        record["button"] = kept["button"]
    if isinstance(kept.get("boards"), list):
        record["boards"] = kept["boards"]
    for name in ("put_in", "dead", "straddle"):
        values = kept.get(name)
        if isinstance(values, list) and len(values) == len(record["seats"]):
            for row, value in zip(record["seats"], values, strict=True):
                amount = cents(value, unit, name)
                if amount or name == "put_in":
                    row[name] = amount
                else:
                    row.pop(name, None)


def number_hands(hands: Sequence[Mapping[str, Any]], first: int) -> list[int]:
    """Return the hand number of each history of a file.

    The histories' own ``hand`` numbers when every one has one and they increase
    (a table's hand numbers do); else their place in the file from ``first``, so a
    re-run of the file numbers them alike.
    """
    own = [hh.get("hand") for hh in hands]
    numbers = [n for n in own if type(n) is int and n >= 0]
    if len(numbers) == len(own) and all(a < b for a, b in itertools.pairwise(numbers)):
        return numbers
    return [first + i for i in range(len(hands))]


# -- export ----------------------------------------------------------------------

_STUD_VARIANTS = {"F7S", "F7S/8", "FR"}


def to_phh(
    record: Mapping[str, Any],
    settlement: Mapping[str, Any],
    *,
    unit: int = 1,
    seat_count: int | None = None,
) -> str:
    """Return a booked hand (its record and settlement) as a PHH hand history.

    A hand record says what each seat put in, not the order of its bets, so the
    history posts each seat's chips that stayed in the pots (``put_in`` less what
    came back as the uncalled bet, RK5) before any card: in a board game its dead
    money as its ante (``ante_trimming_status`` off: antes go to the main pot, as
    HS2's dead money does) and the rest as its blind; in stud, where PHH has no
    blinds, all of it as its ante (trimmed, so the pots form by those amounts). The
    seats that folded fold on the first street, the others check to the showdown,
    where each shows the cards it tabled, or mucks. Any PHH tool (pokerkit) replays
    it to the settlement's final stacks when the hand paid no rake or drop and was
    run once (PHH has no runs: the board dealt is the first run's), except a stud
    hand whose folded or mucked seats' up cards weren't recorded, which pokerkit
    needs to know who acts first; ``finishing_stacks`` are the final stacks after
    rake and drop. ``_cardroom`` keeps what standard PHH can't say, for
    :func:`to_record`: the button, each seat's ``put_in``, ``dead`` and
    ``straddle``, and the boards of a hand run more than once. Amounts are PHH
    chips of ``unit`` cents.

    Raises :class:`HandError` ``unknown_game`` for a game PHH has no variant for.
    """
    game = record["game"]
    variant = PHH_VARIANTS.get(game)
    if variant is None:
        raise refuse(
            Code.UNKNOWN_GAME,
            text="phh_export",
            allowed={"games": sorted(PHH_VARIANTS)},
            game=game,
            games=", ".join(sorted(PHH_VARIANTS)),
        )
    rows = _phh_order(record)
    outcome = {s["seat"]: s for s in settlement["seats"]}
    back = {r["seat"]: r["amount"] for r in settlement["returned"]}

    def chips(amount: int) -> int | Decimal:
        value = Decimal(amount) / unit
        return int(value) if value == value.to_integral_value() else value

    stays = [r["put_in"] - back.get(r["seat"], 0) for r in rows]
    stacks = [chips(r["stack"]) for r in rows]
    if not any(stays):
        raise refuse(MALFORMED, text="no_chips")
    posts = _posts(variant, rows, stays, chips)
    fields: dict[str, Any] = {
        "variant": variant,
        **posts,
        "starting_stacks": stacks,
        "actions": _export_actions(record, rows, variant, posts, stacks),
        "hand": record["hand_no"],
        "table": record["table"],
        "seats": [r["seat"] for r in rows],
        "seat_count": max([seat_count or 0] + [r["seat"] for r in rows]),
        "players": [r["player"] for r in rows],
        "finishing_stacks": [chips(outcome[r["seat"]]["final_stack"]) for r in rows],
        "_cardroom": _kept(record, rows, chips),
    }
    return "\n".join(f"{key} = {_toml(value)}" for key, value in fields.items()) + "\n"


Chips = Callable[[int], int | Decimal]
"""Cents → PHH chips of the export's unit."""


def _kept(
    record: Mapping[str, Any], rows: list[Mapping[str, Any]], chips: Chips
) -> dict[str, Any]:
    """Return what an export keeps beyond standard PHH, in ``_cardroom``."""
    kept: dict[str, Any] = {
        "game": record["game"],
        "put_in": [chips(r["put_in"]) for r in rows],
        "dead": [chips(r.get("dead", 0)) for r in rows],
        "straddle": [chips(r.get("straddle", 0)) for r in rows],
    }
    if record.get("button") is not None:
        kept["button"] = record["button"]
    if record.get("boards"):
        kept["boards"] = record["boards"]
    return kept


def _posts(
    variant: str, rows: list[Mapping[str, Any]], stays: list[int], chips: Chips
) -> dict[str, Any]:
    """Return the antes, blinds and bet sizes that post each seat's ``stays``."""
    if variant in _STUD_VARIANTS:
        return {
            "ante_trimming_status": True,
            "antes": [chips(a) for a in stays],
            "bring_in": 0,
            "small_bet": 2,
            "big_bet": 4,
        }
    dead = [min(r.get("dead", 0), a) for r, a in zip(rows, stays, strict=True)]
    antes = [chips(d) for d in dead]
    blinds = [chips(a - d) for a, d in zip(stays, dead, strict=True)]
    if len(rows) == 2:  # heads-up, PHH lists the big blind's first
        antes.reverse()
        blinds.reverse()
    posts: dict[str, Any] = {
        "ante_trimming_status": False,
        "antes": antes,
        "blinds_or_straddles": blinds,
    }
    if variant in {"FT", "FO/8"}:
        return posts | {"small_bet": 2, "big_bet": 4}
    return posts | {"min_bet": 1}


def _phh_order(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Return the seats in PHH order: clockwise from the button's left, button last.

    Stud games have no button; their seats go in seat order.
    """
    rows = sorted(record["seats"], key=lambda s: s["seat"])
    button = record.get("button")
    if button is None:
        return rows
    return sorted(rows, key=lambda s: (s["seat"] - button - 1) % MAX_SEATS)


def _export_actions(
    record: Mapping[str, Any],
    rows: Sequence[Mapping[str, Any]],
    variant: str,
    posts: Mapping[str, Any],
    stacks: list[Amount],
) -> list[str]:
    """Return PHH actions that deal the hand's cards, fold, check and show down.

    They are played on a pokerkit state, so that each player acts in his turn as
    every PHH tool expects; the cards nobody saw are dealt as ``??``. The board
    dealt is the first run's (the others are in ``_cardroom.boards``).
    """
    from pokerkit import HandHistory

    spec = {"variant": variant, **posts, "starting_stacks": stacks, "actions": []}
    with warnings.catch_warnings():
        # pokerkit warns of a fold where a check was free; the record says fold.
        warnings.simplefilter("ignore")
        try:
            return _play(HandHistory(**spec).create_state(), record, rows)
        except (ValueError, KeyError) as error:
            raise refuse(MALFORMED, text="phh_replay", reason=str(error)) from None


def _play(
    state: Any, record: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]
) -> list[str]:
    board = list(record.get("board") or [])
    hole = [list(r.get("cards") or []) for r in rows]
    held: list[list[str]] = [[] for _ in rows]
    streets = record["streets"]
    actions: list[str] = []
    while state.status:
        if state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_hole():
            i = state.hole_dealee_index
            assert i is not None and state.street is not None
            count = len(state.street.hole_dealing_statuses)
            dealt = "".join((hole[i] + ["??"] * count)[:count])
            hole[i] = hole[i][count:]
            held[i] += [dealt[j : j + 2] for j in range(0, len(dealt), 2)]
            state.deal_hole(dealt)
            actions.append(f"d dh p{i + 1} {dealt}")
        elif state.can_deal_board():
            if state.street_index is not None and state.street_index >= streets:
                break  # the hand ended before this street was dealt
            assert state.street is not None
            dealt = "".join(board[: state.street.board_dealing_count])
            board = board[state.street.board_dealing_count :]
            state.deal_board(dealt)
            actions.append(f"d db {dealt}")
        elif state.actor_index is not None:
            i = state.actor_index
            if rows[i]["folded"]:
                state.fold()
                actions.append(f"p{i + 1} f")
            else:
                state.check_or_call()
                actions.append(f"p{i + 1} cc")
        elif state.showdown_index is not None:
            i = state.showdown_index
            if rows[i].get("mucked") or not rows[i].get("cards"):
                state.show_or_muck_hole_cards(False)
                actions.append(f"p{i + 1} sm")
            else:
                # What he holds so far: an all-in showdown comes before the last
                # cards are dealt, and PHH shows them again at the end.
                state.show_or_muck_hole_cards(True)
                actions.append(f"p{i + 1} sm {''.join(held[i])}")
        else:  # pragma: no cover - the automations do every other step
            raise AssertionError("pokerkit offers no next step")
    return actions


def _toml(value: Any) -> str:
    """Return a value as TOML: numbers exact, strings quoted, lists, tables."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"No TOML for {value!r}.")  # pragma: no cover
