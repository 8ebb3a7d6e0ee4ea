from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JackpotsConfig(AppConfig):
    name = "jackpots"
    verbose_name = _("Jackpots")
