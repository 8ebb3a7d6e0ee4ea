"""What the reports refuse, as codes and one table of their texts (core.errors).

The texts are message templates, translated when the error is read, so a Finnish
or Korean caller reads them in his language.
"""

from __future__ import annotations

from enum import StrEnum

from core.errors import (
    Forbidden,
    Invalid,
    NotFound,
    Refusal,
    SharedCode,
    Unprocessable,
    gettext_noop,
    refuser,
)


class Code(StrEnum):
    UNKNOWN_REPORT = "unknown_report"
    INVALID_PERIOD = "invalid_period"
    MANAGER_REQUIRED = "manager_required"
    PERIOD_NOT_OVER = "period_not_over"
    PERIOD_ENDED = "period_ended"
    UNKNOWN_FORMAT = "unknown_format"
    NOT_SEALED = "not_sealed"
    BOOKS_NOTHING = "books_nothing"


TEXTS = {
    Code.UNKNOWN_REPORT: gettext_noop("No report kind %(k)s."),
    Code.INVALID_PERIOD: gettext_noop("The period ends before it starts."),
    Code.MANAGER_REQUIRED: gettext_noop(
        "Only a manager may ask for a new version of a stored report."
    ),
    SharedCode.REASON_REQUIRED: gettext_noop("A new version of a report says why."),
    Code.PERIOD_NOT_OVER: gettext_noop(
        "Gaming day %(day)s ends at %(end)s; its %(kind)s can be made after that."
    ),
    Code.PERIOD_ENDED: gettext_noop(
        "Gaming day %(day)s has ended; its %(kind)s is produced and stored, not "
        "shown provisionally."
    ),
    Code.UNKNOWN_FORMAT: gettext_noop("Reports are files of these formats: %(f)s."),
    Code.NOT_SEALED: gettext_noop(
        "The %(kind)s %(what)s is in no day's digest yet: a gaming day is sealed "
        "with its daily audit once it has ended."
    ),
    Code.BOOKS_NOTHING: gettext_noop(
        "The %(kind)s %(what)s booked no ledger transaction: there is nothing of it "
        "to prove."
    ),
}

refuse = refuser(TEXTS, Refusal)
invalid = refuser(TEXTS, Invalid)
forbidden = refuser(TEXTS, Forbidden)
unprocessable = refuser(TEXTS, Unprocessable)
missing = refuser(TEXTS, NotFound)
