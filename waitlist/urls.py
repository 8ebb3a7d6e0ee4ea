"""The public board's page, included at ``/board`` (WL11)."""

from django.urls import path

from waitlist import views

urlpatterns = [path("", views.board_page, name="board-page")]
