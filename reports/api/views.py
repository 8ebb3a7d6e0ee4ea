"""The reports' REST endpoints (API.md "Auditor"): list, read, download, produce.

Thin views: validate, call one service or selector, shape the answer. Auditors and
managers read every report and may have one produced for a finished period; only a
manager may ask for a new version of a stored one.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.fields import (
    FILLED_TEXT_PATTERN,
    StrictSerializer,
    count_param,
    count_parameter,
    refuse_empty_params,
)
from core.api.permissions import IsAuditor, staff
from reports import services
from reports.builders import tournaments
from reports.document import digest
from reports.errors import Code, missing
from reports.models import Report
from reports.render import FORMATS, render, room_time_text
from reports.render.files import file_response
from tournaments.models import Event

KINDS = ", ".join(Report.Kind.values)


def kind_field(**kwargs: Any) -> serializers.RegexField:
    """A report kind. Not a ChoiceField: its enum would collide in the schema with
    the other apps' fields named ``kind``."""
    return serializers.RegexField(
        "^(" + "|".join(Report.Kind.values) + ")$",
        help_text=_("The report: %(kinds)s.") % {"kinds": KINDS},
        **kwargs,
    )


class ReportSerializer(serializers.ModelSerializer):
    """A stored report's identity, without its figures."""

    kind = kind_field()
    generated_by = serializers.SerializerMethodField()
    files = serializers.SerializerMethodField()

    class Meta:
        model = Report
        ref_name = "Report"
        fields = [
            "id",
            "kind",
            "period_start",
            "period_end",
            "version",
            "reason",
            "generated_at",
            "generated_by",
            "source",
            "digest",
            "checks_total",
            "checks_failed",
            "duration_ms",
            "files",
        ]

    def get_generated_by(self, report: Report) -> str | None:
        user = report.generated_by
        return None if user is None else user.get_username()

    def get_files(self, report: Report) -> dict[str, str]:
        return {fmt: f"/api/v1/reports/{report.pk}/{fmt}" for fmt in FORMATS}


class ReportDataSerializer(ReportSerializer):
    """A stored report with its figures (sections, checks, charts)."""

    data = serializers.JSONField()  # type: ignore[assignment]

    class Meta(ReportSerializer.Meta):
        ref_name = "ReportWithData"
        fields = [*ReportSerializer.Meta.fields, "data"]


class ReportPageSerializer(serializers.Serializer):
    """A page of stored reports, as ``LimitOffsetPagination`` answers it."""

    class Meta:
        ref_name = "ReportPage"

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = ReportSerializer(many=True)


class OutcomeSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ReportOutcome"

    created = serializers.BooleanField(
        help_text="False when the period's report was stored already."
    )
    detail = serializers.CharField()
    report = ReportSerializer()


