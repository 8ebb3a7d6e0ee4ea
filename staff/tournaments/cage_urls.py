"""The cage's tournament screens, under ``/cage/events/`` (TO1, TO9, TO10)."""

from django.urls import path

from staff.tournaments import cage

urlpatterns = [
    path("", cage.events, name="tournament-cage-events"),
    path("<slug:event>", cage.desk, name="tournament-cage-desk"),
    path("<slug:event>/entries", cage.entry_sell, name="tournament-cage-entry"),
    path(
        "<slug:event>/entries/<int:number>/rebuy",
        cage.rebuy_sell,
        name="tournament-cage-rebuy",
    ),
    path(
        "<slug:event>/entries/<int:number>/addon",
        cage.addon_sell,
        name="tournament-cage-addon",
    ),
    path(
        "<slug:event>/refunds/<str:no>/approve",
        cage.refund_approve,
        name="tournament-cage-refund-approve",
    ),
    path(
        "<slug:event>/refunds/<str:no>/pay",
        cage.refund_pay,
        name="tournament-cage-refund-pay",
    ),
    path(
        "<slug:event>/prizes/<int:line>/pay",
        cage.prize_pay,
        name="tournament-cage-prize-pay",
    ),
    path(
        "<slug:event>/sheet/approve",
        cage.sheet_approve,
        name="tournament-cage-sheet-approve",
    ),
    path(
        "<slug:event>/receipts/<str:no>",
        cage.receipt,
        name="tournament-cage-receipt",
    ),
]
