"""The jackpots' REST endpoints, under ``/api/v1/jackpots/``.

Thin views: validate the input, call one service or selector, shape the answer.

- public: the board's summary, pool names and amounts only (JD6, WL11);
- floor, manager, auditor: pools and their history, categories, hits, months,
  standings (HM4); cashiers see the awards they pay;
- floor: verify or reject a hit (BB5); manager: approve it, another person (BB5);
- manager: pools, seeds from the house, category versions (BB2), months' awards,
  a promotion ended into its successor and drops given to a pool (JD5).

Every POST that moves money takes an ``Idempotency-Key``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.api.views import IDEMPOTENCY_KEY
from cardroom.api.views import ErrorSerializer
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
from core.api.permissions import IsFloor, IsManager, role_required, staff
from core.idempotency import idempotent
from core.roles import Role
from jackpots import selectors, services
from jackpots.api.serializers import (
    AwardSerializer,
    CategorySerializer,
    CategoryVersionSerializer,
    HistoryLineSerializer,
    HitSerializer,
    MonthSerializer,
    PoolSerializer,
    StandingSerializer,
    TransferSerializer,
    choice,
)
from jackpots.domain.months import month_name, month_of, parse_month
from jackpots.domain.rules import HIGH_GAMES, PART_MAX
from jackpots.errors import Code, invalid, refuse
from jackpots.models import Award, Category, Hit, Month, Pool, Transfer
from jackpots.services.pools import DROP_RATIO_MAX

CARD = "^[2-9TJQKA][cdhs]$"
"""A card, rank then suit (API.md "Conventions")."""

HIGH_GAME_CODES = [(code, code) for code in HIGH_GAMES]
"""The games a jackpot covers: those whose high hands rank alike (BB2, HM1);
Razz and Sökö can't be (jackpots.domain.rules), and the schema says so."""

JackpotReader = role_required(Role.FLOOR, Role.MANAGER, Role.AUDITOR)
AwardReader = role_required(Role.FLOOR, Role.MANAGER, Role.AUDITOR, Role.CASHIER)

ERRORS = {403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer}
RULE_ERRORS = {**ERRORS, 422: ErrorSerializer}


def _pool(pool_id: int) -> Pool:
    return get_object_or_404(
        Pool.objects.select_related("room", "account", "reserve_account"), pk=pool_id
    )


def _int_param(request: Request, name: str, default: int, most: int) -> int:
    return count_param(request.query_params, name, default, most)


PAGE = [
    count_parameter("limit", description="At most 500; 100."),
    count_parameter("offset"),
]


def _page(request: Request, rows: QuerySet[Any]) -> QuerySet[Any]:
    offset = _int_param(request, "offset", 0, 10**9)
    return rows[offset : offset + _int_param(request, "limit", 100, 500)]


