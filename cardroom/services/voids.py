"""Voids of a hand: every contribution back, no rake, no drop (RK8, DC2)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting import chart
from accounting.models import Account
from accounting.services import transaction_reverse
from cardroom import hooks
from cardroom.domain.voids import first_round
from cardroom.errors import Code, refuse
from cardroom.models import (
    Correction,
    Hand,
    HandException,
    HandVoid,
    SeatSession,
    Table,
)
from cardroom.selectors import corrections_booked
from cardroom.services.hands.exceptions import exceptions_resolve
from cardroom.services.tables import table_get_open
from core import errors
from core.roles import Role, has_role


def _void_checks(table: Table, hand: Hand) -> list[SeatSession]:
    """RK8: only the table's last hand, while its players still sit there, none
    of its corrections waiting for a decision, and no receivable booked on it.

    A pot correction or hold asked for the hand and not decided yet is decided
    first, then the void: the void is refused until then, naming the correction
    (``correction_pending``). Deciding the correction after the void would book
    it on a hand whose contributions went back; voiding it silently would decide
    it without anyone seeing it.

    A receivable (DC3) is money owed by a player who took more than his due: it
    is collected at the cage, outside the table, so the void can't give it back
    with the chips; the void is refused, naming it.

    The apps above the floor check what they booked on the hand
    (``CARDROOM_VOID_CHECKS``: an approved jackpot award isn't taken back).

    Returns the hand's seat sessions, locked. Raises :class:`Refusal` (RK8).
    """
    hooks.void_checks(hand=hand)
    owed = list(
        corrections_booked(hand)
        .filter(kind=Correction.Kind.RECEIVABLE)
        .values_list("pk", flat=True)
    )
    if owed:
        raise refuse(
            Code.RECEIVABLE_BOOKED,
            rule="RK8",
            allowed={"corrections": owed},
            id=owed[0],
            n=hand.hand_no,
        )
    waiting = list(
        Correction.objects.filter(hand=hand, status=Correction.Status.PENDING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if waiting:
        raise refuse(
            Code.CORRECTION_PENDING,
            rule="RK8",
            allowed={"corrections": list(waiting)},
            id=waiting[0],
            n=hand.hand_no,
        )
    if table.hands.filter(hand_no__gt=hand.hand_no).exists():
        raise errors.Refusal(
            "void_too_late",
            _(
                "RK8: only the last hand at a table can be voided; later hands were"
                " dealt."
            ),
            rule="RK8",
        )
    ids = list(hand.seats.values_list("session_id", flat=True))
    sessions = list(
        SeatSession.objects.select_for_update()
        .select_related("player")
        .filter(pk__in=ids)
    )
    if any(s.ended_at is not None for s in sessions):
        raise errors.Refusal(
            "void_too_late",
            _("RK8: a player of this hand has left; void it before anyone leaves."),
            rule="RK8",
        )
    return sessions


def _void_book(void: HandVoid, *, table: Table, sessions: list[SeatSession]) -> None:
    """Book the void: new transactions, nothing edited (RK8, DC2).

    Every booked correction of the hand (pot corrections, holds and their
    releases) is reversed first, newest first, so that each step goes back
    through a state the books held; then the hand's own transaction. The players'
    stacks are then what they brought to the hand: every contribution back.
    """
    hand = void.hand
    memo = f"{void.get_reason_display()}: void of hand {hand.hand_no}"
    corrected: set[int] = set()
    for correction in corrections_booked(hand).select_related("ledger_transaction"):
        assert correction.ledger_transaction is not None
        corrected.update(
            p for p in (correction.from_player_id, correction.to_player_id) if p
        )
        transaction_reverse(
            original=correction.ledger_transaction,
            requested_by=void.requested_by,
            approved_by=void.decided_by,
            reason=memo,
            kind="correction_void",
        )
    if hand.ledger_transaction is not None:
        void.ledger_transaction = transaction_reverse(
            original=hand.ledger_transaction,
            requested_by=void.requested_by,
            approved_by=void.decided_by,
            reason=void.reason,
            kind="hand_void",
        )
    # A correction may have moved chips to a player seated since the deal.
    seated = {s.player_id for s in sessions}
    sessions = sessions + list(
        SeatSession.objects.select_for_update()
        .select_related("player", "table")
        .filter(table=table, ended_at__isnull=True, player_id__in=corrected - seated)
    )
    for session in sessions:
        # The session's stack is its ledger balance again.
        account = chart.player_stack(player=session.player.code, table=table.code)
        session.stack_cents = Account.objects.get(pk=account.pk).balance_cents
        session.save(update_fields=["stack_cents"])
    # A void hand's pot and its bad beat wait for no one any more (RK8); a stack
    # mismatch is its review's to resolve (HS6).
    exceptions_resolve(
        hand_id=hand.pk,
        kinds=(HandException.Kind.MISPAID_POT, HandException.Kind.BAD_BEAT_CANDIDATE),
        by=void.decided_by or void.requested_by,
        at=void.decided_at or void.requested_at,
        resolution=f"void {void.pk}: {void.get_reason_display()}",
    )
    void.status = HandVoid.Status.BOOKED
    void.save()
    hand.status = Hand.Status.VOIDED
    hand.save(update_fields=["status"])
    # What the apps above found in the hand goes with it (PR4).
    hooks.hand_voided(hand=hand, at=void.decided_at or void.requested_at)


def _misdeal_check(hand: Hand, reason: str) -> None:
    """RK8: a misdeal is declared only before action; a foul deck or a duplicate
    card voids the hand however far it went (FI "Pakassa oleva ylimääräinen
    kortti"; TDA R37-E)."""
    acted = first_round(
        hand.record,
        small_blind=hand.game.small_blind_cents,
        big_blind=hand.game.big_blind_cents,
    )
    if reason == HandVoid.Reason.MISDEAL and not acted.cancellable:
        raise errors.Refusal(
            "void_after_action",
            _(
                "RK8: a misdeal can't be declared once two players have acted and one"
                " of them called, bet or raised; a foul deck or a duplicate card voids"
                " the hand however far it went."
            ),
            rule="RK8",
            allowed={
                "called_bet_or_raised": list(acted.callers),
                "acted": list(acted.acted),
            },
        )


@transaction.atomic
def hand_void(
    *,
    table_code: str,
    hand_no: int,
    reason: str,
    by: User,
    now: datetime | None = None,
) -> HandVoid:
    """A floor person voids a hand: every contribution back, no rake, no drop (RK8).

    The reason is one of :class:`HandVoid.Reason`; the deal must still be
    cancellable (no two players acted with a call, bet or raise among them,
    :mod:`cardroom.domain.voids`); only the table's last hand, while its players
    still sit there. A hand that took no rake and no drop and whose pot was not
    corrected is voided at once: the reversal of its transaction is booked. One
    that took rake or drop, or has a booked correction (which the void reverses
    too), waits for a manager, another person (:func:`hand_void_decide`). Raises
    :class:`Refusal` (RK8), :class:`Invalid` for a reason off the list,
    :class:`NotFound` and :class:`Conflict` (already void, or a void waiting).
    """
    now = now or timezone.now()
    if reason not in HandVoid.Reason.values:
        raise errors.Invalid(
            "void_reason",
            _("RK8: a void's reason is one of the list."),
            rule="RK8",
            allowed={"reason": list(HandVoid.Reason.values)},
        )
    table = table_get_open(table_code)
    hand = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("game", "ledger_transaction")
        .filter(table=table, hand_no=hand_no)
        .first()
    )
    if hand is None:
        raise errors.NotFound("not_found", _("No hand %(n)s.") % {"n": hand_no})
    if hand.status == Hand.Status.VOIDED:
        raise errors.Conflict("already_void", _("The hand is already void."))
    if hand.voids.filter(status=HandVoid.Status.PENDING).exists():
        raise errors.Conflict(
            "void_pending", _("A void of this hand waits for a manager's approval.")
        )
    sessions = _void_checks(table, hand)
    _misdeal_check(hand, reason)
    # A hand that paid rake or drop, or whose pot was corrected, is voided by a
    # manager who sees what the void takes back (RK8, DC2).
    void = HandVoid.objects.create(
        hand=hand,
        reason=reason,
        needs_approval=bool(
            hand.rake_cents
            or hand.jackpot_drop_cents
            or corrections_booked(hand).exists()
        ),
        requested_by=by,
        requested_at=now,
    )
    if not void.needs_approval:
        _void_book(void, table=table, sessions=sessions)
    return void


@transaction.atomic
def hand_void_decide(
    *, void: HandVoid, approve: bool, by: User, now: datetime | None = None
) -> HandVoid:
    """A manager approves (and books) or rejects a void that waits (RK8, DC2).

    Raises :class:`Forbidden` for anyone but a manager, :class:`Refusal` (RK8) when
    the floor person who asked decides or the hand can't be voided any more, and
    :class:`Conflict` when the void was decided already.
    """
    if not has_role(by, Role.MANAGER):
        raise errors.Forbidden(
            "manager_only", _("RK8: a manager approves the void of a raked hand.")
        )
    found = (
        HandVoid.objects.select_for_update(of=("self",))
        .select_related("hand", "hand__table", "requested_by")
        .filter(pk=void.pk)
        .first()
    )
    if found is None:
        raise errors.NotFound("not_found", _("No void %(id)s.") % {"id": void.pk})
    void = found
    if void.status != HandVoid.Status.PENDING:
        raise errors.Conflict("decided", _("This void was decided already."))
    if void.requested_by_id == by.pk:
        raise errors.Refusal(
            "four_eyes",
            _("RK8: the void of a raked hand is approved by another person (DC2)."),
            rule="RK8",
        )
    void.decided_by, void.decided_at = by, now or timezone.now()
    if not approve:
        void.status = HandVoid.Status.REJECTED
        void.save()
        return void
    table = table_get_open(void.hand.table.code)
    hand = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("ledger_transaction")
        .get(pk=void.hand_id)
    )
    void.hand = hand
    sessions = _void_checks(table, hand)
    _void_book(void, table=table, sessions=sessions)
    return void
