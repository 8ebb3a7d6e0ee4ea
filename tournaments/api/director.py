"""The director's endpoints (TO3, TO5, TO6, TO8, TO9, TO10), under
``/api/v1/tournaments/{event}/``.

Thin views: strict input (unknown fields and numbers that aren't JSON integers are
refused, 400), one service call, the answer shaped here. Every POST takes an
``Idempotency-Key``. Players are named by their entry NUMBER in the event, never by
a database id.

- floor or manager: deal figures, a deal proposed and each player's signature
  (witnessed by the caller), a colour-up with its race, chips removed for a cause,
  a disqualification;
- manager: a deal approved (not by who recorded it, TO5), a held prize released or
  forfeited (not by the sheet's preparer, TO9), a refund approved for an amount
  (TO10); the cashier pays it at ``POST …/refunds/{receipt}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.api.serializers import code_field
from accounting.api.views import IDEMPOTENCY_KEY
from core.api.fields import CentsField, StrictIntegerField, StrictSerializer
from core.api.permissions import IsManager, role_required, staff
from core.idempotency import idempotent
from core.roles import Role
from tournaments import selectors
from tournaments.domain.chips import REMOVING
from tournaments.domain.postings import refund_parts
from tournaments.errors import Code, refuse
from tournaments.models import (
    ChipMovement,
    ChipRace,
    Deal,
    Entry,
    Event,
    Payout,
    RefundApproval,
)
from tournaments.services import chips as chip_services
from tournaments.services import deals as deal_services
from tournaments.services import payouts as payout_services
from tournaments.services import refunds as refund_services

Director = role_required(Role.FLOOR, Role.MANAGER)
Reader = role_required(Role.CASHIER, Role.FLOOR, Role.MANAGER, Role.AUDITOR)

ENTRY_NUMBER_MAX = 2**31 - 1
CHIPS_MAX = 10**15

REMOVAL_CAUSES = [c for c in REMOVING if c not in ("race", "colour_up", "refund")]


def _event(code: str) -> Event:
    return get_object_or_404(Event, code=code)


def _number(key: Any) -> int | None:
    """The entry number a JSON object's key gives (``"12"``), or None for a key
    that gives none: the schema can't say what keys may be (OpenAPI 3.0), so a
    key is read as what it names, and one that names no entry is refused by the
    rule that wants the entries (TO5, 422), never as malformed."""
    text = str(key)
    if not (text.isascii() and text.isdigit()) or len(text) > 10:
        return None
    return int(text) if 1 <= int(text) <= ENTRY_NUMBER_MAX else None


def _seat(key: Any) -> int | None:
    """The seat a JSON object's key gives (``"3"``), or None (as :func:`_number`)."""
    text = str(key)
    return int(text) if text.isascii() and text.isdigit() and len(text) < 4 else None


def _entries(event: Event, numbers: Iterable[int], field: str) -> dict[int, Entry]:
    """The event's entries by number; 400 naming ``field`` for a number it hasn't."""
    wanted = set(numbers)
    found = {
        e.number: e
        for e in Entry.objects.filter(event=event, number__in=wanted).select_related(
            "player"
        )
    }
    unknown = sorted(wanted - set(found))
    if unknown:
        raise serializers.ValidationError(
            {
                field: [
                    _("No entry %(numbers)s in this event.")
                    % {"numbers": ", ".join(map(str, unknown))}
                ]
            }
        )
    return found


def _by_number(values: Mapping[str, int]) -> dict[int, int] | None:
    """``values`` keyed by the entry numbers their keys give, or None when a key
    gives none or two keys give the same (``"7"``, ``"07"``)."""
    found: dict[int, int] = {}
    for key, value in values.items():
        number = _number(key)
        if number is None or number in found:
            return None
        found[number] = value
    return found


