"""Stack reviews: chips frozen by a hand, released or corrected by two (HS6, DC2)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.services import plan_post
from cardroom.domain import postings
from cardroom.models import HandException, SeatSession, StackReview
from cardroom.services.hands.exceptions import exceptions_resolve
from cardroom.services.sessions import chips_locate, player_require, stacks_sync
from core import errors
from core.roles import Role, has_role


def _review_locked(review: StackReview) -> StackReview:
    found = (
        StackReview.objects.select_for_update(of=("self",))
        .select_related("table", "player", "session", "to_player", "proposed_by")
        .filter(pk=review.pk)
        .first()
    )
    if found is None:
        raise errors.NotFound(
            "not_found", _("No stack review %(id)s.") % {"id": review.pk}
        )
    return found


@transaction.atomic
def stack_review_propose(
    *,
    review: StackReview,
    resolution: str,
    reason: str,
    by: User,
    to_player: str | None = None,
    now: datetime | None = None,
) -> StackReview:
    """A floor person proposes how to resolve a stack review (HS6); nothing moves.

    ``release`` gives the frozen chips back to the player; ``correction`` gives
    them to ``to_player`` or, with nobody named, to the house's over/short. A
    manager, another person, approves (:func:`stack_review_approve`). Raises
    :class:`Conflict` when the review is resolved already, :class:`Invalid` for a
    resolution off the list or without a reason.
    """
    review = _review_locked(review)
    if review.status == StackReview.Status.RESOLVED:
        raise errors.Conflict("resolved", _("This stack review is resolved already."))
    if resolution not in StackReview.Resolution.values:
        raise errors.Invalid(
            "review_resolution",
            _("HS6: a stack review is released or corrected."),
            rule="HS6",
            allowed={"resolution": list(StackReview.Resolution.values)},
        )
    if not reason.strip():
        raise errors.Invalid(
            "reason_required", _("DC2: a correction says why."), rule="DC2"
        )
    if resolution == StackReview.Resolution.RELEASE and to_player is not None:
        raise errors.Invalid(
            "invalid", _("HS6: a release goes to the player himself."), rule="HS6"
        )
    review.resolution = resolution
    review.to_player = player_require(to_player) if to_player else None
    review.reason = reason
    review.proposed_by, review.proposed_at = by, now or timezone.now()
    review.status = StackReview.Status.PROPOSED
    review.save()
    return review


@transaction.atomic
def stack_review_approve(
    *, review: StackReview, by: User, now: datetime | None = None
) -> StackReview:
    """A manager approves a proposed resolution; its transaction is booked (HS6, DC2).

    The frozen chips go from the player's review hold to his stack at the table
    (still seated) or the chips he carries (a release), or to the named player's
    chips or the house's over/short (a correction); the hand's ``stack_mismatch``
    exception for that seat is resolved with it. Raises :class:`Forbidden` for
    anyone but a manager, :class:`Refusal` (HS6) when the proposer approves or
    nothing is proposed, :class:`Conflict` when resolved already.
    """
    if not has_role(by, Role.MANAGER):
        raise errors.Forbidden(
            "manager_only", _("HS6: a manager approves a stack review.")
        )
    review = _review_locked(review)
    if review.status == StackReview.Status.RESOLVED:
        raise errors.Conflict("resolved", _("This stack review is resolved already."))
    if review.status != StackReview.Status.PROPOSED or review.proposed_by is None:
        raise errors.Refusal(
            "nothing_proposed",
            _("HS6: a floor person proposes a resolution first."),
            rule="HS6",
        )
    if review.proposed_by_id == by.pk:
        raise errors.Refusal(
            "four_eyes",
            _("HS6: a stack review is approved by another person (DC2)."),
            rule="HS6",
        )
    table = review.table
    touched: list[SeatSession | None] = []
    to: str | None = None
    if review.resolution == StackReview.Resolution.RELEASE:
        to, session = chips_locate(review.player, table)
        touched.append(session)
    elif review.to_player is not None:
        to, session = chips_locate(review.to_player, table)
        touched.append(session)
    # With nobody to claim them the house no longer owes the chips: over/short.
    review.approved_by, review.approved_at = by, now or timezone.now()
    review.ledger_transaction = plan_post(
        postings.review_resolve(
            kind=f"stack_review_{review.resolution}",
            table=table.code,
            player=review.player.code,
            amount=review.amount_cents,
            to=to,
        ),
        posted_by=review.proposed_by,
        approved_by=by,
        reference=f"{review.hand} seat {review.seat}",
        memo=review.reason,
        posted_at=review.approved_at,
    )
    review.status = StackReview.Status.RESOLVED
    review.save()
    exceptions_resolve(
        hand_id=review.hand_id,
        kinds=(HandException.Kind.STACK_MISMATCH,),
        by=by,
        at=review.approved_at,
        resolution=f"{review.resolution}: {review.reason}",
        details__seat=review.seat,
    )
    stacks_sync(*touched)
    return review
