"""What the cage's and the players' records share: the code pattern, the clock
that stamps a record, the room's currency.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import timezone

CODE_REGEX = r"^[A-Za-z0-9][A-Za-z0-9_-]*$"


def record_time() -> Any:
    """The time now, read when a record is made (the clock a test moves too)."""
    return timezone.now()


def room_currency() -> str:
    """The room's currency (CARDROOM_CURRENCY), the default of a new cage's."""
    return settings.CARDROOM_CURRENCY
