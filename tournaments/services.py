"""Every write of a tournament: entries, rebuys, add-ons and re-entries at the cage,
chips, busts and bounties, deals, payout sheets and payouts, refunds (TO1–TO10).

Money moves only in the ledger, through the cage's receipts (CA2): an entry is one
numbered receipt and one balanced posting, cash into the cashier's drawer and out to
the event's prize pool (held in trust), the house's fee revenue and the bounty pool
(TO1, TO8). A payout sheet prepared by one person and approved by another moves the
pool (topped up by the house's overlay, TO7) into awards payable, which the cage pays
to the identified player against his signature (TO9, CA6). A refund is a receipt
whose posting reverses the purchase's (TO10, DC2). Chips are counted, not booked:
each issue and removal is a :class:`ChipMovement` with its cause (TO3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting import chart as ledger
from accounting.cage import payable_create, payable_pay, receipt_issue
from accounting.cage.shifts import drawer_accounts
from accounting.models import Player, Receipt, Shift
from accounting.services import Leg, retry_on_conflict, transaction_post
from core.errors import Conflict, Invalid, NotFound, Refusal
from tournaments import chart, selectors
from tournaments.domain import bounties, deals, places
from tournaments.domain import payouts as payout_rules
from tournaments.domain.chips import REMOVING, ChipsError, colour_up
from tournaments.domain.deals import DealError
from tournaments.domain.payouts import PayoutError
from tournaments.domain.places import Place, PlacesError
from tournaments.floor_models import SeatMove
from tournaments.models import (
    BountyPayment,
    Bust,
    ChipCount,
    ChipMovement,
    ChipRace,
    Deal,
    DealSignature,
    Entry,
    Event,
    Payout,
    PayoutSheet,
    Purchase,
    Refund,
    RefundApproval,
)


def _event_locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _open_for_play(event: Event) -> None:
    if event.status not in (Event.Status.SCHEDULED, Event.Status.RUNNING):
        raise Refusal(
            "event_closed",
            _("TO1: event %(code)s is %(status)s.")
            % {"code": event.code, "status": event.get_status_display()},
            rule="TO1",
        )


def _level_check(level: object) -> int:
    if isinstance(level, bool) or not isinstance(level, int) or level < 0:
        raise Invalid("invalid_level", _("A level is a whole number from 0."))
    return level


# --- Seats (TO2, TO11) ----------------------------------------------------------------


def seat_draw(
    *, event: Event, entry: Entry, by: User | None, at: datetime
) -> SeatMove | None:
    """Draw ``entry``'s seat at random among the event's empty seats (TO2, TO11),
    or ``None`` when every seat is taken (he is an alternate).

    The floor's seeded draw (``tournaments.floor.seats_draw``): the seed is
    recorded with the seat, so an auditor replays the draw from the record.
    """
    from tournaments import floor  # the floor's services build on these

    moves = floor.seats_draw(
        event_code=event.code, entries=[entry.pk], by=by, now=at, alternates=True
    )
    if not moves:
        return None
    entry.table, entry.seat = moves[0].to_table, moves[0].to_seat
    return moves[0]


# --- Purchases at the cage (TO1, TO2) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Price:
    """The parts of a purchase (TO1, TO8)."""

    prize_pool_cents: int
    fee_cents: int
    staff_fee_cents: int
    bounty_cents: int
    chips: int

    @property
    def total_cents(self) -> int:
        return (
            self.prize_pool_cents
            + self.fee_cents
            + self.staff_fee_cents
            + self.bounty_cents
        )


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


def _price_legs(event: Event, price: Price) -> list[Leg]:
    """Where a purchase's money goes (TO1, TO8): the buy-in to the event's prize
    pool, the fees to house revenue, the bounty to its pool."""
    currency = event.currency
    return [
        Leg(
            chart.prize_pool(event=event.code, currency=currency),
            -price.prize_pool_cents,
        ),
        Leg(chart.fee_revenue(currency=currency), -price.fee_cents),
        Leg(chart.staff_fee_revenue(currency=currency), -price.staff_fee_cents),
        Leg(
            chart.bounty_pool(event=event.code, currency=currency),
            -price.bounty_cents,
        ),
    ]


def _purchase_legs(event: Event, price: Price) -> Any:
    def legs(shift: Shift, player: Player, cents: int) -> list[Leg]:
        cash, _chips = drawer_accounts(shift)
        return [Leg(cash, cents), *_price_legs(event, price)]

    return legs


def _currency_check(event: Event) -> Any:
    def check(shift: Shift, player: Player) -> None:
        if shift.cage.currency != event.currency:
            raise Refusal(
                "wrong_currency",
                _("TO1: event %(code)s is played in %(currency)s.")
                % {"code": event.code, "currency": event.currency},
                rule="TO1",
            )

    return check


def _sell(
    *,
    event: Event,
    entry: Entry,
    kind: str,
    cage: str,
    cashier: User,
    at: datetime,
) -> Purchase:
    price = price_of(event=event, kind=kind)
    receipt = receipt_issue(
        kind=Receipt.Kind.TOURNAMENT_ENTRY,
        cage=cage,
        cashier=cashier,
        player=entry.player.code,
        amount_cents=price.total_cents,
        legs_for=_purchase_legs(event, price),
        check=_currency_check(event),
        at=at,
    )
    return _purchase_record(
        event=event,
        entry=entry,
        kind=kind,
        price=price,
        posting=receipt.transaction,
        receipt=receipt,
        by=cashier,
        note=receipt.no,
        at=at,
    )


def _purchase_record(
    *,
    event: Event,
    entry: Entry,
    kind: str,
    price: Price,
    posting: Any,
    receipt: Receipt | None,
    by: User,
    note: str,
    at: datetime,
) -> Purchase:
    """The purchase's record and the chips it gives (TO1, TO3)."""
    purchase = Purchase.objects.create(
        entry=entry,
        kind=kind,
        prize_pool_cents=price.prize_pool_cents,
        fee_cents=price.fee_cents,
        staff_fee_cents=price.staff_fee_cents,
        bounty_cents=price.bounty_cents,
        chips=price.chips,
        transaction=posting,
        receipt=receipt,
        sold_by=by,
        at=at,
    )
    cause = {
        Purchase.Kind.BUY_IN: ChipMovement.Cause.ENTRY,
        Purchase.Kind.REBUY: ChipMovement.Cause.REBUY,
        Purchase.Kind.ADDON: ChipMovement.Cause.ADDON,
    }[Purchase.Kind(kind)]
    ChipMovement.objects.create(
        event=event,
        entry=entry,
        cause=cause,
        chips=price.chips,
        note=note,
        recorded_by=by,
        at=at,
    )
    return purchase


