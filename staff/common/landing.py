"""Where each role lands after signing in.

An ordered table of (role, URL name): the first role the user holds wins; a user
with none of them lands on the admin's index. Another screen adds its role's home
with :func:`landing_add`, from its app's ``ready()`` or here.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.urls import reverse

from core.roles import Role, has_role

DEFAULT_LANDING = "admin:index"

LANDINGS: list[tuple[Role, str]] = [
    (Role.CASHIER, "staff:cage-home"),
    (Role.MANAGER, "staff:approvals"),
    (Role.AUDITOR, "staff:auditor-home"),
]


def landing_add(role: Role, url_name: str, *, first: bool = False) -> None:
    """Send ``role`` to ``url_name`` after signing in (first in line if ``first``)."""
    LANDINGS[:] = [(r, u) for r, u in LANDINGS if r != role]
    LANDINGS.insert(0 if first else len(LANDINGS), (role, url_name))


def landing_url(user: AbstractBaseUser | AnonymousUser) -> str:
    """The home page of ``user``'s role; the admin's index for anyone else.

    A superuser holds every role, so he is taken to the admin like before.
    """
    if not getattr(user, "is_superuser", False):
        for role, url_name in LANDINGS:
            if has_role(user, role):
                return reverse(url_name)
    return reverse(DEFAULT_LANDING)
