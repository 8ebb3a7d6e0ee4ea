"""The API's own doors under ``/api/v1/``: staff sign in and out for a token."""

from django.urls import path

from core.api import views

urlpatterns = [
    path("auth/login", views.LoginApi.as_view(), name="login"),
    path("auth/logout", views.LogoutApi.as_view(), name="logout"),
]
