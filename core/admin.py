"""Staff accounts in the admin: a manager keeps them, within the roles.

A manager holds ``auth.add_user`` and ``auth.change_user`` (core.roles) so that he
can create staff, give them roles, reset a password and deactivate an account. He
can't make anyone a superuser, hand out single permissions, or change a superuser's
account: those fields and accounts are the superuser's alone, so no role can
raise itself above the roles.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import Group, User
from django.db.models import QuerySet
from django.http import HttpRequest

from core.roles import Role

SUPERUSER_FIELDS = ("is_superuser", "user_permissions")


def _superuser(request: HttpRequest) -> bool:
    return bool(getattr(request.user, "is_superuser", False))


admin.site.unregister(User)


@admin.register(User)
class StaffUserAdmin(DjangoUserAdmin):
    """Django's user admin, with the superuser's powers kept to superusers."""

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        if _superuser(request):
            return fieldsets
        return [
            (
                name,
                {
                    **opts,
                    "fields": [f for f in opts["fields"] if f not in SUPERUSER_FIELDS],
                },
            )
            for name, opts in fieldsets
        ]

    def get_list_filter(self, request: HttpRequest) -> Any:
        return [
            f for f in super().get_list_filter(request) if f not in SUPERUSER_FIELDS
        ]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.is_superuser and not _superuser(request):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _superuser(request) and super().has_delete_permission(request, obj)

    def formfield_for_manytomany(
        self, db_field: Any, request: HttpRequest, **kwargs: Any
    ) -> Any:
        if db_field.name == "groups" and not _superuser(request):
            kwargs["queryset"] = Group.objects.filter(name__in=[r.value for r in Role])
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        return super().get_queryset(request).prefetch_related("groups")
