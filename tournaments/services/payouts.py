"""Payouts: the payout sheet, from the event's standings, prepared by one person
and approved by another, satellite seats, payouts released and paid at the cage
(TO7, TO9, CA6).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.models import Receipt
from accounting.services import retry_on_conflict
from accounting.services.cage import (
    Door,
    award_check,
    award_held,
    held_award_decide,
    payable_create,
    payable_pay,
)
from core.errors import SharedCode
from jackpots.models import Pool
from tournaments import selectors
from tournaments.domain import payouts as payout_rules
from tournaments.domain import places, postings
from tournaments.domain.payouts import PayoutError
from tournaments.domain.places import Place, PlacesError
from tournaments.errors import Code, conflict, invalid, refuse, refused_as
from tournaments.models import (
    Deal,
    Entry,
    Event,
    Payout,
    PayoutSheet,
    Purchase,
)
from tournaments.services._entries import entry_open, purchase_record
from tournaments.services._shared import event_locked, plan_book


def _lines_of(event: Event, deal: Deal | None) -> list[tuple[Entry, Place, int]]:
    """Each finished entry's place and prize (TO4, TO5, TO7)."""
    prizes = selectors.place_prizes(event=event)
    unit = event.payout_unit_cents
    dealt = {int(k): v for k, v in deal.amounts.items()} if deal else {}
    final = selectors.event_standings(event=event)
    entries = {
        e.pk: e for e in Entry.objects.filter(pk__in=final).select_related("player")
    }
    lines: list[tuple[Entry, Place, int]] = []
    by_place: dict[Place, list[Entry]] = {}
    for pk, place in final.items():
        entry = entries[pk]
        Entry.objects.filter(pk=pk).update(place=place.high)
        if deal is not None and pk in dealt:
            # The deal's figure, and what was left to play for to its winner (TO5).
            won = deal.left_in_play_cents if place.high == 1 else 0
            lines.append((entry, place, dealt[pk] + won))
            continue
        by_place.setdefault(place, []).append(entry)
    for place, group in by_place.items():
        # The house rule for a shared place's odd units: the entry that joined first.
        group.sort(key=lambda e: e.number)
        split = places.shared_prizes(place, prizes, [e.pk for e in group], unit=unit)
        for entry in group:
            lines.append((entry, place, split[entry.pk]))
    return [line for line in lines if line[2] > 0]


@transaction.atomic
def payout_sheet_prepare(
    *,
    event: Event,
    by: User,
    holds: Mapping[int, str] | None = None,
    at: datetime | None = None,
) -> PayoutSheet:
    """Prepare the event's payout sheet once every entry has finished (TO7, TO9):
    the places' prizes from the pool (buy-ins plus the overlay), the shared places
    split, the deal's figures, adding up to the pool to the cent. ``holds`` (entry id
    → why) marks prizes held for a disqualified or absent player (TDA RP-23).

    Raises :class:`Refusal` (TO7) while entries play or if the lines don't add up,
    (TO5) while a signed deal waits for its approval.
    """
    event = event_locked(event)
    if event.status != Event.Status.RUNNING:
        raise refuse(Code.EVENT_NOT_RUNNING, text="payouts", rule="TO7")
    if Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).exists():
        raise refuse(Code.EVENT_NOT_OVER, rule="TO7")
    if PayoutSheet.objects.filter(event=event).exists():
        raise conflict(Code.SHEET_EXISTS)
    if Deal.objects.filter(event=event, status=Deal.Status.SIGNED).exists():
        raise refuse(Code.DEAL_NOT_APPROVED, rule="TO5")
    deal = Deal.objects.filter(event=event, status=Deal.Status.APPROVED).first()
    pool, overlay = selectors.pool_and_overlay(event=event)
    holds = holds or {}
    try:
        if event.satellite_target_id is not None:
            lines = _satellite_lines(event, pool, holds)
        elif event.satellite_seat_cents:
            raise refuse(Code.SATELLITE_WITHOUT_TARGET, rule="TO7")
        else:
            lines = [(e, p, cash, 0) for e, p, cash in _lines_of(event, deal)]
    except (PayoutError, PlacesError) as error:
        raise refused_as(Code.PAYOUT_REFUSED, error, rule="TO7") from error
    total = sum(cash + seat for _e, _p, cash, seat in lines)
    if total != pool:
        raise refuse(
            Code.PAYOUTS_DO_NOT_ADD_UP,
            rule="TO7",
            allowed={"pool": pool},
            total=total,
            pool=pool,
        )
    sheet = PayoutSheet.objects.create(
        event=event,
        pool_cents=pool,
        overlay_cents=overlay,
        deal=None if event.satellite_target_id else deal,
        prepared_by=by,
        prepared_at=at or timezone.now(),
    )
    for entry, place, amount, seat in lines:
        reason = holds.get(entry.pk, "")
        if entry.status == Entry.Status.DISQUALIFIED and not reason:
            reason = _("disqualified (TDA RP-23)")
        if not reason and award_held(player=entry.player, door=Door.PRIZE):
            reason = _("restricted player: held until a manager decides (PP6)")
        Payout.objects.create(
            sheet=sheet,
            entry=entry,
            place_high=place.high,
            place_low=place.low,
            amount_cents=amount,
            seat_cents=seat,
            hold_reason=reason,
        )
    return sheet


