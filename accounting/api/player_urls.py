"""Players' endpoints and player protection's (PP1–PP7), included at the root of
``/api/v1/``."""

from django.urls import path

from accounting.api import held_awards, players, protection

urlpatterns = [
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
