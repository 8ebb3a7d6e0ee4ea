"""The director's and the floor's tournament screens, under ``/floor/events/``."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
