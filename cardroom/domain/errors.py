"""The hand engine's codes and their texts, in one table, and its error.

Pure (no Django): the engine refuses a hand record, a policy, a file or a PHH
history with ``refuse(Code.X, text=..., rule=..., allowed=..., **params)``, which
builds a :class:`HandError` in the one error shape of API.md. A code keeps the
string API.md and its callers know; its text is a template translated when
``detail`` is read (:mod:`core.errors`: Django's catalogue once ``core`` is loaded,
English as written everywhere else, as in ``settle_hand``). A code the engine
refuses in several ways has one text per way: the table's other keys name them
``(code, variant)``. A part of a message that is itself words (``"the bet"``,
``"p2's ante"``) is a :class:`Phrase`, translated with the message.

>>> error = refuse(Code.DUPLICATE_SEAT, seat=3)
>>> (error.code, error.detail)
('duplicate_seat', 'Seat 3 is listed twice.')
>>> bet = Phrase(_("the bet"))
>>> refuse(Code.NEGATIVE_AMOUNT, text="phh", field=bet, value=-5).detail
'the bet must not be negative (-5).'
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from core.errors import Refusal, Said, variants_refuser
from core.errors import gettext_noop as _


class Code(StrEnum):
    # What can't be read: JSON, files, records, cards (no house rule; 400).
    UNREADABLE_FILE = "unreadable_file"
    MALFORMED_JSON = "malformed_json"
    MALFORMED_HAND = "malformed_hand"
    MALFORMED_CARD = "malformed_card"
    NEGATIVE_AMOUNT = "negative_amount"
    INEXACT_AMOUNT = "inexact_amount"
    INVALID_POLICY = "invalid_policy"
    UNKNOWN_GAME = "unknown_game"
    INVALID_STREETS = "invalid_streets"
    INVALID_AWARDED = "invalid_awarded"
    TOO_FEW_SEATS = "too_few_seats"
    DUPLICATE_SEAT = "duplicate_seat"
    # A hand the house rules can't settle (422 under their rule).
    TOO_MANY_SEATS = "too_many_seats"
    INVALID_BUTTON = "invalid_button"
    PUT_IN_ABOVE_STACK = "put_in_above_stack"
    DEAD_ABOVE_PUT_IN = "dead_above_put_in"
    MUCKED_AND_FOLDED = "mucked_and_folded"
    WRONG_CARD_COUNT = "wrong_card_count"
    DUPLICATE_CARD = "duplicate_card"
    INVALID_BOARDS = "invalid_boards"
    NO_CONTENDER = "no_contender"
    INCOMPLETE_SHOWDOWN = "incomplete_showdown"
    SHOWDOWN_WITHOUT_CARDS = "showdown_without_cards"
    HAND_NO_TOO_FAR_AHEAD = "hand_no_too_far_ahead"
    HAND_TIME_OUTSIDE_GAMING_DAY = "hand_time_outside_gaming_day"
    HAND_ENDS_BEFORE_IT_STARTS = "hand_ends_before_it_starts"
    # Not a refusal: the settlement's exception for a floor person (HS7).
    MISPAID_POT = "mispaid_pot"


MUST_BE_WHOLE = _("%(field)s must be a whole number, not %(value)r.")
AT_LEAST = _("%(field)s must be at least %(minimum)s, not %(value)s.")

TEXTS: dict[Code | tuple[Code, str], str] = {
    # Files and JSON (settle_hand).
    Code.UNREADABLE_FILE: _("Can't read the hand file %(path)r: %(reason)s."),
    (Code.UNREADABLE_FILE, "policy"): _(
        "Can't read the policy file %(path)r: %(reason)s."
    ),
    Code.MALFORMED_JSON: _("The hand file %(path)r is not JSON: %(reason)s."),
    (Code.MALFORMED_JSON, "policy"): _(
        "The policy file %(path)r is not JSON: %(reason)s."
    ),
    # The policy (API.md "Policy").
    Code.INVALID_POLICY: _("A policy is a JSON object."),
    (Code.INVALID_POLICY, "whole"): MUST_BE_WHOLE,
    (Code.INVALID_POLICY, "at_least"): AT_LEAST,
    (Code.INVALID_POLICY, "missing"): _("The policy has no %(field)r."),
    (Code.INVALID_POLICY, "currency"): _("currency must be a currency code."),
    (Code.INVALID_POLICY, "drop"): _("jackpot_drop is an object or null."),
    (Code.INVALID_POLICY, "first_run_only"): _(
        "jackpots_first_run_only must be true or false."
    ),
    (Code.INVALID_POLICY, "rake"): _("rake is an object with a scheme."),
    (Code.INVALID_POLICY, "unit_above_step"): _(
        "rake.unit %(unit)s is more than rake.step %(step)s."
    ),
    (Code.INVALID_POLICY, "percent_text"): _(
        'rake.percent is a decimal string such as "5" or "2.5".'
    ),
    (Code.INVALID_POLICY, "percent_number"): _(
        "rake.percent %(percent)r is not a number."
    ),
    (Code.INVALID_POLICY, "percent_range"): _(
        "rake.percent must be between 0 and 100, not %(percent)r."
    ),
    (Code.INVALID_POLICY, "scheme"): _("Unknown rake scheme %(scheme)r."),
    (Code.INVALID_POLICY, "caps"): _(
        "rake.caps_by_players is a list of {min_players, cap}."
    ),
    (Code.INVALID_POLICY, "cap_entry"): _(
        "Each rake.caps_by_players entry is {min_players, cap}."
    ),
    (Code.INVALID_POLICY, "cap_players"): _(
        "rake.caps_by_players names %(players)s players twice or more than a "
        "table seats."
    ),
    # The hand record (API.md "Hand record").
    Code.MALFORMED_HAND: _("A hand record is a JSON object."),
    (Code.MALFORMED_HAND, "whole"): MUST_BE_WHOLE,
    (Code.MALFORMED_HAND, "at_least"): AT_LEAST,
    (Code.MALFORMED_HAND, "seat_whole"): _(
        "Seat %(seat)s: %(field)s must be a whole number, not %(value)r."
    ),
    (Code.MALFORMED_HAND, "missing"): _("The hand record has no %(field)r."),
    (Code.MALFORMED_HAND, "table"): _("table must be a table code, not %(table)r."),
    (Code.MALFORMED_HAND, "hand_no"): _(
        "hand_no must be a whole number from 0 up, not %(hand_no)r."
    ),
    (Code.MALFORMED_HAND, "bring_in"): _(
        "%(game)s has no bring-in; only stud games do."
    ),
    (Code.MALFORMED_HAND, "bomb_pot"): _(
        "bomb_pot is true or false (PR4: a bomb pot counts for no promotion),"
        " not %(value)r."
    ),
    (Code.MALFORMED_HAND, "time"): _(
        "%(field)s must be an ISO 8601 time, not %(value)r."
    ),
    (Code.MALFORMED_HAND, "seats"): _("seats must be a list of seats."),
    (Code.MALFORMED_HAND, "seat"): _("A seat is an object, not %(seat)r."),
    (Code.MALFORMED_HAND, "seat_missing"): _("A seat has no %(field)r."),
    (Code.MALFORMED_HAND, "player"): _(
        "Seat %(seat)s: player must be a player id, not %(player)r."
    ),
    (Code.MALFORMED_HAND, "true_or_false"): _(
        "Seat %(seat)s: %(field)s must be true or false."
    ),
    (Code.MALFORMED_HAND, "seat_cards"): _(
        "Seat %(seat)s: cards must be a list of cards."
    ),
    (Code.MALFORMED_HAND, "invalid_seat"): _("Seat %(seat)s is not a valid seat."),
    (Code.MALFORMED_HAND, "board"): _("board must be a list of cards, not %(board)r."),
    (Code.MALFORMED_HAND, "boards"): _("boards must be a list of boards, one per run."),
    (Code.MALFORMED_HAND, "awarded"): _("awarded must be a list of {seat, amount}."),
    (Code.MALFORMED_HAND, "awarded_entry"): _("Each awarded entry is {seat, amount}."),
    # The batch command's typed decode, refused to be read again and explained.
    (Code.MALFORMED_HAND, "not_plain"): _("Not a plainly valid hand record."),
    (Code.MALFORMED_HAND, "not_plain_seat"): _("Not a plainly valid seat."),
    Code.MALFORMED_CARD: _(
        "%(card)r is not a card: a card is a rank of %(ranks)s and a suit of "
        "%(suits)s, such as 'Ah' or 'Tc'."
    ),
    Code.NEGATIVE_AMOUNT: AT_LEAST,
    (Code.NEGATIVE_AMOUNT, "seat"): _(
        "Seat %(seat)s: %(field)s must be at least %(minimum)s, not %(value)s."
    ),
    Code.UNKNOWN_GAME: _("Unknown game %(game)r."),
    Code.INVALID_STREETS: _(
        "streets must be 1 … %(last)s in %(game)s, not %(streets)r."
    ),
    Code.INVALID_AWARDED: _(
        "awarded names seat %(seat)r, which is not dealt in or is named twice."
    ),
    Code.TOO_FEW_SEATS: _("A hand needs at least two seats dealt in."),
    Code.DUPLICATE_SEAT: _("Seat %(seat)s is listed twice."),
    Code.TOO_MANY_SEATS: _("%(count)s seats dealt in; a table has at most %(max)s."),
    (Code.TOO_MANY_SEATS, "number"): _("Seat numbers are 1 … %(max)s, not %(seat)r."),
    Code.INVALID_BUTTON: _("button must be a seat number 1 … %(max)s, not %(button)r."),
    Code.PUT_IN_ABOVE_STACK: _(
        "Seat %(seat)s put in %(put_in)s but started the hand with %(stack)s; only "
        "chips on the table when the hand starts play in it."
    ),
    Code.DEAD_ABOVE_PUT_IN: _(
        "Seat %(seat)s: dead money %(dead)s and straddle %(straddle)s are parts of "
        "put_in %(put_in)s and can't add up to more."
    ),
    Code.MUCKED_AND_FOLDED: _(
        "Seat %(seat)s is marked folded and mucked; a seat that mucks at the "
        "showdown did not fold."
    ),
    Code.WRONG_CARD_COUNT: _(
        "%(game)s after street %(streets)s has %(expected)s board cards, not %(count)s."
    ),
    (Code.WRONG_CARD_COUNT, "seat"): _(
        "Seat %(seat)s shows %(count)s cards; %(game)s after street %(streets)s "
        "deals %(expected)s."
    ),
    (Code.WRONG_CARD_COUNT, "soko"): _("A Sökö hand is five cards, not %(count)s."),
    Code.DUPLICATE_CARD: _(
        "%(cards)s dealt more than once: a duplicate card voids the hand."
    ),
    Code.INVALID_BOARDS: _("boards[0] is the first run and must be the same as board."),
    (Code.INVALID_BOARDS, "stud"): _(
        "%(game)s deals no board; only board games run a pot more than once."
    ),
    (Code.INVALID_BOARDS, "to_the_end"): _(
        "A pot run more than once is dealt to the end: each run's board holds "
        "%(cards)s cards."
    ),
    (Code.INVALID_BOARDS, "same_run"): _(
        "Run %(run)s has the same board as the first run; each run deals its own cards."
    ),
    # Settling (HS3).
    Code.NO_CONTENDER: _(
        "Every seat folded or mucked; a hand ends with at least one player in it."
    ),
    (Code.NO_CONTENDER, "chips"): _(
        "Chips were put in but no seat still in the hand put in any; nobody can win "
        "them."
    ),
    Code.INCOMPLETE_SHOWDOWN: _(
        "Seats %(seats)s contest a pot but %(game)s was dealt to street %(streets)s "
        "of %(last)s; a showdown comes after the last street."
    ),
    Code.SHOWDOWN_WITHOUT_CARDS: _(
        "Seats %(seats)s contest a pot at showdown but show no cards; cards speak, "
        "so a seat still in must table them."
    ),
    Code.MISPAID_POT: _(
        "The chips the dealer pushed differ from what the rules give; a floor person "
        "may correct it before the next hand at the table."
    ),
    # Where a hand sits in the table's sequence and in time (HS-P1, BI8).
    Code.HAND_NO_TOO_FAR_AHEAD: _(
        "Hand %(hand_no)s is too far ahead: the table's next hands are numbered "
        "%(low)s to %(high)s."
    ),
    Code.HAND_TIME_OUTSIDE_GAMING_DAY: _(
        "%(field)s %(time)s is outside the table's open gaming day (%(start)s to "
        "%(end)s)."
    ),
    Code.HAND_ENDS_BEFORE_IT_STARTS: _(
        "ended_at %(ended_at)s is before started_at %(started_at)s."
    ),
    # PHH histories (cardroom.domain.phh).
    (Code.MALFORMED_HAND, "phh_file"): _("Not a PHH file: %(reason)s"),
    (Code.MALFORMED_HAND, "phh_no_hand"): _("The file holds no PHH hand (no variant)."),
    (Code.MALFORMED_HAND, "number"): _("%(field)s must be a number, not %(value)r."),
    (Code.MALFORMED_HAND, "no_amount"): _("%(field)s %(value)r is no amount."),
    (Code.MALFORMED_HAND, "amounts"): _(
        "%(field)s must be a list of at most %(count)s amounts."
    ),
    (Code.MALFORMED_HAND, "stacks"): _(
        "starting_stacks must list two players or more."
    ),
    (Code.MALFORMED_HAND, "actions"): _("actions must be a list of actions."),
    (Code.MALFORMED_HAND, "action_text"): _("An action is text, not %(action)r."),
    (Code.MALFORMED_HAND, "folded"): _("Action %(action)r: the player has folded."),
    (Code.MALFORMED_HAND, "unknown_action"): _(
        "Action %(action)r: not an action cardroom can replay (draw games aren't "
        "dealt)."
    ),
    (Code.MALFORMED_HAND, "deal"): _(
        "Action %(action)r: not a deal of hole or board cards."
    ),
    (Code.MALFORMED_HAND, "bet_amount"): _(
        "Action %(action)r: the amount is not a number."
    ),
    (Code.MALFORMED_HAND, "bet"): _(
        "Action %(action)r: a bet to %(to)s with %(bet)s already bet and %(behind)s "
        "behind."
    ),
    (Code.MALFORMED_HAND, "no_player"): _(
        "Action %(action)r: %(label)r is no player of the hand (p1 … p%(count)s)."
    ),
    (Code.MALFORMED_HAND, "unit"): _(
        "unit must be a whole number of cents >= 1, not %(unit)r."
    ),
    (Code.MALFORMED_HAND, "player_ids"): _(
        "The history has %(count)s players but %(given)s player ids were given."
    ),
    (Code.MALFORMED_HAND, "no_chips"): _(
        "No chips stayed in the pots; PHH has no hand without any."
    ),
    (Code.MALFORMED_HAND, "phh_replay"): _("PHH can't replay this hand: %(reason)s"),
    (Code.NEGATIVE_AMOUNT, "phh"): _("%(field)s must not be negative (%(value)s)."),
    Code.INEXACT_AMOUNT: _(
        "%(field)s %(value)s is %(cents)s cents at %(unit)s cents a chip, not a "
        "whole number of cents; import the file with the --unit its amounts are "
        "counted in."
    ),
    (Code.UNKNOWN_GAME, "phh_variant"): _(
        "PHH variant %(variant)r is not a game of the room."
    ),
    (Code.UNKNOWN_GAME, "phh_export"): _(
        "PHH has no variant for %(game)s; hands of %(games)s can be exported."
    ),
    (Code.TOO_MANY_SEATS, "seat_count"): _(
        "seat_count %(count)r: a table has %(players)s … %(max)s seats."
    ),
    (Code.DUPLICATE_SEAT, "phh_seats"): _(
        "seats %(seats)r must give each player a different seat 1 … %(count)s."
    ),
}

IN_BATCH = _("Hand %(index)s: %(error)s")
"""The detail of a batch's refused hand: its position, then its own detail."""


