"""The reports' API tests use the integration tests' played day."""

from tests.integration.reports.conftest import (
    DAY,
    auditor,
    build,
    clock,
    floor,
    manager,
    open_table,
    played_day,
    players,
    stock_tray,
)

__all__ = [
    "DAY",
    "auditor",
    "build",
    "clock",
    "floor",
    "manager",
    "open_table",
    "played_day",
    "players",
    "stock_tray",
]
