"""The floor's REST endpoints."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.auth import terminal_or_role
from cardroom.models import Table
from core.roles import Role


class TableDetailApi(APIView):
    """The table's set-up, for its own terminal and for the floor."""

    permission_classes = [terminal_or_role(Role.FLOOR, Role.MANAGER)]

    class OutputSerializer(serializers.ModelSerializer):
        class Meta:
            ref_name = "Table"
            model = Table
            fields = ["code", "name", "seats"]

    @extend_schema(responses={200: OutputSerializer})
    def get(self, request: Request, table: str) -> Response:
        obj = get_object_or_404(Table, code=table)
        return Response(self.OutputSerializer(obj).data)
