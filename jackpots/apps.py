from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class JackpotsConfig(AppConfig):
    name = "jackpots"
    verbose_name = _("Jackpots")

    def ready(self) -> None:
        from jackpots.services import categories_ensure

        # A flushed database gets BB2's default categories back (the migration
        # wrote them once).
        post_migrate.connect(categories_ensure, sender=self)
