"""Awards held for restricted players (PP6), under ``/api/v1/``.

- ``GET held-awards`` (manager, auditor): every open award held now, with the
  restriction that holds it.
- ``POST held-awards/{id}/decide`` ``{"decision": "pay" | "forfeit", "reason"}``
  (manager): pay it to the player after all (the cage then pays it, CA6), or
  forfeit it, booked out of awards payable into forfeited awards. A tournament
  prize is held on its payout sheet and decided there (``payout_release``,
  ``payout_forfeit``, TO9).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.api.views import IDEMPOTENCY_KEY
from accounting.models import AwardDecision, Payable, Restriction
from accounting.services.cage import held_award_decide, held_awards
from core.api.fields import StrictSerializer
from core.api.permissions import IsManager, role_required, staff
from core.api.schema import ErrorSerializer
from core.idempotency import idempotent
from core.roles import Role

HeldReader = role_required(Role.MANAGER, Role.AUDITOR)


class HeldAwardSerializer(serializers.Serializer):
    class Meta:
        ref_name = "HeldAward"

    id = serializers.IntegerField(help_text="The award payable's id.")
    reference = serializers.CharField()
    player = serializers.CharField()
    amount = serializers.IntegerField(help_text="Cents.")
    currency = serializers.CharField()
    created_at = serializers.DateTimeField()
    restriction = serializers.IntegerField(help_text="The restriction holding it.")
    restriction_kind = serializers.ChoiceField(choices=Restriction.Kind.choices)
    restriction_scope = serializers.ChoiceField(choices=Restriction.Scope.choices)


def _held(payable: Payable, restriction: Restriction) -> dict[str, Any]:
    return {
        "id": payable.pk,
        "reference": payable.reference,
        "player": payable.player.code,
        "amount": payable.amount_cents,
        "currency": payable.currency,
        "created_at": payable.created_at,
        "restriction": restriction.pk,
        "restriction_kind": restriction.kind,
        "restriction_scope": restriction.scope,
    }


class HeldAwardListApi(APIView):
    """The awards held for restricted players now (PP6)."""

    permission_classes = [HeldReader]

    @extend_schema(responses={200: HeldAwardSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response([_held(p, r) for p, r in held_awards()])


class DecisionSerializer(serializers.Serializer):
    class Meta:
        ref_name = "HeldAwardDecision"

    award = serializers.IntegerField(source="payable_id")
    decision = serializers.ChoiceField(choices=AwardDecision.Decision.choices)
    held_by = serializers.IntegerField(source="held_by_id")
    reason = serializers.CharField()
    at = serializers.DateTimeField()
    by = serializers.CharField(source="by.username")
    booking = serializers.IntegerField(
        source="booking_id",
        allow_null=True,
        help_text="The ledger transaction of a forfeit; null for pay.",
    )


class HeldAwardDecideApi(APIView):
    """A manager's decision on a held award (PP6)."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "HeldAwardDecideInput"

        decision = serializers.ChoiceField(choices=AwardDecision.Decision.choices)
        reason = serializers.CharField(max_length=500)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: DecisionSerializer,
            404: OpenApiResponse(ErrorSerializer, "No such award."),
            409: OpenApiResponse(
                ErrorSerializer,
                "PP6 `not_held`: paid, decided, or its player is no longer restricted.",
            ),
        },
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        decision = held_award_decide(
            payable=get_object_or_404(Payable, pk=pk),
            decision=data.validated_data["decision"],
            reason=data.validated_data["reason"],
            by=staff(request),
        )
        return Response(DecisionSerializer(decision).data, status=201)
