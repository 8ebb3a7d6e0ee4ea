"""Hand histories in the PHH format (the open standard pokerkit reads) → hand records.

pokerkit replays each history; from the states we take what every seat put in (its
starting stack less the lowest stack it reached before any chips came back, so a bet
nobody called counts, as API.md asks), and from the actions who folded, who showed
what, and the board. The result is an API.md hand record, booked by the floor through
the same path as a terminal's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from pokerkit import HandHistory

from cardroom.domain.errors import HandError

VARIANTS = {
    "NT": "NLHE",
    "FT": "LHE",
    "PO": "PLO",
    "FO/8": "PLO8",
    "F7S": "STUD",
    "F7S/8": "STUD8",
    "FR": "RAZZ",
}
STUD = {"STUD", "STUD8", "RAZZ"}


def load_histories(fp: BinaryIO) -> Iterator[HandHistory]:
    """Read every hand of a ``.phh`` or ``.phhs`` file."""
    data = fp.read()
    text = data.decode()
    if "[" in text.split("\n", 1)[0] or text.lstrip().startswith("["):
        yield from HandHistory.loads_all(text)
    else:
        yield HandHistory.loads(text)


def _cards(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text), 2) if text[i : i + 2] != "??"]


def to_record(
    hh: HandHistory,
    *,
    table: str,
    hand_no: int,
    players: Iterable[str] | None = None,
    unit: int = 1,
) -> dict[str, Any]:
    """Return the API.md hand record of one history.

    ``players`` names the seats' registered player ids in PHH order (default: the
    history's ``players`` field); ``unit`` converts PHH amounts to cents.
    Raises :class:`HandError` for a variant the room doesn't deal or a history
    pokerkit can't replay.
    """
    game = VARIANTS.get(hh.variant)
    if game is None:
        raise HandError(
            "unknown_game",
            f"PHH variant {hh.variant!r} is not a game of the room.",
            allowed={"variants": sorted(VARIANTS)},
        )
    names = list(players if players is not None else (hh.players or []))
    count = len(hh.starting_stacks)
    if len(names) != count:
        raise HandError(
            "malformed_hand",
            f"The history has {count} players but {len(names)} player ids were given.",
        )
    seats = list(hh.seats or range(1, count + 1))
    lowest = list(hh.starting_stacks)
    try:
        for state, _action in hh.state_actions:
            lowest = [min(a, int(b)) for a, b in zip(lowest, state.stacks, strict=True)]
    except ValueError as error:
        raise HandError(
            "malformed_hand", f"pokerkit can't replay it: {error}"
        ) from None

    dealt: list[list[str]] = [[] for _ in range(count)]
    shown: list[list[str] | None] = [None] * count
    folded = [False] * count
    board: list[str] = []
    for action in hh.actions:
        parts = action.split()
        if parts[:2] == ["d", "dh"]:
            i = int(parts[2][1:]) - 1
            dealt[i] += _cards(parts[3]) if len(parts) > 3 else []
        elif parts[:2] == ["d", "db"]:
            board += _cards(parts[2])
        elif len(parts) >= 2 and parts[0].startswith("p"):
            i = int(parts[0][1:]) - 1
            if parts[1] == "f":
                folded[i] = True
            elif parts[1] == "sm" and len(parts) > 2 and parts[2] != "-":
                shown[i] = _cards(parts[2])
    if game in STUD:
        # Third street deals three cards to a seat, each later street one more.
        streets = max(1, min(5, max(len(d) for d in dealt) - 2))
    else:
        streets = 1 + sum(1 for a in hh.actions if a.split()[:2] == ["d", "db"])
    contenders = [i for i in range(count) if not folded[i]]
    seat_rows = []
    for i in range(count):
        row: dict[str, Any] = {
            "seat": seats[i],
            "player": names[i],
            "stack": hh.starting_stacks[i] * unit,
            "present": True,
            "put_in": (hh.starting_stacks[i] - lowest[i]) * unit,
            "folded": folded[i],
        }
        if not folded[i] and len(contenders) > 1:
            cards = shown[i] or dealt[i]
            if game in STUD:
                cards = dealt[i] if len(dealt[i]) >= len(shown[i] or []) else cards
            if cards:
                row["cards"] = cards
        seat_rows.append(row)
    return {
        "table": table,
        "hand_no": int(hh.hand) if isinstance(hh.hand, int) else hand_no,
        "game": game,
        "button": seats[-1] if game not in STUD else None,
        "streets": streets,
        "board": board,
        "seats": seat_rows,
    }
