from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardroomConfig(AppConfig):
    name = "cardroom"
    verbose_name = _("Floor")

    def ready(self) -> None:
        from .api import schema  # noqa: F401  registers the OpenAPI extension
