"""The promotions' REST endpoints, under ``/api/v1/jackpots/`` (RULES.md PR1–PR6).

Thin views, as the pools' and the hits' (:mod:`jackpots.api.views`):

- floor, manager, auditor: the promotions with their rules in force and their
  versions, the current high-hand period's leaders and hands (PR2, PR6), the
  prizes found and who decided them (PR5);
- manager: start a promotion (its pool with it, PR1), publish a new version of
  its rules or end it, close a high-hand period the scheduler missed (PR2),
  approve a verified prize (PR5: another person than the verifier);
- floor (and manager): verify a prize from the cards and the camera, or reject
  it with a reason (PR5).

A promotion's rules are typed field by field in the schema; what the schema
can't state (a period length that doesn't divide a day, a house-funded prize
with a percent of the pool, a bonus table given to a high hand, a time zone
nobody knows) is refused with 422 and the rule it serves, never 400: the rules
are read here by :class:`jackpots.domain.promotions.PromotionRules`, as the
service reads them again. Every POST takes an ``Idempotency-Key``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.api.views import IDEMPOTENCY_KEY
from cardroom.models import Room
from cardroom.services import room_default
from core.api.fields import (
    CentsField,
    StrictIntegerField,
    StrictSerializer,
    UniqueListField,
    choice_param,
    count_param,
    count_parameter,
)
from core.api.permissions import IsFloor, IsManager, staff
from core.errors import Refusal
from core.idempotency import idempotent
from jackpots import selectors, services
from jackpots.api.serializers import (
    PrizeSerializer,
    PromotionDetailSerializer,
    PromotionEntrySerializer,
    PromotionPrizeRuleSerializer,
    PromotionSerializer,
    choice,
)
from jackpots.api.views import (
    CARD,
    ERRORS,
    HIGH_GAME_CODES,
    PAGE,
    RULE_ERRORS,
    JackpotReader,
)
from jackpots.domain.periods import DAY_MINUTES, PERIOD_MINUTES
from jackpots.domain.promotions import (
    BOARDS,
    BONUS_HANDS,
    FUNDINGS,
    HIGH_HAND,
    MAX_CENTS,
    PromotionRules,
    prize_amount,
)
from jackpots.domain.rules import HIGH_GAMES, ConfigError
from jackpots.errors import Code, conflict, refuse
from jackpots.models import Promotion, PromotionPrize, PromotionVersion
from jackpots.selectors import Versions
from jackpots.services.pools import DROP_RATIO_MAX

KIND_CHOICES = Promotion.Kind.choices

BEFORE_FIRST = timedelta(days=2)
"""Longer than any period (a day, and an hour more the night the clocks go
back): a moment this long before a promotion's first version is in no period
of it (PR2)."""

# The rule a field of a promotion's rules serves, when the domain refuses it: the
# money (PR1), the first run and bomb pots (PR4), the bonus table (PR3); the rest
# says which hands count: PR2 for a high hand, PR3 for a bonus.
FIELD_RULES = {
    "prize": "PR1",
    "kind": "PR1",
    "bonuses": "PR3",
    "first_run_only": "PR4",
    "exclude_bomb_pots": "PR4",
}


def _count(request: Request, name: str, default: int, most: int) -> int:
    return count_param(request.query_params, name, default, most)


def _page(request: Request, rows: QuerySet[Any]) -> QuerySet[Any]:
    offset = _count(request, "offset", 0, 10**9)
    return rows[offset : offset + _count(request, "limit", 100, 500)]


def _rule_of(field: str, kind: object) -> str:
    head = field.split(".", 1)[0]
    return FIELD_RULES.get(head, "PR2" if kind == HIGH_HAND else "PR3")


def _plain(value: Any) -> Any:
    """The serializer's validated data as plain JSON values (dicts and lists)."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def rules_read(data: Mapping[str, Any], *, kind: str | None = None) -> dict[str, Any]:
    """Return the rules a request gave, once the promotions' own rules accept them.

    The schema checks each field; this checks them together (PR1–PR4) and raises
    :class:`Refusal` (422) with the rule the field serves and ``allowed.field``
    naming it. ``kind``: the promotion's, which a new version keeps (PR1).
    """
    rules = _plain(data)
    try:
        checked = PromotionRules.from_config(rules)
    except ConfigError as error:
        raise Refusal(
            error.code,
            error.template,
            rule=_rule_of(error.field, rules.get("kind")),
            allowed=error.allowed,
            params=error.params,
        ) from None
    if kind is not None and checked.kind != kind:
        raise refuse(
            Code.INVALID_CONFIGURATION,
            text="one_of",
            rule="PR1",
            allowed={"field": "kind", "kind": kind},
            field="kind",
            choices=kind,
        )
    return rules


