"""The cage's tournament screens, at ``/cage/tournaments/<event>`` (TO1, TO9)."""

from django.contrib.admin.views.decorators import staff_member_required
from django.urls import path

from tournaments import cage_views

urlpatterns = [
    path(
        "<slug:event>",
        staff_member_required(cage_views.event_cage),
        name="tournament-cage",
    ),
    path(
        "<slug:event>/receipts/<int:pk>",
        staff_member_required(cage_views.receipt_page),
        name="tournament-cage-receipt",
    ),
    path(
        "<slug:event>/receipts/<int:pk>/print",
        staff_member_required(cage_views.receipt_print),
        name="tournament-cage-receipt-print",
    ),
]
