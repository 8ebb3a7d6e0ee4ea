"""Where the apps that build on the floor plug into it, named in settings.

The floor knows no app above it (DESIGN.md: dependencies point one way); these
settings name, by import path, the functions of those apps it calls:

- ``CARDROOM_JACKPOT_DROP_LEGS``: ``f(*, room, table, amount_cents, accounts) ->
  list[Leg]``, crediting a hand's jackpot drop to the room's pools (JD4).
  ``accounts`` are the open accounts the floor read for the hand, by code, with
  ``jackpot:drops`` among them: the function takes them from there instead of
  reading them again. Without the setting the drop is credited to ``jackpot:drops``.
  The floor takes its legs into the hand's posting plan as (account code, cents).
  A function with a ``pools_sql`` attribute, ``() -> str``, a scalar sub-select
  over the room ``%(room)s``, is given that sub-select's text as ``pools``: the
  floor reads it in its own statement for a hand's booking, so the pools cost no
  statement of their own.
- ``CARDROOM_HAND_BOOKED``: functions ``f(hand_id: int)`` called after the
  transaction that booked a hand commits. None by default: the jackpots qualify
  hands by a sweep (``jackpots.tasks.qualify_new_task``, BB1, HM1), so booking a
  hand sends no broker message.
- ``CARDROOM_SEAT_CHECKS``: functions ``f(*, player, game, now)`` called before a
  player is seated; each raises a refusal when a rule of its app forbids the seat
  (WL7: barred from the game).
- ``CARDROOM_VOID_CHECKS``: functions ``f(*, hand)`` called before a hand's void is
  asked for and again before it is booked; each raises a refusal when what its app
  booked on the hand can't be taken back by the void (an approved jackpot award).
- ``CARDROOM_HAND_VOIDED``: functions ``f(*, hand, now)`` called in the void's
  transaction once the hand is void: what an app found in the hand and has not
  paid goes with it (PR4: a promotion's pending prize is cancelled).
- ``CARDROOM_TABLE_STATE``: functions ``f(*, table, now) -> dict`` adding their
  app's part to a table's state for its terminal (``GET tables/{table}/state``):
  the waiting lists' calls to the table (``calls``), the room's jackpots
  (``jackpots``), the tournament the table plays in (``tournament``). Each reads
  and writes nothing else.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

from accounting.domain import accounts as chart
from accounting.domain.postings import PlanLeg
from accounting.models import Account
from accounting.services import Leg


def jackpot_drop_legs(
    *,
    room: Any,
    table: Any,
    amount_cents: int,
    accounts: MutableMapping[str, Account] | None = None,
    pools: str | None = None,
) -> list[PlanLeg]:
    """Return the legs (account code, cents) crediting a hand's drop to the jackpot
    pools (JD1, JD4); ``pools`` as :func:`jackpot_drop_pools_sql` read them.

    The accounts the pools' function names are added to ``accounts``, so the hand's
    booking resolves them without reading them again.
    """
    known = accounts if accounts is not None else {}
    path = getattr(settings, "CARDROOM_JACKPOT_DROP_LEGS", None)
    if path:
        read = {} if pools is None else {"pools": pools}
        legs: list[Leg] = import_string(path)(
            room=room, table=table, amount_cents=amount_cents, accounts=known, **read
        )
        known.update((leg.account.code, leg.account) for leg in legs)
        return [(leg.account.code, leg.amount_cents) for leg in legs]
    return [(chart.JACKPOT_DROPS, -amount_cents)]


def jackpot_drop_pools_sql() -> str | None:
    """The sub-select reading the room's pools for the drop-legs function, if it
    has one (its ``pools_sql``); asked once a process for each function."""
    path = getattr(settings, "CARDROOM_JACKPOT_DROP_LEGS", None)
    return _pools_sql(path) if path else None


@functools.cache
def _pools_sql(path: str) -> str | None:
    pools_sql = getattr(import_string(path), "pools_sql", None)
    return pools_sql() if pools_sql is not None else None


def after_hand_booked(hand_id: int) -> None:
    """Call the ``CARDROOM_HAND_BOOKED`` functions once the booking commits."""
    receivers: list[Callable[[int], Any]] = [
        import_string(path) for path in getattr(settings, "CARDROOM_HAND_BOOKED", [])
    ]
    for receiver in receivers:
        transaction.on_commit(functools.partial(receiver, hand_id))


def seat_checks(*, player: Any, game: Any, now: Any) -> None:
    """Run the ``CARDROOM_SEAT_CHECKS`` functions; they raise to refuse the seat."""
    for path in getattr(settings, "CARDROOM_SEAT_CHECKS", []):
        import_string(path)(player=player, game=game, now=now)


def void_checks(*, hand: Any) -> None:
    """Run the ``CARDROOM_VOID_CHECKS`` functions; they raise to refuse the void."""
    for path in getattr(settings, "CARDROOM_VOID_CHECKS", []):
        import_string(path)(hand=hand)


def hand_voided(*, hand: Any, at: Any) -> None:
    """Run the ``CARDROOM_HAND_VOIDED`` functions, in the void's transaction."""
    for path in getattr(settings, "CARDROOM_HAND_VOIDED", []):
        import_string(path)(hand=hand, now=at)


def table_state_parts(*, table: Any, now: Any) -> dict[str, Any]:
    """What the ``CARDROOM_TABLE_STATE`` functions add to ``table``'s state, in
    the settings' order (a later one's key wins)."""
    found: dict[str, Any] = {}
    for path in getattr(settings, "CARDROOM_TABLE_STATE", []):
        found.update(import_string(path)(table=table, now=now))
    return found
