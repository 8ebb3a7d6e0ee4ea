"""Table terminals authenticate with ``Authorization: Api-Key <key>`` (API.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework_api_key.permissions import KeyParser

from cardroom.models import TerminalKey
from core.roles import has_role


class Terminal:
    """The principal of a request made with a terminal key: no staff role at all."""

    is_authenticated = True
    is_active = True
    is_superuser = False
    is_staff = False
    pk = None

    def __init__(self, key: TerminalKey) -> None:
        self.key = key

    def __str__(self) -> str:
        return f"terminal {self.key.table.code}"


class TerminalKeyAuthentication(BaseAuthentication):
    """Authenticate a table terminal by its key; other schemes pass through."""

    keyword = KeyParser.keyword

    def authenticate(self, request: Request) -> tuple[Terminal, TerminalKey] | None:
        raw = KeyParser().get(request._request)
        if raw is None:
            return None
        try:
            key = TerminalKey.objects.get_from_key(raw)
        except TerminalKey.DoesNotExist:
            raise exceptions.AuthenticationFailed(
                _("Unknown or revoked terminal key.")
            ) from None
        if key.has_expired:
            raise exceptions.AuthenticationFailed(
                _("This terminal key was revoked or has expired.")
            )
        request.terminal_key = key  # type: ignore[attr-defined]
        return Terminal(key), key

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class IsTableTerminal(BasePermission):
    """Let in the terminal of the table named in the URL, and no other."""

    message = _("This terminal key belongs to another table.")

    def has_permission(self, request: Request, view: Any) -> bool:
        key = request.auth
        return isinstance(key, TerminalKey) and key.table.code == view.kwargs.get(
            "table"
        )


def terminal_or_role(*roles: str) -> type[BasePermission]:
    """Let in the table's own terminal or staff holding one of ``roles``."""

    class TerminalOrRole(BasePermission):
        message = IsTableTerminal.message

        def has_permission(self, request: Request, view: Any) -> bool:
            if isinstance(request.auth, TerminalKey):
                return IsTableTerminal().has_permission(request, view)
            return has_role(request.user, *roles)

    return TerminalOrRole
