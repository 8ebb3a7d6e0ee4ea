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


# The floor's records, which the floor, managers and auditors look at in the admin.
_FLOOR_RECORDS = tuple(
    f"cardroom.view_{model}"
    for model in (
        "room",
        "game",
        "policy",
        "table",
        "seatsession",
        "stackmovement",
        "hand",
        "handseat",
        "handexception",
        "correction",
        "absence",
        "stackreview",
        "handvoid",
        "handrefusal",
    )
)

ROLE_PERMISSIONS: dict[Role, tuple[str, ...]] = {
    # The cage's admin pages go by role (accounting.admin.RoleAdmin); a cashier
    # sees the tables he issues fills and credits to.
    Role.CASHIER: ("cardroom.view_table",),
    # Tables, seats, hands and corrections: read; changes go through the services.
    Role.FLOOR: _FLOOR_RECORDS,
    # A manager runs the room: he sets up rooms, games and tables, creates and
    # revokes the terminals' keys (API.md), keeps the staff accounts (not
    # superusers, not permissions: see core.admin) and lifts lockouts.
    Role.MANAGER: (
        *_FLOOR_RECORDS,
        "cardroom.add_room",
        "cardroom.change_room",
        "cardroom.add_game",
        "cardroom.change_game",
        "cardroom.add_table",
        "cardroom.change_table",
        "cardroom.view_terminalkey",
        "cardroom.add_terminalkey",
        "cardroom.change_terminalkey",
        "cardroom.view_terminalpairing",
        "auth.view_user",
        "auth.add_user",
        "auth.change_user",
        "auth.view_group",
        "axes.view_accessattempt",
        "axes.delete_accessattempt",
    ),
    # Read-only, everything that records money or play.
    Role.AUDITOR: _FLOOR_RECORDS,
}
"""The Django permissions each role's group holds: what its work in the admin
needs and no more. Set on every ``migrate`` (:func:`create_role_groups`)."""


def create_role_groups(**kwargs: object) -> None:
    """Make sure a group exists for every role, holding exactly its permissions
    (post_migrate receiver).

    Runs once the last app has migrated, when every app's permissions exist.
    """
    from django.apps import apps
    from django.contrib.auth.models import Group, Permission

    sender = kwargs.get("sender")
    # post_migrate is sent for each app with models, in INSTALLED_APPS order.
    last = [a for a in apps.get_app_configs() if a.models_module is not None][-1]
    if sender is not None and getattr(sender, "label", None) != last.label:
        return
    for role in Role:
        group, _ = Group.objects.get_or_create(name=role.value)
        wanted = [name.split(".", 1) for name in ROLE_PERMISSIONS[role]]
        found = Permission.objects.filter(
            content_type__app_label__in={app for app, _ in wanted},
            codename__in={codename for _, codename in wanted},
        ).select_related("content_type")
        group.permissions.set(
            [p for p in found if [p.content_type.app_label, p.codename] in wanted]
        )
