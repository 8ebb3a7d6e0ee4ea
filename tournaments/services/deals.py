"""Deals: offers computed, proposed by the floor, signed by every player left (TO5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounting.services import retry_on_conflict
from tournaments import selectors
from tournaments.domain import bounties, deals
from tournaments.domain.deals import DealError
from tournaments.errors import Code, conflict, invalid, refuse, refused_as
from tournaments.models import (
    Deal,
    DealSignature,
    Entry,
    Event,
)
from tournaments.services._shared import _bounty_pay, _event_locked


def deal_offers(
    *, event: Event, stacks: Mapping[int, int]
) -> dict[str, dict[int, int]]:
    """The chip-chop and ICM figures for the players left, keyed by entry id, for
    the prizes of the places they still play for (TO5). The players choose.

    Raises :class:`Refusal` (TO5) unless ``stacks`` names every entry still playing.
    """
    left = _deal_players(event, stacks)
    prizes = _prizes_left(event, len(left))
    unit = event.payout_unit_cents
    try:
        return {
            Deal.Method.CHIP_CHOP: deals.chip_chop(stacks, prizes, unit=unit),
            Deal.Method.ICM: deals.icm(stacks, prizes, unit=unit),
        }
    except DealError as error:
        raise refused_as(Code.DEAL_REFUSED, error, rule="TO5") from error


def _deal_players(event: Event, stacks: Mapping[int, int]) -> list[int]:
    if event.satellite_target_id is not None:
        # Its places are seats of a fixed value, not the cash the figures share.
        raise refuse(Code.SATELLITE_DEAL, rule="TO5")
    left = list(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if sorted(stacks) != left:
        raise refuse(Code.DEAL_INCOMPLETE, rule="TO5", allowed={"entries": left})
    return left


def _prizes_left(event: Event, players: int) -> list[int]:
    prizes = selectors.place_prizes(event=event)
    return [prizes[i] if i < len(prizes) else 0 for i in range(players)]


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
    at: datetime | None = None,
) -> Deal:
    """Record the deal the players agreed, with the figures offered (TO5).

    ``amounts`` (entry id → cents) and ``left_in_play_cents`` add up to the prizes
    still to be paid. It binds once every player in it has signed.

    Raises :class:`Refusal` (TO5) for a deal leaving a player out or not adding up.
    """
    event = _event_locked(event)
    left = _deal_players(event, stacks)
    if sorted(amounts) != left:
        raise refuse(Code.DEAL_INCOMPLETE, rule="TO5", allowed={"entries": left})
    if method not in Deal.Method.values:
        raise invalid(Code.UNKNOWN_METHOD)
    if sorted(button_order) != left:
        raise invalid(Code.BUTTON_ORDER)
    prizes = _prizes_left(event, len(left))
    if (
        any(
            isinstance(v, bool) or not isinstance(v, int) or v < 0
            for v in amounts.values()
        )
        or left_in_play_cents < 0
    ):
        raise invalid(Code.INVALID_AMOUNT)
    if sum(amounts.values()) + left_in_play_cents != sum(prizes):
        raise refuse(
            Code.DEAL_DOES_NOT_ADD_UP,
            rule="TO5",
            allowed={"total": sum(prizes)},
            pool=sum(prizes),
            sum=sum(amounts.values()) + left_in_play_cents,
        )
    offers = deal_offers(event=event, stacks=stacks)
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
        recorded_by=by,
        recorded_at=at or timezone.now(),
    )


@retry_on_conflict()
@transaction.atomic
def deal_sign(
    *, deal: Deal, entry: Entry, witnessed_by: User, at: datetime | None = None
) -> Deal:
    """Record one player's signature of ``deal`` (TO5). With the last signature the
    deal binds: if nothing is left to play for, the event ends with places by chips
    (ties to the seat nearest the button) and the bounties left go to the biggest
    stack (TO8, APL, TDA R21).

    Raises :class:`Refusal` (TO5) for a player not in the deal or a deal not open.
    """
    at = at or timezone.now()
    deal = Deal.objects.select_for_update().select_related("event").get(pk=deal.pk)
    if deal.status != Deal.Status.PROPOSED:
        raise refuse(Code.DEAL_NOT_OPEN, rule="TO5", s=deal.status)
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
    Deal.objects.filter(pk=deal.pk).update(status=Deal.Status.SIGNED, signed_at=at)
    deal.refresh_from_db()
    if deal.left_in_play_cents == 0:
        _deal_ends_event(deal=deal, by=witnessed_by, at=at)
    return deal


def _deal_ends_event(*, deal: Deal, by: User, at: datetime) -> None:
    event = deal.event
    stacks = {int(k): v for k, v in deal.offers["stacks"].items()}
    button = [int(k) for k in deal.offers["button_order"]]
    order = sorted(stacks, key=lambda pk: (-stacks[pk], button.index(pk)))
    entries = {
        e.pk: e for e in Entry.objects.filter(pk__in=order).select_related("player")
    }
    if event.bounty_kind != Event.Bounty.NONE:
        heads = sum(selectors.bounty_of(entry=entries[pk]) for pk in order)
        biggest = bounties.chop_leftover(stacks, button)
        if heads:
            _bounty_pay(
                event=event,
                winner=entries[biggest],
                amount=heads,
                added=0,
                reason="chop",
                by=by,
                bust=None,
                at=at,
            )
    for place, pk in enumerate(order, start=1):
        Entry.objects.filter(pk=pk).update(
            status=Entry.Status.WON, place=place, finished_at=at
        )
