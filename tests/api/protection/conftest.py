"""The room of the protection tests (tests/integration/protection), with the
clients that try its doors through the API: the floor, the cashier whose shift is
open, T01's terminal, managers; and the players kept out as API.md says a manager
does it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounting.models import DoorRefusal, Player
from accounting.services import cage as cage_services
from accounting.services.cage import protection_settings
from cardroom.models import TerminalKey
from tests.conftest import PASSWORD
from tests.integration.protection.conftest import (  # noqa: F401 (fixtures)
    HELD,
    KINDS,
    REFUSED,
    adults,
    cage,
    cashier,
    event,
    floor_person,
    manager,
    minor_born,
    room,
    second_manager,
    shift,
    structure,
    t01,
    written,
)

__all__ = ["HELD", "KINDS", "REFUSED", "written"]


def signed_in(user: User) -> APIClient:
    """An API client with ``user``'s bearer token."""
    client = APIClient()
    answer = client.post(
        "/api/v1/auth/login",
        {"username": user.username, "password": PASSWORD},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {answer.json()['token']}")
    return client


@pytest.fixture
def desk(cashier) -> APIClient:  # noqa: F811
    """The cashier whose shift is open at MAIN."""
    return signed_in(cashier)


@pytest.fixture
def floor_api(floor_person) -> APIClient:  # noqa: F811
    return signed_in(floor_person)


@pytest.fixture
def boss(manager) -> APIClient:  # noqa: F811
    return signed_in(manager)


@pytest.fixture
def other_boss(second_manager) -> APIClient:  # noqa: F811
    return signed_in(second_manager)


@pytest.fixture
def terminal(t01) -> APIClient:  # noqa: F811
    _, key = TerminalKey.objects.create_key(name="T01 terminal", table=t01)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {key}")
    return client


def post(client: APIClient, path: str, body: dict[str, Any] | None = None):
    return client.post(f"/api/v1/{path}", body or {}, format="json")


def keep_out(boss: APIClient, code: str, kind: str, scope: str = "room") -> int | None:
    """Keep ``code`` out as ``kind`` says, through the API: his date of birth
    corrected to a minor's (PATCH, PP7), a bar for good (PP3) or a self-exclusion
    for the room's shortest period (PP4) set by a manager. A player without a date
    of birth is one registered before the room recorded them. Returns the
    restriction's id."""
    if kind == "minor":
        answer = boss.patch(
            f"/api/v1/players/{code}",
            {"birth_date": minor_born().isoformat(), "reason": "Per his passport"},
            format="json",
        )
        assert answer.status_code == 200, answer.content
        return None
    if kind == "no_birth_date":
        Player.objects.filter(code=code).update(birth_date=None)
        return None
    body: dict[str, Any] = {"scope": scope, "reason": "Seen on camera"}
    if kind == "barred":
        body |= {"kind": "bar", "until": None}
    else:
        days = protection_settings().min_self_exclusion_days
        until = cage_services.gaming_day_of() + timedelta(days=days)
        body |= {"kind": "self_exclusion", "until": until.isoformat()}
    answer = post(boss, f"players/{code}/restrictions", body)
    assert answer.status_code == 201, answer.content
    assert answer.json()["active"] is True
    return int(answer.json()["id"])


def refused(
    answer,
    kind: str,
    door: str | None,
    expected: dict | None = None,
    player: str = "P-8",
) -> dict[str, Any]:
    """Check a door's 422: the rule and code of ``kind`` in the error's shape, and,
    for a door (not an award's hold), the refusal kept for the daily audit."""
    rule, code = (expected or REFUSED)[kind]
    assert answer.status_code == 422, answer.content
    error = answer.json()["error"]
    assert (error["rule"], error["code"]) == (rule, code), error
    if door is not None:
        kept = DoorRefusal.objects.filter(player__code=player, door=door)
        assert list(kept.values_list("rule", "code")) == [(rule, code)]
    return error
