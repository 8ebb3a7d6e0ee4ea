"""Deals: offers computed, proposed by the floor, signed by every player left, then
approved by a second staff member; only the approval binds the deal, ends the event
when nothing is left to play for and lets the payout sheet follow (TO5). A deal is
not a chopped pot: the bounties still on the players' heads go as the deal says
(TO8), by default each player keeping his own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounting.services import retry_on_conflict
from core.errors import SharedCode
from tournaments import selectors
from tournaments.errors import Code, conflict, invalid, refuse
from tournaments.models import (
    Deal,
    DealSignature,
    Entry,
    Event,
)
from tournaments.services._shared import bounty_pay, event_locked


@transaction.atomic
def deal_propose(
    *,
    event: Event,
    method: str,
    stacks: Mapping[int, int],
    button_order: Sequence[int],
    amounts: Mapping[int, int],
    by: User,
    left_in_play_cents: int = 0,
    bounties: Mapping[int, int] | None = None,
    at: datetime | None = None,
) -> Deal:
    """Record the deal the players agreed, with the figures offered (TO5).

    ``amounts`` (entry id → cents) and ``left_in_play_cents`` add up to the prizes
    still to be paid. ``bounties`` (entry id → cents) shares the bounties still on
    the players' heads (TO8: a deal is not a chopped pot); ``None`` leaves each
    player his own. A deal that leaves prize money to play for leaves the bounties
    on the heads, to be won by busting. It binds once every player in it has
    signed and a second person approved it (:func:`deal_approve`).

    Raises :class:`Refusal` (TO5) for a deal leaving a player out, an order from
    the button that doesn't name each player once, or figures not adding up, (TO8)
    for bounties shared otherwise than the heads hold; :class:`Invalid` for
    amounts that aren't cents; :class:`Conflict` when the event has a signed deal
    already.
    """
    event = event_locked(event)
    left = selectors.deal_players(event, stacks)
    if sorted(amounts) != left:
        raise refuse(Code.DEAL_INCOMPLETE, rule="TO5", allowed={"entries": left})
    if method not in Deal.Method.values:
        raise invalid(Code.UNKNOWN_METHOD)
    if sorted(button_order) != left:
        raise refuse(Code.BUTTON_ORDER, rule="TO5", allowed={"entries": left})
    if Deal.objects.filter(
        event=event, status__in=[Deal.Status.SIGNED, Deal.Status.APPROVED]
    ).exists():
        raise conflict(Code.DEAL_BINDING)
    prizes = selectors.prizes_left(event, len(left))
    if any(_not_cents(v) for v in amounts.values()) or _not_cents(left_in_play_cents):
        raise invalid(SharedCode.INVALID_AMOUNT)
    if sum(amounts.values()) + left_in_play_cents != sum(prizes):
        raise refuse(
            Code.DEAL_DOES_NOT_ADD_UP,
            rule="TO5",
            allowed={"total": sum(prizes)},
            pool=sum(prizes),
            sum=sum(amounts.values()) + left_in_play_cents,
        )
    shared = _bounties_shared(event, left, bounties, left_in_play_cents)
    offers = selectors.deal_offers(event=event, stacks=stacks)
    return Deal.objects.create(
        event=event,
        method=method,
        pool_cents=sum(prizes),
        offers={
            "stacks": {str(k): v for k, v in stacks.items()},
            "button_order": list(button_order),
            **{
                m: {str(k): v for k, v in figures.items()}
                for m, figures in offers.items()
            },
        },
        amounts={str(k): v for k, v in amounts.items()},
        left_in_play_cents=left_in_play_cents,
        bounties={str(k): v for k, v in shared.items()},
        recorded_by=by,
        recorded_at=at or timezone.now(),
    )


def _not_cents(value: object) -> bool:
    return isinstance(value, bool) or not isinstance(value, int) or value < 0


def _heads(event: Event, left: Sequence[int]) -> dict[int, int]:
    """The bounty on each player's head now (TO8), entry id → cents."""
    if event.bounty_kind == Event.Bounty.NONE:
        return {}
    return {
        entry.pk: selectors.bounty_of(entry=entry)
        for entry in Entry.objects.filter(pk__in=left).order_by("pk")
    }


def _bounties_shared(
    event: Event,
    left: Sequence[int],
    bounties: Mapping[int, int] | None,
    left_in_play_cents: int,
) -> dict[int, int]:
    """How the deal shares the bounties on the heads (TO8), entry id → cents:
    ``bounties`` when it names only players of the deal, in cents, adding up to
    what the heads hold; each player's own by default. Nothing when play goes on.

    Raises :class:`Refusal` (TO8) otherwise.
    """
    heads = _heads(event, left)
    if bounties is None:
        return {} if left_in_play_cents else {k: v for k, v in heads.items() if v}
    if event.bounty_kind == Event.Bounty.NONE:
        if any(bounties.values()):
            raise refuse(Code.DEAL_BOUNTIES, text="none", rule="TO8")
        return {}
    if left_in_play_cents:
        raise refuse(Code.DEAL_BOUNTIES, text="play_on", rule="TO8")
    if any(k not in heads for k in bounties) or any(
        _not_cents(v) for v in bounties.values()
    ):
        raise refuse(Code.DEAL_BOUNTIES, text="players", rule="TO8")
    total = sum(heads.values())
    if sum(bounties.values()) != total:
        raise refuse(
            Code.DEAL_BOUNTIES,
            rule="TO8",
            allowed={"total": total},
            heads=total,
            sum=sum(bounties.values()),
        )
    return {k: v for k, v in bounties.items() if v}


