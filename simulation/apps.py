from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SimulationConfig(AppConfig):
    name = "simulation"
    verbose_name = _("Simulation")