def _entry_open(
    *, event: Event, player: str, level: int, at: datetime, by: User | None
) -> Entry:
    """Open ``player``'s next life in the locked ``event`` and draw his seat: the
    checks of :func:`entry_register` (TO1, TO2, CA2), nothing paid yet."""
    _open_for_play(event)
    if level > event.late_registration_level:
        raise Refusal(
            "registration_closed",
            _("TO1: registration closed after level %(level)d.")
            % {"level": event.late_registration_level},
            rule="TO1",
            allowed={"until_level": event.late_registration_level},
        )
    lives = Entry.objects.filter(event=event, player__code=player)
    if lives.filter(status=Entry.Status.ACTIVE).exists():
        raise Refusal(
            "already_playing",
            _("TO1: %(player)s is already playing in this event.") % {"player": player},
            rule="TO1",
        )
    earlier = lives.exclude(status=Entry.Status.REFUNDED).count()
    if lives.filter(status=Entry.Status.DISQUALIFIED).exists():
        raise Refusal(
            "disqualified",
            _("TO1: %(player)s was disqualified from this event.") % {"player": player},
            rule="TO1",
        )
    if earlier and earlier > event.reentry_max:
        raise Refusal(
            "no_reentry_left",
            _("TO1: this event allows %(max)d re-entries per player.")
            % {"max": event.reentry_max},
            rule="TO1",
            allowed={"reentries": event.reentry_max},
        )
    number = (
        Entry.objects.filter(event=event)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    ) + 1
    entrant = Player.objects.filter(code=player).first()
    if entrant is None:
        raise Refusal(
            "player_unknown",
            _("CA2: player %(code)s isn't registered.") % {"code": player},
            rule="CA2",
        )
    entry = Entry.objects.create(
        event=event,
        player=entrant,
        number=number,
        kind=Entry.Kind.REENTRY if earlier else Entry.Kind.ENTRY,
        entered_at=at,
        entered_level=level,
    )
    seat_draw(event=event, entry=entry, by=by, at=at)
    return entry


@retry_on_conflict()
@transaction.atomic
def entry_register(
    *,
    event: Event,
    player: str,
    cage: str,
    cashier: User,
    level: int,
    at: datetime | None = None,
) -> Entry:
    """Register ``player`` in ``event`` at the cage and draw his seat (TO1, TO2).

    A player who busted comes back as a re-entry while the event allows one (TO1).
    Registration closes after the event's late-registration level (TDA "MLR"). The
    entrant gets the full starting stack and a random seat from a seeded draw the
    floor's records keep (TO11), or waits as an alternate when every seat is taken
    (TO2). The buy-in, fees and bounty are one receipt and one posting (TO1, TO8,
    CA2); the identity rules are the cage's (CA2, CA5).

    Raises :class:`Refusal` (TO1) for a closed event or registration, a player
    already playing, no re-entry left; the cage's refusals (CA1, CA2, CA5).
    """
    level = _level_check(level)
    at = at or timezone.now()
    event = _event_locked(event)
    entry = _entry_open(event=event, player=player, level=level, at=at, by=cashier)
    _sell(
        event=event,
        entry=entry,
        kind=Purchase.Kind.BUY_IN,
        cage=cage,
        cashier=cashier,
        at=at,
    )
    return entry


def entry_seat_drawn(*, entry: Entry) -> SeatMove | None:
    """The seeded draw that gave ``entry`` its first seat (TO11), if it had one."""
    return (
        SeatMove.objects.filter(entry=entry, reason="draw").order_by("at", "pk").first()
    )


def _entry_locked(entry: Entry) -> Entry:
    locked = (
        Entry.objects.select_for_update()
        .select_related("event", "player")
        .get(pk=entry.pk)
    )
    if locked.status != Entry.Status.ACTIVE:
        raise Refusal(
            "entry_not_playing",
            _("TO1: entry %(no)d is %(status)s.")
            % {"no": locked.number, "status": locked.get_status_display()},
            rule="TO1",
        )
    return locked


