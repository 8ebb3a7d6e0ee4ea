"""Builders of hand records and policies for the engine tests."""

from __future__ import annotations

from typing import Any

POLICY: dict[str, Any] = {
    "currency": "EUR",
    "smallest_chip": 50,
    "rake": {"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500},
    "jackpot_drop": {"amount": 100, "min_participants": 6},
}

NO_RAKE: dict[str, Any] = {
    "currency": "EUR",
    "smallest_chip": 50,
    "rake": {"scheme": "none"},
    "jackpot_drop": None,
}


def policy(**changes: Any) -> dict[str, Any]:
    """Return :data:`POLICY` with top-level fields replaced."""
    return {**POLICY, **changes}


def seat(
    number: int,
    put_in: int,
    cards: str | None = None,
    *,
    stack: int = 10_000,
    folded: bool = False,
    present: bool = True,
    player: str | None = None,
) -> dict[str, Any]:
    """Return a seat of a hand record; ``cards`` as ``"As Ad"``."""
    row: dict[str, Any] = {
        "seat": number,
        "player": player or f"P-{100 + number}",
        "stack": stack,
        "present": present,
        "put_in": put_in,
        "folded": folded,
    }
    if cards is not None:
        row["cards"] = cards.split()
    return row


def hand(
    *seats: dict[str, Any],
    game: str = "NLHE",
    board: str = "2c 7d 9h Js 3d",
    streets: int | None = None,
    button: int | None = 1,
    **extra: Any,
) -> dict[str, Any]:
    """Return a hand record; ``streets`` defaults to what the board shows."""
    cards = board.split()
    if streets is None:
        streets = {0: 1, 1: 1, 3: 2, 4: 3, 5: 4}[len(cards)] if cards else 1
    record: dict[str, Any] = {
        "table": "T01",
        "hand_no": 1,
        "game": game,
        "streets": streets,
        "board": cards,
        "seats": list(seats),
        **extra,
    }
    if button is not None:
        record["button"] = button
    return record


def winners(settlement: dict[str, Any], pot: int = 0) -> dict[int, int]:
    """Return ``{seat: amount}`` of one pot's winners."""
    return {w["seat"]: w["amount"] for w in settlement["pots"][pot]["winners"]}


def won(settlement: dict[str, Any]) -> dict[int, int]:
    """Return ``{seat: won}`` for seats that won anything."""
    return {s["seat"]: s["won"] for s in settlement["seats"] if s["won"]}
