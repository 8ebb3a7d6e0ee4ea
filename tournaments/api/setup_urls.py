"""The director's set-up endpoints (structures, events, tables, payout tables),
under ``/api/v1/tournaments/``.

Included before the event's own routes: ``structures`` and ``events`` are the
set-up's lists (no event takes those codes), and every other pattern here ends
in a segment no other route of an event uses."""

from django.urls import path

from tournaments.api import setup as views

urlpatterns = [
    path("structures", views.StructuresApi.as_view(), name="tournament-structures"),
    path(
        "structures/<slug:code>",
        views.StructureApi.as_view(),
        name="tournament-structure",
    ),
    path("events", views.EventsApi.as_view(), name="tournament-events"),
    path(
        "<slug:event>/settings",
        views.EventSettingsApi.as_view(),
        name="tournament-settings",
    ),
    path(
        "<slug:event>/event-tables",
        views.EventTablesApi.as_view(),
        name="tournament-event-tables",
    ),
    path(
        "<slug:event>/payout-table",
        views.PayoutTableApi.as_view(),
        name="tournament-payout-table",
    ),
    path(
        "<slug:event>/payout-table/preview",
        views.PayoutPreviewApi.as_view(),
        name="tournament-payout-preview",
    ),
]
