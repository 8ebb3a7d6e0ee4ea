"""The jackpots' refusals: their codes and their texts, in one translated table.

Pure (no Django): services and ``domain/`` raise them alike. A code keeps the
string API.md and its callers know; its text is a template translated when the
edge reads ``detail`` (``core.errors``). A code that several rules refuse with
has one text per rule: the table's other keys name them ``(code, variant)``.

>>> error = refuse(SharedCode.REASON_REQUIRED, text="hit", rule="BB5")
>>> (error.code, error.rule, error.detail)
('reason_required', 'BB5', 'BB5: a rejected hit records why.')
>>> type(conflict(Code.ALREADY_RETIRED, pool="main")).__name__
'Conflict'
"""

from __future__ import annotations

from enum import StrEnum

from core.errors import (
    Conflict,
    Forbidden,
    Invalid,
    Refusal,
    SharedCode,
    variants_refuser,
)
from core.errors import gettext_noop as _


class Code(StrEnum):
    INVALID_CONFIGURATION = "invalid_configuration"
    POOL_EXISTS = "pool_exists"
    POOL_OWES = "pool_owes"
    BAD_SUCCESSOR = "bad_successor"
    ALREADY_RETIRED = "already_retired"
    NOTHING_TO_PAY = "nothing_to_pay"
    AWARD_BOOKED = "award_booked"
    NOT_VERIFIED = "not_verified"
    EARLIER_HIT_PENDING = "earlier_hit_pending"
    ALREADY_APPROVED = "already_approved"
    NOT_A_MONTH_POOL = "not_a_month_pool"
    MONTH_CLOSED = "month_closed"
    MONTH_NOT_OVER = "month_not_over"
    BEFORE_FIRST_MONTH = "before_first_month"
    EARLIER_MONTH_OPEN = "earlier_month_open"
    EARLIER_MONTH_PENDING = "earlier_month_pending"
    INVALID_MONTH = "invalid_month"


TEXTS: dict[StrEnum | tuple[StrEnum, str], str] = {
    SharedCode.PERMISSION_DENIED: _("This needs the role: %(roles)s."),
    (Code.INVALID_CONFIGURATION, "no_game"): _(
        "%(field)s: a category covers at least one game"
    ),
    (Code.INVALID_CONFIGURATION, "not_high"): _(
        "%(field)s: %(code)s can't be covered; games with high hands are %(games)s"
    ),
    (Code.INVALID_CONFIGURATION, "high"): _(
        "%(field)s: games with high hands are %(games)s"
    ),
    (Code.INVALID_CONFIGURATION, "hand"): _(
        "%(field)s: five different cards such as As Ah Ad Ts Th"
    ),
    (Code.INVALID_CONFIGURATION, "card_use"): _(
        "%(field)s: an object with 'loser' and 'winner'"
    ),
    (Code.INVALID_CONFIGURATION, "payout"): _(
        "%(field)s: an object: percent, loser, winner, table"
    ),
    (Code.INVALID_CONFIGURATION, "part"): _("%(field)s: at least one role has a part"),
    (Code.INVALID_CONFIGURATION, "whole"): _("%(field)s: a whole number"),
    (Code.INVALID_CONFIGURATION, "range"): _("%(field)s: from %(low)d to %(high)d"),
    (Code.INVALID_CONFIGURATION, "at_least"): _("%(field)s: at least %(low)d"),
    (Code.INVALID_CONFIGURATION, "side"): _(
        "%(field)s: an object: hole_cards, quads_pocket_pair"
    ),
    (Code.INVALID_CONFIGURATION, "bool"): _("%(field)s: true or false"),
    (Code.INVALID_CONFIGURATION, "fixed"): _("These can't change: %(fields)s."),
    SharedCode.INVALID_AMOUNT: _("A seed is a positive number of cents."),
    (SharedCode.INVALID_AMOUNT, "drops"): _(
        "JD5: %(held)d cents of drops wait for a pool; give from 1 to that."
    ),
    Code.POOL_EXISTS: _("The room has a pool %(code)s already."),
    SharedCode.REASON_REQUIRED: _(
        "JD5: a manager records why money held in trust moves."
    ),
    (SharedCode.REASON_REQUIRED, "hit"): _("BB5: a rejected hit records why."),
    (SharedCode.REASON_REQUIRED, "month"): _("HM3: a rejection records why."),
    Code.POOL_OWES: _("JD5: %(pool)s still owes players; decide %(what)s first."),
    Code.BAD_SUCCESSOR: _(
        "JD5: the successor is another active pool of room %(room)s."
    ),
    (Code.BAD_SUCCESSOR, "room"): _(
        "JD5: the successor is another pool of room %(room)s."
    ),
    (Code.BAD_SUCCESSOR, "currency"): _(
        "JD5: the successor pool keeps another currency."
    ),
    (Code.BAD_SUCCESSOR, "drops"): _(
        "JD5: the drops go to an active pool in %(currency)s."
    ),
    Code.ALREADY_RETIRED: _("%(pool)s was retired already."),
    Code.NOTHING_TO_PAY: _("JD5: the pool holds nothing to pay for this jackpot."),
    SharedCode.INSUFFICIENT_FUNDS: _(
        "JD5: %(account)s holds %(balance)d; it can't give %(amount)d."
    ),
    SharedCode.HAND_VOIDED: _(
        "RK8: hand %(hand)s was voided; its hit can only be rejected."
    ),
    Code.AWARD_BOOKED: _(
        "RK8: hit %(id)d of hand %(hand)s was approved and its awards booked from the"
        " pool (BB5); a void can't take them back, so the hand isn't voided."
    ),
    Code.NOT_VERIFIED: _(
        "BB5: a floor person verifies the hit before a manager approves it."
    ),
    SharedCode.FOUR_EYES: _(
        "BB5: the manager approving a hit is not the one who verified it."
    ),
    (SharedCode.FOUR_EYES, "month"): _(
        "HM3: the month is approved by another person than who closed it."
    ),
    Code.EARLIER_HIT_PENDING: _(
        "BB4: hit %(id)d, from an earlier hand, is paid first; decide it first."
    ),
    Code.ALREADY_APPROVED: _("Hit %(id)d is %(status)s already."),
    (Code.ALREADY_APPROVED, "month"): _("%(month)s is %(status)s already."),
    SharedCode.DECIDED: _("Hit %(id)d is %(status)s already."),
    (SharedCode.DECIDED, "month"): _("%(month)s is %(status)s already."),
    Code.NOT_A_MONTH_POOL: _("%(pool)s is not a hand-of-the-month pool."),
    Code.MONTH_CLOSED: _("HM3: %(month)s of %(pool)s is closed already."),
    Code.MONTH_NOT_OVER: _("HM3: %(month)s is not over yet."),
    Code.BEFORE_FIRST_MONTH: _("HM3: %(pool)s starts with %(first)s."),
    Code.EARLIER_MONTH_OPEN: _("HM3: close %(previous)s first."),
    Code.EARLIER_MONTH_PENDING: _("HM3: %(month)s is decided first."),
    Code.INVALID_MONTH: _("%(month)s is not a month: write YYYY-MM, e.g. 2026-11"),
}

refuse = variants_refuser(TEXTS, Refusal)  # 422 with a rule, 400 without
conflict = variants_refuser(TEXTS, Conflict)  # 409
invalid = variants_refuser(TEXTS, Invalid)  # 400
forbidden = variants_refuser(TEXTS, Forbidden)  # 403
