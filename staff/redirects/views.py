"""Old addresses sent to the staff screens for good (301)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse

from accounting.models import Receipt


def cage_desk(request: HttpRequest, event: str) -> HttpResponsePermanentRedirect:
    """The cage's old tournament address, ``/cage/tournaments/<event>``: the
    event's desk now lives with the other staff screens (``/cage/events/``)."""
    return HttpResponsePermanentRedirect(
        reverse("staff:tournament-cage-desk", args=[event])
    )


def cage_receipt(
    request: HttpRequest, event: str, pk: int
) -> HttpResponsePermanentRedirect:
    """A receipt at its old address, by its number: its printed number at its new
    address."""
    found = get_object_or_404(Receipt.objects.select_related("cage"), pk=pk)
    return HttpResponsePermanentRedirect(
        reverse("staff:tournament-cage-receipt", args=[event, found.no])
    )
