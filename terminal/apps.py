from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TerminalConfig(AppConfig):
    """The reference table terminal: a page for the dealer's tablet that talks to the
    back office only through the terminal API (API.md, "Table terminal"), as a
    vendor's terminal would. It imports no other app of the project."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "terminal"
    verbose_name = _("table terminal")