class SummaryApi(APIView):
    """The jackpots for the public board: each pool's name, amount and reserve,
    equal to the ledger (JD6) — the active pools, and retired ones while they hold
    players' money. No login; nothing else is shown."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "JackpotSummary"

        class PoolLine(serializers.Serializer):
            class Meta:
                ref_name = "JackpotSummaryPool"

            name = serializers.CharField(source="pool.name")
            amount = serializers.IntegerField(source="amount_cents")
            reserve = serializers.IntegerField(source="reserve_cents")
            currency = serializers.CharField(source="pool.account.currency")

        pools = PoolLine(many=True)

    @extend_schema(
        parameters=[OpenApiParameter("room", OpenApiTypes.STR, description="A room.")],
        responses={200: OutputSerializer},
        auth=[],
    )
    def get(self, request: Request) -> Response:
        pools = selectors.board_pools(room=request.query_params.get("room"))
        return Response(self.OutputSerializer({"pools": pools}).data)


class PoolListApi(APIView):
    """The room's jackpot pools with their amounts (JD6); a manager starts one,
    with an optional seed from the house."""

    def get_permissions(self) -> list[Any]:
        return [IsManager()] if self.request.method == "POST" else [JackpotReader()]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "JackpotPoolCreateInput"

        room = serializers.SlugField(
            max_length=16, required=False, help_text="Default: the room."
        )
        code = serializers.RegexField(r"^[a-z0-9][a-z0-9_-]*$", max_length=32)
        name = serializers.CharField(max_length=100)
        kind = choice(Pool.Kind.choices, "JackpotPoolKind")
        drop_ratio = StrictIntegerField(
            min_value=0, max_value=DROP_RATIO_MAX, default=1
        )
        reserve_percent = StrictIntegerField(min_value=0, max_value=100, default=0)
        seed = CentsField(min_value=0, default=0, help_text="From house capital.")
        games = serializers.ListField(
            child=choice(HIGH_GAME_CODES, "JackpotGame"), required=False
        )
        payout_percent = StrictIntegerField(min_value=0, max_value=100, default=100)
        month_close_day = StrictIntegerField(min_value=1, max_value=28, default=1)
        month_close_hour = StrictIntegerField(min_value=0, max_value=23, default=12)
        starts_on = serializers.DateField(required=False)

    @extend_schema(responses={200: PoolSerializer(many=True)})
    def get(self, request: Request) -> Response:
        pools = Pool.objects.select_related(
            "room", "account", "reserve_account"
        ).order_by("room_id", "pk")
        return Response(PoolSerializer(pools, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: PoolSerializer, **ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        code = fields.pop("room", None)
        room = get_object_or_404(Room, code=code) if code else room_default()
        pool = services.pool_create(
            room=room, by=staff(request), seed_cents=fields.pop("seed"), **fields
        )
        return Response(
            PoolSerializer(_pool(pool.pk)).data, status=status.HTTP_201_CREATED
        )


class PoolDetailApi(APIView):
    """A pool and its amounts; a manager changes its settings (from the next hand)."""

    def get_permissions(self) -> list[Any]:
        return [IsManager()] if self.request.method == "PATCH" else [JackpotReader()]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "JackpotPoolUpdateInput"

        name = serializers.CharField(max_length=100, required=False)
        drop_ratio = StrictIntegerField(
            min_value=0, max_value=DROP_RATIO_MAX, required=False
        )
        reserve_percent = StrictIntegerField(min_value=0, max_value=100, required=False)
        games = serializers.ListField(
            child=choice(HIGH_GAME_CODES, "JackpotGame"), required=False
        )
        payout_percent = StrictIntegerField(min_value=0, max_value=100, required=False)
        month_close_day = StrictIntegerField(min_value=1, max_value=28, required=False)
        month_close_hour = StrictIntegerField(min_value=0, max_value=23, required=False)
        active = serializers.BooleanField(required=False)

    @extend_schema(responses={200: PoolSerializer, **ERRORS})
    def get(self, request: Request, pool_id: int) -> Response:
        return Response(PoolSerializer(_pool(pool_id)).data)

    @extend_schema(request=InputSerializer, responses={200: PoolSerializer, **ERRORS})
    def patch(self, request: Request, pool_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.pool_update(
            pool=_pool(pool_id), by=staff(request), **data.validated_data
        )
        return Response(PoolSerializer(_pool(pool_id)).data)


class PoolSeedApi(APIView):
    """A manager puts house money into a pool or its reserve (house capital →
    pool), booked as a seed (JD5)."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "JackpotPoolSeedInput"

        amount = CentsField(min_value=1)
        to_reserve = serializers.BooleanField(default=False)
        memo = serializers.CharField(max_length=500, required=False, allow_blank=True)

    @extend_schema(
        request=InputSerializer,
        responses={201: PoolSerializer, **ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, pool_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.pool_seed(
            pool=_pool(pool_id),
            amount_cents=data.validated_data["amount"],
            to_reserve=data.validated_data["to_reserve"],
            memo=data.validated_data.get("memo", ""),
            by=staff(request),
        )
        return Response(
            PoolSerializer(_pool(pool_id)).data, status=status.HTTP_201_CREATED
        )


class PoolRetireApi(APIView):
    """A manager ends a promotion: the pool takes no more drops and what it holds,
    amount and reserve, moves to a successor pool of the room, with the reason
    (JD5). Answers the retired pool and the transfer (null when it held nothing)."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "JackpotPoolRetireInput"

        successor = StrictIntegerField(min_value=1, max_value=2**62)
        reason = serializers.CharField(max_length=2000, allow_blank=True)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "JackpotPoolRetired"

        pool = PoolSerializer()
        transfer = TransferSerializer(
            allow_null=True, help_text="Null when the pool held nothing."
        )

    @extend_schema(
        request=InputSerializer,
        responses={200: OutputSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, pool_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pool = _pool(pool_id)
        successor = Pool.objects.filter(
            pk=data.validated_data["successor"], room_id=pool.room_id
        ).first()
        if successor is None:
            raise refuse(
                Code.BAD_SUCCESSOR, text="room", rule="JD5", room=pool.room.code
            )
        transfer = services.pool_retire(
            pool=pool,
            successor=successor,
            reason=data.validated_data["reason"],
            by=staff(request),
        )
        answer = {"pool": _pool(pool_id), "transfer": transfer}
        return Response(self.OutputSerializer(answer).data)


class DropsAllocateApi(APIView):
    """A manager gives hands' drops that reached no pool (booked while the room had
    no active pool) to a pool, with the reason (JD5)."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "JackpotDropsAllocateInput"

        pool = StrictIntegerField(min_value=1, max_value=2**62)
        amount = CentsField(
            min_value=1, required=False, help_text="Default: all the drops held."
        )
        reason = serializers.CharField(max_length=2000, allow_blank=True)

    @extend_schema(
        request=InputSerializer,
        responses={201: TransferSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        transfer = services.drops_allocate(
            pool=_pool(data.validated_data["pool"]),
            amount_cents=data.validated_data.get("amount"),
            reason=data.validated_data["reason"],
            by=staff(request),
        )
        return Response(
            TransferSerializer(transfer).data, status=status.HTTP_201_CREATED
        )


class TransferListApi(APIView):
    """Money moved between pools, newest first, with who decided and why (JD5)."""

    permission_classes = [JackpotReader]

    @extend_schema(
        parameters=[count_parameter("pool"), *PAGE],
        responses={200: TransferSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        rows = Transfer.objects.select_related("room", "source", "target", "decided_by")
        pool = _int_param(request, "pool", 0, 2**62)
        if pool:
            rows = rows.filter(Q(source_id=pool) | Q(target_id=pool))
        return Response(TransferSerializer(_page(request, rows), many=True).data)


class PoolHistoryApi(APIView):
    """The postings on a pool or its reserve, newest first: drops, seeds, awards."""

    permission_classes = [JackpotReader]

    @extend_schema(
        parameters=[
            OpenApiParameter("reserve", OpenApiTypes.BOOL, description="The reserve."),
            OpenApiParameter(
                "kind", OpenApiTypes.STR, description="e.g. jackpot_award"
            ),
            count_parameter("limit"),
            count_parameter("offset"),
        ],
        responses={200: HistoryLineSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, pool_id: int) -> Response:
        lines = selectors.pool_history(
            pool=_pool(pool_id),
            reserve=request.query_params.get("reserve") in ("1", "true"),
            kind=request.query_params.get("kind") or None,
            limit=_int_param(request, "limit", 100, 1000),
            offset=_int_param(request, "offset", 0, 10**9),
        )
        return Response(HistoryLineSerializer(lines, many=True).data)


class StandingsApi(APIView):
    """The hand of the month so far: each player's best hand, best first; the
    first is the leader (HM4)."""

    permission_classes = [JackpotReader]

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "JackpotStandings"

        pool = serializers.CharField()
        month = serializers.CharField()
        closed = serializers.BooleanField()
        leader = StandingSerializer(allow_null=True)
        standings = StandingSerializer(many=True)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "month", OpenApiTypes.STR, description="YYYY-MM; default this month."
            ),
            count_parameter("limit"),
        ],
        responses={200: OutputSerializer, **ERRORS},
    )
    def get(self, request: Request, pool_id: int) -> Response:
        pool = _pool(pool_id)
        raw = request.query_params.get("month")
        try:
            month = parse_month(raw) if raw else month_of(timezone.now(), pool.room.tz)
        except ValueError as error:
            raise invalid(Code.INVALID_MONTH, month=repr(raw)) from error
        table = selectors.month_standings(
            pool=pool, month=month, limit=_int_param(request, "limit", 10, 100)
        )
        body = {
            "pool": pool.code,
            "month": month_name(month),
            "closed": pool.months.filter(month=month).exists(),
            "leader": table[0] if table else None,
            "standings": table,
        }
        return Response(self.OutputSerializer(body).data)


def _category(code: str) -> dict[str, Any]:
    category = get_object_or_404(Category, code=code)
    versions = list(category.versions.select_related("created_by"))
    return {
        "code": category.code,
        "name": category.name,
        "current": versions[0],
        "versions": versions,
    }


class CategoryListApi(APIView):
    """The bad-beat categories with the rules in force (BB2)."""

    permission_classes = [JackpotReader]

    @extend_schema(responses={200: CategorySerializer(many=True)})
    def get(self, request: Request) -> Response:
        rows = []
        for category in Category.objects.prefetch_related("versions__created_by"):
            versions = sorted(category.versions.all(), key=lambda v: -v.version)
            if versions:
                rows.append(
                    {
                        "code": category.code,
                        "name": category.name,
                        "current": versions[0],
                    }
                )
        return Response(CategorySerializer(rows, many=True).data)


class CategoryDetailApi(APIView):
    """A category and all its versions, newest first."""

    permission_classes = [JackpotReader]

    @extend_schema(responses={200: CategorySerializer, **ERRORS})
    def get(self, request: Request, code: str) -> Response:
        return Response(CategorySerializer(_category(code)).data)


class CategoryVersionApi(APIView):
    """A manager publishes a new version of a category's rules (BB2); hits found
    from then on use it."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "JackpotCategoryVersionInput"

        class CardUse(StrictSerializer):
            class Meta:
                ref_name = "JackpotCardUseInput"

            hole_cards = StrictIntegerField(min_value=0, max_value=2)
            quads_pocket_pair = serializers.BooleanField()

        class Payout(StrictSerializer):
            class Meta:
                ref_name = "JackpotPayoutInput"
                # At least one role has a part (BB2), as the rules refuse (400).
                rules = [
                    {
                        "anyOf": [
                            {"properties": {role: {"minimum": 1}}}
                            for role in ("loser", "winner", "table")
                        ]
                    }
                ]

            percent = StrictIntegerField(min_value=0, max_value=100)
            loser = StrictIntegerField(min_value=0, max_value=PART_MAX)
            winner = StrictIntegerField(min_value=0, max_value=PART_MAX)
            table = StrictIntegerField(min_value=0, max_value=PART_MAX)

        pool = serializers.SlugField(max_length=32, help_text="The paying pool's code.")
        active = serializers.BooleanField(default=True)
        games = serializers.ListField(
            child=choice(HIGH_GAME_CODES, "JackpotGame"), allow_empty=False
        )
        min_losing_hand = UniqueListField(
            child=serializers.RegexField(CARD, trim_whitespace=False),
            min_length=5,
            max_length=5,
            help_text='Five different cards, e.g. ["As", "Ah", "Ad", "Ts", "Th"].',
        )
        loser_card_use = CardUse()
        winner_card_use = CardUse()
        min_participants = StrictIntegerField(min_value=2, max_value=12)
        min_pot = CentsField(min_value=0, default=0)
        payout = Payout()
        note = serializers.CharField(max_length=500, required=False, allow_blank=True)

    @extend_schema(
        request=InputSerializer,
        responses={201: CategoryVersionSerializer, **ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, code: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        version = services.category_publish(
            category=get_object_or_404(Category, code=code),
            config={
                "games": v["games"],
                "min_losing_hand": v["min_losing_hand"],
                "card_use": {
                    "loser": dict(v["loser_card_use"]),
                    "winner": dict(v["winner_card_use"]),
                },
                "min_participants": v["min_participants"],
                "min_pot": v["min_pot"],
                "payout": dict(v["payout"]),
            },
            pool_code=v["pool"],
            active=v["active"],
            note=v.get("note", ""),
            by=staff(request),
        )
        return Response(
            CategoryVersionSerializer(version).data, status=status.HTTP_201_CREATED
        )


class HitListApi(APIView):
    """Bad-beat hits, newest hand first; ``status`` pending, verified, approved,
    rejected."""

    permission_classes = [JackpotReader]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", OpenApiTypes.STR, enum=Hit.Status.values),
            count_parameter("pool"),
            *PAGE,
        ],
        responses={200: HitSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        hits = selectors.hit_list(
            status=choice_param(request.query_params, "status", Hit.Status.values),
            pool=_int_param(request, "pool", 0, 2**62) or None,
        )
        return Response(HitSerializer(_page(request, hits), many=True).data)


def _hit(hit_id: int) -> Hit:
    return get_object_or_404(selectors.hit_list(), pk=hit_id)


class HitDetailApi(APIView):
    """A hit: its hands, its awards and who decided what (BB5)."""

    permission_classes = [JackpotReader]

    @extend_schema(responses={200: HitSerializer, **ERRORS})
    def get(self, request: Request, hit_id: int) -> Response:
        return Response(HitSerializer(_hit(hit_id)).data)


class HitVerifyApi(APIView):
    """A floor person confirms the hit from the cards and the camera (BB5)."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "JackpotHitVerifyInput"

        note = serializers.CharField(max_length=500, required=False, allow_blank=True)

    @extend_schema(
        request=InputSerializer,
        responses={200: HitSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, hit_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.hit_verify(
            hit=get_object_or_404(Hit, pk=hit_id),
            by=staff(request),
            note=data.validated_data.get("note", ""),
        )
        return Response(HitSerializer(_hit(hit_id)).data)


class HitApproveApi(APIView):
    """A manager, not the verifier, approves a verified hit: its awards are booked
    from the pool and made payable at the cage (BB4–BB6, CA6). A second approval
    is refused with 409 and pays nothing."""

    permission_classes = [IsManager]

    @extend_schema(
        request=None,
        responses={200: HitSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, hit_id: int) -> Response:
        services.hit_approve(hit=get_object_or_404(Hit, pk=hit_id), by=staff(request))
        return Response(HitSerializer(_hit(hit_id)).data)


class HitRejectApi(APIView):
    """Reject a hit with a reason; the pool is untouched (BB5)."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "JackpotRejectInput"

        reason = serializers.CharField(max_length=500)

    @extend_schema(
        request=InputSerializer,
        responses={200: HitSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, hit_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.hit_reject(
            hit=get_object_or_404(Hit, pk=hit_id),
            by=staff(request),
            reason=data.validated_data["reason"],
        )
        return Response(HitSerializer(_hit(hit_id)).data)


class MonthListApi(APIView):
    """Closed months of the hand-of-the-month pools, newest first (HM3)."""

    permission_classes = [JackpotReader]

    @extend_schema(
        parameters=[count_parameter("pool"), *PAGE],
        responses={200: MonthSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        months = selectors.month_list(
            pool=_int_param(request, "pool", 0, 2**62) or None
        )
        return Response(MonthSerializer(_page(request, months), many=True).data)


def _month(month_id: int) -> Month:
    return get_object_or_404(selectors.month_list(), pk=month_id)


class MonthDetailApi(APIView):
    """A closed month and its awards."""

    permission_classes = [JackpotReader]

    @extend_schema(responses={200: MonthSerializer, **ERRORS})
    def get(self, request: Request, month_id: int) -> Response:
        return Response(MonthSerializer(_month(month_id)).data)


class MonthApproveApi(APIView):
    """A manager approves a closed month's awards: booked from the pool and made
    payable at the cage (HM3, CA6)."""

    permission_classes = [IsManager]

    @extend_schema(
        request=None,
        responses={200: MonthSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, month_id: int) -> Response:
        services.month_approve(
            month=get_object_or_404(Month, pk=month_id), by=staff(request)
        )
        return Response(MonthSerializer(_month(month_id)).data)


class MonthRejectApi(APIView):
    """A manager rejects a closed month's awards with a reason; the pool carries
    forward (HM3)."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "JackpotMonthRejectInput"

        reason = serializers.CharField(max_length=500)

    @extend_schema(
        request=InputSerializer,
        responses={200: MonthSerializer, **RULE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, month_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.month_reject(
            month=get_object_or_404(Month, pk=month_id),
            by=staff(request),
            reason=data.validated_data["reason"],
        )
        return Response(MonthSerializer(_month(month_id)).data)


class AwardListApi(APIView):
    """Jackpot awards, newest first, with their cage payables (CA6)."""

    permission_classes = [AwardReader]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", OpenApiTypes.STR, enum=Award.Status.values),
            OpenApiParameter("player", OpenApiTypes.STR, description="A player's id."),
            count_parameter("pool"),
            *PAGE,
        ],
        responses={200: AwardSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        awards = selectors.award_list(
            status=choice_param(request.query_params, "status", Award.Status.values),
            player=request.query_params.get("player"),
            pool=_int_param(request, "pool", 0, 2**62) or None,
        )
        return Response(AwardSerializer(_page(request, awards), many=True).data)
