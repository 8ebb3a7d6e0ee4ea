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
    PROMOTION_EXISTS = "promotion_exists"
    PROMOTION_UNFUNDED = "promotion_unfunded"
    PERIOD_CLOSED = "period_closed"
    PERIOD_NOT_OVER = "period_not_over"
    EARLIER_PERIOD_OPEN = "earlier_period_open"
    BEFORE_PROMOTION = "before_promotion"
    NOT_A_HIGH_HAND = "not_a_high_hand"


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
    (Code.INVALID_CONFIGURATION, "object"): _("%(field)s: an object"),
    (Code.INVALID_CONFIGURATION, "one_of"): _("%(field)s: one of %(choices)s"),
    (Code.INVALID_CONFIGURATION, "stakes"): _(
        "%(field)s: a list of big blinds in cents; empty covers every stake"
    ),
    (Code.INVALID_CONFIGURATION, "first_run"): _(
        "%(field)s: PR4: only the first run of a pot run more than once counts"
    ),
    (Code.INVALID_CONFIGURATION, "period"): _(
        "%(field)s: PR2: a length in minutes that divides a day: %(lengths)s"
    ),
    (Code.INVALID_CONFIGURATION, "zone"): _(
        "%(field)s: a time zone such as Europe/Helsinki"
    ),
    (Code.INVALID_CONFIGURATION, "prize"): _(
        "%(field)s: an object: fixed, pool_percent, funding"
    ),
    (Code.INVALID_CONFIGURATION, "house_only"): _(
        "%(field)s: PR1: a prize the house funds alone is a fixed amount"
    ),
    (Code.INVALID_CONFIGURATION, "both"): _(
        "%(field)s: PR1: funded by both, the house pays the fixed amount and the"
        " drop a percent of the pool: give both"
    ),
    (Code.INVALID_CONFIGURATION, "nothing"): _(
        "%(field)s: a fixed amount, a percent of the pool, or both"
    ),
    (Code.INVALID_CONFIGURATION, "bonus_fixed"): _(
        "%(field)s: a fixed bonus pays the amounts of its table's lines"
    ),
    (Code.INVALID_CONFIGURATION, "bonus_kind"): _(
        "%(field)s: only a fixed bonus has a table of hands"
    ),
    (Code.INVALID_CONFIGURATION, "bonuses"): _(
        "%(field)s: PR3: a list of lines, each a hand (%(hands)s) and what it pays"
    ),
    (Code.INVALID_CONFIGURATION, "bonus_twice"): _(
        "%(field)s: PR3: each hand once in the table"
    ),
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
    Code.PROMOTION_EXISTS: _("The room has a promotion %(code)s already."),
    Code.PROMOTION_UNFUNDED: _(
        "PR1: a promotion funded by the %(funding)s takes a share of the drop;"
        " give its pool a drop ratio."
    ),
    Code.PERIOD_CLOSED: _("PR2: the period from %(start)s of %(promotion)s is closed."),
    Code.PERIOD_NOT_OVER: _("PR2: the period ends at %(end)s; it closes then."),
    Code.EARLIER_PERIOD_OPEN: _("PR2: close the period from %(start)s first."),
    Code.BEFORE_PROMOTION: _("PR2: %(promotion)s had no rules in force then."),
    Code.NOT_A_HIGH_HAND: _("%(promotion)s has no periods: it is not a high hand."),
    (SharedCode.REASON_REQUIRED, "prize"): _("PR5: a rejected prize records why."),
    (SharedCode.HAND_VOIDED, "prize"): _(
        "PR4: hand %(hand)s was voided; its prize can only be cancelled."
    ),
    (Code.NOT_VERIFIED, "prize"): _(
        "PR5: a floor person verifies the prize before a manager approves it."
    ),
    (SharedCode.FOUR_EYES, "prize"): _(
        "PR5: the manager approving a prize is not the one who verified it."
    ),
    (SharedCode.DECIDED, "prize"): _("Prize %(id)d is %(status)s already."),
    (Code.AWARD_BOOKED, "prize"): _(
        "RK8: prize %(id)d of hand %(hand)s was approved and booked (PR5); a void"
        " can't take it back, so the hand isn't voided."
    ),
}

refuse = variants_refuser(TEXTS, Refusal)  # 422 with a rule, 400 without
conflict = variants_refuser(TEXTS, Conflict)  # 409
invalid = variants_refuser(TEXTS, Invalid)  # 400
forbidden = variants_refuser(TEXTS, Forbidden)  # 403
