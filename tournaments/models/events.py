"""Events: a tournament's money, settings and state (TO1, TO7, TO8, TO12), and the
tables it plays at in its breaking order (TO11)."""

from __future__ import annotations

import pghistory
from django.db import models
from django.utils.translation import gettext_lazy as _

from cardroom.models import Room
from core.db import triggers as guards
from core.records import never_deleted, staff_fk
from tournaments.models.structures import Structure

_CODE_REGEX = r"^[A-Za-z0-9][A-Za-z0-9_-]*$"


@pghistory.track(guards.InsertEvent(), guards.UpdateEvent())
class Event(models.Model):
    """A tournament: its money (TO1, TO7, TO8), its rebuy and re-entry settings and
    its state. Changes are kept by django-pghistory (who changed what, when)."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    class Bounty(models.TextChoices):
        NONE = "none", _("no bounties")
        STANDARD = "standard", _("bounties")
        PROGRESSIVE = "progressive", _("progressive knockouts")

    class Remainder(models.TextChoices):
        TOP = "top", _("to the highest places")
        FIRST = "first", _("to first place")

    room = models.ForeignKey(
        Room, on_delete=models.PROTECT, related_name="events", verbose_name=_("room")
    )
    code = models.SlugField(_("code"), max_length=32, unique=True)
    name = models.CharField(_("name"), max_length=200)
    currency = models.CharField(_("currency"), max_length=3)
    structure = models.ForeignKey(
        Structure,
        on_delete=models.PROTECT,
        related_name="events",
        verbose_name=_("structure"),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.SCHEDULED
    )
    starts_at = models.DateTimeField(_("starts"))
    # TO1: an entry is buy-in + fee (+ staff fee) (+ bounty, TO8), separate amounts.
    buy_in_cents = models.BigIntegerField(_("buy-in (to the prize pool)"))
    fee_cents = models.BigIntegerField(_("fee (house)"), default=0)
    staff_fee_cents = models.BigIntegerField(_("staff fee"), default=0)
    bounty_kind = models.CharField(
        _("bounties"), max_length=12, choices=Bounty.choices, default=Bounty.NONE
    )
    bounty_cents = models.BigIntegerField(_("bounty"), default=0)
    starting_stack = models.PositiveBigIntegerField(_("starting stack (chips)"))
    # Late registration and re-entry (TO1, TDA "MLR").
    late_registration_level = models.PositiveSmallIntegerField(
        _("late registration closes after level"), default=0
    )
    reentry_max = models.PositiveSmallIntegerField(
        _("re-entries allowed per player"), default=0
    )
    # Rebuys (TO1): during the period, with the stack at or below the limit.
    rebuy_max = models.PositiveSmallIntegerField(
        _("rebuys allowed per entry"), default=0
    )
    rebuy_until_level = models.PositiveSmallIntegerField(
        _("rebuys until the end of level"), default=0
    )
    rebuy_stack_limit = models.PositiveBigIntegerField(
        _("rebuy when the stack is at most"), default=0
    )
    rebuy_cents = models.BigIntegerField(_("rebuy (to the prize pool)"), default=0)
    rebuy_fee_cents = models.BigIntegerField(_("rebuy fee"), default=0)
    rebuy_chips = models.PositiveBigIntegerField(_("rebuy chips"), default=0)
    # The add-on (TO1): once, at its level (usually the break ending the rebuys).
    addon_level = models.PositiveSmallIntegerField(
        _("add-on at level"), null=True, blank=True
    )
    addon_cents = models.BigIntegerField(_("add-on (to the prize pool)"), default=0)
    addon_fee_cents = models.BigIntegerField(_("add-on fee"), default=0)
    addon_chips = models.PositiveBigIntegerField(_("add-on chips"), default=0)
    # The prize pool (TO7).
    guarantee_cents = models.BigIntegerField(_("guarantee"), default=0)
    payout_unit_cents = models.PositiveIntegerField(
        _("prizes rounded to"),
        default=100,
        help_text=_("The smallest note or chip the prizes are paid in, in cents."),
    )
    payout_remainder = models.CharField(
        _("rounding remainder goes"),
        max_length=8,
        choices=Remainder.choices,
        default=Remainder.TOP,
    )
    payout_table = models.JSONField(
        _("payout table"),
        default=list,
        blank=True,
        help_text=_(
            "Rows of {min_entries, shares}: shares per place in basis points; "
            "empty for the default table."
        ),
    )
    satellite_target = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="satellites",
        verbose_name=_("satellite to"),
        help_text=_(
            "A satellite pays seats in this event (its entry's full price each), "
            "and cash for the rest (TO7)."
        ),
    )
    satellite_seat_cents = models.BigIntegerField(
        _("satellite seat value"),
        default=0,
        help_text=_("A satellite pays seats of this value, and cash for the rest."),
    )
    tax_document_threshold_cents = models.BigIntegerField(
        _("tax document from"),
        default=200_000,
        help_text=_("A prize of at least this needs a tax document (TO9)."),
    )
    # TO10: the house's reading of a refund after a bust, refused unless set.
    refund_after_bust = models.BooleanField(
        _("refund a busted entry while the event runs"),
        default=False,
        help_text=_(
            "Whether a purchase of an entry that busted or finished may be refunded "
            "while the event runs (TO10). Off: its money stays in the pools its "
            "chips still play for."
        ),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = staff_fk(_("created by"), optional=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at", "code"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(buy_in_cents__gte=0)
                & models.Q(fee_cents__gte=0)
                & models.Q(staff_fee_cents__gte=0)
                & models.Q(bounty_cents__gte=0)
                & models.Q(rebuy_cents__gte=0)
                & models.Q(rebuy_fee_cents__gte=0)
                & models.Q(addon_cents__gte=0)
                & models.Q(addon_fee_cents__gte=0)
                & models.Q(guarantee_cents__gte=0)
                & models.Q(satellite_seat_cents__gte=0)
                & models.Q(tax_document_threshold_cents__gt=0)
                & models.Q(payout_unit_cents__gte=1)
                & models.Q(starting_stack__gt=0),
                name="event_amounts_valid",
            ),
            models.CheckConstraint(
                condition=(models.Q(bounty_kind="none") & models.Q(bounty_cents=0))
                | (~models.Q(bounty_kind="none") & models.Q(bounty_cents__gt=0)),
                name="event_bounty_consistent",
            ),
            models.CheckConstraint(
                condition=models.Q(currency__regex=r"^[A-Z]{3}$"),
                name="event_currency_code",
            ),
            models.CheckConstraint(
                condition=~models.Q(satellite_target=models.F("id")),
                name="event_not_its_own_satellite",
            ),
        ]
        triggers = [
            never_deleted("event"),
            guards.FSM(
                name="event_status_forward",
                field="status",
                transitions=[
                    ("scheduled", "running"),
                    ("scheduled", "cancelled"),
                    ("running", "finished"),
                    ("running", "cancelled"),
                ],
            ),
            guards.ReadOnly(name="event_identity_fixed", fields=["code", "currency"]),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    @property
    def entry_total_cents(self) -> int:
        """What a player pays for one entry (TO1, TO8)."""
        return (
            self.buy_in_cents
            + self.fee_cents
            + self.staff_fee_cents
            + self.bounty_cents
        )


class EventTable(models.Model):
    """A table the event plays at, in the order the event breaks them (TO11)."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        BROKEN = "broken", _("broken")

    event = models.ForeignKey(
        Event, on_delete=models.PROTECT, related_name="tables", verbose_name=_("event")
    )
    table = models.CharField(_("table"), max_length=16)
    seats = models.PositiveSmallIntegerField(_("seats"), default=9)
    break_order = models.PositiveSmallIntegerField(
        _("broken in this order"),
        help_text=_("Tables are broken from the lowest number up (TO11)."),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    broken_at = models.DateTimeField(_("broken"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")
        ordering = ["event", "break_order"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "table"], name="event_table_unique"
            ),
            models.UniqueConstraint(
                fields=["event", "break_order"], name="event_table_break_order_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(seats__gte=2)
                & models.Q(seats__lte=11)
                & models.Q(table__regex=_CODE_REGEX),
                name="event_table_valid",
            ),
        ]
        triggers = [
            never_deleted("event_table"),
            guards.FSM(
                name="event_table_broken_once",
                field="status",
                transitions=[("open", "broken")],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event.code} {self.table}"
