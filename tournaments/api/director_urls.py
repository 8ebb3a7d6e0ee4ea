"""The director's endpoints for deals, races, removals, held prizes and refunds,
under ``/api/v1/tournaments/`` (TO3, TO5, TO6, TO8, TO9, TO10)."""

from django.urls import path

from tournaments.api import director

urlpatterns = [
    path(
        "<slug:event>/deals/offers",
        director.DealOffersApi.as_view(),
        name="tournament-deal-offers",
    ),
    path("<slug:event>/deals", director.DealsApi.as_view(), name="tournament-deals"),
    path(
        "<slug:event>/deals/<int:deal_id>",
        director.DealApi.as_view(),
        name="tournament-deal",
    ),
    path(
        "<slug:event>/deals/<int:deal_id>/signatures",
        director.DealSignatureApi.as_view(),
        name="tournament-deal-signatures",
    ),
    path(
        "<slug:event>/deals/<int:deal_id>/approve",
        director.DealApproveApi.as_view(),
        name="tournament-deal-approve",
    ),
    path("<slug:event>/races", director.RaceApi.as_view(), name="tournament-races"),
    path(
        "<slug:event>/chips/removals",
        director.ChipRemovalApi.as_view(),
        name="tournament-chip-removals",
    ),
    path(
        "<slug:event>/entries/<int:number>/disqualify",
        director.DisqualifyApi.as_view(),
        name="tournament-disqualify",
    ),
    path(
        "<slug:event>/payouts/<int:payout_id>/release",
        director.PayoutReleaseApi.as_view(),
        name="tournament-payout-release",
    ),
    path(
        "<slug:event>/payouts/<int:payout_id>/forfeit",
        director.PayoutForfeitApi.as_view(),
        name="tournament-payout-forfeit",
    ),
    path(
        "<slug:event>/refunds/<slug:receipt>/partial-approve",
        director.RefundPartialApproveApi.as_view(),
        name="tournament-refund-partial-approve",
    ),
]
