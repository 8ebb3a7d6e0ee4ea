"""Signing in and out, and the home that sends each person to his role's page."""

from django.contrib.auth import views as auth_views
from django.urls import path

from staff.common import auth

urlpatterns = [
    path("", auth.home, name="root"),
    path("login", auth.LoginView.as_view(), name="login"),
    path(
        "logout", auth_views.LogoutView.as_view(next_page="staff:login"), name="logout"
    ),
    path("home", auth.home, name="home"),
]
