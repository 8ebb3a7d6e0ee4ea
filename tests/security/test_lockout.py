"""Login lockout as configured (django-axes; config/settings/).

tests/api/test_auth.py already shows that after ``AXES_FAILURE_LIMIT`` failures
even the right password is refused with 429 in the error shape. Here: the lockout
is per username *and* address (``AXES_LOCKOUT_PARAMETERS``), so it neither locks
the person out everywhere nor the address out for everyone; a forged
``X-Forwarded-For`` doesn't get around it; it ends after ``AXES_COOLOFF_TIME``; a
successful login starts the count again (``AXES_RESET_ON_SUCCESS``).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.db.models import F
from rest_framework.test import APIClient

from core.roles import Role
from tests.api.test_auth import assert_error_shape
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

HOME, ELSEWHERE = "10.0.0.1", "10.0.0.2"


def login(username: str, password: str, address: str, **headers: str):
    return APIClient().post(
        "/api/v1/auth/login",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
        **headers,
    )


@pytest.fixture
def anna_locked_out(make_staff, settings) -> None:
    """Anna at HOME, after as many wrong passwords as the limit allows."""
    make_staff("anna", Role.FLOOR)
    make_staff("bob", Role.FLOOR)
    for attempt in range(1, settings.AXES_FAILURE_LIMIT + 1):
        answer = login("anna", "wrong", HOME)
        assert answer.status_code == (
            429 if attempt == settings.AXES_FAILURE_LIMIT else 401
        )
    assert_error_shape(login("anna", PASSWORD, HOME), 429, "locked_out")


def test_the_lockout_is_for_that_username_from_that_address(anna_locked_out):
    """Anna logs in from another address; Bob logs in from hers."""
    assert login("anna", PASSWORD, ELSEWHERE).status_code == 200
    assert login("bob", PASSWORD, HOME).status_code == 200
    assert_error_shape(login("anna", PASSWORD, HOME), 429, "locked_out")


def test_a_forged_forwarded_for_header_does_not_lift_it(anna_locked_out):
    """Without a proxy in front (PROXY_COUNT=0) the client's own address counts."""
    forged = login("anna", PASSWORD, HOME, HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert_error_shape(forged, 429, "locked_out")


def test_the_lockout_ends_after_the_cool_off(anna_locked_out, settings):
    """Once the failures are older than AXES_COOLOFF_TIME the right password works."""
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time")
        - settings.AXES_COOLOFF_TIME
        - timedelta(seconds=1)
    )
    assert login("anna", PASSWORD, HOME).status_code == 200


def test_a_successful_login_starts_the_count_again(make_staff, settings):
    """Failures before a success don't add up with the ones after it."""
    make_staff("anna", Role.FLOOR)
    for _ in range(2):
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            assert login("anna", "wrong", HOME).status_code == 401
        assert login("anna", PASSWORD, HOME).status_code == 200
