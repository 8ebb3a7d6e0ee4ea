"""A room built through the floor's services, no HTTP: tables opened with
``table_open``, trays filled from the cage, players seated with ``seat_take``.

The same room the waiting lists' service tests build, with the same clock."""

from __future__ import annotations

from tests.api.floor.conftest import (  # noqa: F401 (fixtures)
    players,
    stock_tray,
)
from tests.integration.waitlist.conftest import (  # noqa: F401 (fixtures)
    Clock,
    clock,
    open_table,
    sit,
)
