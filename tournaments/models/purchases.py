"""Purchases at the cage (an entry, a rebuy, an add-on, a re-entry) and their
refunds, each approved before it is paid (TO1, TO10)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from accounting.models import Receipt, Transaction
from core.records import append_only, staff_fk
from tournaments.models.entries import Entry


class Purchase(models.Model):
    """What was paid at the cage for an entry: its buy-in, a rebuy or the add-on (TO1).

    One balanced ledger transaction and one cage receipt each; the chips it gave are
    a :class:`ChipMovement`. A refund (TO10) is a reversing transaction.
    """

    class Kind(models.TextChoices):
        BUY_IN = "buy_in", _("buy-in")
        REBUY = "rebuy", _("rebuy")
        ADDON = "addon", _("add-on")

    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="purchases",
        verbose_name=_("entry"),
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    prize_pool_cents = models.BigIntegerField(_("to the prize pool"))
    fee_cents = models.BigIntegerField(_("fee"))
    staff_fee_cents = models.BigIntegerField(_("staff fee"))
    bounty_cents = models.BigIntegerField(_("bounty"))
    chips = models.PositiveBigIntegerField(_("chips"))
    transaction = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        related_name="tournament_purchase",
        verbose_name=_("posting"),
    )
    receipt = models.OneToOneField(
        Receipt,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_purchase",
        verbose_name=_("receipt"),
    )
    sold_by = staff_fk(_("cashier"))
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("tournament purchase")
        verbose_name_plural = _("tournament purchases")
        ordering = ["entry", "at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(prize_pool_cents__gte=0)
                & models.Q(fee_cents__gte=0)
                & models.Q(staff_fee_cents__gte=0)
                & models.Q(bounty_cents__gte=0)
                & models.Q(chips__gt=0)
                & models.Q(kind__in=["buy_in", "rebuy", "addon"]),
                name="purchase_valid",
            ),
            models.UniqueConstraint(
                fields=["entry"],
                condition=models.Q(kind="buy_in"),
                name="purchase_one_buy_in_per_entry",
            ),
            models.UniqueConstraint(
                fields=["entry"],
                condition=models.Q(kind="addon"),
                name="purchase_one_addon_per_entry",
            ),
        ]
        triggers = [append_only("purchase")]

    def __str__(self) -> str:
        return f"{self.entry} {self.kind}"

    @property
    def total_cents(self) -> int:
        """What the player paid for it (TO1)."""
        return (
            self.prize_pool_cents
            + self.fee_cents
            + self.staff_fee_cents
            + self.bounty_cents
        )

    @property
    def refund_approval(self) -> RefundApproval | None:
        """The approved refund the cage hasn't paid yet, if any (TO10)."""
        return self.refund_approvals.filter(refund__isnull=True).first()


class Refund(models.Model):
    """A purchase given back, whole or in part, when the event is cancelled or
    altered (TO10).

    Its posting reverses the purchase's parts: all of them for a whole refund (the
    transaction then ``reverses`` the purchase's), or ``amount_cents`` split pro rata
    across what is left of each part (``tournaments.domain.postings.refund_parts``).
    Several partial refunds of one purchase add up to at most what it cost. Asked by
    one staff member and approved by another (DC2).
    """

    purchase = models.ForeignKey(
        Purchase,
        on_delete=models.PROTECT,
        related_name="refunds",
        related_query_name="refund",
        verbose_name=_("purchase"),
    )
    approval = models.OneToOneField(
        "RefundApproval",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="refund",
        verbose_name=_("approval"),
    )
    amount_cents = models.BigIntegerField(_("amount"))
    prize_pool_cents = models.BigIntegerField(_("from the prize pool"), default=0)
    fee_cents = models.BigIntegerField(_("fee"), default=0)
    staff_fee_cents = models.BigIntegerField(_("staff fee"), default=0)
    bounty_cents = models.BigIntegerField(_("bounty"), default=0)
    reason = models.CharField(_("why"), max_length=500)
    transaction = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        related_name="tournament_refund",
        verbose_name=_("posting"),
    )
    receipt = models.OneToOneField(
        Receipt,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_refund",
        verbose_name=_("receipt"),
    )
    requested_by = staff_fk(_("asked by"))
    approved_by = staff_fk(_("approved by"))
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("tournament refund")
        verbose_name_plural = _("tournament refunds")
        ordering = ["-at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0) & models.Q(reason__regex=r"\S"),
                name="refund_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(prize_pool_cents__gte=0)
                & models.Q(fee_cents__gte=0)
                & models.Q(staff_fee_cents__gte=0)
                & models.Q(bounty_cents__gte=0)
                & models.Q(
                    amount_cents=models.F("prize_pool_cents")
                    + models.F("fee_cents")
                    + models.F("staff_fee_cents")
                    + models.F("bounty_cents")
                ),
                name="refund_parts_add_up",
                violation_error_message=_(
                    "TO10: a refund's parts add up to its amount."
                ),
            ),
            models.CheckConstraint(
                condition=~models.Q(approved_by=models.F("requested_by")),
                name="refund_four_eyes",
                violation_error_message=_(
                    "TO10: a refund is approved by another person than who asked."
                ),
            ),
        ]
        triggers = [append_only("refund")]

    def __str__(self) -> str:
        return f"refund {self.purchase}"


class RefundApproval(models.Model):
    """A manager's approval of a purchase's refund, whole or in part, before the
    cage pays it (TO10).

    The cashier who pays the refund is another person than who approved it
    (four-eyes, DC2): the refund names both, and points at its approval. A purchase
    has at most one approval the cage hasn't paid.
    """

    purchase = models.ForeignKey(
        Purchase,
        on_delete=models.PROTECT,
        related_name="refund_approvals",
        related_query_name="refund_approval",
        verbose_name=_("purchase"),
    )
    amount_cents = models.BigIntegerField(_("amount"), default=0)
    reason = models.CharField(_("why"), max_length=500)
    approved_by = staff_fk(_("approved by"))
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("tournament refund approval")
        verbose_name_plural = _("tournament refund approvals")
        ordering = ["-at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(reason__regex=r"\S"),
                name="refund_approval_says_why",
            ),
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0),
                name="refund_approval_amount_positive",
            ),
        ]
        triggers = [append_only("refund_approval")]

    def __str__(self) -> str:
        return f"refund approved {self.purchase}"
