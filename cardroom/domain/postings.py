"""The floor's money moves as posting plans: legs of (account code, cents).

Pure: each plan is computed from the request and the balances already read; the
services resolve the codes and write the plan (:mod:`accounting.services.posting`).
How the chips and the cash are booked is told in :mod:`accounting.chart`.

>>> plan = buy_in(kind="seat_buy_in", table="T01", player="P-1", amount=20_000)
>>> plan.balanced, plan.net()["table:T01:drop_box"]
(True, 20000)

A plan given the balances it moves refuses to take a non-negative account below
zero (:func:`within`); without them the ledger's own constraint refuses it.

The hand's plan (:func:`hand`) takes the settlement and the sittings and returns
the legs, the seat rows, the stacks and the exceptions, with HS6 and HS7 inside.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import msgspec

from accounting.domain import accounts as a
from accounting.domain.postings import Plan, PlanLeg, overdrawn
from cardroom.domain.hand_record import HandRecord
from cardroom.domain.settlement import Settlement
from cardroom.errors import Code, refuse


def within(plan: Plan, balances: Mapping[str, int] | None) -> Plan:
    """``plan``, if it takes no non-negative account of ``balances`` below zero.

    Raises the ledger's refusal (``insufficient_funds``) otherwise; ``None`` means
    the balances were not read and the ledger's constraint decides.
    """
    if balances is not None:
        short = overdrawn(plan, balances)
        if short:
            raise refuse(
                Code.INSUFFICIENT_FUNDS,
                allowed={code: balances.get(code, 0) for code in short},
                accounts=", ".join(short),
            )
    return plan


def buy_in(
    *,
    kind: str,
    table: str,
    player: str,
    amount: int,
    cash: bool = True,
    balances: Mapping[str, int] | None = None,
) -> Plan:
    """A buy-in or top-up: cash into the drop box and chips from the tray, or the
    chips he carries onto his stack (CA3, BI5)."""
    stack = a.player_stack_code(player=player, table=table)
    legs: list[PlanLeg]
    if cash:
        legs = [
            (a.table_drop_box_code(table=table), amount),
            (stack, -amount),
            (a.table_tray_code(table=table), -amount),
            (a.CHIP_FLOAT, amount),
        ]
    else:
        legs = [(a.player_chips_code(player=player), amount), (stack, -amount)]
    return within(Plan.of(kind, legs), balances)


def leave(*, table: str, player: str, stack: int, recorded: int) -> Plan:
    """He leaves with his stack: from his stack at the table to the chips he
    carries. Refuses (HS6) a stack other than the one recorded."""
    if stack != recorded:
        raise refuse(
            Code.STACK_MISMATCH,
            rule="HS6",
            allowed={"min": recorded, "max": recorded},
            r=stack,
            k=recorded,
        )
    return Plan.of(
        "seat_leave",
        [
            (a.player_stack_code(player=player, table=table), stack),
            (a.player_chips_code(player=player), -stack),
        ],
    )


def pick_up(*, table: str, player: str, stack: int) -> Plan:
    """An absent player's whole stack into cage custody (BI9)."""
    return Plan.of(
        "seat_pick_up",
        [
            (a.player_stack_code(player=player, table=table), stack),
            (a.custody_code(player=player), -stack),
        ],
    )


def custody_return(*, player: str, held: int) -> Plan:
    """What custody holds for him back to the chips he carries (BI9); refuses when
    nothing is held."""
    if held <= 0:
        raise refuse(Code.NOTHING_IN_CUSTODY, rule="BI9", p=player)
    return Plan.of(
        "custody_return",
        [
            (a.custody_code(player=player), held),
            (a.player_chips_code(player=player), -held),
        ],
    )


def time_collection(
    *, table: str, charges: Mapping[int, int], seats: Mapping[int, tuple[str, int]]
) -> Plan:
    """A period's time from the seats' stacks to revenue, as rake-box chips (RK6).

    ``charges`` map seats to cents, ``seats`` the seats held to (player, stack): a
    charge is for a seat held, positive and within its stack.
    """
    legs: list[PlanLeg] = []
    for seat, amount in sorted(charges.items()):
        player, stack = seats.get(seat, ("", 0))
        if not player or amount <= 0 or amount > stack:
            raise refuse(
                Code.TIME_NOT_PAYABLE,
                rule="RK6",
                allowed={"max": stack},
                s=seat,
                a=amount,
            )
        legs.append((a.player_stack_code(player=player, table=table), amount))
    total = sum(cents for _code, cents in legs)
    legs += [
        (a.TIME_REVENUE, -total),
        (a.table_rake_box_code(table=table), total),
        (a.CHIP_FLOAT, -total),
    ]
    return Plan.of("time_collection", legs)