class Phrase:
    """Words within a message (``"p2's ante"``): a template of their own with
    parameters, translated when the message that holds them is read.

    >>> "%(field)s must be a number." % {"field": Phrase(_("p%(n)s's ante"), n=2)}
    "p2's ante must be a number."
    """

    __slots__ = ("params", "template")

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        text = str(Said(self.template))
        return text % self.params if self.params else text

    def __repr__(self) -> str:
        return repr(str(self))


class HandError(Refusal, ValueError):
    """A hand record, policy, file or history the engine can't settle or read.

    Carries the fields of API.md's error object: a stable ``code`` for programs, the
    ``rule`` of RULES.md that refused it (``None`` when no house rule applies, e.g. a
    malformed card), a ``detail`` for people and what was ``allowed``.
    """

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        rule: str | None = None,
        allowed: dict[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(code, detail, rule=rule, allowed=allowed, params=params)
        self.index: int | None = None

    def in_batch(self, index: int) -> None:
        """Make this the error of the hand at ``index`` of a batch: the detail
        says so first, and API.md's error object gains ``index``."""
        own = HandError(self.code, self.template, rule=self.rule, params=self.params)
        self.index = index
        self.template, self.params = IN_BATCH, {"index": index, "error": own}

    def as_dict(self) -> dict[str, Any]:
        """Return the error object of API.md: ``{"error": {code, rule, ...}}``.

        In a batch, ``index`` (an added field) is the position of the failing hand.
        """
        body = super().as_dict()
        if self.index is not None:
            body["error"]["index"] = self.index
        return body

    def __repr__(self) -> str:
        return f"HandError({self.code!r}, rule={self.rule!r}, detail={self.detail!r})"


refuse = variants_refuser(TEXTS, HandError)
"""``refuse(code, /, *, text=None, rule=None, allowed=None, **params)``: the
:class:`HandError` of ``code`` (its ``text`` variant), not raised."""
