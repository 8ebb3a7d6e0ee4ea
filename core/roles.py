"""Staff roles as Django groups (API.md, "Authentication")."""

from __future__ import annotations

from enum import StrEnum

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


class Role(StrEnum):
    CASHIER = "cashier"
    FLOOR = "floor"
    MANAGER = "manager"
    AUDITOR = "auditor"


def has_role(user: AbstractBaseUser | AnonymousUser, *roles: Role | str) -> bool:
    """Say whether ``user`` is active staff in one of ``roles`` (superusers are all)."""
    if not isinstance(user, AbstractBaseUser) or not user.is_active:
        return False
    if getattr(user, "is_superuser", False):
        return True
    names = getattr(user, "_role_names", None)
    if names is None:
        names = set(user.groups.values_list("name", flat=True))  # type: ignore[attr-defined]
        user._role_names = names  # type: ignore[attr-defined]
    return bool(names.intersection(str(r) for r in roles))


def create_role_groups(**kwargs: object) -> None:
    """Make sure a group exists for every role (post_migrate receiver)."""
    from django.contrib.auth.models import Group

    for role in Role:
        Group.objects.get_or_create(name=role.value)
