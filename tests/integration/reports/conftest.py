"""A played gaming day and staff for the reports' tests."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

import pytest
from rest_framework.test import APIClient

from core.roles import Role
from tests.api.floor.conftest import (
    clock,
    floor,
    manager,
    open_table,
    players,
    stock_tray,
)
from tests.integration.reports.day import Day, build_day, local

__all__ = ["clock", "floor", "manager", "open_table", "players", "stock_tray"]

DAY = date(2026, 11, 27)


@pytest.fixture
def auditor(staff_client) -> APIClient:
    return staff_client(Role.AUDITOR, username="audrey")


@pytest.fixture
def build(
    clock, open_table, players, staff_client, manager, floor
) -> Callable[[date], Day]:
    def make(day: date) -> Day:
        return build_day(
            day=day,
            clock=clock,
            open_table=open_table,
            staff_client=staff_client,
            manager=manager,
            floor=floor,
        )

    return make


@pytest.fixture
def played_day(build, clock) -> Day:
    """``DAY`` played through the API; the clock is at 07:00 the morning after."""
    built = build(DAY)
    clock.now = local(DAY + timedelta(days=1), 7)
    return built
