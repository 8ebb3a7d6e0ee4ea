"""URLs of the back office: the admin, the REST API (v1), its schema and docs."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from cardroom.api import views as floor_views
from core.api import views as core_views

api_v1 = [
    path("auth/login", core_views.LoginApi.as_view(), name="login"),
    path("auth/logout", core_views.LogoutApi.as_view(), name="logout"),
    path("cage/", include("accounting.api.urls")),
    path("", include("accounting.api.player_urls")),
    path("tables/<slug:table>", floor_views.TableDetailApi.as_view(), name="table"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", core_views.HealthApi.as_view(), name="healthz"),
    path("api/v1/", include((api_v1, "api"), namespace="v1")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
]

handler404 = "core.api.errors.not_found"
handler500 = "core.api.errors.server_error"
