"""The terminal's page, its web app manifest, its service worker (served from
``/terminal/`` so that its scope is the terminal's) and its catalogues."""

from django.urls import path

from terminal import views

app_name = "terminal"

urlpatterns = [
    path("", views.page, name="page"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("i18n/<str:language>.js", views.catalogue, name="catalogue"),
]
