"""The room's gaming day from the project settings (BI8).

The floor will give each room its own time zone and cut-off; until then the cage uses
``TIME_ZONE`` and ``CARDROOM_GAMING_DAY_CUTOFF_HOUR``, read when asked, never at import.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

from accounting.domain.gaming_day import gaming_day


def gaming_day_of(at: datetime | None = None) -> date:
    """Return the gaming day of ``at`` (now by default) in the room's settings."""
    return gaming_day(
        at or timezone.now(),
        ZoneInfo(settings.TIME_ZONE),
        settings.CARDROOM_GAMING_DAY_CUTOFF_HOUR,
    )