@retry_on_conflict()
@transaction.atomic
def deal_sign(
    *, deal: Deal, entry: Entry, witnessed_by: User, at: datetime | None = None
) -> Deal:
    """Record one player's signature of ``deal``, witnessed by a floor person
    (TO5). With the last signature the deal is signed, waiting for a second
    person's approval (:func:`deal_approve`); nothing is paid or ended yet.

    Raises :class:`Refusal` (TO5) for a player not in the deal or a deal not open;
    :class:`Conflict` when he has signed.
    """
    at = at or timezone.now()
    deal = Deal.objects.select_for_update().select_related("event").get(pk=deal.pk)
    if deal.status != Deal.Status.PROPOSED:
        raise refuse(Code.DEAL_NOT_OPEN, rule="TO5", s=deal.get_status_display())
    if str(entry.pk) not in deal.amounts:
        raise refuse(Code.NOT_IN_DEAL, rule="TO5")
    try:
        with transaction.atomic():
            DealSignature.objects.create(
                deal=deal, entry=entry, witnessed_by=witnessed_by, at=at
            )
    except IntegrityError as error:
        raise conflict(Code.ALREADY_SIGNED) from error
    if deal.signatures.count() < len(deal.amounts):
        return deal
    try:
        with transaction.atomic():
            Deal.objects.filter(pk=deal.pk).update(
                status=Deal.Status.SIGNED, signed_at=at
            )
    except IntegrityError as error:
        raise conflict(Code.DEAL_BINDING) from error
    deal.refresh_from_db()
    return deal


@retry_on_conflict()
@transaction.atomic
def deal_approve(*, deal: Deal, by: User, at: datetime | None = None) -> Deal:
    """A second person approves a deal every player signed (TO5, four-eyes): it
    binds. If nothing is left to play for, the event ends with places by chips
    (ties to the seat nearest the button) and the bounties still on the heads are
    paid as the deal shares them (TO8: a deal is not a chopped pot). The payout
    sheet follows (:func:`tournaments.services.payout_sheet_prepare`).

    Raises :class:`Refusal` (TO5) before every player signed or when the approver
    recorded the deal, (TO8) when the bounties on the heads changed since it was
    proposed; :class:`Conflict` when it is approved already.
    """
    at = at or timezone.now()
    deal = Deal.objects.select_for_update().select_related("event").get(pk=deal.pk)
    if deal.status == Deal.Status.APPROVED:
        raise conflict(Code.DEAL_APPROVED)
    if deal.status == Deal.Status.PROPOSED:
        raise refuse(
            Code.DEAL_NOT_SIGNED,
            rule="TO5",
            left=len(deal.amounts) - deal.signatures.count(),
        )
    if deal.status != Deal.Status.SIGNED:
        raise refuse(Code.DEAL_NOT_OPEN, rule="TO5", s=deal.get_status_display())
    if deal.recorded_by_id == by.pk:
        raise refuse(SharedCode.FOUR_EYES, text="deal", rule="TO5")
    event = event_locked(deal.event)
    Deal.objects.filter(pk=deal.pk).update(
        status=Deal.Status.APPROVED, approved_by=by, approved_at=at
    )
    deal.refresh_from_db()
    if deal.left_in_play_cents == 0:
        _deal_ends_event(deal=deal, event=event, by=by, at=at)
    return deal


def _deal_ends_event(*, deal: Deal, event: Event, by: User, at: datetime) -> None:
    """Places by chips, the bounties on the heads paid as the deal shares them
    (TO5, TO8)."""
    stacks = {int(k): v for k, v in deal.offers["stacks"].items()}
    button = [int(k) for k in deal.offers["button_order"]]
    order = sorted(stacks, key=lambda pk: (-stacks[pk], button.index(pk)))
    entries = {
        e.pk: e for e in Entry.objects.filter(pk__in=order).select_related("player")
    }
    if event.bounty_kind != Event.Bounty.NONE:
        heads = sum(_heads(event, order).values())
        shared = {int(k): v for k, v in deal.bounties.items()}
        if sum(shared.values()) != heads:
            raise refuse(
                Code.DEAL_BOUNTIES,
                rule="TO8",
                allowed={"total": heads},
                heads=heads,
                sum=sum(shared.values()),
            )
        for pk in order:
            if shared.get(pk):
                bounty_pay(
                    event=event,
                    winner=entries[pk],
                    amount=shared[pk],
                    added=0,
                    reason="deal",
                    by=by,
                    bust=None,
                    at=at,
                )
    for place, pk in enumerate(order, start=1):
        Entry.objects.filter(pk=pk).update(
            status=Entry.Status.WON, place=place, finished_at=at
        )