class RulesInputSerializer(StrictSerializer):
    """A version of a promotion's rules (PR1–PR4; the shape of
    ``jackpots.domain.promotions.EXAMPLES``). Fields left out take their
    defaults; what the fields say together is checked by the rules (422)."""

    class Meta:
        ref_name = "PromotionRulesInput"

    class CardUse(StrictSerializer):
        class Meta:
            ref_name = "PromotionCardUseInput"

        hole_cards = StrictIntegerField(
            min_value=0,
            max_value=2,
            required=False,
            help_text="Hole cards that must play in the best five; default 0.",
        )
        quads_pocket_pair = serializers.BooleanField(
            required=False,
            help_text="Four of a kind counts only with a pocket pair; default false.",
        )

    class Prize(StrictSerializer):
        class Meta:
            ref_name = "PromotionPrizeInput"

        fixed = CentsField(
            min_value=0,
            max_value=MAX_CENTS,
            required=False,
            help_text="Cents a period or a hand pays; a fixed bonus's lines say"
            " theirs.",
        )
        pool_percent = StrictIntegerField(
            min_value=0,
            max_value=100,
            required=False,
            help_text="Percent of what the pool holds free (PR1).",
        )
        funding = choice(
            [(f, f) for f in FUNDINGS],
            "PromotionFunding",
            required=False,
            help_text="drop (the pool, default), house (an expense), or both: the"
            " house the fixed amount, the drop the percent (PR1).",
        )

    class BonusLine(StrictSerializer):
        class Meta:
            ref_name = "PromotionBonusLineInput"

        hand = choice([(h, h) for h in BONUS_HANDS], "PromotionBonusHand")
        fixed = CentsField(min_value=1, max_value=MAX_CENTS, help_text="Cents.")

    kind = choice(KIND_CHOICES, "PromotionKind")
    games = UniqueListField(
        child=choice(HIGH_GAME_CODES, "JackpotGame"),
        allow_empty=False,
        max_length=len(HIGH_GAMES),
        help_text="The games it covers: games with high hands.",
    )
    big_blinds = UniqueListField(
        child=CentsField(min_value=1),
        required=False,
        max_length=100,
        help_text="The stakes it covers, as big blinds in cents; empty: every one.",
    )
    min_hand = UniqueListField(
        child=serializers.RegexField(CARD, trim_whitespace=False),
        min_length=5,
        max_length=5,
        required=False,
        allow_null=True,
        help_text='The least hand that counts, five cards, e.g. ["As", "Ah", "Ad",'
        ' "Ks", "Kh"]; null: any hand tabled.',
    )
    card_use = CardUse(required=False)
    board = choice(
        [(b, b) for b in BOARDS],
        "PromotionBoard",
        required=False,
        help_text="flop: the hand as made on the flop; default any.",
    )
    min_pot = CentsField(min_value=0, max_value=MAX_CENTS, required=False)
    min_pot_big_blinds = StrictIntegerField(
        min_value=0, max_value=10_000, required=False
    )
    min_dealt_in = StrictIntegerField(min_value=2, max_value=12, required=False)
    first_run_only = serializers.BooleanField(
        required=False, help_text="Always true: only the first run counts (PR4)."
    )
    exclude_bomb_pots = serializers.BooleanField(required=False)
    period_minutes = StrictIntegerField(
        min_value=min(PERIOD_MINUTES),
        max_value=DAY_MINUTES,
        required=False,
        help_text="A high hand's period: a length that divides a day ("
        + ", ".join(map(str, PERIOD_MINUTES[:8]))
        + " … 1440); default 60 (PR2).",
    )
    anchor_minutes = StrictIntegerField(
        min_value=0,
        max_value=DAY_MINUTES - 1,
        required=False,
        allow_null=True,
        help_text="Minutes after local midnight a period starts; default the"
        " gaming day's cut-off.",
    )
    time_zone = serializers.RegexField(
        r"^[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+)*$",
        max_length=64,
        required=False,
        allow_null=True,
        help_text="An IANA time zone, e.g. Europe/Helsinki; default the room's.",
    )
    carry_over = serializers.BooleanField(
        required=False,
        help_text="A period without a qualifying hand carries its prize; default"
        " true (PR2).",
    )
    prize = Prize()
    bonuses = BonusLine(
        many=True,
        required=False,
        help_text="A fixed bonus's table: each hand once (PR3).",
    )


