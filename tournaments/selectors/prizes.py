"""The money of an event: what a purchase costs and what is left to refund of it,
the prize pool and the house's overlay, the payout table, the prizes of the places
paid, a payout preview and the deals offered to the players left (TO1, TO5, TO7,
TO10)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Sum

from tournaments import chart
from tournaments.domain import deals, payouts
from tournaments.domain.deals import DealError
from tournaments.domain.postings import Price
from tournaments.errors import Code, refuse, refused_as
from tournaments.models import Deal, Entry, Event, Purchase, Refund
from tournaments.selectors.entries import entries_counted


def price_of(*, event: Event, kind: str) -> Price:
    """What an entry, a rebuy or the add-on costs and gives (TO1)."""
    if kind == Purchase.Kind.BUY_IN:
        return Price(
            event.buy_in_cents,
            event.fee_cents,
            event.staff_fee_cents,
            event.bounty_cents,
            event.starting_stack,
        )
    if kind == Purchase.Kind.REBUY:
        return Price(event.rebuy_cents, event.rebuy_fee_cents, 0, 0, event.rebuy_chips)
    return Price(event.addon_cents, event.addon_fee_cents, 0, 0, event.addon_chips)


def refund_left(*, purchase: Purchase) -> Price:
    """What is left to refund of ``purchase``, part by part (TO10); its chips when
    none of it was refunded yet."""
    given = Refund.objects.filter(purchase=purchase).aggregate(
        pool=Sum("prize_pool_cents"),
        fee=Sum("fee_cents"),
        staff=Sum("staff_fee_cents"),
        bounty=Sum("bounty_cents"),
    )
    return Price(
        purchase.prize_pool_cents - (given["pool"] or 0),
        purchase.fee_cents - (given["fee"] or 0),
        purchase.staff_fee_cents - (given["staff"] or 0),
        purchase.bounty_cents - (given["bounty"] or 0),
        purchase.chips,
    )


def buy_ins_cents(*, event: Event) -> int:
    """What the purchases put in the prize pool, less refunds, whole or in part
    (TO7, TO10)."""
    sold = Purchase.objects.filter(entry__event=event).aggregate(
        total=Sum("prize_pool_cents")
    )["total"]
    given_back = Refund.objects.filter(purchase__entry__event=event).aggregate(
        total=Sum("prize_pool_cents")
    )["total"]
    return (sold or 0) - (given_back or 0)


def prize_pool_cents(*, event: Event) -> int:
    """The prize pool's balance in the ledger (TO1)."""
    return chart.prize_pool(event=event.code, currency=event.currency).balance_cents


def pool_and_overlay(*, event: Event) -> tuple[int, int]:
    """The pool the payouts share and the house's overlay (TO7)."""
    return payouts.pool_of(buy_ins_cents(event=event), event.guarantee_cents)


def payout_table(*, event: Event) -> list[tuple[int, list[int]]] | None:
    """The event's payout table, or ``None`` for the default (TO7)."""
    if not event.payout_table:
        return None
    return [
        (int(row["min_entries"]), list(row["shares"])) for row in event.payout_table
    ]


def payout_table_paid(*, event: Event) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The event's payout table as it is paid: its own rows, or the default."""
    if event.payout_table:
        return tuple(
            (int(row["min_entries"]), tuple(int(s) for s in row["shares"]))
            for row in event.payout_table
        )
    return payouts.DEFAULT_TABLE


def place_prizes(*, event: Event) -> list[int]:
    """The prize of each place paid, first place first, adding up to the pool (TO7)."""
    pool, _overlay = pool_and_overlay(event=event)
    shares = payouts.shares_for(
        max(entries_counted(event=event), 1), payout_table(event=event)
    )
    return payouts.prizes(
        pool, shares, unit=event.payout_unit_cents, remainder=event.payout_remainder
    )


@dataclass(frozen=True, slots=True)
class PreviewPlace:
    """One place paid in a preview: its share (basis points; ``None`` for a
    satellite) and its prize in cents, or a satellite seat's value."""

    place: int
    share: int | None
    prize_cents: int
    seat_cents: int


@dataclass(frozen=True, slots=True)
class PayoutPreview:
    """What ``entries`` entries (and rebuys and add-ons) would pay (TO7)."""

    entries: int
    buy_ins_cents: int
    overlay_cents: int
    pool_cents: int
    places: tuple[PreviewPlace, ...]


def payout_preview(
    *, event: Event, entries: int, rebuys: int = 0, addons: int = 0
) -> PayoutPreview:
    """The places and prizes ``event`` would pay with ``entries`` entries,
    ``rebuys`` rebuys and ``addons`` add-ons, as its payout sheet computes them:
    the pool is the buy-ins topped up to the guarantee, each place its share
    rounded down to the event's unit, the remainder placed by its rule (TO7); a
    satellite pays seats in its target event, then cash.

    Raises :class:`Refusal` (TO7) when no place can be paid.
    """
    if entries < 1:
        raise refuse(Code.PAYOUT_REFUSED, text="no_entries", rule="TO7")
    buy_ins = (
        entries * event.buy_in_cents
        + rebuys * event.rebuy_cents
        + addons * event.addon_cents
    )
    pool, overlay = payouts.pool_of(buy_ins, event.guarantee_cents)
    if event.satellite_target_id is not None:
        target = Event.objects.get(pk=event.satellite_target_id)
        seats = payouts.satellite(pool, target.entry_total_cents)
        places = tuple(
            PreviewPlace(n, None, p.cash_cents, p.seat_cents)
            for n, p in enumerate(seats, start=1)
        )
    else:
        shares = payouts.shares_for(entries, payout_table_paid(event=event))
        amounts = payouts.prizes(
            pool,
            shares,
            unit=event.payout_unit_cents,
            remainder=event.payout_remainder,
        )
        places = tuple(
            PreviewPlace(n, share, amount, 0)
            for n, (share, amount) in enumerate(zip(shares, amounts, strict=True), 1)
        )
    return PayoutPreview(entries, buy_ins, overlay, pool, places)


def deal_offers(
    *, event: Event, stacks: Mapping[int, int]
) -> dict[str, dict[int, int]]:
    """The chip-chop and ICM figures for the players left, keyed by entry id, for
    the prizes of the places they still play for (TO5). The players choose.

    Raises :class:`Refusal` (TO5) unless ``stacks`` names every entry still playing.
    """
    left = deal_players(event, stacks)
    prizes = prizes_left(event, len(left))
    unit = event.payout_unit_cents
    try:
        return {
            Deal.Method.CHIP_CHOP: deals.chip_chop(stacks, prizes, unit=unit),
            Deal.Method.ICM: deals.icm(stacks, prizes, unit=unit),
        }
    except DealError as error:
        raise refused_as(Code.DEAL_REFUSED, error, rule="TO5") from error


def deal_players(event: Event, stacks: Mapping[int, int]) -> list[int]:
    """The entries still playing, by id, once ``stacks`` names each of them; a
    satellite makes no deal (TO5)."""
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


def prizes_left(event: Event, players: int) -> list[int]:
    """The prizes of the places ``players`` players still play for, first place
    first (TO5, TO7)."""
    prizes = place_prizes(event=event)
    return [prizes[i] if i < len(prizes) else 0 for i in range(players)]
