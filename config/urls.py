"""URLs of the back office: the admin, the REST API (v1), its schema and docs, the
staff screens, the reference table terminal."""

from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from core.api import views as core_views

# The admin keeps the reference data and the configuration; the staff screens do
# the night's work (staff/).
admin.site.site_header = _("Card room back office")
admin.site.site_title = _("Card room back office")
admin.site.index_title = _("Reference data and configuration")

api_v1 = [
    # The floor's first: every hand of every table is its first pattern.
    path("", include("cardroom.api.urls")),
    path("", include("core.api.urls")),
    path("", include("accounting.api.urls")),
    path("", include("jackpots.api.urls")),
    path("", include("reports.api.urls")),
    path("", include("tournaments.api.urls")),
    path("", include("waitlist.api.urls")),
]

urlpatterns = [
    path("api/v1/", include((api_v1, "api"), namespace="v1")),
    # The staff screens' old addresses, the admin's among them: before the admin.
    path("", include("staff.redirects.urls")),
    path("admin/", admin.site.urls),
    path("healthz", core_views.HealthApi.as_view(), name="healthz"),
    path("board", include("waitlist.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    # The reference table terminal: a page that talks only to the terminal API.
    path("terminal/", include("terminal.urls")),
    path("", include("staff.urls")),
]

handler400 = "core.api.errors.bad_request"
handler403 = "core.api.errors.permission_denied"
handler404 = "core.api.errors.not_found"
handler500 = "core.api.errors.server_error"
