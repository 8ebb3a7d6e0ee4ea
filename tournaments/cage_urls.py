"""The cage's old tournament addresses, ``/cage/tournaments/<event>``: the desk now
lives with the other staff screens (``/cage/events/``); a bookmark or a printed link
is sent there for good."""

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse

from accounting.models import Receipt


def desk(request: HttpRequest, event: str) -> HttpResponsePermanentRedirect:
    """The event's desk at the cage."""
    return HttpResponsePermanentRedirect(
        reverse("staff:tournament-cage-desk", args=[event])
    )


def receipt(request: HttpRequest, event: str, pk: int) -> HttpResponsePermanentRedirect:
    """A receipt, by its printed number at its new address."""
    found = get_object_or_404(Receipt.objects.select_related("cage"), pk=pk)
    return HttpResponsePermanentRedirect(
        reverse("staff:tournament-cage-receipt", args=[event, found.no])
    )


urlpatterns = [
    path("<slug:event>", desk, name="tournament-cage"),
    path("<slug:event>/receipts/<int:pk>", receipt, name="tournament-cage-receipt"),
    path(
        "<slug:event>/receipts/<int:pk>/print",
        receipt,
        name="tournament-cage-receipt-print",
    ),
]
