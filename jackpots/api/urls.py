"""The jackpots' endpoints, included under ``/api/v1/jackpots/``."""

from django.urls import include, path

from jackpots.api import promotions, views

jackpots_patterns = [
    path("summary", views.SummaryApi.as_view(), name="jackpot-summary"),
    path("pools", views.PoolListApi.as_view(), name="jackpot-pools"),
    path("pools/<int:pool_id>", views.PoolDetailApi.as_view(), name="jackpot-pool"),
    path(
        "pools/<int:pool_id>/seed",
        views.PoolSeedApi.as_view(),
        name="jackpot-pool-seed",
    ),
    path(
        "pools/<int:pool_id>/retire",
        views.PoolRetireApi.as_view(),
        name="jackpot-pool-retire",
    ),
    path("drops/allocate", views.DropsAllocateApi.as_view(), name="jackpot-drops"),
    path("transfers", views.TransferListApi.as_view(), name="jackpot-transfers"),
    path(
        "pools/<int:pool_id>/history",
        views.PoolHistoryApi.as_view(),
        name="jackpot-pool-history",
    ),
    path(
        "pools/<int:pool_id>/standings",
        views.StandingsApi.as_view(),
        name="jackpot-pool-standings",
    ),
    path("categories", views.CategoryListApi.as_view(), name="jackpot-categories"),
    path(
        "categories/<slug:code>",
        views.CategoryDetailApi.as_view(),
        name="jackpot-category",
    ),
    path(
        "categories/<slug:code>/versions",
        views.CategoryVersionApi.as_view(),
        name="jackpot-category-versions",
    ),
    path("hits", views.HitListApi.as_view(), name="jackpot-hits"),
    path("hits/<int:hit_id>", views.HitDetailApi.as_view(), name="jackpot-hit"),
    path(
        "hits/<int:hit_id>/verify",
        views.HitVerifyApi.as_view(),
        name="jackpot-hit-verify",
    ),
    path(
        "hits/<int:hit_id>/approve",
        views.HitApproveApi.as_view(),
        name="jackpot-hit-approve",
    ),
    path(
        "hits/<int:hit_id>/reject",
        views.HitRejectApi.as_view(),
        name="jackpot-hit-reject",
    ),
    path("months", views.MonthListApi.as_view(), name="jackpot-months"),
    path("months/<int:month_id>", views.MonthDetailApi.as_view(), name="jackpot-month"),
    path(
        "months/<int:month_id>/approve",
        views.MonthApproveApi.as_view(),
        name="jackpot-month-approve",
    ),
    path(
        "months/<int:month_id>/reject",
        views.MonthRejectApi.as_view(),
        name="jackpot-month-reject",
    ),
    path("awards", views.AwardListApi.as_view(), name="jackpot-awards"),
    path(
        "promotions", promotions.PromotionListApi.as_view(), name="jackpot-promotions"
    ),
    path(
        "promotions/<int:promotion_id>",
        promotions.PromotionDetailApi.as_view(),
        name="jackpot-promotion",
    ),
    path(
        "promotions/<int:promotion_id>/versions",
        promotions.PromotionVersionApi.as_view(),
        name="jackpot-promotion-versions",
    ),
    path(
        "promotions/<int:promotion_id>/end",
        promotions.PromotionEndApi.as_view(),
        name="jackpot-promotion-end",
    ),
    path(
        "promotions/<int:promotion_id>/standings",
        promotions.StandingsApi.as_view(),
        name="jackpot-promotion-standings",
    ),
    path(
        "promotions/<int:promotion_id>/periods/close",
        promotions.PeriodCloseApi.as_view(),
        name="jackpot-promotion-period-close",
    ),
    path("prizes", promotions.PrizeListApi.as_view(), name="jackpot-prizes"),
    path(
        "prizes/<int:prize_id>",
        promotions.PrizeDetailApi.as_view(),
        name="jackpot-prize",
    ),
    path(
        "prizes/<int:prize_id>/verify",
        promotions.PrizeVerifyApi.as_view(),
        name="jackpot-prize-verify",
    ),
    path(
        "prizes/<int:prize_id>/approve",
        promotions.PrizeApproveApi.as_view(),
        name="jackpot-prize-approve",
    ),
    path(
        "prizes/<int:prize_id>/reject",
        promotions.PrizeRejectApi.as_view(),
        name="jackpot-prize-reject",
    ),
]

urlpatterns = [path("jackpots/", include(jackpots_patterns))]
