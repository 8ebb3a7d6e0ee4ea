"""The tournament clocks' panel on the public board (TO12, WL11).

``waitlist.views.board_panels`` calls :func:`clock_panel` by its import path (the
``WAITLIST_BOARD_PANELS`` setting): the board shows the clocks of the events
running now beside the cash games, in the board's language, and its script reads
them from ``/api/v1/board/tournaments?lang=``, the money written there by
core.money.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import Event


def clock_labels() -> dict[str, str]:
    """Return the panel's words in the active language."""
    return {
        "title": _("Tournaments"),
        "level": _("Level"),
        "break": _("Break"),
        "ante": _("Ante"),
        "big_blind_ante": _("BB ante"),
        "time_left": _("Time left"),
        "next_level": _("Next level"),
        "next_break": _("Next break"),
        "players_left": _("Players left"),
        "average_stack": _("Average stack"),
        "prize_pool": _("Prize pool"),
        "guaranteed": _("Guaranteed"),
        "places_paid": _("Places paid"),
        "paused": _("Paused"),
        "not_started": _("Starts soon"),
        "stopped": _("Finished"),
    }


def clock_panel(*, language: str) -> dict[str, Any] | None:
    """Return the board's tournament panel, or None when no event is running."""
    if not Event.objects.filter(status=Event.Status.RUNNING).exists():
        return None
    return {
        "template": "tournaments/board_clock.html",
        "labels": clock_labels(),
        # The clocks' money written in the board's language (core.money).
        "url": f"{reverse('v1:board-clocks')}?{urlencode({'lang': language})}",
    }
