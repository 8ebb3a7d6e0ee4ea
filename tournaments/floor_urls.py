"""The floor's tournament screen moved to the staff screens: the old address
``/floor/tournaments/<event>`` leads to ``/floor/events/<event>/`` (TO11, TO12)."""

from django.urls import path
from django.views.generic import RedirectView

urlpatterns = [
    path(
        "<slug:event>",
        RedirectView.as_view(pattern_name="staff:tournament-floor", permanent=True),
        name="tournament-floor-moved",
    )
]
