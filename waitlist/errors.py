"""The waiting lists' refusals: their codes and their texts, in one table.

Pure (no Django, no DRF): ``waitlist.services`` and ``waitlist.domain`` raise them;
the API's exception handler maps them to their statuses, and ``detail`` is
translated when it is read (:mod:`core.errors`). A code several refusals share has
one text in :data:`TEXTS` and the others beside it, passed as ``text=``.

Codes other apps answer with too are core's (:class:`core.errors.SharedCode`);
where this table doesn't say one its own way, core's text says it.

>>> error = refuse(Code.ALREADY_LISTED, rule="WL1", p="P-1")
>>> (error.code, error.rule, error.detail)
('already_listed', 'WL1', 'WL1: P-1 is on this list already.')
>>> missing(SharedCode.SEAT_EMPTY, s=4).detail
'Nobody sits in seat 4.'
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from core.errors import Conflict, Invalid, NotFound, Refusal, SharedCode, refuser
from core.errors import gettext_noop as _


class Code(StrEnum):
    NOT_ON_LIST = "not_on_list"
    NOT_THE_SAME_GAME = "not_the_same_game"
    TABLES_BALANCED = "tables_balanced"
    BARRED_FROM_GAME = "barred_from_game"
    KEPT_APART = "kept_apart"
    RELEASED = "released"
    ALREADY_LISTED = "already_listed"
    ALREADY_IN_GAME = "already_in_game"
    NO_OPEN_SEAT = "no_open_seat"
    TABLE_BREAKING = "table_breaking"
    SAME_PLAYER = "same_player"
    KEPT_APART_ALREADY = "kept_apart_already"
    ENDED = "ended"
    NOT_SAME_GAME = "not_same_game"
    MUST_MOVE_EXISTS = "must_move_exists"
    AMOUNT_REQUIRED = "amount_required"
    NOT_IN_GAME = "not_in_game"
    CALL_EXPIRED = "call_expired"
    NOT_CALLED = "not_called"
    # Time collection's (waitlist.domain.time, RK6).
    NOT_TIME_COLLECTION = "not_time_collection"
    INVALID_TIME_POLICY = "invalid_time_policy"


TEXTS: dict[Code | SharedCode, str] = {
    SharedCode.NOT_FOUND: _("No waiting list entry %(id)s."),
    Code.NOT_ON_LIST: _("The entry is %(s)s already."),
    SharedCode.SEAT_TAKEN: _("Seat %(s)d is taken or held."),
    Code.NOT_THE_SAME_GAME: _(
        "BI7: tables are balanced within one game; %(t)s doesn't deal the"
        " game of %(s)s."
    ),
    Code.TABLES_BALANCED: _(
        "BI7: balancing moves a player from the fuller table; %(s)s has"
        " %(n)d, %(t)s %(m)d."
    ),
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
    SharedCode.WRONG_GAME: _("Table %(t)s deals another game."),
    Code.TABLE_BREAKING: _("WL3: table %(t)s is being broken; it takes no players."),
    Code.SAME_PLAYER: _("WL9: a pair is two different players."),
    Code.KEPT_APART_ALREADY: _("WL9: these players are kept apart already."),
    Code.ENDED: _("This pair is not kept apart any more."),
    Code.NOT_SAME_GAME: _(
        "WL7: a must-move game feeds another table of the same game."
    ),
    Code.MUST_MOVE_EXISTS: _("WL7: one of these tables is in a must-move already."),
    SharedCode.ALREADY_SEATED: _("WL6: %(p)s already sits at %(t)s."),
    Code.AMOUNT_REQUIRED: _(
        "A player who brings no stack buys in: give amount and method."
    ),
    Code.NOT_IN_GAME: _(
        "WL10: %(p)s doesn't play this game; new players join the list."
    ),
    Code.CALL_EXPIRED: _("WL2: the call ran out at %(t)s; the player left the list."),
    Code.NOT_CALLED: _("The entry is %(s)s, not called."),
    Code.NOT_TIME_COLLECTION: _("This game takes rake from pots, not time collection."),
    Code.INVALID_TIME_POLICY: _(
        'The policy has no "time" section: {"period_minutes": …, "amount": …}.'
    ),
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
TIME_NOT_WHOLE = _("time.%(what)s must be a whole number from 1 up, not %(value)s.")
TIME_PERIOD_TOO_LONG = _("time.period_minutes is at most a day (1440).")

refuse: Callable[..., Refusal] = refuser(TEXTS)
conflict = refuser(TEXTS, Conflict)
missing = refuser(TEXTS, NotFound)
invalid = refuser(TEXTS, Invalid)
