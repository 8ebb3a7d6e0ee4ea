"""Helpers the tournament's use cases share: the event found and locked, the entry
locked, the checks every sale makes, postings booked, bounties paid and the winner
recorded (TO1, TO4, TO8). Private to ``tournaments.services``: its names are public
for the package's modules, and ``tournaments.services`` exports what others call.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User

from accounting.domain.accounts import drawer_cash_code
from accounting.domain.postings import Plan
from accounting.models import Account, Player, Shift, Transaction
from accounting.services import Leg, legs_resolve, plan_post
from accounting.services.cage import payable_create
from tournaments import chart, selectors
from tournaments.domain import postings
from tournaments.errors import Code, conflict, invalid, missing, refuse
from tournaments.models import (
    BountyPayment,
    Bust,
    Entry,
    Event,
)


def _accounts(
    plan: Plan, *, currency: str, rule: str | None = None
) -> dict[str, Account]:
    """The tournaments' accounts ``plan`` names, opened and read; with ``rule``,
    once they hold what it takes from them (:func:`postings.covered`)."""
    accounts = chart.opened(plan.legs, currency=currency)
    if rule is not None:
        balances = {code: a.balance_cents for code, a in accounts.items()}
        postings.covered(plan, balances, rule=rule)
    return accounts


def plan_book(
    plan: Plan, *, currency: str, rule: str | None = None, **kwargs: Any
) -> Transaction:
    """Post ``plan`` (:func:`accounting.services.plan_post`) with the tournaments'
    accounts of :func:`_accounts`; ``kwargs`` as ``transaction_post``'s."""
    known = _accounts(plan, currency=currency, rule=rule)
    return plan_post(plan, currency=currency, known=known, **kwargs)


def receipt_legs(
    plan_of: Callable[[str], Plan], *, currency: str, rule: str | None = None
) -> Any:
    """A cage receipt's ``legs_for``: the plan for the shift's drawer cash, its
    legs resolved (:func:`accounting.services.cage.receipt_issue`)."""

    def legs(shift: Shift, player: Player, cents: int) -> list[Leg]:
        plan = plan_of(drawer_cash_code(cage=shift.cage.code, shift=shift.pk))
        known = _accounts(plan, currency=currency, rule=rule)
        return legs_resolve(plan.legs, currency=currency, known=known)

    return legs


def event_get(*, code: str, lock: bool = False) -> Event:
    """Return the event ``code``, locked for the rest of the transaction if asked.

    Raises :class:`NotFound`.
    """
    events = Event.objects.select_related("structure")
    if lock:
        events = events.select_for_update(of=("self",))
    try:
        return events.get(code=code)
    except Event.DoesNotExist:
        raise missing(Code.NO_SUCH_EVENT, code=code) from None


def event_locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def event_open_check(event: Event) -> None:
    if event.status not in (Event.Status.SCHEDULED, Event.Status.RUNNING):
        raise refuse(
            Code.EVENT_CLOSED,
            rule="TO1",
            code=event.code,
            status=event.get_status_display(),
        )


def _level_check(level: object) -> int:
    if isinstance(level, bool) or not isinstance(level, int) or level < 0:
        raise invalid(Code.INVALID_LEVEL)
    return level


def cage_windows_check(
    event: Event, *, at: datetime, believed: object = None
) -> selectors.CageWindows:
    """What the event's clock on the server opens at ``at`` (TO1, TO12).

    ``believed`` is the level the client believes the clock is at (the structure's
    number, breaks counted, 0 before the start), or None: a client never decides
    the level, it can only be wrong about it.

    Raises :class:`Invalid` for a level that is no whole number from 0, and
    :class:`Conflict` (TO12, ``level_mismatch``) with the server's level in
    ``allowed`` when the client's differs.
    """
    windows = selectors.cage_windows(event=event, at=at)
    if believed is not None and _level_check(believed) != windows.number:
        raise conflict(
            Code.LEVEL_MISMATCH,
            rule="TO12",
            allowed={"level": windows.number, "on_break": windows.on_break},
            level=windows.number,
            believed=believed,
        )
    return windows


def entry_locked(entry: Entry) -> Entry:
    locked = (
        Entry.objects.select_for_update()
        .select_related("event", "player")
        .get(pk=entry.pk)
    )
    if locked.status != Entry.Status.ACTIVE:
        raise refuse(
            Code.ENTRY_NOT_PLAYING,
            rule="TO1",
            no=locked.number,
            status=locked.get_status_display(),
        )
    return locked


def bounty_pay(
    *,
    event: Event,
    winner: Entry,
    amount: int,
    added: int,
    reason: str,
    by: User | None,
    bust: Bust | None,
    at: datetime,
) -> BountyPayment:
    """Book a bounty: paid part to awards payable for the cage (TO8, CA6)."""
    payable = None
    if amount:
        currency = event.currency
        posting = plan_book(
            postings.bounty(event=event.code, cents=amount),
            currency=currency,
            rule="TO8",
            posted_by=by,
            source="" if by else "tournament",
            reference=f"{event.code} bounty",
            posted_at=at,
        )
        payable = payable_create(
            player=winner.player,
            amount_cents=amount,
            reference=f"{event.code} bounty #{winner.number}",
            approved_by=by,
            booking=posting,
            currency=currency,
        )
    return BountyPayment.objects.create(
        event=event,
        bust=bust,
        winner=winner,
        amount_cents=amount,
        added_to_bounty_cents=added,
        reason=reason,
        payable=payable,
        at=at,
    )


def winner_record(
    *, event: Event, winner: Entry, by: User | None, at: datetime
) -> None:
    Entry.objects.filter(pk=winner.pk).update(
        status=Entry.Status.WON, place=1, finished_at=at
    )
    if event.bounty_kind != Event.Bounty.NONE:
        own = selectors.bounty_of(entry=winner)
        if own:
            bounty_pay(
                event=event,
                winner=winner,
                amount=own,
                added=0,
                reason="own",
                by=by,
                bust=None,
                at=at,
            )
