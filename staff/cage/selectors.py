"""Reads for the cage screens: the room, the cage, players and what waits (CA1–CA6)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Exists, OuterRef, QuerySet, Sum

from accounting.domain.cage import identity_allowance
from accounting.models import (
    Account,
    Cage,
    CashTransaction,
    Payable,
    Player,
    Receipt,
    Shift,
    TableSlip,
)
from accounting.services.cage import gaming_day_of
from cardroom.models import Table

# CashTransaction kinds (CA5's log) that put a player's cash in, or pay him out.
BUY_IN_KINDS = ("chip_purchase", "tournament_entry")
CASH_OUT_KINDS = ("chip_redemption", "award_payout", "entry_refund")


def cage_choose(code: str | None) -> Cage | None:
    """The cage ``code``, or the first one when none is named or it is unknown."""
    cages = Cage.objects.order_by("code")
    return (code and cages.filter(code=code).first()) or cages.first()


def shift_current(
    *, cage: Cage, cashier: AbstractBaseUser | AnonymousUser
) -> Shift | None:
    """The cashier's shift at ``cage`` that is open, if any."""
    if not cashier.is_authenticated:
        return None
    return Shift.objects.filter(
        cage=cage, cashier_id=cashier.pk, status=Shift.Status.OPEN
    ).first()


def chips_held(*, player: Player, currency: str) -> int:
    """The chips the player carries away from the tables, by the ledger."""
    balance = (
        Account.objects.filter(code=f"player:{player.code}:chips", currency=currency)
        .values_list("balance_cents", flat=True)
        .first()
    )
    return balance or 0


@dataclass(frozen=True, slots=True)
class Tonight:
    """A player's cash at the cage and tables in the gaming day, and CA5's standing."""

    gaming_day: date
    buy_ins: int
    cash_outs: int
    cash_total: int
    threshold: int
    verified: bool

    @property
    def allowed(self) -> int | None:
        """What the player may still move in cash today; None: no limit (CA5)."""
        return identity_allowance(
            day_total_cents=self.cash_total,
            threshold_cents=self.threshold,
            verified=self.verified,
        )


def player_tonight(*, player: Player, cage: Cage) -> Tonight:
    """Add up the player's cash transactions of tonight's gaming day (CA5)."""
    day = gaming_day_of()
    rows = dict(
        CashTransaction.objects.filter(player=player, gaming_day=day)
        .values_list("kind")
        .annotate(total=Sum("amount_cents"))
    )
    buy_ins = sum(v for k, v in rows.items() if k in BUY_IN_KINDS or k[:6] == "table_")
    return Tonight(
        gaming_day=day,
        buy_ins=buy_ins,
        cash_outs=sum(v for k, v in rows.items() if k in CASH_OUT_KINDS),
        cash_total=sum(rows.values()),
        threshold=cage.identity_threshold_cents,
        verified=player.id_verified,
    )


def receipts_of(*, player: Player, gaming_day: date) -> QuerySet[Receipt]:
    """The player's cage receipts of ``gaming_day``, newest first."""
    return (
        Receipt.objects.filter(player=player, shift__gaming_day=gaming_day)
        .select_related("cage")
        .order_by("-issued_at", "-pk")
    )


def slips_waiting(*, cage: Cage) -> QuerySet[TableSlip]:
    """Fills and credits the floor requested at ``cage``, oldest first (CA3), each
    with ``table_closed``: its table has closed since (a fill then can't be
    issued)."""
    return (
        TableSlip.objects.filter(cage=cage, status=TableSlip.Status.PENDING)
        .select_related("requested_by")
        .annotate(
            table_closed=Exists(
                Table.objects.filter(code=OuterRef("table"), status=Table.Status.CLOSED)
            )
        )
        .order_by("requested_at", "pk")
    )


def payables_open(*, currency: str) -> QuerySet[Payable]:
    """Approved awards waiting to be paid at a cage in ``currency`` (CA6)."""
    return (
        Payable.objects.filter(status=Payable.Status.OPEN, currency=currency)
        .select_related(
            "player",
            "approved_by",
            "jackpot_award__pool",
            "jackpot_award__hand__table",
        )
        .order_by("created_at", "pk")
    )


def payable_name(payable: Payable) -> str:
    """What a payable pays, as the cashier reads it (CA6): a jackpot award by its
    pool and its role in the screen's language, as its receipt names it; another
    payable by its reference. The payable's reference and memo were written once,
    in the approver's language."""
    try:
        award = payable.jackpot_award
    except ObjectDoesNotExist:
        return payable.reference
    return f"{award.pool.name}: {award.get_role_display()}"
