"""Staff login and logout, and the health check."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.signals import user_logged_in
from django.db import connection
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.models import AuthToken
from kombu import Connection
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.fields import StrictSerializer
from core.api.permissions import IsStaffUser
from core.api.schema import ErrorSerializer
from core.errors import SharedCode, throttled, unauthenticated


class LoginApi(APIView):
    """Exchange a staff username and password for an expiring bearer token."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    class InputSerializer(StrictSerializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(
            max_length=128, style={"input_type": "password"}
        )

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "Login"

        token = serializers.CharField()
        expires_at = serializers.DateTimeField()

    @extend_schema(
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            401: OpenApiResponse(
                ErrorSerializer, "Unknown username or wrong password."
            ),
            429: OpenApiResponse(
                ErrorSerializer, "Locked out after repeated failures (django-axes)."
            ),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        django_request = request._request
        user = authenticate(
            request=django_request,
            username=data.validated_data["username"],
            password=data.validated_data["password"],
        )
        if getattr(django_request, "axes_locked_out", False):
            raise throttled(SharedCode.LOCKED_OUT)
        if user is None or not user.is_active:
            raise unauthenticated(SharedCode.INVALID_CREDENTIALS)
        # As knox's own login view does: axes starts the failure count again
        # (AXES_RESET_ON_SUCCESS) and Django records the last login.
        user_logged_in.send(sender=user.__class__, request=django_request, user=user)
        instance, token = AuthToken.objects.create(user)
        out = self.OutputSerializer({"token": token, "expires_at": instance.expiry})
        return Response(out.data)


class LogoutApi(APIView):
    """Revoke the bearer token the request was made with."""

    permission_classes = [IsStaffUser]

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, AuthToken):
            request.auth.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


def _broker_ok() -> bool:
    try:
        with Connection(
            settings.CELERY_BROKER_URL,
            transport_options=settings.CELERY_BROKER_TRANSPORT_OPTIONS,
            connect_timeout=2,
        ) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return True
    except Exception:  # any failure to reach the broker means "down"
        return False


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except Exception:  # any failure to query means "down"
        return False


class HealthApi(APIView):
    """Say whether the database and the Celery broker answer (200 or 503)."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "Health"

        status = serializers.ChoiceField(choices=["ok", "failing"])
        database = serializers.CharField(help_text="ok or down")
        broker = serializers.CharField(help_text="ok or down")

    @extend_schema(responses={200: OutputSerializer, 503: OutputSerializer}, auth=[])
    def get(self, request: Request) -> Response:
        checks: dict[str, Any] = {
            "database": "ok" if _database_ok() else "down",
            "broker": "ok" if _broker_ok() else "down",
        }
        healthy = all(v == "ok" for v in checks.values())
        checks["status"] = "ok" if healthy else "failing"
        return Response(
            checks,
            status=status.HTTP_200_OK
            if healthy
            else status.HTTP_503_SERVICE_UNAVAILABLE,
        )