class ReportListApi(APIView):
    """Stored reports, newest period first; produce one for a finished period."""

    permission_classes = [IsAuditor]

    class FilterSerializer(serializers.Serializer):
        class Meta:
            ref_name = "ReportFilter"

        kind = kind_field(required=False)
        day = serializers.DateField(
            required=False, help_text=_("Reports whose period includes this day.")
        )

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "ReportInput"
            any_required = [["first"], ["month"]]  # as validate() refuses
            # A new version says why (services.report_generate refuses, 400).
            required_when = {
                "reason": ("new_version", [True], {"pattern": FILLED_TEXT_PATTERN})
            }

        kind = kind_field()
        first = serializers.DateField(
            required=False, help_text=_("The first gaming day.")
        )
        last = serializers.DateField(
            required=False, help_text=_("The last gaming day (default: first).")
        )
        month = serializers.RegexField(
            r"^[1-9][0-9]{3}-(0[1-9]|1[0-2])$",  # a month DateField reads
            required=False,
            help_text=_("Instead of first and last: a calendar month, 2026-11."),
        )
        new_version = serializers.BooleanField(
            default=False, help_text=_("Managers only: store a new version.")
        )
        reason = serializers.CharField(
            max_length=500, required=False, allow_blank=True, default=""
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if "month" in attrs:
                first, last = services.month_bounds(
                    serializers.DateField().to_internal_value(attrs["month"] + "-01")
                )
                attrs["first"], attrs["last"] = first, last
            if "first" not in attrs:
                raise serializers.ValidationError(
                    {"first": _("Give the first gaming day or a month.")}
                )
            return attrs

    @extend_schema(
        operation_id="api_v1_reports_list",
        parameters=[
            FilterSerializer,
            count_parameter("limit", description="Default 100."),
            count_parameter("offset"),
        ],
        responses={200: ReportPageSerializer},
    )
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        refuse_empty_params(request.query_params, filters.fields)
        filters.is_valid(raise_exception=True)
        for name in ("limit", "offset"):  # as LimitOffsetPagination reads them
            count_param(request.query_params, name, 0, 0)
        reports = Report.objects.select_related("generated_by").defer("data")
        if "kind" in filters.validated_data:
            reports = reports.filter(kind=filters.validated_data["kind"])
        if "day" in filters.validated_data:
            day = filters.validated_data["day"]
            reports = reports.filter(period_start__lte=day, period_end__gte=day)
        paginator = LimitOffsetPagination()
        page = paginator.paginate_queryset(reports, request, view=self)
        return paginator.get_paginated_response(ReportSerializer(page, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: OutcomeSerializer, 200: OutcomeSerializer},
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        outcome = services.report_generate(
            kind=v["kind"],
            first=v["first"],
            last=v.get("last"),
            source="api",
            by=staff(request),
            new_version=v["new_version"],
            reason=v["reason"],
        )
        body = {
            "created": outcome.created,
            "detail": outcome.detail,
            "report": ReportSerializer(outcome.report).data,
        }
        return Response(
            body, status=status.HTTP_201_CREATED if outcome.created else 200
        )


class ReportDetailApi(APIView):
    """A stored report with its figures."""

    permission_classes = [IsAuditor]

    @extend_schema(responses={200: ReportDataSerializer})
    def get(self, request: Request, report_id: int) -> Response:
        report = get_object_or_404(
            Report.objects.select_related("generated_by"), pk=report_id
        )
        return Response(ReportDataSerializer(report).data)


class ReportFileApi(APIView):
    """A stored report as a CSV, XLSX or PDF file (the PDF with its charts)."""

    permission_classes = [IsAuditor]

    @extend_schema(
        operation_id="api_v1_reports_file",
        parameters=[
            OpenApiParameter(
                "fmt", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(FORMATS)
            )
        ],
        responses={
            (200, FORMATS[fmt].split(";")[0]): OpenApiResponse(
                response=OpenApiTypes.BINARY,
                description=f"The report as {fmt.upper()} (fmt={fmt}).",
            )
            for fmt in FORMATS
        },
    )
    def get(self, request: Request, report_id: int, fmt: str) -> HttpResponse:
        if fmt not in FORMATS:
            raise missing(
                Code.UNKNOWN_FORMAT,
                allowed={"formats": list(FORMATS)},
                f=", ".join(FORMATS),
            )
        report = get_object_or_404(
            Report.objects.select_related("generated_by"), pk=report_id
        )
        return file_response(report, fmt)


class TournamentReportApi(APIView):
    """A tournament's final report, computed now from its records, as a CSV, XLSX
    or PDF file: entries, fees, the pool and overlay, payouts, the deal, bounties
    and the chip reconciliation, with their checks against the ledger (TO1–TO10)."""

    permission_classes = [IsAuditor]

    @extend_schema(
        operation_id="api_v1_reports_tournament_file",
        parameters=[
            OpenApiParameter(
                "fmt", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(FORMATS)
            )
        ],
        responses={
            (200, FORMATS[fmt].split(";")[0]): OpenApiResponse(
                response=OpenApiTypes.BINARY,
                description=f"The final report as {fmt.upper()} (fmt={fmt}).",
            )
            for fmt in FORMATS
        },
    )
    def get(self, request: Request, event: str, fmt: str) -> HttpResponse:
        if fmt not in FORMATS:
            raise missing(
                Code.UNKNOWN_FORMAT,
                allowed={"formats": list(FORMATS)},
                f=", ".join(FORMATS),
            )
        found = get_object_or_404(Event.objects.select_related("room"), code=event)
        data = tournaments.event_report(event=found)
        meta = {
            "report": f"{found.code} {found.name}",
            "generated": _("%(at)s by %(who)s")
            % {
                "at": room_time_text(data, data["as_of"]),
                "who": staff(request).get_username(),
            },
            "digest": f"sha256 {digest(data)}",
        }
        response = HttpResponse(render(data, fmt, meta=meta), content_type=FORMATS[fmt])
        name = f"tournament-{found.code}.{fmt}"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
