"""The director's endpoints for deals, races, removals, held prizes and refunds,
under ``/api/v1/tournaments/``."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
