from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WaitlistConfig(AppConfig):
    name = "waitlist"
    verbose_name = _("Waiting lists")
