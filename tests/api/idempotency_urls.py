"""A money-free POST used to test the idempotency mechanism on its own."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import Group
from django.urls import path
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import urlpatterns as project_urls
from core.errors import Refusal
from core.idempotency import idempotent

# Set by a test to run inside the view, after the key was claimed.
HOOK: list[Callable[[], None]] = []


class CreateGroupApi(APIView):
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=150)

    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        for hook in HOOK:
            hook()
        group = Group.objects.create(name=data.validated_data["name"])
        if group.name.startswith("refuse"):
            raise Refusal("refused", "Refused after writing.", rule="XX1")
        return Response({"id": group.pk, "name": group.name}, status.HTTP_201_CREATED)


urlpatterns = [path("test/groups", CreateGroupApi.as_view()), *project_urls]