def _satellite_lines(
    event: Event, pool: int, holds: Mapping[int, str]
) -> list[tuple[Entry, Place, int, int]]:
    """A satellite's places (TO7): a seat in its target event (the entry's full
    price) for each place the pool buys, then the rest in cash to the next place.

    Players sharing places share seats only when every place they share is a
    seat, and cash only when none is; a seat is not held (TDA RP-23).

    Raises :class:`Refusal` (TO7) for a target in another currency or not open,
    a seat shared with cash, a held seat.
    """
    target = Event.objects.get(pk=int(event.satellite_target_id or 0))
    if target.currency != event.currency:
        raise refuse(Code.SATELLITE_CURRENCY, rule="TO7")
    if target.status not in (Event.Status.SCHEDULED, Event.Status.RUNNING):
        raise refuse(
            Code.SATELLITE_TARGET_CLOSED,
            rule="TO7",
            code=target.code,
            status=target.get_status_display(),
        )
    places_paid = payout_rules.satellite(pool, target.entry_total_cents)
    final = selectors.event_standings(event=event)
    entries = {
        e.pk: e for e in Entry.objects.filter(pk__in=final).select_related("player")
    }
    groups: dict[Place, list[Entry]] = {}
    for pk, place in final.items():
        Entry.objects.filter(pk=pk).update(place=place.high)
        groups.setdefault(place, []).append(entries[pk])
    lines: list[tuple[Entry, Place, int, int]] = []
    for place, group in groups.items():
        group.sort(key=lambda e: e.number)
        paid = places_paid[place.high - 1 : place.low]
        seats = [p.seat_cents for p in paid if p.seat_cents]
        if seats and (len(seats) != len(group)):
            raise refuse(
                Code.SATELLITE_SEAT_SHARED, rule="TO7", high=place.high, low=place.low
            )
        if seats:
            for entry in group:
                if holds.get(entry.pk) or entry.status == Entry.Status.DISQUALIFIED:
                    raise refuse(Code.SATELLITE_SEAT_HELD, rule="TO9")
                lines.append((entry, place, 0, target.entry_total_cents))
            continue
        cash = [p.cash_cents for p in places_paid]
        split = places.shared_prizes(
            place, cash, [e.pk for e in group], unit=event.payout_unit_cents
        )
        lines.extend((e, place, split[e.pk], 0) for e in group if split[e.pk] > 0)
    return lines