def review_hold(*, table: str, player: str, amount: int) -> Plan:
    """HS6: what the ledger holds beyond the reported stack, frozen for review."""
    return Plan.of(
        "stack_review_hold",
        [
            (a.player_stack_code(player=player, table=table), amount),
            (a.stack_review_hold_code(player=player, table=table), -amount),
        ],
    )


def review_resolve(
    *, kind: str, table: str, player: str, amount: int, to: str | None
) -> Plan:
    """A stack review resolved: the frozen chips to ``to`` (an account code), or to
    the house's over/short when nobody can claim them (HS6)."""
    return Plan.of(
        kind,
        [
            (a.stack_review_hold_code(player=player, table=table), amount),
            (to or a.OVER_SHORT, -amount),
        ],
    )


def correction(
    *,
    kind: str,
    table: str,
    amount: int,
    source: str | None,
    target: str | None,
    debtor: str | None = None,
    balances: Mapping[str, int] | None = None,
) -> Plan:
    """A correction approved (HS7, HS8, DC3); ``source`` and ``target`` are account
    codes (a player's chips where they are now), ``None`` for escrow.

    A receivable (``debtor`` named) books what he owes: to ``target`` as chips from
    the tray, or to the house's over/short when nobody is paid.
    """
    legs: list[PlanLeg]
    if debtor is not None:
        legs = [(a.receivables_code(player=debtor), amount)]
        if target is not None:
            legs += [
                (target, -amount),
                (a.table_tray_code(table=table), -amount),
                (a.CHIP_FLOAT, amount),
            ]
        else:
            legs.append((a.OVER_SHORT, -amount))
    else:
        legs = [(source or a.ESCROW, amount), (target or a.ESCROW, -amount)]
    return within(Plan.of(kind, legs), balances)


# The hand ---------------------------------------------------------------------


class Sitting(NamedTuple):
    """An open seat session, as a hand needs it."""

    session_id: int
    seat: int
    player_id: int
    player: str  # the player's code
    stack_cents: int
    leaving: bool = False  # PP5: he leaves once this hand is booked


class Frozen(NamedTuple):
    """A seat that reported less than the ledger holds: the difference is frozen."""

    sitting: Sitting
    reported: int
    held: int


@dataclass(frozen=True, slots=True)
class HandPlan:
    """What booking a hand writes: the ledger's legs, the HS6 holds, the seat rows,
    the sessions' new stacks (session id, stack, hand number) and the exceptions."""

    plan: Plan
    frozen: tuple[Frozen, ...]
    seat_rows: tuple[dict[str, Any], ...]
    stacks: tuple[tuple[int, int, int], ...]
    exceptions: tuple[dict[str, Any], ...]


def _held(
    parsed: HandRecord,
    sittings: Mapping[int, Sitting],
    ledger: Mapping[str, int],
    table: str,
) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """HS6: each seat held by its player, played on the ledger's stack, never more.

    Returns the ledger's stack per seat and a ``stack_mismatch`` exception for each
    seat that reported less. A seat not held, or reporting (or putting in) more than
    the ledger holds, refuses the hand: it would create chips.
    """
    held: dict[int, int] = {}
    mismatches: list[dict[str, Any]] = []
    for seat in parsed.seats:
        sitting = sittings.get(seat.seat)
        if sitting is None or sitting.player != seat.player:
            raise refuse(
                Code.SEAT_NOT_HELD,
                rule="HS6",
                allowed={
                    "seats": {str(n): s.player for n, s in sorted(sittings.items())}
                },
                s=seat.seat,
                p=seat.player,
            )
        code = a.player_stack_code(player=sitting.player, table=table)
        held[seat.seat] = ledger.get(code, sitting.stack_cents)
        if seat.stack > held[seat.seat] or seat.put_in > held[seat.seat]:
            raise refuse(
                Code.STACK_ABOVE_LEDGER,
                rule="HS6",
                allowed={"seat": seat.seat, "max": held[seat.seat]},
                s=seat.seat,
                r=seat.stack,
                p=seat.put_in,
                k=held[seat.seat],
            )
        if seat.stack < held[seat.seat]:
            mismatches.append(
                {
                    "code": "stack_mismatch",
                    "rule": "HS6",
                    "detail": "The stack reported is below what the ledger holds; "
                    "booked on the ledger's stack, the difference frozen for review.",
                    "seat": seat.seat,
                    "player": seat.player,
                    "reported": seat.stack,
                    "recorded": held[seat.seat],
                    "frozen": held[seat.seat] - seat.stack,
                }
            )
    return held, mismatches


