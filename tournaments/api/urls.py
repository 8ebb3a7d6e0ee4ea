"""The tournaments' endpoints, included under ``/api/v1/tournaments/``."""

from django.urls import path

from tournaments.api import views

urlpatterns = [
    path("<slug:event>", views.EventApi.as_view(), name="tournament"),
    path("<slug:event>/entries", views.EntryApi.as_view(), name="tournament-entries"),
    path(
        "<slug:event>/entries/<int:number>/rebuys",
        views.RebuyApi.as_view(),
        name="tournament-rebuys",
    ),
    path(
        "<slug:event>/entries/<int:number>/addons",
        views.AddonApi.as_view(),
        name="tournament-addons",
    ),
    path(
        "<slug:event>/payout-sheet",
        views.PayoutSheetApi.as_view(),
        name="tournament-payout-sheet",
    ),
    path(
        "<slug:event>/payout-sheet/approve",
        views.PayoutSheetApproveApi.as_view(),
        name="tournament-payout-sheet-approve",
    ),
    path(
        "<slug:event>/payouts/<int:payout_id>/pay",
        views.PayoutPayApi.as_view(),
        name="tournament-payout-pay",
    ),
    path(
        "<slug:event>/cancel",
        views.EventCancelApi.as_view(),
        name="tournament-cancel",
    ),
    path(
        "<slug:event>/refunds/<slug:receipt>/approve",
        views.RefundApproveApi.as_view(),
        name="tournament-refund-approve",
    ),
    path(
        "<slug:event>/refunds/<slug:receipt>",
        views.RefundApi.as_view(),
        name="tournament-refund",
    ),
]