def _seat_pay(*, satellite: Event, line: Payout, by: User, at: datetime) -> Entry:
    """Register a satellite's winner into its target event as a paid entry (TO7):
    one posting from the satellite's prize pool to the target's pool, fees and
    bounty, as an entry at the cage would book them, with no cash moving.

    The house honours a seat won after the target's late registration closed: he
    is registered at its last registration level (TO1, TDA "MLR"). The seat is
    a prize: a winner under age is refused (PP2), a restricted one's is held
    (PP6, ``award_held``), before anything is booked."""
    award_check(player=line.entry.player, door=Door.PRIZE, at=at)
    target = event_locked(Event(pk=satellite.satellite_target_id))
    level = selectors.scheduled_level(event=target, at=at)
    entry = entry_open(
        event=target,
        player=line.entry.player.code,
        level=min(level, target.late_registration_level),
        at=at,
        by=by,
        at_door=False,
    )
    price = selectors.price_of(event=target, kind=Purchase.Kind.BUY_IN)
    posting = plan_book(
        postings.satellite_seat(
            satellite=satellite.code, target=target.code, price=price
        ),
        currency=satellite.currency,
        rule="TO7",
        posted_by=by,
        reference=f"{satellite.code} seat → {target.code} #{entry.number}",
        external_id=f"tournament:{satellite.code}:seat:{line.pk}",
        posted_at=at,
    )
    purchase_record(
        event=target,
        entry=entry,
        kind=Purchase.Kind.BUY_IN,
        price=price,
        posting=posting,
        receipt=None,
        by=by,
        note=f"{satellite.code} seat",
        at=at,
    )
    return entry


def _sheet_post(
    *, sheet: PayoutSheet, event: Event, lines: list[Payout], by: User, at: datetime
) -> Any:
    """Book an approved sheet: the house's overlay into the pool (TO7), satellite
    seats registered, then the pool into awards payable and the held account (TO9).
    Returns the payouts' posting (the first seat's when every place was a seat)."""
    held = sum(p.amount_cents for p in lines if p.hold_reason)
    payable = sum(p.amount_cents for p in lines if not p.hold_reason)
    seats = [p for p in lines if p.seat_cents]
    currency = event.currency
    if sheet.overlay_cents:
        # The house makes the guarantee: its own posting, so the audit shows it.
        plan_book(
            postings.overlay(event=event.code, cents=sheet.overlay_cents),
            currency=currency,
            posted_by=by,
            reference=f"{event.code} overlay",
            external_id=f"tournament:{event.code}:overlay",
            posted_at=at,
        )
    seat_postings = []
    for line in seats:
        # The seat is paid by registering him: no cash, no award (TO7).
        won = _seat_pay(satellite=event, line=line, by=by, at=at)
        Payout.objects.filter(pk=line.pk).update(status=Payout.Status.PAYABLE)
        Payout.objects.filter(pk=line.pk).update(
            status=Payout.Status.PAID, seat_entry=won
        )
        seat_postings.append(won.purchases.get().transaction)
    if payable + held or not seat_postings:
        posting = plan_book(
            postings.payouts(event=event.code, payable=payable, held=held),
            currency=currency,
            rule="TO7",
            posted_by=by,
            reference=f"{event.code} payout sheet",
            external_id=f"tournament:{event.code}:payout_sheet",
            posted_at=at,
        )
    else:
        # Every place was a seat: the sheet points at the first seat's posting.
        posting = seat_postings[0]
    return posting


