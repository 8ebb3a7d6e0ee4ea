"""RK8: whether a deal can still be cancelled, read from its hand record.

A deal can't be cancelled once at least two players have acted in turn and one of
those actions was a call, bet or raise (FI "Mitätön jako"). The hand record (API.md)
has no list of actions, so this reads what the record proves:

- a seat's *voluntary* chips are its live ``put_in`` (dead money excluded: antes,
  dead blinds) above the forced bet of its position: the blinds of a button game
  (the small blind on the first seat dealt in after the button, the big blind on the
  next one; heads-up the button posts the small blind), a straddle, or, without a
  button (stud), one bring-in of at most the big blind. A seat with voluntary chips
  called, bet or raised;
- a folded seat without voluntary chips acted too: it folded in turn;
- once a second dealing round was dealt (``streets`` ≥ 2) the first betting round
  closed, so every seat still in with chips behind (``put_in`` below its stack)
  acted too: it checked or called. Seats all in on their forced bets never act.

So the deal is past cancelling when some seat put in voluntary chips and at least
two seats acted. Whatever the record leaves uncertain counts as action (a post out
of position reads as a call): a void refused by mistake costs a ruling by the floor,
a void allowed by mistake undoes a hand that was played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple


class Acted(NamedTuple):
    """What the record shows of the first betting round (RK8)."""

    callers: tuple[int, ...]  # seats that called, bet or raised
    acted: tuple[int, ...]  # seats that acted in turn (callers among them)

    @property
    def cancellable(self) -> bool:
        """RK8: no two players acted with a call, bet or raise among them."""
        return not (self.callers and len(self.acted) >= 2)


def _amount(row: Mapping[str, Any], key: str) -> int:
    value = row.get(key, 0)
    return value if type(value) is int and value > 0 else 0


def _blind_seats(seats: Sequence[int], button: int) -> tuple[int | None, int | None]:
    """The small- and big-blind seats of a button game, among those dealt in."""
    if len(seats) < 2:
        return None, None
    if len(seats) == 2:
        small = button if button in seats else seats[0]
        big = seats[1] if small == seats[0] else seats[0]
        return small, big
    after = [s for s in seats if s > button] + [s for s in seats if s <= button]
    return after[0], after[1]


def first_round(
    record: Mapping[str, Any], *, small_blind: int, big_blind: int
) -> Acted:
    """Read from ``record`` who acted in the first betting round (RK8).

    ``record`` is a hand record as API.md describes it (already accepted by the
    engine); ``small_blind`` and ``big_blind`` are the game's stakes in cents.
    """
    rows = [r for r in record.get("seats", ()) if isinstance(r, Mapping)]
    streets = record.get("streets", 1)
    past = not (type(streets) is int and streets <= 1)
    numbers = sorted(r["seat"] for r in rows if type(r.get("seat")) is int)
    button = record.get("button")
    forced: dict[int, int] = {}
    if type(button) is int:
        small, big = _blind_seats(numbers, button)
        if small is not None:
            forced[small] = small_blind
        if big is not None:
            forced[big] = big_blind
    callers: list[int] = []
    acted: list[int] = []
    bring_in_left = type(button) is not int
    for row in sorted(rows, key=lambda r: r.get("seat", 0)):
        number = row.get("seat")
        if type(number) is not int:
            continue
        live = _amount(row, "put_in") - _amount(row, "dead")
        allowed = max(forced.get(number, 0), _amount(row, "straddle"))
        if bring_in_left and 0 < live <= big_blind:
            bring_in_left, allowed = False, live
        if live > allowed:
            callers.append(number)
            acted.append(number)
        elif row.get("folded") is True or (
            past and _amount(row, "put_in") < _amount(row, "stack")
        ):
            acted.append(number)
    return Acted(tuple(callers), tuple(acted))
