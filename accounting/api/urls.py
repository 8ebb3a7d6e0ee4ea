"""The accounting API, under ``/api/v1/``: the cage (``cage/``: shifts, purchases,
redemptions, fills and credits, counts, payables, receipts, receivables, the vault)
and the players (registration, identity, restrictions, held awards: PP1-PP7).
"""

from django.urls import include, path

from accounting.api import held_awards, players, protection, views

cage_patterns = [
    path("shifts", views.ShiftOpenApi.as_view(), name="cage-shift-open"),
    path("shifts/<int:shift_id>", views.ShiftDetailApi.as_view(), name="cage-shift"),
    path(
        "shifts/<int:shift_id>/close",
        views.ShiftCloseApi.as_view(),
        name="cage-shift-close",
    ),
    path(
        "shifts/<int:shift_id>/sign-off",
        views.ShiftSignOffApi.as_view(),
        name="cage-shift-sign-off",
    ),
    path("purchases", views.PurchaseApi.as_view(), name="cage-purchase"),
    path("redemptions", views.RedemptionApi.as_view(), name="cage-redemption"),
    path("fills", views.FillRequestApi.as_view(), name="cage-fill"),
    path(
        "fills/<int:slip_id>/issue",
        views.FillIssueApi.as_view(),
        name="cage-fill-issue",
    ),
    path(
        "fills/<int:slip_id>/cancel",
        views.FillCancelApi.as_view(),
        name="cage-fill-cancel",
    ),
    path("credits", views.CreditRequestApi.as_view(), name="cage-credit"),
    path(
        "credits/<int:slip_id>/cancel",
        views.CreditCancelApi.as_view(),
        name="cage-credit-cancel",
    ),
    path(
        "credits/<int:slip_id>/issue",
        views.CreditIssueApi.as_view(),
        name="cage-credit-issue",
    ),
    path("counts", views.BoxCountApi.as_view(), name="cage-counts"),
    path("payables", views.PayableListApi.as_view(), name="cage-payables"),
    path(
        "payables/<int:payable_id>/pay",
        views.PayablePayApi.as_view(),
        name="cage-payable-pay",
    ),
    path("receipts/<str:no>", views.ReceiptDetailApi.as_view(), name="cage-receipt"),
    path("receivables", views.ReceivableListApi.as_view(), name="cage-receivables"),
    path(
        "receivables/collections",
        views.ReceivableCollectApi.as_view(),
        name="cage-receivable-collect",
    ),
    path("vault", views.VaultFundApi.as_view(), name="cage-vault"),
    path(
        "vault/withdrawals",
        views.VaultWithdrawApi.as_view(),
        name="cage-vault-withdraw",
    ),
]

player_patterns = [
    path("players", players.PlayerRegisterApi.as_view(), name="players"),
    path("players/<str:code>", players.PlayerDetailApi.as_view(), name="player"),
    path(
        "players/<str:code>/identity",
        players.PlayerIdentityApi.as_view(),
        name="player-identity",
    ),
    path(
        "players/<str:code>/documents",
        protection.DocumentsApi.as_view(),
        name="player-documents",
    ),
    path(
        "documents/<int:pk>/number",
        protection.DocumentNumberApi.as_view(),
        name="document-number",
    ),
    path(
        "players/<str:code>/restrictions",
        protection.RestrictionsApi.as_view(),
        name="player-restrictions",
    ),
    path(
        "restrictions/exclusions",
        protection.ExclusionListApi.as_view(),
        name="exclusions",
    ),
    path(
        "restrictions/exclusions.csv",
        protection.ExclusionCsvApi.as_view(),
        name="exclusions-csv",
    ),
    path(
        "restrictions/<int:pk>/end",
        protection.RestrictionEndApi.as_view(),
        name="restriction-end",
    ),
    path(
        "restrictions/<int:pk>/lapse",
        protection.RestrictionLapseApi.as_view(),
        name="restriction-lapse",
    ),
    path("held-awards", held_awards.HeldAwardListApi.as_view(), name="held-awards"),
    path(
        "held-awards/<int:pk>/decide",
        held_awards.HeldAwardDecideApi.as_view(),
        name="held-award-decide",
    ),
    path(
        "protection/settings",
        protection.SettingsApi.as_view(),
        name="protection-settings",
    ),
]

urlpatterns = [path("cage/", include(cage_patterns)), *player_patterns]
