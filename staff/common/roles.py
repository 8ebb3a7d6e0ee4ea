"""Who opens a staff screen: a signed-in holder of one of its roles (a superuser
holds every role); anyone else signed in gets 403 and an anonymous caller is sent
to sign in. Each role's screens use the check named for it here, the one access
policy the API's permissions also keep (tests/staff/test_roles.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from core.roles import Role, has_role

View = Callable[..., HttpResponse]


def role_only(*roles: Role) -> Callable[[View], View]:
    """Let in signed-in holders of one of ``roles`` (superusers too); others get
    403."""

    def decorator(view: View) -> View:
        @login_required
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not has_role(request.user, *roles):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


cashier_only = role_only(Role.CASHIER)
"""The cage's screens (CA1–CA6)."""

desk_staff = role_only(Role.CASHIER, Role.MANAGER)
"""The tournament desk at the cage: its cashiers, and the managers who approve
there (TO9, TO10)."""

floor_only = role_only(Role.FLOOR, Role.MANAGER)
"""The floor's screens, the tournament director's among them: floor staff and
managers."""

manager_only = role_only(Role.MANAGER)
"""A manager's screens and decisions: approvals are a second person's (four
eyes: the services refuse the one who asked)."""

manager_or_auditor = role_only(Role.MANAGER, Role.AUDITOR)
"""What an auditor reads beside the manager, without the forms (PP6, PP7)."""

auditor_only = role_only(Role.AUDITOR, Role.MANAGER)
"""The auditor's reports (BI8): auditors and managers."""