class MomentField(serializers.DateTimeField):
    """An ISO 8601 time with its offset (API.md), kept in that offset: a moment
    at the calendar's edge ("0001-01-01T00:00:00+01:01") is read, not moved
    into the server's zone and out of the calendar (400), and its door says
    what it is (a period before the promotion, or not over)."""

    default_error_messages = {
        "offset": _("An ISO 8601 time with its offset, e.g. 2026-12-04T19:00:00+02:00.")
    }

    def to_internal_value(self, value: Any) -> datetime:
        if not isinstance(value, str):
            self.fail("offset")
        try:
            parsed = parse_datetime(value)
        except ValueError:
            parsed = None
        if parsed is None or parsed.tzinfo is None:
            self.fail("offset")
        return parsed


def _versions_prefetch() -> Prefetch:
    return Prefetch(
        "versions", queryset=PromotionVersion.objects.select_related("created_by")
    )


def _promotions() -> QuerySet[Promotion]:
    return Promotion.objects.select_related(
        "room", "pool__account", "created_by"
    ).prefetch_related(_versions_prefetch())


def _promotion(promotion_id: int) -> Promotion:
    return get_object_or_404(_promotions(), pk=promotion_id)


def _latest(promotion: Promotion) -> PromotionVersion:
    return max(promotion.versions.all(), key=lambda v: v.version)