def _house_legs(
    table: str, rake: int, drop: int, drop_legs: Iterable[PlanLeg]
) -> list[PlanLeg]:
    """The rake to revenue and the drop to the pools, both as chips the table's
    boxes now hold (RK1–RK3, JD1)."""
    legs: list[PlanLeg] = []
    if rake:
        legs += [
            (a.RAKE_REVENUE, -rake),
            (a.table_rake_box_code(table=table), rake),
            (a.CHIP_FLOAT, -rake),
        ]
    if drop:
        legs += [
            *drop_legs,
            (a.table_jackpot_box_code(table=table), drop),
            (a.CHIP_FLOAT, -drop),
        ]
    return legs


def hand(
    *,
    table: str,
    parsed: HandRecord,
    settlement: Settlement,
    sittings: Mapping[int, Sitting],
    ledger: Mapping[str, int],
    cards: Mapping[int, Any],
    drop_legs: Iterable[PlanLeg] = (),
) -> HandPlan:
    """Plan a settled hand's booking (HS6, HS7, RK1–RK3, JD1).

    ``ledger`` holds the balances of the accounts read for it, by code (a seat's
    stack account not among them holds the session's stack); ``drop_legs`` credit
    the jackpot drop to the pools (``cardroom.hooks``). Each seat's stack account
    moves by what he put in less what came back and what he was paid. HS7: pushes
    (``awarded``) that don't add up to the pots after rake and drop are booked as
    the table paid them; the chips missing (or pushed from elsewhere) wait in the
    table's suspense account until the floor corrects the pot.
    """
    held, mismatches = _held(parsed, sittings, ledger, table)
    exceptions = [msgspec.to_builtins(e) for e in settlement.exceptions]
    exceptions += mismatches
    won = {s.seat: s.won for s in settlement.seats}
    paid = dict(parsed.awarded) if parsed.awarded is not None else won
    mispaid_total = sum(paid.values()) - sum(won.values())
    if mispaid_total:
        for exception in exceptions:
            if exception["code"] == "mispaid_pot":
                exception["pushed_total"] = sum(paid.values())
                exception["due_total"] = sum(won.values())
                exception["suspense"] = mispaid_total
    legs: list[PlanLeg] = []
    frozen: list[Frozen] = []
    seat_rows: list[dict[str, Any]] = []
    stacks: list[tuple[int, int, int]] = []
    dealt = {s.seat: s for s in parsed.seats}
    for row in settlement.seats:
        sitting, seat = sittings[row.seat], dealt[row.seat]
        got = paid.get(row.seat, 0)
        final = row.stack - row.put_in + row.returned + got
        code = a.player_stack_code(player=sitting.player, table=table)
        legs.append((code, row.put_in - row.returned - got))
        if row.stack < held[row.seat]:
            frozen.append(Frozen(sitting, row.stack, held[row.seat]))
        seat_rows.append(
            {
                "seat": row.seat,
                "player_id": sitting.player_id,
                "session_id": sitting.session_id,
                "stack_cents": row.stack,
                "put_in_cents": row.put_in,
                "returned_cents": row.returned,
                "won_cents": got,
                "final_stack_cents": final,
                "present": seat.present,
                "folded": seat.folded,
                "cards": cards.get(row.seat),
                "description": row.hand or "",
            }
        )
        stacks.append((sitting.session_id, final, parsed.hand_no))
    if mispaid_total:
        legs.append((a.table_suspense_code(table=table), mispaid_total))
    legs += _house_legs(table, settlement.rake, settlement.jackpot_drop, drop_legs)
    return HandPlan(
        Plan.of("hand", legs),
        tuple(frozen),
        tuple(seat_rows),
        tuple(stacks),
        tuple(exceptions),
    )
