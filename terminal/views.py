"""The terminal's page, its manifest, its service worker and its catalogues.

The page is one document for every language and every table: the dealer's choices
(the language, the table's key, the hands waiting) live in the tablet's IndexedDB,
and the page asks the server for nothing but the terminal API. The service worker
keeps the page, its scripts, its styles and the three catalogues, so the page
reloads with the network gone; its version is a digest of all of them, so a new
release (or new translations) replaces the cached copies at the next visit.

Asset addresses are the unhashed ``STATIC_URL`` ones: the scripts are ES modules
that import each other by relative address, and the service worker must cache the
very addresses the page asks for.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
SUFFIXES = (".js", ".css", ".svg", ".png", ".woff2")
# Tests and harnesses of the rules live beside them in some checkouts; the page
# never loads them.
SKIPPED = ("test", "harness")
JS = "text/javascript; charset=utf-8"


def _languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def _assets() -> list[str]:
    """Paths, under the static root, of every file the page may load."""
    return sorted(
        path.relative_to(STATIC).as_posix()
        for path in STATIC.joinpath("terminal").rglob("*")
        if path.is_file()
        and path.suffix in SUFFIXES
        and not any(word in path.name for word in SKIPPED)
    )


def _catalogue_files() -> list[Path]:
    """The compiled djangojs catalogues the terminal's catalogue view reads."""
    folders = [HERE / "locale", *map(Path, settings.LOCALE_PATHS)]
    return sorted(
        mo
        for folder in folders
        for mo in folder.glob("*/LC_MESSAGES/djangojs.mo")
        if mo.is_file()
    )


def _version() -> str:
    """A digest of everything the service worker caches: a change to any of them
    is a new service worker, which replaces the cache."""
    digest = hashlib.sha256()
    for name in _assets():
        digest.update(name.encode())
        digest.update(STATIC.joinpath(name).read_bytes())
    for mo in _catalogue_files():
        digest.update(mo.read_bytes())
    digest.update(HERE.joinpath("templates/terminal/page.html").read_bytes())
    return digest.hexdigest()[:16]


def _context() -> dict[str, object]:
    static = settings.STATIC_URL
    return {
        "static": f"{static}terminal/",
        "config": {
            "api": f"{get_script_prefix()}api/v1/",
            "page": reverse("terminal:page"),
            "sw": reverse("terminal:service-worker"),
            "catalogue": reverse("terminal:catalogue", args=["LANG"]),
            "languages": _languages(),
            "default_language": settings.LANGUAGE_CODE,
        },
    }


@require_GET
def page(request: HttpRequest) -> HttpResponse:
    """The terminal: one page, drawn by its scripts in the language chosen on it."""
    response = render(request, "terminal/page.html", _context())
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: the terminal installs as a full-screen app."""
    start = reverse("terminal:page")
    icon = f"{settings.STATIC_URL}terminal/icons/terminal.svg"
    body = {
        "name": "Cardroom table terminal",
        "short_name": "Terminal",
        "id": start,
        "start_url": start,
        "scope": start,
        "display": "fullscreen",
        "orientation": "any",
        "background_color": "#0b3d2e",
        "theme_color": "#0b3d2e",
        "icons": [
            {"src": icon, "sizes": "any", "type": "image/svg+xml", "purpose": "any"}
        ],
    }
    response = HttpResponse(json.dumps(body), content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, its scope the terminal's: the cache it fills and the
    addresses it answers from it."""
    languages = _languages()
    urls = [
        reverse("terminal:page"),
        reverse("terminal:manifest"),
        *(reverse("terminal:catalogue", args=[code]) for code in languages),
        *(f"{settings.STATIC_URL}{name}" for name in _assets()),
    ]
    response = render(
        request,
        "terminal/sw.js",
        {
            "version": json.dumps(_version()),
            "urls": json.dumps(urls),
            "page": json.dumps(reverse("terminal:page")),
            "api": json.dumps(f"{get_script_prefix()}api/"),
        },
        content_type=JS,
    )
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = reverse("terminal:page")
    return response


@require_GET
def catalogue(request: HttpRequest, language: str) -> HttpResponseBase:
    """Django's JavaScript catalogue (the djangojs domain) in ``language``: it
    defines ``django.gettext`` and friends for the terminal's scripts."""
    if language not in _languages():
        raise Http404(language)
    with translation.override(language):
        view = JavaScriptCatalog.as_view(domain="djangojs", packages=["terminal"])
        response = view(request)
    response["Content-Type"] = JS
    response["Cache-Control"] = "no-cache"
    response["Content-Language"] = language
    return response
