"""One headless Chromium for a whole test module, a fresh context (cookies, language)
for each test: the staff screens in English, Finnish and Korean without starting a
browser for each language. What a test expects to read comes from the catalogues
(:func:`say`), so a screen left in English fails in fi and ko."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connections
from django.utils import translation

from core.money import money_format
from tests.e2e.conftest import ARGS, CHROMIUM

LANGUAGES = ("en", "fi", "ko")
# The browser's locale, which it sends as Accept-Language.
LOCALES = {"en": "en-GB", "fi": "fi-FI", "ko": "ko-KR"}


@pytest.fixture(scope="module")
def chromium() -> Iterator[tuple[Any, Any]]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright package is not installed"
    )
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    # Playwright's sync API runs an event loop in this thread for the module; the
    # tests' own ORM calls are still synchronous and safe.
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=ARGS
            )
            try:
                yield browser, sync_api.expect
            finally:
                browser.close()
                connections.close_all()
    finally:
        if before is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture
def browser_in(chromium) -> Iterator[tuple[Callable[[str], Any], Any]]:
    """``open(language)`` gives a page whose browser speaks ``language``."""
    browser, expect = chromium
    contexts: list[Any] = []

    def open_page(language: str) -> Any:
        context = browser.new_context(
            locale=LOCALES[language], viewport={"width": 1600, "height": 900}
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield open_page, expect
    for context in contexts:
        context.close()
    # The ORM calls made while Playwright's loop ran used their own connection
    # (asgiref's context-local storage): close it before the database is flushed.
    connections.close_all()


def say(language: str, message: str, **params: Any) -> str:
    """``message`` as the catalogue of ``language`` has it, filled with ``params``."""
    with translation.override(language):
        text = translation.gettext(message)
    return text % params if params else text


def say_count(language: str, one: str, many: str, n: int, **params: Any) -> str:
    """A plural message for ``n``, as the catalogue of ``language`` has it."""
    with translation.override(language):
        text = translation.ngettext(one, many, n)
    return text % {"n": n, **params}


def euros(cents: int, language: str) -> str:
    return money_format(cents, "EUR", language)


def screenshot_name(step: str, language: str) -> str:
    """``01-map.png`` in English, ``01-map-fi.png`` in Finnish."""
    return f"{step}.png" if language == "en" else f"{step}-{language}.png"
