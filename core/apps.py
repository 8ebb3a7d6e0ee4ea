from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = _("Infrastructure")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from . import logging
        from .roles import create_role_groups

        logging.configure()
        # Also after a test flush, which empties the groups the migration made.
        post_migrate.connect(create_role_groups, sender=self)
