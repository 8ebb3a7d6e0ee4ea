"""The waiting lists' refusals: their codes and their texts, in one table.

Pure (no Django, no DRF): ``waitlist.services`` and ``waitlist.domain`` raise them;
the API's exception handler maps them to their statuses, and ``detail`` is
translated when it is read (:mod:`core.errors`). A code several refusals share has
one text in :data:`TEXTS` and the others beside it, passed as ``text=``.

>>> error = refuse(Code.ALREADY_LISTED, rule="WL1", p="P-1")
>>> (error.code, error.status_code, error.detail)
('already_listed', 422, 'WL1: P-1 is on this list already.')
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from core.errors import Conflict, Invalid, NotFound, Refusal, refuser
from core.errors import gettext_noop as _


class Code(StrEnum):
    NOT_FOUND = "not_found"
    NOT_ON_LIST = "not_on_list"
    SEAT_EMPTY = "seat_empty"
    SEAT_TAKEN = "seat_taken"
    NOT_THE_SAME_GAME = "not_the_same_game"
    TABLES_BALANCED = "tables_balanced"
    NO_SUCH_SEAT = "no_such_seat"
    BARRED_FROM_GAME = "barred_from_game"
    KEPT_APART = "kept_apart"
    RELEASED = "released"
    ALREADY_LISTED = "already_listed"
    ALREADY_IN_GAME = "already_in_game"
    NO_OPEN_SEAT = "no_open_seat"
    WRONG_GAME = "wrong_game"
    TABLE_BREAKING = "table_breaking"
    SAME_PLAYER = "same_player"
    REASON_REQUIRED = "reason_required"
    KEPT_APART_ALREADY = "kept_apart_already"
    ENDED = "ended"
    NOT_SAME_GAME = "not_same_game"
    MUST_MOVE_EXISTS = "must_move_exists"
    ALREADY_SEATED = "already_seated"
    AMOUNT_REQUIRED = "amount_required"
    NOT_IN_GAME = "not_in_game"
    CALL_EXPIRED = "call_expired"
    NOT_CALLED = "not_called"


TEXTS = {
    Code.NOT_FOUND: _("No waiting list entry %(id)s."),
    Code.NOT_ON_LIST: _("The entry is %(s)s already."),
    Code.SEAT_EMPTY: _("Nobody sits in seat %(s)d."),
    Code.SEAT_TAKEN: _("Seat %(s)d is taken or held."),
    Code.NOT_THE_SAME_GAME: _(
        "BI7: tables are balanced within one game; %(t)s doesn't deal the"
        " game of %(s)s."
    ),
    Code.TABLES_BALANCED: _(
        "BI7: balancing moves a player from the fuller table; %(s)s has"
        " %(n)d, %(t)s %(m)d."
    ),
    Code.NO_SUCH_SEAT: _("Seat %(s)d doesn't exist at this table (1–%(n)d)."),
    Code.BARRED_FROM_GAME: _(
        "WL7: %(p)s refused a must-move and can't play or list this game until %(t)s."
    ),
    Code.KEPT_APART: _("WL9: the house keeps %(p)s and %(o)s out of the same game."),
    Code.RELEASED: _("This lockup was released already."),
    Code.ALREADY_LISTED: _("WL1: %(p)s is on this list already."),
    Code.ALREADY_IN_GAME: _(
        "WL10: %(p)s already plays this game at %(t)s; the floor can change"
        " his seat or table."
    ),
    Code.NO_OPEN_SEAT: _("No open seat in this game to call for."),
    Code.WRONG_GAME: _("Table %(t)s deals another game."),
    Code.TABLE_BREAKING: _("WL3: table %(t)s is being broken; it takes no players."),
    Code.SAME_PLAYER: _("WL9: a pair is two different players."),
    Code.REASON_REQUIRED: _("Say why."),
    Code.KEPT_APART_ALREADY: _("WL9: these players are kept apart already."),
    Code.ENDED: _("This pair is not kept apart any more."),
    Code.NOT_SAME_GAME: _(
        "WL7: a must-move game feeds another table of the same game."
    ),
    Code.MUST_MOVE_EXISTS: _("WL7: one of these tables is in a must-move already."),
    Code.ALREADY_SEATED: _("WL6: %(p)s already sits at %(t)s."),
    Code.AMOUNT_REQUIRED: _(
        "A player who brings no stack buys in: give amount and method."
    ),
    Code.NOT_IN_GAME: _(
        "WL10: %(p)s doesn't play this game; new players join the list."
    ),
    Code.CALL_EXPIRED: _("WL2: the call ran out at %(t)s; the player left the list."),
    Code.NOT_CALLED: _("The entry is %(s)s, not called."),
}

# Other texts of codes above (``text=``).
NO_SUCH_LOCKUP = _("No such lockup.")
NO_SUCH_PAIR = _("No such pair.")
NO_SUCH_MUST_MOVE = _("No such must-move.")
NO_SUCH_GAME = _("No game %(g)s.")
NO_FREE_SEAT = _("No free seat at %(t)s.")
NO_OTHER_SEAT = _("Seat %(s)d is no other seat at this table.")
MUST_MOVE_ENDED = _("This must-move has ended already.")
ALREADY_WAITS = _("WL1: %(p)s already waits in this game.")
NO_OPEN_SEAT_AT = _("No open seat to call at %(t)s.")
BEING_BROKEN = _("Table %(t)s is being broken already.")

refuse: Callable[..., Refusal] = refuser(TEXTS)
conflict = refuser(TEXTS, Conflict)
missing = refuser(TEXTS, NotFound)
invalid = refuser(TEXTS, Invalid)
