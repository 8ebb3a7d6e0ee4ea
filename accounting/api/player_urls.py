"""Players' endpoints, included at the root of ``/api/v1/``."""

from django.urls import path

from accounting.api import players

urlpatterns = [
    path("players", players.PlayerRegisterApi.as_view(), name="players"),
    path("players/<str:code>", players.PlayerDetailApi.as_view(), name="player"),
    path(
        "players/<str:code>/identity",
        players.PlayerIdentityApi.as_view(),
        name="player-identity",
    ),
]