@retry_on_conflict()
@transaction.atomic
def payout_sheet_approve(
    *, sheet: PayoutSheet, by: User, at: datetime | None = None
) -> PayoutSheet:
    """Approve a payout sheet: a second person (four-eyes, TO9). One posting moves
    the house's overlay into the pool (TO7), the next the pool into awards payable,
    or into the held account for held lines; each payable line becomes an award the
    cage pays (CA6). The prize pool is then empty.

    Raises :class:`Refusal` (TO9) when the approver prepared the sheet;
    :class:`Conflict` when it is approved already.
    """
    at = at or timezone.now()
    sheet = (
        PayoutSheet.objects.select_for_update().select_related("event").get(pk=sheet.pk)
    )
    if sheet.status == PayoutSheet.Status.APPROVED:
        raise conflict(Code.SHEET_APPROVED, text="sheet")
    if sheet.prepared_by_id == by.pk:
        raise refuse(SharedCode.FOUR_EYES, rule="TO9")
    event = event_locked(sheet.event)
    lines = list(sheet.lines.select_related("entry__player"))
    posting = _sheet_post(sheet=sheet, event=event, lines=lines, by=by, at=at)
    currency = event.currency
    for line in lines:
        if line.hold_reason:
            Payout.objects.filter(pk=line.pk).update(status=Payout.Status.HELD)
            continue
        if not line.amount_cents:
            continue
        award = payable_create(
            player=line.entry.player,
            amount_cents=line.amount_cents,
            reference=f"{event.code} place {line.place_high}",
            approved_by=by,
            created_by=sheet.prepared_by,
            booking=posting,
            currency=currency,
        )
        Payout.objects.filter(pk=line.pk).update(
            status=Payout.Status.PAYABLE, payable=award
        )
    PayoutSheet.objects.filter(pk=sheet.pk).update(
        status=PayoutSheet.Status.APPROVED,
        approved_by=by,
        approved_at=at,
        transaction=posting,
    )
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    sheet.refresh_from_db()
    return sheet


@retry_on_conflict()
@transaction.atomic
def payout_release(
    *, payout: Payout, by: User, reason: str, at: datetime | None = None
) -> Payout:
    """Release a held prize to the cage (TO9, TDA RP-23), by another person than who
    prepared the sheet; the held account moves to awards payable."""
    at = at or timezone.now()
    payout = (
        Payout.objects.select_for_update(of=("self",))
        .select_related("sheet__event", "entry__player")
        .get(pk=payout.pk)
    )
    if payout.status != Payout.Status.HELD:
        raise conflict(SharedCode.NOT_HELD)
    if not reason.strip():
        raise refuse(SharedCode.REASON_REQUIRED, text="release", rule="TO9")
    if payout.sheet.prepared_by_id == by.pk:
        raise refuse(SharedCode.FOUR_EYES, text="release", rule="TO9")
    event = payout.sheet.event
    posting = plan_book(
        postings.release(event=event.code, cents=payout.amount_cents),
        currency=event.currency,
        rule="TO9",
        posted_by=by,
        reference=f"{event.code} place {payout.place_high}",
        memo=reason,
        posted_at=at,
    )
    award = payable_create(
        player=payout.entry.player,
        amount_cents=payout.amount_cents,
        reference=f"{event.code} place {payout.place_high}",
        approved_by=by,
        created_by=payout.sheet.prepared_by,
        booking=posting,
        memo=reason,
        currency=event.currency,
    )
    if award_held(player=payout.entry.player, door=Door.PRIZE):
        # PP6: releasing a restricted player's prize is the decision to pay him.
        held_award_decide(
            payable=award, decision="pay", reason=reason, by=by, door=Door.PRIZE
        )
    Payout.objects.filter(pk=payout.pk).update(
        status=Payout.Status.PAYABLE, payable=award
    )
    payout.refresh_from_db()
    return payout


