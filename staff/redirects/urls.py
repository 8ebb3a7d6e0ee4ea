"""The staff screens' old addresses: the cage's tournament desk and its receipts
under ``/cage/tournaments/`` and the floor's event screen under
``/floor/tournaments/`` (TO11, TO12), and a waiting list's floor page in the
admin (WL1–WL10), each sent for good to its staff screen. Included before the
admin's own URLs, which would otherwise take the admin's old address."""

from django.urls import path
from django.views.generic import RedirectView

from staff.redirects import views

urlpatterns = [
    path(
        "floor/tournaments/<slug:event>",
        RedirectView.as_view(pattern_name="staff:tournament-floor", permanent=True),
        name="tournament-floor-moved",
    ),
    path("cage/tournaments/<slug:event>", views.cage_desk, name="tournament-cage"),
    path(
        "cage/tournaments/<slug:event>/receipts/<int:pk>",
        views.cage_receipt,
        name="tournament-cage-receipt",
    ),
    path(
        "cage/tournaments/<slug:event>/receipts/<int:pk>/print",
        views.cage_receipt,
        name="tournament-cage-receipt-print",
    ),
    path(
        "admin/waitlist/waitinglist/<int:list_id>/floor/",
        RedirectView.as_view(pattern_name="staff:floor-list", permanent=True),
        name="waitlist-floor-moved",
    ),
]
