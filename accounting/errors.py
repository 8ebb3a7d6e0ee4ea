"""The ledger's and the cage's refusals: their codes and their texts, in one table.

Pure (no Django, no DRF): the ledger's and the cage's services
(``accounting.services``) and the posting plans of ``accounting.domain`` raise
them; the API's exception handler maps them to their statuses, and ``detail`` is
translated when it is read (:mod:`core.errors`).
A code several refusals share has one text in :data:`TEXTS` and the others beside
it, passed as ``text=``.

>>> error = refuse(Code.IDENTITY_REQUIRED, rule="CA5", threshold=200000, max=0)
>>> (error.code, error.rule)
('identity_required', 'CA5')
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from core.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    Refusal,
    SharedCode,
    Unprocessable,
    refuser,
)
from core.errors import gettext_noop as _


class Code(StrEnum):
    # The ledger (accounting.services)
    ACCOUNT_MISMATCH = "account_mismatch"
    NOT_CENTS = "not_cents"
    TOO_FEW_ENTRIES = "too_few_entries"
    UNBALANCED = "unbalanced"
    POSTING_CONFLICT = "posting_conflict"
    REVERSAL_OF_REVERSAL = "reversal_of_reversal"
    ALREADY_REVERSED = "already_reversed"
    # The cage (accounting.services.cage)
    CAGE_NOT_FOUND = "cage_not_found"
    NO_OPEN_SHIFT = "no_open_shift"
    MEMO_REQUIRED = "memo_required"
    SHIFT_ALREADY_OPEN = "shift_already_open"
    NOT_YOUR_SHIFT = "not_your_shift"
    SHIFT_NOT_OPEN = "shift_not_open"
    NOT_PENDING_SIGN_OFF = "not_pending_sign_off"
    OWN_SHIFT = "own_shift"
    SAME_PERSON = "same_person"
    SLIP_ALREADY_ISSUED = "slip_already_issued"
    SLIP_ALREADY_CANCELLED = "slip_already_cancelled"
    COUNTED_ALREADY = "counted_already"
    PLAYER_NOT_REGISTERED = "player_not_registered"
    PLAYER_EXISTS = "player_exists"
    DOCUMENT_REQUIRED = "document_required"
    IDENTITY_REQUIRED = "identity_required"
    AWARD_NOT_APPROVED = "award_not_approved"
    WRONG_PLAYER = "wrong_player"
    SIGNATURE_REQUIRED = "signature_required"
    RECEIPT_NOT_FOUND = "receipt_not_found"
    RECEIVABLE_OPEN = "receivable_open"
    ABOVE_OPEN = "above_open"
    INVALID_FILTER = "invalid_filter"
    # Player protection (accounting.services.cage.protection)
    UNDER_AGE = "under_age"
    PLAYER_BARRED = "player_barred"
    PLAYER_SELF_EXCLUDED = "player_self_excluded"
    AWARD_HELD = "award_held"
    SELF_EXCLUSION_FINAL = "self_exclusion_final"
    SELF_EXCLUSION_TOO_SHORT = "self_exclusion_too_short"
    SELF_EXCLUSION_RUNNING = "self_exclusion_running"
    SECOND_MANAGER = "second_manager"
    UNTIL_PASSED = "until_passed"
    RESTRICTION_ENDED = "restriction_ended"
    RESTRICTION_NOT_FOUND = "restriction_not_found"
    DOCUMENT_EXPIRED = "document_expired"
    BIRTH_DATE_FUTURE = "birth_date_future"
    NOTHING_CHANGED = "nothing_changed"
    DOCUMENT_ON_FILE = "document_on_file"
    SETTINGS_CHANGED = "settings_changed"
    AWARD_FORFEITED = "award_forfeited"


TEXTS = {
    Code.ACCOUNT_MISMATCH: _("Account %(code)s exists as %(type)s in %(currency)s."),
    Code.NOT_CENTS: _("Amounts are integer cents."),
    Code.TOO_FEW_ENTRIES: _("A transaction moves money between at least two accounts."),
    Code.UNBALANCED: _("The entries don't balance: %(sums)s."),
    SharedCode.INSUFFICIENT_FUNDS: _(
        "%(account)s holds %(balance)d; it can't give %(amount)d."
    ),
    Code.POSTING_CONFLICT: _("Posting %(key)s was already made with other amounts."),
    SharedCode.REASON_REQUIRED: _("DC2: a reversal says why."),
    SharedCode.FOUR_EYES: _("DC2: money corrections need two different staff."),
    Code.REVERSAL_OF_REVERSAL: _(
        "DC2: a reversal is corrected by a new posting, not reversed."
    ),
    Code.ALREADY_REVERSED: _("DC2: transaction %(id)d is already reversed."),
    SharedCode.INVALID_AMOUNT: _("%(name)s must be integer cents."),
    Code.CAGE_NOT_FOUND: _("No cage %(code)s."),
    Code.NO_OPEN_SHIFT: _(
        "CA1: %(user)s has no open shift at cage %(cage)s; open one with a "
        "counted float first."
    ),
    Code.MEMO_REQUIRED: _("Say where the vault's money goes (the memo)."),
    Code.SHIFT_ALREADY_OPEN: _(
        "CA1: a cashier has one open shift per cage; close shift %(id)s first."
    ),
    Code.NOT_YOUR_SHIFT: _("CA1: only the shift's own cashier counts and closes it."),
    Code.SHIFT_NOT_OPEN: _("CA1: shift %(id)d is already closed."),
    Code.NOT_PENDING_SIGN_OFF: _(
        "CA1: shift %(id)d isn't waiting for a sign-off (it is %(status)s)."
    ),
    Code.OWN_SHIFT: _(
        "CA1: a cashier can't sign off his own shift; ask another supervisor."
    ),
    Code.SAME_PERSON: _(
        "CA3: a fill or credit is signed by a floor person and issued by a "
        "cashier, two different people."
    ),
    Code.SLIP_ALREADY_ISSUED: _("CA3: %(kind)s %(id)d is %(status)s already."),
    Code.SLIP_ALREADY_CANCELLED: _("CA3: %(kind)s %(id)d is %(status)s already."),
    Code.COUNTED_ALREADY: _(
        "CA4: the %(box)s box of %(table)s was counted for %(day)s already."
    ),
    Code.PLAYER_NOT_REGISTERED: _(
        "%(rule)s: player %(code)s is not registered; register him first."
    ),
    Code.PLAYER_EXISTS: _("Player %(code)s is already registered."),
    Code.DOCUMENT_REQUIRED: _(
        "An identity check records the document's type and number."
    ),
    Code.IDENTITY_REQUIRED: _(
        "CA5: a player's cash transactions reaching %(threshold)d cents in a "
        "gaming day need a verified identity document; without one, at "
        "most %(max)d more today."
    ),
    Code.AWARD_NOT_APPROVED: _(
        "CA6: an award is paid only once a manager approved it."
    ),
    SharedCode.ALREADY_PAID: _("CA6: award %(ref)s is already paid."),
    Code.WRONG_PLAYER: _("CA6: this award is owed to another player."),
    Code.SIGNATURE_REQUIRED: _("CA6: the player signs the receipt of an award payout."),
    SharedCode.WRONG_CURRENCY: _(
        "CA6: this award is in %(currency)s; pay it at a cage in it."
    ),
    Code.RECEIPT_NOT_FOUND: _("No receipt %(no)s."),
    Code.INVALID_FILTER: _("due is true or false."),
    Code.RECEIVABLE_OPEN: _(
        "DC3: %(p)s owes %(open)d (due: %(due)d); he pays it back at the"
        " cage before he buys in."
    ),
    Code.ABOVE_OPEN: _("DC3: %(p)s owes %(open)d; %(a)d is more than is open."),
    SharedCode.TABLE_CLOSED: _(
        "CA3: table %(table)s is closed; a closed table gets no fills. Open the "
        "table first."
    ),
    Code.UNDER_AGE: _(
        "PP2: %(player)s is %(age)d on this gaming day; the room's minimum age is"
        " %(min_age)d."
    ),
    Code.PLAYER_BARRED: _("PP3: %(player)s is barred from %(scope)s until %(until)s."),
    Code.PLAYER_SELF_EXCLUDED: _(
        "PP4: %(player)s has excluded himself from %(scope)s until %(until)s."
    ),
    Code.AWARD_HELD: _(
        "PP6: %(player)s is restricted (%(because)s); what he is owed is held until"
        " a manager decides."
    ),
    Code.SELF_EXCLUSION_FINAL: _(
        "PP4: nobody can end or shorten a self-exclusion; it lapses only after its"
        " period, at the player's request."
    ),
    Code.SELF_EXCLUSION_TOO_SHORT: _(
        "PP4: a self-exclusion lasts at least %(days)d days: until %(min)s or"
        " later, or for good."
    ),
    Code.SELF_EXCLUSION_RUNNING: _(
        "PP4: this self-exclusion runs until %(until)s; the player can ask for it"
        " to lapse from then on."
    ),
    Code.SECOND_MANAGER: _(
        "PP3: a bar is ended early by another manager than who set it."
    ),
    Code.UNTIL_PASSED: _(
        "PP3: a bar ends on a gaming day to come (%(min)s or later), or never."
    ),
    Code.RESTRICTION_ENDED: _("PP7: restriction %(id)d has ended already."),
    Code.RESTRICTION_NOT_FOUND: _("No restriction %(id)d."),
    Code.DOCUMENT_EXPIRED: _(
        "PP1: this document expired on %(expires)s; check a valid one."
    ),
    Code.BIRTH_DATE_FUTURE: _("PP1: a date of birth is a day in the past."),
    Code.NOTHING_CHANGED: _("PP7: the correction changes nothing."),
    Code.AWARD_FORFEITED: _(
        "PP6: award %(ref)s was forfeited by a manager's decision; it isn't paid."
    ),
    Code.SETTINGS_CHANGED: _(
        "Version %(version)d of the protection settings was just recorded by"
        " someone else; read them again."
    ),
    Code.DOCUMENT_ON_FILE: _(
        "PP1: an award or a prize is paid only to a player whose identity document"
        " is on file and valid; %(player)s has none. Record the one you check."
    ),
    SharedCode.NOT_HELD: _(
        "PP6: award %(ref)s isn't held: it is paid or decided, or its player is no"
        " longer restricted."
    ),
}

# Other texts of codes above (``text=``).
NO_BIRTH_DATE = _(
    "PP2: %(player)s has no date of birth on file; every door refuses him until"
    " one is recorded (the room's minimum age is %(min_age)d)."
)
BARRED_FOR_GOOD = _("PP3: %(player)s is barred from %(scope)s for good.")
SELF_EXCLUDED_FOR_GOOD = _(
    "PP4: %(player)s has excluded himself from %(scope)s for good."
)
SCOPES = {
    "room": _("the room"),
    "cash": _("cash games"),
    "tournaments": _("tournaments"),
}
"""What a restriction closes, as a refusal names it (PP3, PP4)."""
SELF_EXCLUDED_PAST_PERIOD = _(
    "PP4: %(player)s has excluded himself from %(scope)s; its period ended on"
    " %(until)s, and it holds until he asks for it to lapse and the cooling-off"
    " time has passed."
)
OVERDRAWN = _("An account would go below zero.")
NOT_POSITIVE = _("%(name)s must be more than zero.")
NEGATIVE = _("%(name)s can't be negative.")
FILL_TABLE_CLOSED = _(
    "CA3: fill %(id)d is for table %(table)s, which has closed since it was "
    "asked for; a closed table gets no fills. Ask the floor to cancel it."
)
NOTHING_TO_FUND = _("Nothing to put in the vault.")
NOTHING_TO_WITHDRAW = _("Nothing to take from the vault.")
SLIP_REASON_REQUIRED = _("CA3: say why the slip is cancelled.")
AWARD_FOUR_EYES = _("CA6: an award is approved by another person than who made it.")
PAYER_FOUR_EYES = _("CA6: the cashier paying an award can't be its approver.")


class LedgerError(Unprocessable, Refusal):
    """A posting the ledger refuses (unbalanced, mixed currencies, overdrawn…): a
    refusal, and a well-formed request refused for what no schema states, whether
    or not it names a rule."""


class InsufficientFunds(LedgerError):
    """The posting would take an account flagged non-negative below zero."""


refuse: Callable[..., Refusal] = refuser(TEXTS)
conflict = refuser(TEXTS, Conflict)
missing = refuser(TEXTS, NotFound)
invalid = refuser(TEXTS, Invalid)
forbidden = refuser(TEXTS, Forbidden)
ledger_refuse = refuser(TEXTS, LedgerError)


def insufficient(
    *, account: str | None = None, balance: int = 0, amount: int = 0
) -> InsufficientFunds:
    """The ledger's refusal of an overdraft: of ``account`` (holding ``balance``,
    asked for ``amount``) with the most it can give, or of an account unnamed."""
    if account is None:
        return InsufficientFunds(SharedCode.INSUFFICIENT_FUNDS, OVERDRAWN)
    params: dict[str, Any] = {
        "account": account,
        "balance": balance,
        "amount": amount,
    }
    return InsufficientFunds(
        SharedCode.INSUFFICIENT_FUNDS,
        TEXTS[SharedCode.INSUFFICIENT_FUNDS],
        allowed={"max": balance},
        params=params,
    )
