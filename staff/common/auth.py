"""Signing in to the staff screens, and the home that sends each person to his
role's page (:mod:`staff.common.landing`)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from staff.common.landing import landing_url


class LoginView(auth_views.LoginView):
    """Staff sign in here and land on their role's home page (staff.common.landing)."""

    template_name = "staff/login.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        return landing_url(self.request.user)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Send the signed-in user to his role's home page."""
    return HttpResponseRedirect(landing_url(request.user))
