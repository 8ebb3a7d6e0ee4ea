"""The floor's tournament screen, at ``/floor/tournaments/<event>`` (TO11, TO12)."""

from django.contrib.admin.views.decorators import staff_member_required
from django.urls import path

from tournaments import floor_views

urlpatterns = [
    path(
        "<slug:event>",
        staff_member_required(floor_views.event_floor),
        name="tournament-floor",
    )
]
