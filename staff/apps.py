from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StaffConfig(AppConfig):
    """The staff screens: each role's work in the browser, on top of the services."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "staff"
    verbose_name = _("staff screens")

    def ready(self) -> None:
        from core.roles import Role
        from staff.common.landing import landing_add

        landing_add(Role.FLOOR, "staff:floor-home")
