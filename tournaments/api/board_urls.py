"""The public board's tournament clocks, at ``/api/v1/board/tournaments`` (TO12)."""

from django.urls import path

from tournaments.api import board as views

urlpatterns = [path("", views.BoardClocksApi.as_view(), name="board-clocks")]
