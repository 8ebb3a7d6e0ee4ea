"""Browser tests: the app served by pytest-django's live server, opened in the
system's Chromium by Playwright, headless. They skip when either is missing."""

from __future__ import annotations

from tests.api.floor.conftest import stock_tray

__all__ = ["stock_tray"]
