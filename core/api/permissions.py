"""Role permissions for staff endpoints."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from core.roles import Role, has_role


def role_required(*roles: Role) -> type[BasePermission]:
    """Return a permission class that lets in staff holding one of ``roles``."""

    class HasRole(BasePermission):
        message = "This needs the role: " + " or ".join(r.value for r in roles) + "."

        def has_permission(self, request: Request, view: Any) -> bool:
            return has_role(request.user, *roles)

    HasRole.__name__ = "HasRole_" + "_".join(r.value for r in roles)
    return HasRole


IsCashier = role_required(Role.CASHIER)
IsFloor = role_required(Role.FLOOR, Role.MANAGER)
IsManager = role_required(Role.MANAGER)
IsAuditor = role_required(Role.AUDITOR, Role.MANAGER)


class IsStaffUser(BasePermission):
    """Let in a logged-in staff account; table terminals are not staff."""

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        return isinstance(user, AbstractBaseUser) and user.is_active


def staff(request: HttpRequest | Request) -> User:
    """Return the staff account making ``request``.

    The views' permissions let only staff this far; anything else (a terminal, an
    anonymous caller) raises :class:`PermissionDenied`, answered 403.
    """
    user = request.user
    if not isinstance(user, User) or not user.is_active:
        raise PermissionDenied
    return user
