"""The public board's page (WL11): served with no login, refreshing by itself."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, npgettext
from django.views.decorators.http import require_GET

from cardroom.models import Room

REFRESH_SECONDS = 5
# When the games don't fit one screen, each page shows this long (WL11).
PAGE_SECONDS = 10

GAME_NAMES = {
    "NLHE": _("No-limit Hold'em"),
    "PLHE": _("Pot-limit Hold'em"),
    "LHE": _("Limit Hold'em"),
    "PLO": _("Pot-limit Omaha"),
    "PLO5": _("Five-card Omaha"),
    "COURCHEVEL": _("Courchevel"),
    "PLO8": _("Omaha hi-lo"),
    "STUD": _("Seven-card stud"),
    "PLSTUD": _("Pot-limit seven-card stud"),
    "STUD8": _("Stud hi-lo"),
    "RAZZ": _("Razz"),
    "SOKO": _("Sökö"),
}


def board_language(request: HttpRequest, room: Room | None) -> str:
    """Return the board's language: ``?lang=`` for one screen, else the room's
    setting, else the browser's."""
    known = {code for code, _name in settings.LANGUAGES}
    for choice in (request.GET.get("lang"), room.language if room else None):
        if choice in known:
            return choice
    return translation.get_language_from_request(request)


def board_panels(language: str) -> list[dict[str, Any]]:
    """Return the panels the apps above the floor add to the board, in order.

    ``WAITLIST_BOARD_PANELS`` names, by import path, functions
    ``f(*, language) -> dict | None`` (the tournaments' clocks, for one): each
    returns ``template`` (rendered beside the jackpots, with the panel as
    ``panel``) and whatever that template reads, or None to show nothing. The
    board knows none of those apps (DESIGN.md: dependencies point one way).

    A panel that gives a ``key`` and its ``data`` is refreshed by the board
    itself: its ``url`` is the board's page asked for that panel's data
    (:func:`board_page`, ``?panel=``), in the board's language.
    """
    panels = []
    for path in getattr(settings, "WAITLIST_BOARD_PANELS", []):
        panel = import_string(path)(language=language)
        if panel:
            if "key" in panel:
                query = urlencode({"panel": panel["key"], "lang": language})
                panel["url"] = f"{reverse('board-page')}?{query}"
            panels.append(panel)
    return panels


def _panel_data(request: HttpRequest, key: str, language: str) -> HttpResponse:
    """The data of the board's panel ``key`` now, as JSON: ``null`` when the panel
    has nothing to show (the promotions ended, say)."""
    with translation.override(language):
        found = next((p for p in board_panels(language) if p.get("key") == key), None)
    response = JsonResponse(found["data"] if found else None, safe=False)
    response["Content-Language"] = language
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def board_page(request: HttpRequest) -> HttpResponse:
    """Render the board; its script fetches ``/api/v1/board?lang=`` every few
    seconds, in the board's language, and shows the amounts as core.money wrote
    them there (keeping the last ones while the server doesn't answer). With
    ``?panel=``, answer that panel's data instead (:func:`board_panels`).

    What doesn't fit one screen is shown in pages, in turn (WL11); the clock
    shows the room's time in the room's zone, whatever the screen's own clock
    and zone say.
    """
    room = Room.objects.order_by("pk").first()
    language = board_language(request, room)
    panel = request.GET.get("panel")
    if panel:
        return _panel_data(request, panel, language)
    with translation.override(language):
        labels = {
            "games": str(_("Games")),
            "jackpots": str(_("Jackpots")),
            # Both forms: the script picks one by the number it shows.
            "seats_free": [ngettext("seat free", "seats free", n) for n in (1, 2)],
            "full": str(_("full")),
            "players": [npgettext("board", "player", "players", n) for n in (1, 2)],
            "waiting": str(_("Waiting list")),
            "nobody": str(_("Nobody waiting")),
            "called": str(_("called")),
            "reserve": str(_("reserve")),
            "no_games": str(_("No games open right now")),
            "offline": str(_("Reconnecting…")),
            # The script puts the numbers and the time in the braces.
            "page": str(_("Page %(page)s of %(pages)s"))
            % {"page": "{page}", "pages": "{pages}"},
            "last_updated": str(_("Last updated %(time)s")) % {"time": "{time}"},
            "game_names": {code: str(name) for code, name in GAME_NAMES.items()},
        }
        response = render(
            request,
            "waitlist/board.html",
            {
                "room": room,
                "language": language,
                "labels": labels,
                "data_url": f"{reverse('v1:board')}?{urlencode({'lang': language})}",
                "panels": board_panels(language),
                "refresh_ms": int(REFRESH_SECONDS * 1000),
                "page_ms": int(PAGE_SECONDS * 1000),
                # The clock is the room's: its zone, and the server's time to
                # correct the screen's own clock by (BI8).
                "clock": {
                    "time_zone": room.time_zone if room else settings.TIME_ZONE,
                    "server_ms": int(timezone.now().timestamp() * 1000),
                },
            },
        )
    response["Content-Language"] = language
    response["Cache-Control"] = "no-store"
    patch_vary_headers(response, ["Accept-Language"])
    return response
