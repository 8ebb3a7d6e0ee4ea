"""The errors a person meets at a staff screen are pages in his language with the
staff bar and the way back to his own screens: 403, 404, 500, a locked-out
sign-in and a lost database connection. Under /api/ they keep the error shape."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import OperationalError
from django.test import Client, RequestFactory
from django.utils import translation

import staff.common.auth
from core.api.errors import server_error
from core.connection_lost import unavailable
from core.roles import Role
from tests.conftest import PASSWORD
from tests.staff.browser import LANGUAGES, browser_in, chromium, say

__all__ = ["browser_in", "chromium"]

pytestmark = pytest.mark.django_db

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "night"


def client_in(language: str, user=None, **kwargs) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language, **kwargs)
    if user is not None:
        client.force_login(user)
    return client


def assert_page(answer, status: int, language: str, heading: str) -> str:
    """A full staff page: the status, the heading in ``language``, the bar."""
    assert answer.status_code == status, answer.content[:300]
    assert answer["Content-Type"].startswith("text/html")
    body = answer.content.decode()
    assert f'<html lang="{language}">' in body
    assert '<header class="bar">' in body and "staff/staff.css" in body
    assert f"<h1>{say(language, heading)}</h1>" in body
    return body


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_unknown_page_is_a_page_with_the_way_home(make_staff, language):
    """404: the cashier is offered the cage, in his language."""
    cashier = make_staff("kalle", Role.CASHIER)
    answer = client_in(language, cashier).get("/cage/nothing-here")
    body = assert_page(answer, 404, language, "Page not found")
    assert 'href="/cage/"' in body
    # Signed out: the way is the sign-in page.
    answer = client_in(language).get("/nothing-here")
    assert 'href="/login"' in assert_page(answer, 404, language, "Page not found")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_page_outside_the_role_is_refused_with_a_page(make_staff, language):
    """403: the floor person at the cage is refused and offered the floor."""
    fred = make_staff("fred", Role.FLOOR)
    answer = client_in(language, fred).get("/cage/")
    body = assert_page(answer, 403, language, "Not allowed")
    assert 'href="/floor/"' in body and 'href="/cage/"' not in body


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_server_failure_is_a_page(make_staff, monkeypatch, language):
    """500: a page in the person's language, with the way home."""

    def failing(user):
        raise RuntimeError("boom")

    monkeypatch.setattr(staff.common.auth, "landing_url", failing)
    cashier = make_staff("kalle", Role.CASHIER)
    client = client_in(language, cashier, raise_request_exception=False)
    body = assert_page(client.get("/home"), 500, language, "Something went wrong")
    assert 'href="/"' in body
    assert "boom" not in body


def test_the_500_page_needs_no_database(django_assert_num_queries):
    """The 500 page reads neither the session nor the user: the database may be
    what failed."""
    request = RequestFactory().get("/cage/")  # no session, no user to read
    with translation.override("fi"), django_assert_num_queries(0):
        answer = server_error(request)
    assert_page(answer, 500, "fi", "Something went wrong")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_lost_connection_is_a_page_without_the_database(
    django_assert_num_queries, language
):
    """503 on a staff screen: a translated page with Retry-After, rendered without
    a query; the API keeps its error shape."""
    request = RequestFactory().get("/cage/")
    with translation.override(language), django_assert_num_queries(0):
        answer = unavailable(request)
    assert_page(answer, 503, language, "The database can't be reached")
    assert answer["Retry-After"] == "1"
    api = unavailable(RequestFactory().post("/api/v1/cage/fills"))
    assert api.status_code == 503
    assert api["Content-Type"] == "application/json"
    assert b'"database_unavailable"' in api.content


def test_a_lost_connection_through_the_middleware_is_the_page(make_staff, monkeypatch):
    """A screen's POST whose connection is lost gets the 503 page."""
    import psycopg

    def lost(user):
        try:
            raise psycopg.OperationalError("server closed the connection")
        except psycopg.OperationalError as cause:
            raise OperationalError("server closed the connection") from cause

    monkeypatch.setattr(staff.common.auth, "landing_url", lost)
    monkeypatch.setattr("core.connection_lost.connection.close", lambda: None)
    cashier = make_staff("kalle", Role.CASHIER)
    answer = client_in("ko", cashier).get("/home")
    assert_page(answer, 503, "ko", "The database can't be reached")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_locked_out_sign_in_is_a_page(make_staff, settings, language):
    """429 on the sign-in page: when to try again, in the person's language; the
    API's login keeps the error shape (tests/api/test_auth.py)."""
    make_staff("anna", Role.CASHIER)
    client = client_in(language)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        answer = client.post("/login", {"username": "anna", "password": "x"})
        assert answer.status_code == 200
    answer = client.post("/login", {"username": "anna", "password": "x"})
    body = assert_page(answer, 429, language, "Signing in is locked")
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    with translation.override(language):
        expected = translation.ngettext(
            "Try again in %(n)s minute, or ask a manager to lift the lock.",
            "Try again in %(n)s minutes, or ask a manager to lift the lock.",
            minutes,
        ) % {"n": minutes}
    assert expected in body


def test_api_paths_keep_the_error_shape(make_staff):
    """Under /api/ a 404 and a 403 stay JSON in the error shape."""
    answer = Client().get("/api/v1/nothing-here")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_the_pages_in_a_browser_lead_back(
    live_server, browser_in, make_staff, settings
):
    """In Chromium: the floor person refused at the cage (Korean) follows the
    page's link to the floor; a locked-out sign-in (Finnish) says so. Their
    screenshots go to docs/screens/night/."""
    open_page, expect = browser_in
    make_staff("fred", Role.FLOOR)
    SCREENS.mkdir(parents=True, exist_ok=True)

    page = open_page("ko")
    page.goto(f"{live_server.url}/login")
    page.fill('input[name="username"]', "fred")
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{live_server.url}/floor/")
    answer = page.goto(f"{live_server.url}/cage/")
    assert answer is not None and answer.status == 403
    expect(page.locator("h1")).to_have_text(say("ko", "Not allowed"))
    page.screenshot(path=str(SCREENS / "error-403-ko.png"))
    page.click(f".error-page a:has-text('{say('ko', 'Floor')}')")
    page.wait_for_url(f"{live_server.url}/floor/")

    page = open_page("fi")
    page.goto(f"{live_server.url}/login")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        page.fill('input[name="username"]', "fred")
        page.fill('input[name="password"]', "x")
        page.click('button[type="submit"]')
        page.wait_for_load_state()
    expect(page.locator("h1")).to_have_text(say("fi", "Signing in is locked"))
    page.screenshot(path=str(SCREENS / "error-lockout-fi.png"))