@retry_on_conflict()
@transaction.atomic
def rebuy_buy(
    *,
    entry: Entry,
    cage: str,
    cashier: User,
    level: int,
    stack: int,
    at: datetime | None = None,
) -> Purchase:
    """Sell a rebuy to a playing entry (TO1): during the rebuy period, with his stack
    at or below the limit, within the count. Once sold it stands (TDA R29).

    Raises :class:`Refusal` (TO1) outside those, with what was allowed.
    """
    level = _level_check(level)
    at = at or timezone.now()
    _event_locked(entry.event)
    entry = _entry_locked(entry)
    event = entry.event
    _open_for_play(event)
    if not event.rebuy_max:
        raise Refusal(
            "no_rebuys", _("TO1: this event has no rebuys (freezeout)."), rule="TO1"
        )
    if level > event.rebuy_until_level:
        raise Refusal(
            "rebuy_period_over",
            _("TO1: rebuys ended with level %(level)d.")
            % {"level": event.rebuy_until_level},
            rule="TO1",
            allowed={"until_level": event.rebuy_until_level},
        )
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
        raise Invalid("invalid_stack", _("A stack is a whole number of chips."))
    if stack > event.rebuy_stack_limit:
        raise Refusal(
            "stack_above_rebuy_limit",
            _("TO1: a rebuy is for a stack of at most %(limit)d chips.")
            % {"limit": event.rebuy_stack_limit},
            rule="TO1",
            allowed={"max_stack": event.rebuy_stack_limit},
        )
    done = entry.purchases.filter(kind=Purchase.Kind.REBUY).count()
    if done >= event.rebuy_max:
        raise Refusal(
            "no_rebuys_left",
            _("TO1: %(max)d rebuys per entry.") % {"max": event.rebuy_max},
            rule="TO1",
            allowed={"rebuys": event.rebuy_max},
        )
    return _sell(
        event=event,
        entry=entry,
        kind=Purchase.Kind.REBUY,
        cage=cage,
        cashier=cashier,
        at=at,
    )


@retry_on_conflict()
@transaction.atomic
def addon_buy(
    *,
    entry: Entry,
    cage: str,
    cashier: User,
    level: int,
    at: datetime | None = None,
) -> Purchase:
    """Sell the add-on to a playing entry at its level, once (TO1).

    Raises :class:`Refusal` (TO1) for an event without one, another level, a second
    add-on.
    """
    level = _level_check(level)
    at = at or timezone.now()
    _event_locked(entry.event)
    entry = _entry_locked(entry)
    event = entry.event
    _open_for_play(event)
    if event.addon_level is None or not event.addon_chips:
        raise Refusal("no_addon", _("TO1: this event has no add-on."), rule="TO1")
    if level != event.addon_level:
        raise Refusal(
            "not_addon_time",
            _("TO1: the add-on is sold at level %(level)d.")
            % {"level": event.addon_level},
            rule="TO1",
            allowed={"level": event.addon_level},
        )
    if entry.purchases.filter(kind=Purchase.Kind.ADDON).exists():
        raise Refusal("addon_taken", _("TO1: one add-on per entry."), rule="TO1")
    return _sell(
        event=event,
        entry=entry,
        kind=Purchase.Kind.ADDON,
        cage=cage,
        cashier=cashier,
        at=at,
    )


@transaction.atomic
def event_start(*, event: Event) -> Event:
    """Start the event: scheduled → running."""
    event = _event_locked(event)
    if event.status != Event.Status.SCHEDULED:
        raise Conflict(
            "event_not_scheduled",
            _("Event %(code)s has started already.") % {"code": event.code},
        )
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status"])
    return event


# --- Chips (TO3, TO6) -----------------------------------------------------------------

REMOVAL_NEEDS_A_NOTE = ("hidden", "penalty", "disqualification")


@transaction.atomic
def chips_remove(
    *,
    event: Event,
    cause: str,
    chips: int,
    by: User,
    entry: Entry | None = None,
    note: str = "",
    at: datetime | None = None,
) -> ChipMovement:
    """Take ``chips`` out of play for a recorded cause (TO3): surrendered on
    re-entry, disqualification, absence, an unsold seat's stack (RR §15 #6), hidden
    chips after an all-in (TDA R64), a chip penalty.

    Raises :class:`Invalid` for an unknown cause or a count that isn't positive;
    :class:`Refusal` (TO3) without a note where the cause needs one.
    """
    if cause not in REMOVING or cause in ("race", "colour_up", "refund"):
        raise Invalid(
            "unknown_cause",
            _("TO3: chips leave play only for a recorded cause."),
            allowed={
                "causes": [
                    c for c in REMOVING if c not in ("race", "colour_up", "refund")
                ]
            },
        )
    if isinstance(chips, bool) or not isinstance(chips, int) or chips <= 0:
        raise Invalid("invalid_chips", _("Chips removed are a positive number."))
    if cause in REMOVAL_NEEDS_A_NOTE and not note.strip():
        raise Refusal(
            "note_required",
            _("TO3: say what happened when chips are removed for %(cause)s.")
            % {"cause": cause},
            rule="TO3",
        )
    if entry is not None and entry.event_id != event.pk:
        raise Invalid("wrong_event", _("That entry plays another event."))
    return ChipMovement.objects.create(
        event=event,
        entry=entry,
        cause=cause,
        chips=-chips,
        note=note,
        recorded_by=by,
        at=at or timezone.now(),
    )


