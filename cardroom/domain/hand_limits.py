"""Where a hand record may sit in a table's sequence and in time.

Plain Python with no Django import. A table terminal numbers its hands and stamps
them with its own clock; a typo in either must not book a hand into another night
nor block the table. :func:`check_hand_no` and :func:`check_hand_times` raise
:class:`~cardroom.domain.errors.HandError` (answered 422) with what is allowed.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cardroom.domain.errors import Code, refuse

HAND_NO_WINDOW = 1000
"""HS-P1: a hand's number is at most this far above the table's last hand.

Hand numbers increase at a table (API.md); a terminal that lost hands skips a few,
never a thousand. Without the window one typo (``2^63 - 1``) would leave no
number for the table's next hand."""

FIRST_HAND_NO_MAX = 1_000_000
"""HS-P1: the first hand a table records is numbered at most this."""

CLOCK_SKEW = timedelta(minutes=5)
"""BI8: how far ahead of the server's clock a terminal's clock may run."""


def hand_no_allowed(last: int | None) -> tuple[int, int]:
    """Return the lowest and highest number the table's next new hand may have."""
    if last is None:
        return 1, FIRST_HAND_NO_MAX
    return last + 1, last + HAND_NO_WINDOW


def check_hand_no(hand_no: int, last: int | None) -> None:
    """Refuse a new hand numbered too far above the table's ``last`` (HS-P1).

    A number at or below ``last`` is a repeat or out of order, which the caller
    answers (200 or 409); this refuses only the jump ahead. The refusal carries
    ``rule`` HS6 on the wire, as it always has (docs/rules.md, HS-P1).
    """
    low, high = hand_no_allowed(last)
    if hand_no > high:
        raise refuse(
            Code.HAND_NO_TOO_FAR_AHEAD,
            rule="HS6",  # on the wire since it was built; the rule is HS-P1
            allowed={"min": low, "max": high, "last": last},
            hand_no=hand_no,
            low=low,
            high=high,
        )


def check_hand_times(
    *,
    started_at: datetime | None,
    ended_at: datetime | None,
    day_start: datetime,
    now: datetime,
) -> None:
    """Refuse hand times outside the table's open gaming day (BI8).

    ``day_start`` is when the gaming day the table was opened for began; a hand
    ends between it and ``now`` (plus :data:`CLOCK_SKEW` for the terminal's clock)
    and starts before it ends, in the same span. All times are aware.
    """
    latest = (now + CLOCK_SKEW).astimezone(UTC)
    allowed = {"from": day_start.astimezone(UTC).isoformat(), "to": latest.isoformat()}
    for name, value in (("started_at", started_at), ("ended_at", ended_at)):
        if value is not None and not day_start <= value <= latest:
            raise refuse(
                Code.HAND_TIME_OUTSIDE_GAMING_DAY,
                rule="BI8",
                allowed=allowed,
                field=name,
                time=value.isoformat(),
                start=allowed["from"],
                end=allowed["to"],
            )
    if started_at is not None and ended_at is not None and ended_at < started_at:
        raise refuse(
            Code.HAND_ENDS_BEFORE_IT_STARTS,
            rule="BI8",
            allowed={
                "from": started_at.astimezone(UTC).isoformat(),
                "to": allowed["to"],
            },
            ended_at=ended_at.isoformat(),
            started_at=started_at.isoformat(),
        )
