"""Endpoints of this app that live at the root of ``/api/v1/``: the public board's
JSON and the table terminal's time collection (API.md "Table terminal")."""

from django.urls import path

from waitlist.api import views

urlpatterns = [
    path("board", views.BoardApi.as_view(), name="board"),
    path(
        "tables/<slug:table>/time",
        views.TimeCollectionApi.as_view(),
        name="time-collection",
    ),
]