def _players_left(event: Event, values: Mapping[str, int]) -> dict[int, int]:
    """``values`` by entry number, when its keys are every entry still playing and
    only them; else refuse the deal (TO5, 422), answering with their numbers."""
    left = sorted(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).values_list(
            "number", flat=True
        )
    )
    numbers = _by_number(values)
    if numbers is None or sorted(numbers) != left:
        raise refuse(Code.DEAL_INCOMPLETE, rule="TO5", allowed={"entries": left})
    return numbers


def _numbers_of(deal: Deal) -> dict[int, int]:
    """Entry id → number for the players of ``deal``."""
    return dict(
        Entry.objects.filter(pk__in=[int(k) for k in deal.amounts]).values_list(
            "pk", "number"
        )
    )


def _keyed(values: Mapping[str, int], numbers: Mapping[int, int]) -> dict[str, int]:
    return {str(numbers[int(k)]): v for k, v in values.items()}


def deal_answer(deal: Deal) -> dict[str, Any]:
    """A deal as the API shows it, its players by entry number (TO5, TO8)."""
    numbers = _numbers_of(deal)
    signed = set(deal.signatures.values_list("entry_id", flat=True))
    return {
        "id": deal.pk,
        "event": deal.event.code,
        "method": deal.method,
        "status": deal.status,
        "pool": deal.pool_cents,
        "left_in_play": deal.left_in_play_cents,
        "stacks": _keyed(deal.offers["stacks"], numbers),
        "button_order": [numbers[int(k)] for k in deal.offers["button_order"]],
        "offers": {
            method: _keyed(deal.offers.get(method, {}), numbers)
            for method in (Deal.Method.CHIP_CHOP, Deal.Method.ICM)
        },
        "amounts": _keyed(deal.amounts, numbers),
        "bounties": _keyed(deal.bounties, numbers),
        "signed": sorted(numbers[pk] for pk in signed),
        "to_sign": sorted(n for pk, n in numbers.items() if pk not in signed),
        "recorded_by": deal.recorded_by.get_username(),
        "recorded_at": deal.recorded_at,
        "signed_at": deal.signed_at,
        "approved_by": deal.approved_by.get_username() if deal.approved_by else None,
        "approved_at": deal.approved_at,
    }


