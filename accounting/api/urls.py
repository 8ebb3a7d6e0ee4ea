"""The cage's endpoints, included under ``/api/v1/cage/``."""

from django.urls import path

from accounting.api import views

urlpatterns = [
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
