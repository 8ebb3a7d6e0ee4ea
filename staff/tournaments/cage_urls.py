"""The cage's tournament screens, under ``/cage/events/``."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
