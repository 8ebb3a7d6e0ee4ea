"""Browser tests: the app served by pytest-django's live server, opened in the
system's Chromium by Playwright, headless. They skip when either is missing."""

from __future__ import annotations

import os

import pytest
from django.db import connections

from tests.api.floor.conftest import stock_tray

__all__ = ["stock_tray"]

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


@pytest.fixture
def browser_page(monkeypatch):
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright package is not installed"
    )
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    # Playwright's sync API runs an event loop in this thread; the test's own ORM
    # calls are still synchronous and safe.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=ARGS
        )
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 900})
            yield page, sync_api.expect
        finally:
            browser.close()
            # The ORM calls made while Playwright's loop ran used their own
            # connection (asgiref's context-local storage): close it here.
            connections.close_all()