class ByEntry(serializers.DictField):
    """A JSON object keyed by entry number (``{"12": 5000}``), of integers.

    The schema can't say what its keys may be (OpenAPI 3.0, core.api.schema): a
    key that names no entry of the deal is refused as such (TO5, 422)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("child", StrictIntegerField(min_value=0))
        super().__init__(**kwargs)


class DealSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TournamentDeal"

    id = serializers.IntegerField()
    event = serializers.CharField()
    method = serializers.ChoiceField(choices=Deal.Method.choices)
    status = serializers.ChoiceField(choices=Deal.Status.choices)
    pool = serializers.IntegerField(help_text="The prize money dealt, in cents.")
    left_in_play = serializers.IntegerField(
        help_text="Prize money kept to play for with the title, in cents."
    )
    stacks = ByEntry(help_text="Entry number → chips.")
    button_order = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Entry numbers from the button's left (ties of chips go first).",
    )
    offers = serializers.DictField(
        child=ByEntry(),
        help_text="`chip_chop` and `icm`: entry number → cents (TO5).",
    )
    amounts = ByEntry(help_text="Entry number → cents agreed (TO5).")
    bounties = ByEntry(
        help_text="Entry number → cents of the bounties on the heads (TO8)."
    )
    signed = serializers.ListField(child=serializers.IntegerField())
    to_sign = serializers.ListField(child=serializers.IntegerField())
    recorded_by = serializers.CharField()
    recorded_at = serializers.DateTimeField()
    signed_at = serializers.DateTimeField(allow_null=True)
    approved_by = serializers.CharField(allow_null=True)
    approved_at = serializers.DateTimeField(allow_null=True)


class DealOffersApi(APIView):
    """The chip-chop and ICM figures, side by side, for the players left (TO5): the
    product computes, the players choose. Writes nothing."""

    permission_classes = [Director]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentDealOffersInput"

        stacks = ByEntry(
            child=StrictIntegerField(min_value=1, max_value=CHIPS_MAX),
            help_text="Entry number → chips, for every entry still playing.",
        )

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TournamentDealOffers"

        stacks = ByEntry()
        prizes = serializers.ListField(
            child=serializers.IntegerField(),
            help_text="The prizes of the places still to be paid, first place first.",
        )
        chip_chop = ByEntry(help_text="Entry number → cents.")
        icm = ByEntry(help_text="Entry number → cents.")

    @extend_schema(
        request=InputSerializer,
        responses={200: OutputSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        found = _event(event)
        numbers = _players_left(found, data.validated_data["stacks"])
        entries = _entries(found, numbers, "stacks")
        back = {entries[n].pk: n for n in numbers}
        offers = selectors.deal_offers(
            event=found, stacks={entries[n].pk: s for n, s in numbers.items()}
        )
        prizes = selectors.place_prizes(event=found)
        return Response(
            {
                "stacks": {str(n): s for n, s in numbers.items()},
                "prizes": [
                    prizes[i] if i < len(prizes) else 0 for i in range(len(numbers))
                ],
                **{
                    method: {str(back[pk]): v for pk, v in figures.items()}
                    for method, figures in offers.items()
                },
            }
        )


class DealsApi(APIView):
    """Record the deal the players agreed (TO5): every player left, the figures they
    chose, and how the bounties on their heads are shared (TO8). It binds once
    every player signed and a manager other than the recorder approved it."""

    permission_classes = [Director]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentDealInput"

        method = serializers.ChoiceField(choices=Deal.Method.choices)
        stacks = ByEntry(
            child=StrictIntegerField(min_value=1, max_value=CHIPS_MAX),
            help_text="Entry number → chips, for every entry still playing.",
        )
        button_order = serializers.ListField(
            child=StrictIntegerField(min_value=1, max_value=ENTRY_NUMBER_MAX),
            help_text="Entry numbers from the button's left.",
        )
        amounts = ByEntry(
            child=CentsField(min_value=0), help_text="Entry number → cents agreed."
        )
        bounties = ByEntry(
            child=CentsField(min_value=0),
            required=False,
            allow_null=True,
            help_text=(
                "Entry number → cents of the bounties still on the heads (TO8), "
                "adding up to them; omitted or null: each keeps his own."
            ),
        )
        left_in_play = CentsField(
            min_value=0,
            required=False,
            default=0,
            help_text="Prize money kept to play for with the title.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: DealSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        found = _event(event)
        given = data.validated_data
        stacks = _players_left(found, given["stacks"])
        left = sorted(stacks)
        amounts = _by_number(given["amounts"])
        if amounts is None or sorted(amounts) != left:
            raise refuse(Code.DEAL_INCOMPLETE, rule="TO5", allowed={"entries": left})
        if sorted(given["button_order"]) != left:
            raise refuse(Code.BUTTON_ORDER, rule="TO5", allowed={"entries": left})
        bounties = given.get("bounties")
        if bounties is not None:
            bounties = _by_number(bounties)
            if bounties is None or not set(bounties) <= set(left):
                raise refuse(Code.DEAL_BOUNTIES, text="players", rule="TO8")
        entries = _entries(found, left, "stacks")
        deal = deal_services.deal_propose(
            event=found,
            method=given["method"],
            stacks={entries[n].pk: v for n, v in stacks.items()},
            button_order=[entries[n].pk for n in given["button_order"]],
            amounts={entries[n].pk: v for n, v in amounts.items()},
            bounties=None
            if bounties is None
            else {entries[n].pk: v for n, v in bounties.items()},
            left_in_play_cents=given["left_in_play"],
            by=staff(request),
        )
        return Response(
            DealSerializer(deal_answer(deal)).data, status=status.HTTP_201_CREATED
        )


class DealApi(APIView):
    """A deal, its figures, who signed and who approved it (TO5)."""

    permission_classes = [Reader]

    @extend_schema(responses={200: DealSerializer})
    def get(self, request: Request, event: str, deal_id: int) -> Response:
        deal = get_object_or_404(
            Deal.objects.select_related("event", "recorded_by", "approved_by"),
            pk=deal_id,
            event__code=event,
        )
        return Response(DealSerializer(deal_answer(deal)).data)


def _deal(event: str, deal_id: int) -> Deal:
    return get_object_or_404(Deal, pk=deal_id, event__code=event)


class DealSignatureApi(APIView):
    """A player signs the deal, witnessed by the caller (TO5)."""

    permission_classes = [Director]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentDealSignatureInput"

        entry = StrictIntegerField(
            min_value=1, max_value=ENTRY_NUMBER_MAX, help_text="His entry number."
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: DealSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str, deal_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        deal = _deal(event, deal_id)
        entry = get_object_or_404(
            Entry, event__code=event, number=data.validated_data["entry"]
        )
        deal = deal_services.deal_sign(
            deal=deal, entry=entry, witnessed_by=staff(request)
        )
        return Response(
            DealSerializer(deal_answer(deal)).data, status=status.HTTP_201_CREATED
        )


class DealApproveApi(APIView):
    """A manager, not who recorded it, approves a deal every player signed (TO5):
    it binds; with nothing left to play for the event ends, places by chips, and
    the bounties on the heads are paid as the deal shares them (TO8)."""

    permission_classes = [IsManager]

    @extend_schema(
        request=None,
        responses={200: DealSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str, deal_id: int) -> Response:
        deal = deal_services.deal_approve(deal=_deal(event, deal_id), by=staff(request))
        return Response(DealSerializer(deal_answer(deal)).data)


class RaceSeatSerializer(StrictSerializer):
    class Meta:
        ref_name = "TournamentRaceSeat"

    seat = StrictIntegerField(min_value=1, max_value=11)
    stack = StrictIntegerField(
        min_value=0, max_value=CHIPS_MAX, help_text="His whole stack, in chips."
    )
    retired = StrictIntegerField(
        min_value=0,
        max_value=CHIPS_MAX,
        help_text="How many chips of the retired denomination he holds.",
    )


def race_answer(race: ChipRace) -> dict[str, Any]:
    """A recorded colour-up and race, seat by seat (TO6)."""
    result = race.result
    cards = result.get("cards", {})
    return {
        "id": race.pk,
        "table": race.table,
        "denomination": race.denomination,
        "new_denomination": race.new_denomination,
        "seats": [
            {
                "seat": int(seat),
                "before": before,
                "after": result["after"][seat],
                "odd": result["odd"][seat],
                "card": cards.get(seat),
                "won": seat in result["winners"],
                "given": seat in result.get("granted", []),
            }
            for seat, before in sorted(
                result["before"].items(), key=lambda kv: int(kv[0])
            )
        ],
        "order": [int(s) for s in result["order"]],
        "seed": result.get("seed"),
        "removed": race.removed_chips,
        "added": race.added_chips,
        "recorded_by": race.recorded_by.get_username(),
        "at": race.at,
    }


class RaceSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TournamentRace"

    class Seat(serializers.Serializer):
        class Meta:
            ref_name = "TournamentRaceSeatResult"

        seat = serializers.IntegerField()
        before = serializers.IntegerField()
        after = serializers.IntegerField()
        odd = serializers.IntegerField(
            help_text="His chips of the retired denomination not exchanged."
        )
        card = serializers.CharField(allow_null=True)
        won = serializers.BooleanField(help_text="He won a chip in the race.")
        given = serializers.BooleanField(
            help_text="He was given a chip so as not to be raced out (TDA R26-A)."
        )

    id = serializers.IntegerField()
    table = serializers.CharField()
    denomination = serializers.IntegerField()
    new_denomination = serializers.IntegerField()
    seats = Seat(many=True)
    order = serializers.ListField(child=serializers.IntegerField())
    seed = serializers.IntegerField(allow_null=True)
    removed = serializers.IntegerField(help_text="Chips removed (TO3 `race`).")
    added = serializers.IntegerField(help_text="Chips given (TO3 `race_minimum`).")
    recorded_by = serializers.CharField()
    at = serializers.DateTimeField()


class RaceApi(APIView):
    """Record a table's colour-up and chip race (TO6, RR §15 #11): each seat's
    stack and chips of the retired denomination, and the race's order as the cards
    drawn (``cards``), the order they gave (``race_order``) or a draw made here
    from ``seed``. One chip at most per seat; no one raced out (TDA R26-A)."""

    permission_classes = [Director]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentRaceInput"
            # One way of ordering the race (TO6), as chip_race_record refuses
            # more or fewer (400 race_cards).
            one_required = [["race_order"], ["cards"], ["seed"]]

        table = code_field(max_length=16)
        denomination = StrictIntegerField(min_value=1, max_value=CHIPS_MAX)
        new_denomination = StrictIntegerField(min_value=1, max_value=CHIPS_MAX)
        seats = RaceSeatSerializer(many=True, allow_empty=False)
        race_order = serializers.ListField(
            child=StrictIntegerField(min_value=1, max_value=11),
            required=False,
            help_text="The seats with odd chips, highest card first.",
        )
        cards = serializers.DictField(
            child=serializers.RegexField(r"^[2-9TJQKA][cdhs]$"),
            required=False,
            help_text='Seat ("3") → the card he drew ("Ah"); spades win a tie of '
            "ranks. Its keys are seats of `seats` (TO6, 422 otherwise).",
        )
        seed = StrictIntegerField(
            min_value=0,
            required=False,
            help_text="Draw the cards here from this seed (recorded).",
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: RaceSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        seats = [s["seat"] for s in given["seats"]]
        if len(set(seats)) != len(seats):
            raise refuse(
                Code.RACE_SEATS, text="twice", rule="TO6", allowed={"seats": seats}
            )
        cards = given.get("cards")
        drawn = [] if cards is None else [_seat(k) for k in cards]
        if any(seat not in seats for seat in drawn) or len(set(drawn)) < len(drawn):
            raise refuse(
                Code.RACE_SEATS, text="cards", rule="TO6", allowed={"seats": seats}
            )
        order = given.get("race_order")
        race = chip_services.chip_race_record(
            event=_event(event),
            table=given["table"],
            denomination=given["denomination"],
            new_denomination=given["new_denomination"],
            stacks={str(s["seat"]): s["stack"] for s in given["seats"]},
            retired={str(s["seat"]): s["retired"] for s in given["seats"]},
            race_order=None if order is None else [str(s) for s in order],
            cards=None
            if cards is None
            else {str(_seat(k)): v for k, v in cards.items()},
            seed=given.get("seed"),
            by=staff(request),
        )
        return Response(
            RaceSerializer(race_answer(race)).data, status=status.HTTP_201_CREATED
        )


class RemovalSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TournamentChipRemoval"

    id = serializers.IntegerField()
    cause = serializers.CharField()
    chips = serializers.IntegerField(help_text="Chips taken out of play.")
    entry = serializers.IntegerField(allow_null=True)
    note = serializers.CharField()
    at = serializers.DateTimeField()


class ChipRemovalApi(APIView):
    """Take chips out of play for a recorded cause (TO3): surrendered on re-entry,
    a disqualification, an absence, an unsold seat's stack (RR §15 #6), hidden
    chips after an all-in (TDA R64), a chip penalty."""

    permission_classes = [Director]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentChipRemovalInput"

        cause = serializers.ChoiceField(choices=REMOVAL_CAUSES)
        chips = StrictIntegerField(min_value=1, max_value=CHIPS_MAX)
        note = serializers.CharField(
            max_length=500,
            required=False,
            allow_blank=True,
            default="",
            help_text="What happened; required for hidden chips, a penalty and a "
            "disqualification.",
        )
        entry = StrictIntegerField(
            min_value=1,
            max_value=ENTRY_NUMBER_MAX,
            required=False,
            help_text="The entry number whose chips they were, if one's.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: RemovalSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        found = _event(event)
        entry = None
        if "entry" in given:
            entry = get_object_or_404(Entry, event=found, number=given["entry"])
        moved = chip_services.chips_remove(
            event=found,
            cause=given["cause"],
            chips=given["chips"],
            entry=entry,
            note=given["note"],
            by=staff(request),
        )
        return Response(
            RemovalSerializer(_removal(moved, entry)).data,
            status=status.HTTP_201_CREATED,
        )


def _removal(moved: ChipMovement, entry: Entry | None) -> dict[str, Any]:
    return {
        "id": moved.pk,
        "cause": moved.cause,
        "chips": -moved.chips,
        "entry": entry.number if entry else None,
        "note": moved.note,
        "at": moved.at,
    }


class DisqualifiedSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TournamentDisqualified"

    entry = serializers.IntegerField()
    player = serializers.CharField()
    status = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)


class DisqualifyApi(APIView):
    """Disqualify an entry, saying why (TO3, TO9): a playing entry's stack leaves
    play for that cause; one who finished keeps his place, his prize held."""

    permission_classes = [Director]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentDisqualifyInput"

        reason = serializers.CharField(max_length=500)
        stack = StrictIntegerField(
            min_value=0,
            max_value=CHIPS_MAX,
            required=False,
            default=0,
            help_text="A playing entry's chips, taken out of play.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={200: DisqualifiedSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str, number: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = get_object_or_404(
            Entry.objects.select_related("event", "player"),
            event__code=event,
            number=number,
        )
        entry = chip_services.entry_disqualify(
            entry=entry,
            by=staff(request),
            reason=data.validated_data["reason"],
            stack=data.validated_data["stack"],
        )
        return Response(
            {
                "entry": entry.number,
                "player": entry.player.code,
                "status": entry.status,
                "place": entry.place,
            }
        )


class HeldPayoutSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TournamentHeldPayout"

    id = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.CharField()
    place_high = serializers.IntegerField()
    place_low = serializers.IntegerField()
    amount = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Payout.Status.choices)
    hold_reason = serializers.CharField()
    forfeit_destination = serializers.CharField(
        help_text="`house` or `jackpot`; empty unless forfeited."
    )
    forfeit_pool = serializers.CharField()
    forfeit_reason = serializers.CharField()


def payout_answer(payout: Payout) -> dict[str, Any]:
    return {
        "id": payout.pk,
        "entry": payout.entry.number,
        "player": payout.entry.player.code,
        "place_high": payout.place_high,
        "place_low": payout.place_low,
        "amount": payout.amount_cents,
        "status": payout.status,
        "hold_reason": payout.hold_reason,
        "forfeit_destination": payout.forfeit_destination,
        "forfeit_pool": payout.forfeit_pool,
        "forfeit_reason": payout.forfeit_reason,
    }


def _payout(event: str, payout_id: int) -> Payout:
    return get_object_or_404(
        Payout.objects.select_related("entry__player"),
        pk=payout_id,
        sheet__event__code=event,
    )


class PayoutReleaseApi(APIView):
    """A manager, not the sheet's preparer, releases a held prize to the cage,
    saying why (TO9, TDA RP-23)."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentPayoutReleaseInput"

        reason = serializers.CharField(max_length=500)

    @extend_schema(
        request=InputSerializer,
        responses={200: HeldPayoutSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str, payout_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        payout = payout_services.payout_release(
            payout=_payout(event, payout_id),
            by=staff(request),
            reason=data.validated_data["reason"],
        )
        return Response(payout_answer(payout))


class PayoutForfeitApi(APIView):
    """A manager, not the sheet's preparer, forfeits a held prize, saying why and
    where the money goes: the house's revenue, or a jackpot pool of the room (held
    in trust for players, JD5) (TO9, TDA RP-23)."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentPayoutForfeitInput"
            # A pool for a jackpot, and only for it, as post() refuses (400).
            only_when = {"pool": ("destination", [Payout.Destination.JACKPOT.value])}
            required_when = {
                "pool": ("destination", [Payout.Destination.JACKPOT.value])
            }

        reason = serializers.CharField(max_length=500)
        destination = serializers.ChoiceField(choices=Payout.Destination.choices)
        pool = serializers.SlugField(
            max_length=32,
            required=False,
            help_text="The jackpot pool's code, for `jackpot`.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={200: HeldPayoutSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str, payout_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        destination = given["destination"]
        if destination == Payout.Destination.JACKPOT:
            if not given.get("pool"):
                raise serializers.ValidationError(
                    {"pool": [_("A jackpot pool's code, for a jackpot.")]}
                )
            destination = f"{destination}:{given['pool']}"
        elif "pool" in given:
            raise serializers.ValidationError(
                {"pool": [_("Only a jackpot takes a pool.")]}
            )
        payout = payout_services.payout_forfeit(
            payout=_payout(event, payout_id),
            by=staff(request),
            reason=given["reason"],
            destination=destination,
        )
        return Response(payout_answer(payout))


class RefundApprovedSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TournamentPartialRefundApproval"

    class Split(serializers.Serializer):
        class Meta:
            ref_name = "TournamentRefundSplit"

        prize_pool = serializers.IntegerField()
        fee = serializers.IntegerField()
        staff_fee = serializers.IntegerField()
        bounty = serializers.IntegerField()

    receipt = serializers.CharField(help_text="The purchase's receipt.")
    entry = serializers.IntegerField()
    player = serializers.CharField()
    amount = serializers.IntegerField(help_text="The refund approved, in cents.")
    split = Split(
        help_text="How it will come out of the purchase's parts (pro rata, TO10)."
    )
    left_after = serializers.IntegerField(
        help_text="What is left to refund of the purchase once it is paid."
    )
    reason = serializers.CharField()
    approved_by = serializers.CharField()


class RefundPartialApproveApi(APIView):
    """A manager approves the refund of an amount of the purchase on a printed
    receipt (``MAIN-000123``), up to what is left of it, saying why (TO10); a
    cashier then pays it at ``POST …/refunds/{receipt}``. Several parts may be
    refunded one after the other until the purchase is whole."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentPartialRefundInput"

        reason = serializers.CharField(max_length=500)
        amount = CentsField(
            min_value=1,
            required=False,
            help_text="In cents; omitted: all that is left of the purchase.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: RefundApprovedSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str, receipt: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        approval = refund_services.refund_approve(
            event=_event(event),
            receipt=receipt,
            by=staff(request),
            reason=data.validated_data["reason"],
            amount_cents=data.validated_data.get("amount"),
        )
        return Response(
            refund_approval_answer(approval), status=status.HTTP_201_CREATED
        )


def refund_approval_answer(approval: RefundApproval) -> dict[str, Any]:
    purchase = approval.purchase
    left = selectors.refund_left(purchase=purchase)
    split = refund_parts(left, approval.amount_cents)
    return {
        "receipt": purchase.receipt.no if purchase.receipt else "",
        "entry": purchase.entry.number,
        "player": purchase.entry.player.code,
        "amount": approval.amount_cents,
        "split": {
            "prize_pool": split.prize_pool_cents,
            "fee": split.fee_cents,
            "staff_fee": split.staff_fee_cents,
            "bounty": split.bounty_cents,
        },
        "left_after": left.total_cents - approval.amount_cents,
        "reason": approval.reason,
        "approved_by": approval.approved_by.get_username(),
    }
