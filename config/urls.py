"""URLs of the back office: the admin, the REST API (v1), its schema and docs, the
staff screens."""

from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from cardroom.api import keys as key_views
from cardroom.api import views as floor_views
from core.api import views as core_views

# The admin keeps the reference data and the configuration; the staff screens do
# the night's work (staff/).
admin.site.site_header = _("Card room back office")
admin.site.site_title = _("Card room back office")
admin.site.index_title = _("Reference data and configuration")

api_v1 = [
    # Every hand of every table: first, so the resolver tries them first.
    path(
        "tables/<slug:table>/hands", floor_views.HandRecordApi.as_view(), name="hands"
    ),
    path(
        "tables/<slug:table>/hands/batch",
        floor_views.HandBatchApi.as_view(),
        name="hands-batch",
    ),
    path("auth/login", core_views.LoginApi.as_view(), name="login"),
    path("auth/logout", core_views.LogoutApi.as_view(), name="logout"),
    path("cage/", include("accounting.api.urls")),
    path("jackpots/", include("jackpots.api.urls")),
    path("reports/", include("reports.api.urls")),
    path("tournaments/", include("tournaments.api.setup_urls")),
    path("tournaments/", include("tournaments.api.director_urls")),
    path("tournaments/", include("tournaments.api.urls")),
    path("", include("accounting.api.player_urls")),
    path("waitlist/", include("waitlist.api.urls")),
    path("", include("waitlist.api.root_urls")),
    path("board/tournaments", include("tournaments.api.board_urls")),
    path("tournaments/", include("tournaments.api.terminal_urls")),
    path("terminal-keys", key_views.TerminalKeyListApi.as_view(), name="terminal-keys"),
    path(
        "terminal-keys/<str:prefix>/revoke",
        key_views.TerminalKeyRevokeApi.as_view(),
        name="terminal-key-revoke",
    ),
    path("tables", floor_views.TableOpenApi.as_view(), name="table-open"),
    path("tables/<slug:table>", floor_views.TableDetailApi.as_view(), name="table"),
    path(
        "tables/<slug:table>/close",
        floor_views.TableCloseApi.as_view(),
        name="table-close",
    ),
    path("tables/<slug:table>/seats", floor_views.SeatApi.as_view(), name="seat"),
    path(
        "tables/<slug:table>/seats/<int:seat>/top-ups",
        floor_views.TopUpApi.as_view(),
        name="top-up",
    ),
    path(
        "tables/<slug:table>/seats/<int:seat>/leave",
        floor_views.LeaveApi.as_view(),
        name="leave",
    ),
    path(
        "tables/<slug:table>/seats/<int:seat>/away",
        floor_views.AwayApi.as_view(),
        name="away",
    ),
    path(
        "tables/<slug:table>/seats/<int:seat>/back",
        floor_views.BackApi.as_view(),
        name="back",
    ),
    path(
        "tables/<slug:table>/seats/<int:seat>/pick-up",
        floor_views.PickUpApi.as_view(),
        name="pick-up",
    ),
    path(
        "custody/<str:player>/return",
        floor_views.CustodyReturnApi.as_view(),
        name="custody-return",
    ),
    path("corrections", floor_views.CorrectionRequestApi.as_view(), name="corrections"),
    path(
        "corrections/<int:pk>/approve",
        floor_views.CorrectionDecideApi.as_view(approve=True),
        name="correction-approve",
    ),
    path(
        "corrections/<int:pk>/reject",
        floor_views.CorrectionDecideApi.as_view(approve=False),
        name="correction-reject",
    ),
    path(
        "tables/<slug:table>/hands/<int:hand_no>.phh",
        floor_views.HandPhhApi.as_view(),
        name="hand-phh",
    ),
    path(
        "tables/<slug:table>/hands/<int:hand_no>/void",
        floor_views.HandVoidApi.as_view(),
        name="hand-void",
    ),
    path(
        "voids/<int:pk>/approve",
        floor_views.VoidDecideApi.as_view(approve=True),
        name="void-approve",
    ),
    path(
        "voids/<int:pk>/reject",
        floor_views.VoidDecideApi.as_view(approve=False),
        name="void-reject",
    ),
    path(
        "stack-reviews", floor_views.StackReviewListApi.as_view(), name="stack-reviews"
    ),
    path(
        "stack-reviews/<int:pk>/propose",
        floor_views.StackReviewProposeApi.as_view(),
        name="stack-review-propose",
    ),
    path(
        "stack-reviews/<int:pk>/approve",
        floor_views.StackReviewApproveApi.as_view(),
        name="stack-review-approve",
    ),
]

urlpatterns = [
    path("api/v1/", include((api_v1, "api"), namespace="v1")),  # type: ignore[arg-type]
    # The staff screens' old addresses, the admin's among them: before the admin.
    path("", include("staff.redirects.urls")),
    path("admin/", admin.site.urls),
    path("healthz", core_views.HealthApi.as_view(), name="healthz"),
    path("board", include("waitlist.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("", include("staff.urls")),
]

handler400 = "core.api.errors.bad_request"
handler403 = "core.api.errors.permission_denied"
handler404 = "core.api.errors.not_found"
handler500 = "core.api.errors.server_error"
