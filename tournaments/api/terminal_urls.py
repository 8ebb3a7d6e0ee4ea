"""The tournament terminals', clocks' and floor's endpoints, under
``/api/v1/tournaments/`` (TO4, TO11, TO12)."""

from django.urls import path

from tournaments.api import terminals as views

urlpatterns = [
    path("<slug:event>/clock", views.ClockApi.as_view(), name="tournament-clock"),
    path("<slug:event>/tables", views.TablesApi.as_view(), name="tournament-tables"),
    path(
        "<slug:event>/tables/rebalance",
        views.RebalanceApi.as_view(),
        name="tournament-rebalance",
    ),
    path(
        "<slug:event>/seats/draw",
        views.SeatDrawApi.as_view(),
        name="tournament-seat-draw",
    ),
    path(
        "<slug:event>/busts",
        views.HandForHandBustsApi.as_view(),
        name="tournament-busts-h4h",
    ),
    path(
        "<slug:event>/tables/<slug:table>/busts",
        views.BustsApi.as_view(),
        name="tournament-busts",
    ),
    path(
        "<slug:event>/tables/<slug:table>/clock",
        views.TableClockApi.as_view(),
        name="tournament-table-clock",
    ),
    path(
        "<slug:event>/tables/<slug:table>/chip-counts",
        views.ChipCountApi.as_view(),
        name="tournament-chip-counts",
    ),
]