class PromotionListApi(APIView):
    """The room's promotions with the rules in force (PR1); a manager starts one:
    its pool, held in trust (JD5), and version 1 of its rules."""

    def get_permissions(self) -> list[Any]:
        return [IsManager()] if self.request.method == "POST" else [JackpotReader()]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "PromotionCreateInput"

        room = serializers.SlugField(
            max_length=16, required=False, help_text="Default: the room."
        )
        code = serializers.RegexField(r"^[a-z0-9][a-z0-9_-]*$", max_length=32)
        name = serializers.CharField(max_length=100)
        rules = RulesInputSerializer()
        drop_ratio = StrictIntegerField(
            min_value=0,
            max_value=DROP_RATIO_MAX,
            default=0,
            help_text="The pool's share of each drop (JD4); a promotion the drop"
            " funds needs one (PR1).",
        )
        note = serializers.CharField(max_length=500, required=False, allow_blank=True)

    @extend_schema(
        parameters=[
            OpenApiParameter("room", OpenApiTypes.STR, description="A room's code."),
            OpenApiParameter("kind", OpenApiTypes.STR, enum=Promotion.Kind.values),
        ],
        responses={200: PromotionSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        rows = selectors.promotion_list(room=request.query_params.get("room"))
        kind = choice_param(request.query_params, "kind", Promotion.Kind.values)
        if kind:
            rows = rows.filter(kind=kind)
        rows = rows.select_related("pool__account", "created_by").prefetch_related(
            _versions_prefetch()
        )
        return Response(PromotionSerializer(rows, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: PromotionDetailSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        code = v.get("room")
        room = get_object_or_404(Room, code=code) if code else room_default()
        promotion = services.promotion_create(
            room=room,
            code=v["code"],
            name=v["name"],
            rules=rules_read(v["rules"]),
            by=staff(request),
            drop_ratio=v["drop_ratio"],
            note=v.get("note", ""),
        )
        return Response(
            PromotionDetailSerializer(_promotion(promotion.pk)).data,
            status=status.HTTP_201_CREATED,
        )


class PromotionDetailApi(APIView):
    """A promotion: the rules in force and every version, newest first."""

    permission_classes = [JackpotReader]

    @extend_schema(responses={200: PromotionDetailSerializer, **ERRORS})
    def get(self, request: Request, promotion_id: int) -> Response:
        return Response(PromotionDetailSerializer(_promotion(promotion_id)).data)


class PromotionVersionApi(APIView):
    """A manager publishes a new version of a promotion's rules, in force from
    the next period (a bonus: from the next hand); without ``rules`` the rules in
    force are kept; ``active`` false ends the promotion (PR1–PR4). The prizes
    found keep the version they were found under."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "PromotionVersionInput"

        rules = RulesInputSerializer(
            required=False, help_text="Default: the rules in force, unchanged."
        )
        active = serializers.BooleanField(default=True)
        note = serializers.CharField(max_length=500, required=False, allow_blank=True)

    @extend_schema(
        request=InputSerializer,
        responses={201: PromotionDetailSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, promotion_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        promotion = _promotion(promotion_id)
        if not v["active"]:
            _not_ended(promotion)
        rules = v.get("rules")
        services.promotion_publish(
            promotion=promotion,
            rules=None if rules is None else rules_read(rules, kind=promotion.kind),
            by=staff(request),
            active=v["active"],
            note=v.get("note", ""),
        )
        return Response(
            PromotionDetailSerializer(_promotion(promotion_id)).data,
            status=status.HTTP_201_CREATED,
        )


def _not_ended(promotion: Promotion) -> None:
    """Refuse (409) to end a promotion that has ended."""
    if not _latest(promotion).active:
        raise conflict(Code.ALREADY_RETIRED, pool=promotion.name)


class PromotionEndApi(APIView):
    """A manager ends a promotion, with the reason: a last version, not active;
    nothing qualifies from then on, and what was found is still decided (PR5).
    Its pool's money stays held for players (JD5): retire the pool into a
    successor to move it. Ending it twice is refused (409)."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "PromotionEndInput"

        reason = serializers.CharField(max_length=500)

    @extend_schema(
        request=InputSerializer,
        responses={200: PromotionDetailSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, promotion_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        promotion = _promotion(promotion_id)
        _not_ended(promotion)
        services.promotion_publish(
            promotion=promotion,
            rules=None,
            by=staff(request),
            active=False,
            note=data.validated_data["reason"],
        )
        return Response(PromotionDetailSerializer(_promotion(promotion_id)).data)


def _high_hand(promotion: Promotion) -> None:
    """Refuse (422, PR2) periods of a promotion that has none."""
    if promotion.kind != HIGH_HAND:
        raise refuse(Code.NOT_A_HIGH_HAND, rule="PR2", promotion=promotion.name)


def _period(
    promotion: Promotion, at: datetime
) -> tuple[PromotionVersion, datetime, datetime] | None:
    """The version and bounds of the high-hand period containing ``at`` (PR2),
    None before the promotion; as the period's close finds them."""
    found = Versions(list(promotion.versions.all())).for_period(promotion, at)
    if found is None:
        return None
    version, (start, end) = found
    return version, start, end


class StandingsApi(APIView):
    """The high hand's period now (PR2, PR6): its bounds, the leading hand or the
    tied leading hands, the hands tabled best first, the prize its rules promise
    and what it would pay if it ended now; ``period`` null before the promotion
    starts."""

    permission_classes = [JackpotReader]

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "PromotionStandings"

        class Period(serializers.Serializer):
            class Meta:
                ref_name = "PromotionPeriod"

            start = serializers.DateTimeField()
            end = serializers.DateTimeField(help_text="It closes a minute after.")
            version = serializers.IntegerField(help_text="The rules it is decided by.")
            active = serializers.BooleanField(
                help_text="False: the promotion had ended; nothing counts."
            )
            closed = serializers.BooleanField(help_text="Decided already.")

        class PrizeNow(serializers.Serializer):
            class Meta:
                ref_name = "PromotionPrizeNow"

            house = serializers.IntegerField(help_text="From the house, cents.")
            pool = serializers.IntegerField(
                help_text="From the pool, cents: its share of what the pool holds"
                " free, and what empty periods carried in."
            )
            carried_in = serializers.IntegerField(help_text="In pool, cents.")
            total = serializers.IntegerField()

        promotion = serializers.CharField()
        name = serializers.CharField()
        period = Period(allow_null=True)
        prize = PromotionPrizeRuleSerializer(
            allow_null=True, help_text="What the rules promise."
        )
        prize_now = PrizeNow(
            allow_null=True, help_text="What the period would pay if it ended now."
        )
        pool = serializers.IntegerField(help_text="What the pool holds, in cents.")
        currency = serializers.CharField()
        leaders = PromotionEntrySerializer(many=True)
        entries = PromotionEntrySerializer(many=True)

    @extend_schema(
        parameters=[count_parameter("limit", description="Hands, at most 100; 20.")],
        responses={200: OutputSerializer, **RULE_ERRORS},
    )
    def get(self, request: Request, promotion_id: int) -> Response:
        promotion = _promotion(promotion_id)
        _high_hand(promotion)
        now = timezone.now()
        found = _period(promotion, now)
        body: dict[str, Any] = {
            "promotion": promotion.code,
            "name": promotion.name,
            "period": None,
            "prize": None,
            "prize_now": None,
            "pool": promotion.pool.account.balance_cents,
            "currency": promotion.pool.account.currency,
            "leaders": [],
            "entries": [],
        }
        if found is not None:
            version, start, end = found
            rules = PromotionRules.from_config(version.rules)
            entries = selectors.period_entries(promotion=promotion, start=start)
            carried_in = selectors.period_carried_in(promotion=promotion, start=start)
            free = selectors.promotion_pool_free(
                promotion=promotion, at=now, carried_in=carried_in
            )
            amount = prize_amount(rules.prize, free=free, carried_in=carried_in)
            body |= {
                "period": {
                    "start": start,
                    "end": end,
                    "version": version.version,
                    "active": version.active,
                    "closed": promotion.prizes.filter(
                        kind=PromotionPrize.Kind.PERIOD, period_start=start
                    )
                    .exclude(status=PromotionPrize.Status.CANCELLED)
                    .exists(),
                },
                "prize": {
                    "fixed": rules.prize.fixed,
                    "pool_percent": rules.prize.pool_percent,
                    "funding": rules.prize.funding,
                },
                "prize_now": {
                    "house": amount.house,
                    "pool": amount.pool,
                    "carried_in": carried_in,
                    "total": amount.total,
                },
                "leaders": selectors.period_leaders(promotion=promotion, start=start),
                "entries": list(entries[: _count(request, "limit", 20, 100)]),
            }
        return Response(self.OutputSerializer(body).data)


class PeriodCloseApi(APIView):
    """A manager closes the high-hand period containing ``at`` when the scheduler
    missed it (PR2): its hands not yet qualified are qualified first, the best
    hand (or the tied best, sharing) gets a pending prize, an empty period
    carries over or lapses as the rules say. A period closes once (409), after
    its end (422), after the period before it (422, ``allowed.period``)."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "PromotionPeriodCloseInput"

        at = MomentField(
            help_text="A moment in the period, e.g. its start (ISO 8601 with an"
            " offset)."
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: PrizeSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, promotion_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        promotion = _promotion(promotion_id)
        _high_hand(promotion)
        at, now = data.validated_data["at"], timezone.now()
        if at >= now:
            # Its period ends after ``at``: not over. A moment far ahead has no
            # period worth computing (the calendar ends), so it is named itself.
            try:
                found = _period(promotion, at)
            except (OverflowError, ValueError):
                found = None
            end = (found[2] if found else at).isoformat()
            raise refuse(
                Code.PERIOD_NOT_OVER, rule="PR2", allowed={"after": end}, end=end
            )
        first = min(v.created_at for v in promotion.versions.all())
        if at < first - BEFORE_FIRST:
            # No period that long ago ends after the promotion started.
            raise refuse(Code.BEFORE_PROMOTION, rule="PR2", promotion=promotion.name)
        prize = services.period_close(
            promotion=promotion, at=at, by=staff(request), source="api"
        )
        return Response(
            PrizeSerializer(_prize(prize.pk)).data, status=status.HTTP_201_CREATED
        )


def _prizes(
    *, status: str | None = None, promotion: int | None = None
) -> QuerySet[PromotionPrize]:
    return selectors.prize_list(status=status, promotion=promotion).select_related(
        "promotion__pool__account", "closed_by"
    )


def _prize(prize_id: int) -> PromotionPrize:
    return get_object_or_404(_prizes(), pk=prize_id)


class PrizeListApi(APIView):
    """Promotions' prizes, newest first: pending ones wait for a floor person and
    a manager (PR5); ``status``, ``kind`` and ``promotion`` filter them."""

    permission_classes = [JackpotReader]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status", OpenApiTypes.STR, enum=PromotionPrize.Status.values
            ),
            OpenApiParameter("kind", OpenApiTypes.STR, enum=PromotionPrize.Kind.values),
            count_parameter("promotion", description="A promotion's id."),
            *PAGE,
        ],
        responses={200: PrizeSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        query = request.query_params
        rows = _prizes(
            status=choice_param(query, "status", PromotionPrize.Status.values),
            promotion=_count(request, "promotion", 0, 2**62) or None,
        )
        kind = choice_param(query, "kind", PromotionPrize.Kind.values)
        if kind:
            rows = rows.filter(kind=kind)
        return Response(PrizeSerializer(_page(request, rows), many=True).data)


class PrizeDetailApi(APIView):
    """A prize: its winning hands as cards, its awards and who decided what."""

    permission_classes = [JackpotReader]

    @extend_schema(responses={200: PrizeSerializer, **ERRORS})
    def get(self, request: Request, prize_id: int) -> Response:
        return Response(PrizeSerializer(_prize(prize_id)).data)


class PrizeVerifyApi(APIView):
    """A floor person confirms the prize from the cards and the camera (PR5)."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "PromotionPrizeVerifyInput"

        note = serializers.CharField(max_length=500, required=False, allow_blank=True)

    @extend_schema(
        request=InputSerializer,
        responses={200: PrizeSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, prize_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.prize_verify(
            prize=get_object_or_404(PromotionPrize, pk=prize_id),
            by=staff(request),
            note=data.validated_data.get("note", ""),
        )
        return Response(PrizeSerializer(_prize(prize_id)).data)


class PrizeApproveApi(APIView):
    """A manager, not the verifier, approves a verified prize (PR5): it is booked
    from the pool and the house into awards payable and made payable at the cage
    (PR1, CA6). A second approval is refused with 409 and pays nothing."""

    permission_classes = [IsManager]

    @extend_schema(
        request=None,
        responses={200: PrizeSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, prize_id: int) -> Response:
        services.prize_approve(
            prize=get_object_or_404(PromotionPrize, pk=prize_id), by=staff(request)
        )
        return Response(PrizeSerializer(_prize(prize_id)).data)


class PrizeRejectApi(APIView):
    """Reject a pending or verified prize with a reason; nothing is booked (PR5)."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "PromotionPrizeRejectInput"

        reason = serializers.CharField(max_length=500)

    @extend_schema(
        request=InputSerializer,
        responses={200: PrizeSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, prize_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.prize_reject(
            prize=get_object_or_404(PromotionPrize, pk=prize_id),
            by=staff(request),
            reason=data.validated_data["reason"],
        )
        return Response(PrizeSerializer(_prize(prize_id)).data)
