"""The director's set-up endpoints (structures, events, tables, payout tables),
under ``/api/v1/tournaments/``."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
