"""Places of players out in the same hand, and the prizes of shared places (TO4).

Players out in one hand take the places just above those already out. The bigger
stack at the start of the hand finishes higher (in big-blind-ante games the caller
passes the stack after posting); equal stacks share their places. During
hand-for-hand, players out in the same hand share all those places, whatever their
tables and stacks (TDA RP-8-A: 50 paid, 52 left, 3 out → the three share 50th).

A shared place's prize is the sum of the prizes of the places shared, split equally
in the event's unit; the units that can't be split go one each to the players in the
order the house rule gives (the caller's order), and less than a unit to the first.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from accounting.domain.money import ratio_split
from core.errors import Refusal, variants_refuser
from tournaments.errors import TEXTS, Code

K = TypeVar("K", bound=Hashable)


class PlacesError(Refusal):
    """Busts that can't be placed (more players out than are left, …; TO4)."""


_refuse = variants_refuser(TEXTS, PlacesError)


@dataclass(frozen=True, slots=True)
class Place:
    """The places a player shares: ``high`` (best) to ``low`` (worst), 1 is first."""

    high: int
    low: int

    @property
    def shared_by(self) -> int:
        return self.low - self.high + 1


def places_of(
    left: int,
    stacks: Mapping[K, int],
    *,
    hand_for_hand: bool = False,
) -> dict[K, Place]:
    """The places of the players ``stacks`` (at the start of the hand) out in one
    hand, with ``left`` players in the event before it (TO4).

    >>> places = places_of(52, {"a": 100, "b": 300, "c": 100})
    >>> places["b"], places["a"] == places["c"] == Place(51, 52)
    (Place(high=50, low=50), True)
    >>> places_of(52, {"a": 100, "b": 300, "c": 200}, hand_for_hand=True)["b"]
    Place(high=50, low=52)
    """
    out = len(stacks)
    if out < 1:
        raise _refuse(Code.BUST_REFUSED, text="none", rule="TO4")
    if out > left:
        raise _refuse(Code.BUST_REFUSED, text="out", rule="TO4", out=out, left=left)
    if out == left:
        raise _refuse(Code.BUST_REFUSED, text="winner", rule="TO4")
    if any(s < 0 for s in stacks.values()):
        raise _refuse(Code.BUST_REFUSED, text="stack", rule="TO4")
    first = left - out + 1
    if hand_for_hand:
        return {key: Place(first, left) for key in stacks}
    places: dict[K, Place] = {}
    distinct = sorted(set(stacks.values()), reverse=True)
    high = first
    for stack in distinct:
        group = [k for k, s in stacks.items() if s == stack]
        for key in group:
            places[key] = Place(high, high + len(group) - 1)
        high += len(group)
    return places


def standings(
    finishers: Mapping[K, int],
    hands: Sequence[tuple[Mapping[K, int], bool]],
) -> dict[K, Place]:
    """The final places of a whole field (TO4).

    ``finishers`` are the players left at the end with the places they took (the
    winner, or the players of a deal that ended the event); ``hands`` the busts, the
    latest hand first, each as (stacks at the start of the hand, hand-for-hand).
    Each hand's players take the places just below those placed so far.

    >>> final = standings({"w": 1}, [({"a": 5, "b": 9}, False), ({"c": 1}, False)])
    >>> [(key, final[key].high) for key in "wbac"]
    [('w', 1), ('b', 2), ('a', 3), ('c', 4)]
    """
    result: dict[K, Place] = {key: Place(p, p) for key, p in finishers.items()}
    if sorted(finishers.values()) != list(range(1, len(finishers) + 1)):
        raise _refuse(Code.BUST_REFUSED, text="end", rule="TO4")
    next_place = len(result) + 1
    for stacks, hand_for_hand in hands:
        if set(stacks) & set(result):
            raise _refuse(Code.BUST_REFUSED, text="once", rule="TO4")
        left = next_place + len(stacks) - 1
        extra = 0 if next_place > 1 else 1  # no one left recorded: place as if one
        placed = places_of(left + extra, stacks, hand_for_hand=hand_for_hand)
        for key, place in placed.items():
            result[key] = Place(place.high - extra, place.low - extra)
        next_place += len(stacks)
    return result


def shared_prizes(
    place: Place,
    prizes: Sequence[int],
    players: Sequence[K],
    *,
    unit: int = 1,
) -> dict[K, int]:
    """Split the prizes of ``place`` (``prizes[0]`` is first place's) equally among
    ``players``, in the order the house rule gives for the units left over (TO4).

    >>> shared_prizes(Place(2, 3), [500, 300, 200], ["x", "y"], unit=100)
    {'x': 300, 'y': 200}
    >>> shared_prizes(Place(50, 52), [0] * 49 + [1000], ["a", "b", "c"])
    {'a': 334, 'b': 333, 'c': 333}
    """
    if len(players) != place.shared_by:
        raise _refuse(
            Code.BUST_REFUSED,
            text="shared",
            rule="TO4",
            places=place.shared_by,
            players=len(players),
        )
    if len(set(players)) != len(players):
        raise _refuse(Code.BUST_REFUSED, text="share_once", rule="TO4")
    total = sum(
        prizes[p - 1] for p in range(place.high, place.low + 1) if p <= len(prizes)
    )
    if total == 0:
        return dict.fromkeys(players, 0)
    return dict(zip(players, ratio_split(total, [1] * len(players), unit), strict=True))