@retry_on_conflict()
@transaction.atomic
def entry_disqualify(
    *,
    entry: Entry,
    by: User,
    reason: str,
    stack: int = 0,
    at: datetime | None = None,
) -> Entry:
    """Disqualify an entry (TO3, TO9). A playing entry's ``stack`` leaves play for
    that cause and he takes no place; an entry that already finished keeps his
    place, and his prize is held on the payout sheet (TDA RP-23).

    Raises :class:`Refusal` (TO3) without a reason; :class:`Conflict` when he is
    disqualified already or refunded.
    """
    at = at or timezone.now()
    event = _event_locked(entry.event)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if not reason.strip():
        raise Refusal(
            "reason_required", _("TO3: a disqualification says why."), rule="TO3"
        )
    if entry.status in (Entry.Status.DISQUALIFIED, Entry.Status.REFUNDED):
        raise Conflict(
            "entry_closed",
            _("TO1: entry %(no)d is %(status)s.")
            % {"no": entry.number, "status": entry.get_status_display()},
        )
    if PayoutSheet.objects.filter(event=event, status="approved").exists():
        raise Refusal(
            "sheet_approved",
            _("TO9: the prizes are approved; hold or release them instead."),
            rule="TO9",
        )
    playing = entry.status == Entry.Status.ACTIVE
    if playing and stack:
        chips_remove(
            event=event,
            entry=entry,
            cause=ChipMovement.Cause.DISQUALIFICATION,
            chips=stack,
            by=by,
            note=reason,
            at=at,
        )
    Entry.objects.filter(pk=entry.pk).update(
        status=Entry.Status.DISQUALIFIED,
        seat=None,
        finished_at=entry.finished_at or at,
    )
    left = list(Entry.objects.filter(event=event, status=Entry.Status.ACTIVE))
    if playing and len(left) == 1 and event.status == Event.Status.RUNNING:
        _winner_record(event=event, winner=left[0], by=by, at=at)
    entry.refresh_from_db()
    return entry


@transaction.atomic
def chip_race_record(
    *,
    event: Event,
    table: str,
    denomination: int,
    new_denomination: int,
    stacks: Mapping[str, int],
    retired: Mapping[str, int],
    race_order: Sequence[str],
    by: User,
    at: datetime | None = None,
) -> ChipRace:
    """Record a colour-up and its race at ``table`` (TO6, RR §15 #11): each player's
    stack after, who won a chip, and the chips removed (a TO3 removal, ``race``).

    ``stacks`` and ``retired`` are keyed by seat. Raises :class:`Refusal` (TO6) for
    a race the rule doesn't allow.
    """
    try:
        up = colour_up(
            stacks,
            retired,
            denomination=denomination,
            new_denomination=new_denomination,
            race_order=race_order,
        )
    except ChipsError as error:
        raise Refusal("race_refused", str(error), rule="TO6") from error
    at = at or timezone.now()
    race = ChipRace.objects.create(
        event=event,
        table=table,
        denomination=denomination,
        new_denomination=new_denomination,
        result={
            "before": up.before,
            "after": up.after,
            "odd": up.odd,
            "winners": up.race_winners,
            "order": list(race_order),
        },
        removed_chips=up.removed,
        recorded_by=by,
        at=at,
    )
    if up.removed:
        ChipMovement.objects.create(
            event=event,
            cause=ChipMovement.Cause.RACE,
            chips=-up.removed,
            note=f"{table} race {denomination}→{new_denomination}",
            recorded_by=by,
            at=at,
        )
    return race


def chip_count_record(
    *,
    event: Event,
    chips: int,
    table: str = "",
    by: User | None = None,
    source: str = "",
    at: datetime | None = None,
) -> ChipCount:
    """Record chips counted in play, at a table or (``table`` blank) the field (TO3)."""
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
        raise Invalid("invalid_chips", _("A count is a whole number of chips."))
    return ChipCount.objects.create(
        event=event,
        table=table,
        chips=chips,
        counted_by=by,
        source=source,
        at=at or timezone.now(),
    )


# --- Busts, places and bounties (TO4, TO8) --------------------------------------------


@dataclass(frozen=True, slots=True)
class BustIn:
    """One player out in a hand: his entry, his stack at the start of the hand (after
    posting in big-blind-ante games), who won his chips (TO4, TO8)."""

    entry: Entry
    stack_at_start: int
    busted_by: Sequence[Entry] = ()


