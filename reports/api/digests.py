"""The day's signed digest and the proofs of a single figure over the API
(docs/digest.md): auditors and managers read them, as they read the reports.

- ``GET /api/v1/reports/digests/{day}``: a sealed gaming day's signed digest;
- ``GET /api/v1/reports/digests/{day}/file``: the same as a file to keep, with each
  transaction's leaf hash (what names a changed transaction later);
- ``GET /api/v1/reports/proofs/hands/{table}/{hand_no}``,
  ``…/proofs/receipts/{number}``, ``…/proofs/awards/{award_id}``: the inclusion
  proof of what the hand, the receipt or the award booked, which
  ``scripts/verify_proof.py`` checks with the public key and the day's digest.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.permissions import IsAuditor
from core.api.schema import ErrorSerializer
from reports import services
from reports.services.digests import digest_file_of, digest_of_day, file_bytes

DAY = OpenApiParameter(
    "day",
    OpenApiTypes.DATE,
    OpenApiParameter.PATH,
    description=str(_("A sealed gaming day, 2026-11-27.")),
)
NOT_BOOKED = OpenApiResponse(
    ErrorSerializer, str(_("The hand or award booked no ledger transaction."))
)


class SignedDigestSerializer(serializers.Serializer):
    """A day's signed digest: the document, its digest, the signature, the key."""

    class Meta:
        ref_name = "SignedDigest"

    format = serializers.CharField()
    digest = serializers.JSONField(
        help_text=_(
            "The signed document: algorithm, room, gaming_day, from, until, horizon, "
            "size, root, previous, key (docs/digest.md)."
        )
    )
    hash = serializers.CharField(
        help_text=_("SHA-256 of the document's canonical JSON: the day's digest.")
    )
    signature = serializers.CharField(help_text=_("Ed25519 over the document."))
    public_key = serializers.CharField(help_text=_("The room's Ed25519 key, hex."))


class ProofSerializer(serializers.Serializer):
    """An inclusion proof of one ledger transaction in its day's digest."""

    class Meta:
        ref_name = "InclusionProof"

    format = serializers.CharField()
    of = serializers.DictField(child=serializers.CharField())
    transaction = serializers.IntegerField()
    gaming_day = serializers.DateField()
    leaf = serializers.CharField(
        help_text=_("The transaction's record as canonical JSON: the leaf's bytes.")
    )
    leaf_index = serializers.IntegerField()
    tree_size = serializers.IntegerField()
    audit_path = serializers.ListField(child=serializers.CharField())
    digest = serializers.JSONField()
    hash = serializers.CharField()
    signature = serializers.CharField()
    public_key = serializers.CharField()
    agrees = serializers.BooleanField(
        help_text=_("Whether the record read now is the one sealed.")
    )


class AwardProofSerializer(ProofSerializer):
    class Meta:
        ref_name = "AwardInclusionProof"

    paid_by_receipt = serializers.CharField(allow_null=True)


class DigestApi(APIView):
    """A sealed gaming day's signed digest."""

    permission_classes = [IsAuditor]

    @extend_schema(parameters=[DAY], responses={200: SignedDigestSerializer})
    def get(self, request: Request, day: str) -> Response:
        return Response(digest_file_of(digest_of_day(day), leaves=False))


class DigestFileApi(APIView):
    """A sealed gaming day's digest file, with each transaction's leaf hash: the
    file to keep (the same one the digest's e-mail and webhook send)."""

    permission_classes = [IsAuditor]

    @extend_schema(
        operation_id="api_v1_reports_digests_file",
        parameters=[DAY],
        responses={
            (200, "application/json"): OpenApiResponse(
                response=OpenApiTypes.BINARY,
                description=str(_("The digest file, JSON, as an attachment.")),
            )
        },
    )
    def get(self, request: Request, day: str) -> HttpResponse:
        sealed = digest_of_day(day)
        response = HttpResponse(
            file_bytes(digest_file_of(sealed, leaves=True)),
            content_type="application/json",
        )
        name = f"digest-{sealed.gaming_day.isoformat()}.json"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class HandProofApi(APIView):
    """The inclusion proof of a hand's ledger transaction in its day's digest."""

    permission_classes = [IsAuditor]

    @extend_schema(responses={200: ProofSerializer, 422: NOT_BOOKED})
    def get(self, request: Request, table: str, hand_no: int) -> Response:
        return Response(services.hand_proof(table=table, hand_no=hand_no))


class ReceiptProofApi(APIView):
    """The inclusion proof of a cage receipt's transaction (``MAIN-000123``)."""

    permission_classes = [IsAuditor]

    @extend_schema(responses={200: ProofSerializer})
    def get(self, request: Request, number: str) -> Response:
        return Response(services.receipt_proof(number=number))


class AwardProofApi(APIView):
    """The inclusion proof of the transaction that booked a jackpot award."""

    permission_classes = [IsAuditor]

    @extend_schema(responses={200: AwardProofSerializer, 422: NOT_BOOKED})
    def get(self, request: Request, award_id: int) -> Response:
        return Response(services.award_proof(award=award_id))