@retry_on_conflict()
@transaction.atomic
def payout_forfeit(
    *,
    payout: Payout,
    by: User,
    reason: str,
    destination: str,
    at: datetime | None = None,
) -> Payout:
    """Forfeit a held prize (TO9, TDA RP-23), by another person than who prepared
    the sheet (four-eyes, as a release), saying why and where the money goes, in one
    balanced posting out of the event's held account:

    - ``"house"``: to the house's tournament revenue (the posting's kind,
      ``tournament_forfeit``, tells it from the fees);
    - ``"jackpot:<pool>"``: added to the room's active jackpot pool ``<pool>`` in
      the event's currency, money still held in trust for players (JD5).

    Raises :class:`Invalid` for another destination; :class:`Refusal` (TO9) without
    a reason, by the sheet's preparer, or to a pool the room hasn't;
    :class:`Conflict` when the prize isn't held.
    """
    at = at or timezone.now()
    payout = (
        Payout.objects.select_for_update(of=("self",))
        .select_related("sheet__event__room", "entry__player")
        .get(pk=payout.pk)
    )
    kind, sep, pool_code = destination.partition(":")
    if not (
        (kind == Payout.Destination.HOUSE and not sep)
        or (kind == Payout.Destination.JACKPOT and pool_code)
    ):
        raise invalid(Code.UNKNOWN_DESTINATION)
    if payout.status != Payout.Status.HELD:
        raise conflict(SharedCode.NOT_HELD)
    if not reason.strip():
        raise refuse(SharedCode.REASON_REQUIRED, text="forfeit", rule="TO9")
    if payout.sheet.prepared_by_id == by.pk:
        raise refuse(SharedCode.FOUR_EYES, text="forfeit", rule="TO9")
    event = payout.sheet.event
    pool_account = None
    if kind == Payout.Destination.JACKPOT:
        pool_account = _jackpot_pool_account(event=event, pool=pool_code)
    posting = plan_book(
        postings.forfeit(
            event=event.code,
            cents=payout.amount_cents,
            to=pool_account.code if pool_account else None,
        ),
        currency=event.currency,
        rule="TO9",
        posted_by=by,
        reference=f"{event.code} place {payout.place_high} forfeited",
        memo=reason.strip()[:500],
        posted_at=at,
    )
    Payout.objects.filter(pk=payout.pk).update(
        status=Payout.Status.FORFEITED,
        forfeit_reason=reason.strip()[:500],
        forfeit_destination=kind,
        forfeit_pool=pool_code,
        forfeited_by=by,
        forfeited_at=at,
        forfeit_transaction=posting,
    )
    payout.refresh_from_db()
    return payout


def _jackpot_pool_account(*, event: Event, pool: str) -> Any:
    """The ledger account of the event's room's active jackpot pool ``pool`` in
    the event's currency (JD5).

    Raises :class:`Refusal` (TO9) for no such pool.
    """
    found = (
        Pool.objects.select_related("account")
        .filter(room=event.room_id, code=pool, active=True)
        .first()
    )
    if found is None or found.account.currency != event.currency:
        raise refuse(Code.NO_SUCH_POOL, rule="TO9", pool=pool, currency=event.currency)
    return found.account


@retry_on_conflict()
@transaction.atomic
def payout_pay(
    *,
    payout: Payout,
    cage: str,
    cashier: User,
    player: str,
    player_signed: bool,
    tax_document: str = "",
    at: datetime | None = None,
) -> Receipt:
    """Pay a prize at the cage to its identified player (TO9): against his signature
    (CA6), with a tax document at or above the event's threshold.

    Raises :class:`Refusal` (TO9) for a prize not payable or without its tax
    document; PP2 (``under_age``) for a player under age or without a date of
    birth, PP6 (``award_held``) for one whose restriction holds his prize; the
    cage's refusals (CA1, CA2, CA5, CA6) otherwise.
    """
    payout = (
        Payout.objects.select_for_update(of=("self",))
        .select_related("sheet__event", "payable__player")
        .get(pk=payout.pk)
    )
    if payout.status == Payout.Status.PAID:
        raise conflict(SharedCode.ALREADY_PAID)
    if payout.status != Payout.Status.PAYABLE or payout.payable is None:
        raise refuse(
            Code.PRIZE_NOT_PAYABLE, rule="TO9", status=payout.get_status_display()
        )
    award_check(
        player=payout.payable.player, door=Door.PRIZE, at=at, payable=payout.payable
    )
    event = payout.sheet.event
    if (
        payout.amount_cents >= event.tax_document_threshold_cents
        and not tax_document.strip()
    ):
        raise refuse(
            Code.TAX_DOCUMENT_REQUIRED,
            rule="TO9",
            allowed={"threshold_cents": event.tax_document_threshold_cents},
            threshold=event.tax_document_threshold_cents,
        )
    receipt = payable_pay(
        payable=payout.payable,
        cage=cage,
        cashier=cashier,
        player=player,
        player_signed=player_signed,
        at=at,
        door=Door.PRIZE,
    )
    Payout.objects.filter(pk=payout.pk).update(
        status=Payout.Status.PAID, tax_document=tax_document.strip()
    )
    return receipt