def _bounty_pay(
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
        posting = transaction_post(
            kind="tournament_bounty",
            legs=[
                Leg(chart.bounty_pool(event=event.code, currency=currency), amount),
                Leg(ledger.awards_payable(currency=currency), -amount),
            ],
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


@retry_on_conflict()
@transaction.atomic
def busts_record(
    *,
    event: Event,
    hand: str,
    busts: Sequence[BustIn],
    by: User | None,
    source: str = "",
    hand_for_hand: bool = False,
    at: datetime | None = None,
) -> list[Bust]:
    """Record the players out in one hand and their places (TO4), and pay their
    bounties to who busted them (TO8).

    ``by`` is the staff member who records them; a table's terminal records them
    with ``by=None`` and its ``source`` (``terminal:T01``). A bounty is an award a
    person approves (CA6), so in a bounty event the floor records the busts.

    The bigger stack at the start of the hand finishes higher; equal stacks share
    their places; during hand-for-hand the players out share every place of the hand
    (TDA RP-8-A). When one entry is left he has won: first place, and his own bounty.

    Raises :class:`Refusal` (TO4) for an entry not playing, a winner out in the same
    hand, every player out; :class:`Conflict` for a hand recorded already.
    """
    at = at or timezone.now()
    event = _event_locked(event)
    if event.status != Event.Status.RUNNING:
        raise Refusal(
            "event_not_running", _("TO4: busts are recorded while it runs."), rule="TO4"
        )
    if not hand.strip():
        raise Invalid("hand_required", _("A bust names its hand."))
    if by is None and not source.strip():
        raise Invalid("source_required", _("A bust says who recorded it."))
    if by is None and event.bounty_kind != Event.Bounty.NONE:
        raise Refusal(
            "bounty_needs_staff",
            _(
                "TO8: in a bounty event the floor records busts: a bounty is an "
                "award a person approves (CA6)."
            ),
            rule="TO8",
        )
    if Bust.objects.filter(event=event, hand=hand).exists():
        raise Conflict(
            "hand_recorded",
            _("TO4: hand %(hand)s's busts are recorded.") % {"hand": hand},
        )
    entries = {b.entry.pk: b for b in busts}
    if len(entries) != len(busts):
        raise Invalid("duplicate_bust", _("A player busts once."))
    playing = {
        e.pk: e
        for e in Entry.objects.select_for_update()
        .select_related("player")
        .filter(event=event, status=Entry.Status.ACTIVE)
    }
    for b in busts:
        if event.bounty_kind != Event.Bounty.NONE and not b.busted_by:
            raise Refusal(
                "bounty_winner_required",
                _("TO8: in a bounty event a bust names who won the bounty."),
                rule="TO8",
            )
        if b.entry.pk not in playing:
            raise Refusal(
                "entry_not_playing",
                _("TO4: entry %(no)d isn't playing.") % {"no": b.entry.number},
                rule="TO4",
            )
        for winner in b.busted_by:
            if winner.pk not in playing or winner.pk in entries:
                raise Refusal(
                    "winner_not_playing",
                    _("TO8: a bounty goes to a player still in the event."),
                    rule="TO8",
                )
    try:
        placed = places.places_of(
            len(playing),
            {b.entry.pk: b.stack_at_start for b in busts},
            hand_for_hand=hand_for_hand,
        )
    except PlacesError as error:
        raise Refusal("bust_refused", str(error), rule="TO4") from error
    recorded = []
    progressive = event.bounty_kind == Event.Bounty.PROGRESSIVE
    for b in sorted(busts, key=lambda b: placed[b.entry.pk].high):
        place: Place = placed[b.entry.pk]
        entry = playing[b.entry.pk]
        bust = Bust.objects.create(
            event=event,
            entry=entry,
            hand=hand,
            stack_at_start=b.stack_at_start,
            hand_for_hand=hand_for_hand,
            busted_by=playing[b.busted_by[0].pk] if b.busted_by else None,
            place_high=place.high,
            place_low=place.low,
            recorded_by=by,
            source=source[:64],
            at=at,
        )
        Entry.objects.filter(pk=entry.pk).update(
            status=Entry.Status.BUSTED, place=place.high, finished_at=at, seat=None
        )
        recorded.append(bust)
        if event.bounty_kind != Event.Bounty.NONE and b.busted_by:
            head = selectors.bounty_of(entry=entry)
            shares = bounties.knockout(
                head,
                [w.pk for w in b.busted_by],
                progressive=progressive,
                unit=1,
            )
            for winner_pk, share in shares.items():
                if share.paid or share.added:
                    _bounty_pay(
                        event=event,
                        winner=playing[winner_pk],
                        amount=share.paid,
                        added=share.added,
                        reason="bust",
                        by=by,
                        bust=bust,
                        at=at,
                    )
    left = [e for pk, e in playing.items() if pk not in entries]
    if len(left) == 1:
        _winner_record(event=event, winner=left[0], by=by, at=at)
    return recorded


def _winner_record(
    *, event: Event, winner: Entry, by: User | None, at: datetime
) -> None:
    Entry.objects.filter(pk=winner.pk).update(
        status=Entry.Status.WON, place=1, finished_at=at
    )
    if event.bounty_kind != Event.Bounty.NONE:
        own = selectors.bounty_of(entry=winner)
        if own:
            _bounty_pay(
                event=event,
                winner=winner,
                amount=own,
                added=0,
                reason="own",
                by=by,
                bust=None,
                at=at,
            )


# --- Deals (TO5) ----------------------------------------------------------------------


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
        raise Refusal("deal_refused", str(error), rule="TO5") from error


def _deal_players(event: Event, stacks: Mapping[int, int]) -> list[int]:
    if event.satellite_target_id is not None:
        # Its places are seats of a fixed value, not the cash the figures share.
        raise Refusal(
            "satellite_deal",
            _("TO5: a satellite's places are seats; it plays on to the seats."),
            rule="TO5",
        )
    left = list(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if sorted(stacks) != left:
        raise Refusal(
            "deal_incomplete",
            _("TO5: a deal includes every player left, and only them."),
            rule="TO5",
            allowed={"entries": left},
        )
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
        raise Refusal(
            "deal_incomplete",
            _("TO5: a deal includes every player left, and only them."),
            rule="TO5",
            allowed={"entries": left},
        )
    if method not in Deal.Method.values:
        raise Invalid(
            "unknown_method", _("A deal is a chip chop, ICM or agreed figures.")
        )
    if sorted(button_order) != left:
        raise Invalid("button_order", _("The seats from the button name every player."))
    prizes = _prizes_left(event, len(left))
    if (
        any(
            isinstance(v, bool) or not isinstance(v, int) or v < 0
            for v in amounts.values()
        )
        or left_in_play_cents < 0
    ):
        raise Invalid("invalid_amount", _("Amounts are integer cents."))
    if sum(amounts.values()) + left_in_play_cents != sum(prizes):
        raise Refusal(
            "deal_does_not_add_up",
            _("TO5: the deal shares %(pool)d cents; these add up to %(sum)d.")
            % {"pool": sum(prizes), "sum": sum(amounts.values()) + left_in_play_cents},
            rule="TO5",
            allowed={"total": sum(prizes)},
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
        raise Refusal(
            "deal_not_open",
            _("TO5: this deal is %(s)s.") % {"s": deal.status},
            rule="TO5",
        )
    if str(entry.pk) not in deal.amounts:
        raise Refusal(
            "not_in_deal", _("TO5: this player isn't in the deal."), rule="TO5"
        )
    try:
        with transaction.atomic():
            DealSignature.objects.create(
                deal=deal, entry=entry, witnessed_by=witnessed_by, at=at
            )
    except IntegrityError as error:
        raise Conflict("already_signed", _("TO5: this player has signed.")) from error
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


# --- Payouts (TO7, TO9) ---------------------------------------------------------------


def standings(*, event: Event) -> dict[int, Place]:
    """Every finished entry's final place, entry id → places shared (TO4).

    The players left at the end (alone, or in a deal that ended the event) take the
    first places as recorded; then each hand's busts, the latest first, take the
    places below: the bigger stack at the start of the hand higher, equal stacks and
    hand-for-hand busts sharing. Counted over the whole field, so a bust during late
    registration finishes below every entry that came after it.
    """
    # The winners, and a winner disqualified afterwards (his prize held, TO9).
    winners = Entry.objects.filter(
        event=event,
        status__in=[Entry.Status.WON, Entry.Status.DISQUALIFIED],
        place__isnull=False,
        bust__isnull=True,
    )
    hands: dict[str, list[Bust]] = {}
    for bust in Bust.objects.filter(event=event).order_by("-at", "-id"):
        hands.setdefault(bust.hand, []).append(bust)
    return places.standings(
        {entry.pk: entry.place or 1 for entry in winners},
        [
            ({b.entry_id: b.stack_at_start for b in group}, group[0].hand_for_hand)
            for group in hands.values()
        ],
    )


def _lines_of(event: Event, deal: Deal | None) -> list[tuple[Entry, Place, int]]:
    """Each finished entry's place and prize (TO4, TO5, TO7)."""
    prizes = selectors.place_prizes(event=event)
    unit = event.payout_unit_cents
    dealt = {int(k): v for k, v in deal.amounts.items()} if deal else {}
    final = standings(event=event)
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

    Raises :class:`Refusal` (TO7) while entries play or if the lines don't add up.
    """
    event = _event_locked(event)
    if event.status != Event.Status.RUNNING:
        raise Refusal(
            "event_not_running", _("TO7: the event isn't running."), rule="TO7"
        )
    if Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).exists():
        raise Refusal(
            "event_not_over",
            _("TO7: prizes are paid when every entry has finished."),
            rule="TO7",
        )
    if PayoutSheet.objects.filter(event=event).exists():
        raise Conflict("sheet_exists", _("TO9: this event has its payout sheet."))
    deal = Deal.objects.filter(event=event, status=Deal.Status.SIGNED).first()
    pool, overlay = selectors.pool_and_overlay(event=event)
    holds = holds or {}
    try:
        if event.satellite_target_id is not None:
            lines = _satellite_lines(event, pool, holds)
        elif event.satellite_seat_cents:
            raise Refusal(
                "satellite_without_target",
                _("TO7: a satellite names the event its seats are in."),
                rule="TO7",
            )
        else:
            lines = [(e, p, cash, 0) for e, p, cash in _lines_of(event, deal)]
    except (PayoutError, PlacesError) as error:
        raise Refusal("payout_refused", str(error), rule="TO7") from error
    total = sum(cash + seat for _e, _p, cash, seat in lines)
    if total != pool:
        raise Refusal(
            "payouts_do_not_add_up",
            _("TO7: the places paid add up to %(total)d, the pool is %(pool)d.")
            % {"total": total, "pool": pool},
            rule="TO7",
            allowed={"pool": pool},
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
        raise Refusal(
            "satellite_currency",
            _("TO7: a satellite's seats are in an event of its currency."),
            rule="TO7",
        )
    if target.status not in (Event.Status.SCHEDULED, Event.Status.RUNNING):
        raise Refusal(
            "satellite_target_closed",
            _("TO7: the seats' event %(code)s is %(status)s.")
            % {"code": target.code, "status": target.get_status_display()},
            rule="TO7",
        )
    places_paid = payout_rules.satellite(pool, target.entry_total_cents)
    final = standings(event=event)
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
            raise Refusal(
                "satellite_seat_shared",
                _(
                    "TO7: places %(high)d–%(low)d share seats and cash; the players "
                    "agree a deal for them."
                )
                % {"high": place.high, "low": place.low},
                rule="TO7",
            )
        if seats:
            for entry in group:
                if holds.get(entry.pk) or entry.status == Entry.Status.DISQUALIFIED:
                    raise Refusal(
                        "satellite_seat_held",
                        _("TO9: a satellite seat isn't held; its place is paid on."),
                        rule="TO9",
                    )
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
    is registered at its last registration level (TO1, TDA "MLR")."""
    target = _event_locked(Event(pk=satellite.satellite_target_id))
    level = selectors.scheduled_level(event=target, at=at)
    entry = _entry_open(
        event=target,
        player=line.entry.player.code,
        level=min(level, target.late_registration_level),
        at=at,
        by=by,
    )
    price = price_of(event=target, kind=Purchase.Kind.BUY_IN)
    posting = transaction_post(
        kind="tournament_satellite_seat",
        legs=[
            Leg(
                chart.prize_pool(event=satellite.code, currency=satellite.currency),
                price.total_cents,
            ),
            *_price_legs(target, price),
        ],
        posted_by=by,
        reference=f"{satellite.code} seat → {target.code} #{entry.number}",
        external_id=f"tournament:{satellite.code}:seat:{line.pk}",
        posted_at=at,
    )
    _purchase_record(
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
        raise Conflict("sheet_approved", _("TO9: this payout sheet is approved."))
    if sheet.prepared_by_id == by.pk:
        raise Refusal(
            "four_eyes",
            _(
                "TO9: a payout sheet is approved by another person than who "
                "prepared it."
            ),
            rule="TO9",
        )
    event = _event_locked(sheet.event)
    lines = list(sheet.lines.select_related("entry__player"))
    held = sum(p.amount_cents for p in lines if p.hold_reason)
    payable = sum(p.amount_cents for p in lines if not p.hold_reason)
    seats = [p for p in lines if p.seat_cents]
    currency = event.currency
    pool_account = chart.prize_pool(event=event.code, currency=currency)
    if sheet.overlay_cents:
        # The house makes the guarantee: its own posting, so the audit shows it.
        transaction_post(
            kind="tournament_overlay",
            legs=[
                Leg(chart.overlay_expense(currency=currency), sheet.overlay_cents),
                Leg(pool_account, -sheet.overlay_cents),
            ],
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
        posting = transaction_post(
            kind="tournament_payouts",
            legs=[
                Leg(pool_account, payable + held),
                Leg(ledger.awards_payable(currency=currency), -payable),
                Leg(chart.held_prizes(event=event.code, currency=currency), -held),
            ],
            posted_by=by,
            reference=f"{event.code} payout sheet",
            external_id=f"tournament:{event.code}:payout_sheet",
            posted_at=at,
        )
    else:
        # Every place was a seat: the sheet points at the first seat's posting.
        posting = seat_postings[0]
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
        raise Conflict("not_held", _("TO9: this prize isn't held."))
    if not reason.strip():
        raise Refusal(
            "reason_required", _("TO9: say why the prize is released."), rule="TO9"
        )
    if payout.sheet.prepared_by_id == by.pk:
        raise Refusal(
            "four_eyes",
            _(
                "TO9: a held prize is released by another person than the "
                "sheet's preparer."
            ),
            rule="TO9",
        )
    event = payout.sheet.event
    posting = transaction_post(
        kind="tournament_release",
        legs=[
            Leg(
                chart.held_prizes(event=event.code, currency=event.currency),
                payout.amount_cents,
            ),
            Leg(ledger.awards_payable(currency=event.currency), -payout.amount_cents),
        ],
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
    Payout.objects.filter(pk=payout.pk).update(
        status=Payout.Status.PAYABLE, payable=award
    )
    payout.refresh_from_db()
    return payout


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
    document; the cage's refusals (CA1, CA2, CA5, CA6) otherwise.
    """
    payout = (
        Payout.objects.select_for_update(of=("self",))
        .select_related("sheet__event", "payable")
        .get(pk=payout.pk)
    )
    if payout.status == Payout.Status.PAID:
        raise Conflict("already_paid", _("TO9: this prize is paid."))
    if payout.status != Payout.Status.PAYABLE or payout.payable is None:
        raise Refusal(
            "prize_not_payable",
            _("TO9: this prize is %(status)s.")
            % {"status": payout.get_status_display()},
            rule="TO9",
        )
    event = payout.sheet.event
    if (
        payout.amount_cents >= event.tax_document_threshold_cents
        and not tax_document.strip()
    ):
        raise Refusal(
            "tax_document_required",
            _(
                "TO9: a prize of %(threshold)d cents or more is paid with a tax "
                "document."
            )
            % {"threshold": event.tax_document_threshold_cents},
            rule="TO9",
            allowed={"threshold_cents": event.tax_document_threshold_cents},
        )
    receipt = payable_pay(
        payable=payout.payable,
        cage=cage,
        cashier=cashier,
        player=player,
        player_signed=player_signed,
        at=at,
    )
    Payout.objects.filter(pk=payout.pk).update(
        status=Payout.Status.PAID, tax_document=tax_document.strip()
    )
    return receipt


# --- Refunds (TO10) -------------------------------------------------------------------


@transaction.atomic
def event_cancel(*, event: Event, by: User, reason: str) -> Event:
    """Cancel the event (TO10); its purchases are then refunded at the cage."""
    event = _event_locked(event)
    if not reason.strip():
        raise Refusal(
            "reason_required", _("TO10: say why the event is cancelled."), rule="TO10"
        )
    if event.status not in (Event.Status.SCHEDULED, Event.Status.RUNNING):
        raise Conflict("event_closed", _("TO10: the event is over."))
    event.status = Event.Status.CANCELLED
    event.save(update_fields=["status"])
    return event


@retry_on_conflict()
@transaction.atomic
def purchase_refund(
    *,
    purchase: Purchase,
    cage: str,
    cashier: User,
    approved_by: User,
    reason: str,
    at: datetime | None = None,
) -> Refund:
    """Refund a purchase at the cage when its event is cancelled or altered (TO10):
    a numbered receipt whose posting reverses the purchase's, approved by another
    person (DC2). The chips it gave leave play (TO3, ``refund``).

    Raises :class:`Refusal` (TO10) without a reason or a second person, or once the
    event is over; :class:`Conflict` when it was refunded already;
    :class:`InsufficientFunds` when the pool no longer holds it (its prizes are
    approved).
    """
    at = at or timezone.now()
    # Purchases are append-only (no row lock for the app role): the event's row lock
    # orders refunds, and the refund's unique purchase refuses a second one.
    _event_locked(purchase.entry.event)
    purchase = Purchase.objects.select_related(
        "entry__event", "entry__player", "transaction"
    ).get(pk=purchase.pk)
    if Refund.objects.filter(purchase=purchase).exists():
        raise Conflict("already_refunded", _("TO10: this purchase is refunded."))
    if not reason.strip():
        raise Refusal("reason_required", _("TO10: a refund says why."), rule="TO10")
    if approved_by.pk == cashier.pk:
        raise Refusal(
            "four_eyes",
            _("TO10: a refund is approved by another person than the cashier."),
            rule="TO10",
        )
    entry = purchase.entry
    event = _event_locked(entry.event)
    if event.status not in (
        Event.Status.CANCELLED,
        Event.Status.SCHEDULED,
        Event.Status.RUNNING,
    ):
        raise Refusal("event_over", _("TO10: the event is over."), rule="TO10")
    price = Price(
        purchase.prize_pool_cents,
        purchase.fee_cents,
        purchase.staff_fee_cents,
        purchase.bounty_cents,
        purchase.chips,
    )

    def legs(shift: Shift, who: Player, cents: int) -> list[Leg]:
        return [
            Leg(leg.account, -leg.amount_cents)
            for leg in _purchase_legs(event, price)(shift, who, cents)
        ]

    receipt = receipt_issue(
        kind=Receipt.Kind.ENTRY_REFUND,
        cage=cage,
        cashier=cashier,
        player=entry.player.code,
        amount_cents=price.total_cents,
        legs_for=legs,
        check=_currency_check(event),
        at=at,
        reverses=purchase.transaction,
        approved_by=approved_by,
        memo=reason,
    )
    refund = Refund.objects.create(
        purchase=purchase,
        amount_cents=price.total_cents,
        reason=reason,
        transaction=receipt.transaction,
        receipt=receipt,
        requested_by=cashier,
        approved_by=approved_by,
        at=at,
    )
    ChipMovement.objects.create(
        event=event,
        entry=entry,
        cause=ChipMovement.Cause.REFUND,
        chips=-purchase.chips,
        note=receipt.no,
        recorded_by=cashier,
        at=at,
    )
    if not entry.purchases.filter(refund__isnull=True).exists():
        Entry.objects.filter(pk=entry.pk).update(
            status=Entry.Status.REFUNDED, seat=None, finished_at=at
        )
    return refund


def _purchase_by_receipt(*, event: Event, receipt: str) -> Purchase:
    """The event's purchase sold on the printed receipt ``receipt`` (``MAIN-000123``).

    Raises :class:`NotFound` for no such purchase in the event.
    """
    cage, _sep, number = receipt.rpartition("-")
    purchase = (
        Purchase.objects.select_related("entry__event", "entry__player", "receipt")
        .filter(
            entry__event=event,
            receipt__cage__code=cage,
            receipt__number=int(number) if number.isdigit() else -1,
        )
        .first()
    )
    if purchase is None:
        raise NotFound(
            "no_such_purchase",
            _("TO10: no purchase of %(event)s on receipt %(receipt)s.")
            % {"event": event.code, "receipt": receipt},
        )
    return purchase


@transaction.atomic
def refund_approve(
    *,
    event: Event,
    receipt: str,
    by: User,
    reason: str,
    at: datetime | None = None,
) -> RefundApproval:
    """A manager approves the refund of the purchase on ``receipt`` (TO10, RR §15
    #39), saying why; the cage then pays it (:func:`refund_pay`) by another person.

    Raises :class:`NotFound` for no such purchase; :class:`Refusal` (TO10) without
    a reason or once the event is over; :class:`Conflict` when it is approved or
    refunded already.
    """
    event = _event_locked(event)
    purchase = _purchase_by_receipt(event=event, receipt=receipt)
    if not reason.strip():
        raise Refusal("reason_required", _("TO10: a refund says why."), rule="TO10")
    if event.status == Event.Status.FINISHED:
        raise Refusal("event_over", _("TO10: the event is over."), rule="TO10")
    if Refund.objects.filter(purchase=purchase).exists():
        raise Conflict("already_refunded", _("TO10: this purchase is refunded."))
    if RefundApproval.objects.filter(purchase=purchase).exists():
        raise Conflict(
            "refund_approved", _("TO10: this purchase's refund is approved.")
        )
    return RefundApproval.objects.create(
        purchase=purchase,
        reason=reason.strip()[:500],
        approved_by=by,
        at=at or timezone.now(),
    )


@retry_on_conflict()
@transaction.atomic
def refund_pay(
    *,
    event: Event,
    receipt: str,
    cage: str,
    cashier: User,
    at: datetime | None = None,
) -> Refund:
    """Pay at the cage the approved refund of the purchase on ``receipt`` (TO10):
    :func:`purchase_refund` with the approval's manager and reason (four-eyes).

    Raises :class:`NotFound` for no such purchase; :class:`Refusal` (TO10) before
    a manager approved it or when the cashier is the approver; what
    :func:`purchase_refund` raises.
    """
    _event_locked(event)
    purchase = _purchase_by_receipt(event=event, receipt=receipt)
    approval = (
        RefundApproval.objects.select_related("approved_by")
        .filter(purchase=purchase)
        .first()
    )
    if approval is None:
        raise Refusal(
            "refund_not_approved",
            _("TO10: a manager approves a refund before the cage pays it."),
            rule="TO10",
        )
    return purchase_refund(
        purchase=purchase,
        cage=cage,
        cashier=cashier,
        approved_by=approval.approved_by,
        reason=approval.reason,
        at=at,
    )


__all__ = [
    "BustIn",
    "addon_buy",
    "busts_record",
    "chip_count_record",
    "chip_race_record",
    "chips_remove",
    "deal_offers",
    "deal_propose",
    "deal_sign",
    "entry_disqualify",
    "entry_register",
    "event_cancel",
    "event_start",
    "payout_pay",
    "payout_release",
    "payout_sheet_approve",
    "payout_sheet_prepare",
    "price_of",
    "purchase_refund",
    "rebuy_buy",
    "refund_approve",
    "refund_pay",
    "seat_draw",
]
