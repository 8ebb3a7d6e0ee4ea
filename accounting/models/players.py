"""The players and their protection (PP1-PP7): who they are, the documents on
file, the corrections of their identity, restrictions, refusals at the doors and
the decisions on held awards. Every record is append-only.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from accounting.models.common import CODE_REGEX, record_time
from accounting.models.ledger import Transaction
from core.db import triggers as guards
from core.records import append_only, never_deleted, staff_fk


class Player(models.Model):
    """A registered player (BI10), known to terminals and the cage by ``code``.

    The public board shows only ``nickname`` or initials (WL11). ``id_verified``
    says an identity document was checked; CA5 needs it above the cash threshold.
    """

    class Document(models.TextChoices):
        PASSPORT = "passport", _("passport")
        ID_CARD = "id_card", _("identity card")
        DRIVING_LICENCE = "driving_licence", _("driving licence")
        OTHER = "other", _("other document")

    code = models.CharField(
        _("player id"),
        max_length=32,
        unique=True,
        help_text=_("What terminals and the cage send, e.g. P-1001."),
    )
    name = models.CharField(_("name"), max_length=200)
    nickname = models.CharField(
        _("nickname"),
        max_length=40,
        blank=True,
        help_text=_("Shown on the public board; initials when blank."),
    )
    id_verified = models.BooleanField(_("identity verified"), default=False)
    id_document_type = models.CharField(
        _("identity document"), max_length=16, choices=Document.choices, blank=True
    )
    id_document_number = models.CharField(
        _("document number"), max_length=64, blank=True
    )
    id_verified_at = models.DateTimeField(
        _("identity verified at"), null=True, blank=True
    )
    id_verified_by = staff_fk(_("identity verified by"), optional=True)
    birth_date = models.DateField(
        _("date of birth"),
        null=True,
        blank=True,
        help_text=_("PP1, PP2: without one, every door refuses the player."),
    )
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    registered_by = staff_fk(_("registered by"), optional=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(code__regex=CODE_REGEX),
                name="player_code_format",
                violation_error_message=_(
                    "A player id is letters, digits, '-' and '_'."
                ),
            ),
        ]
        triggers = [
            never_deleted("player"),
            guards.ReadOnly(name="player_code_fixed", fields=["code"]),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class PlayerChange(models.Model):
    """A change of a player's identity data: who, when, why, the old and the new
    value (PP7). Never edited, never deleted (DC2)."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="changes")
    field = models.CharField(_("field"), max_length=32)
    old = models.CharField(_("was"), max_length=200, blank=True)
    new = models.CharField(_("is now"), max_length=200, blank=True)
    reason = models.CharField(_("why"), max_length=500)
    at = models.DateTimeField(_("at"), default=record_time)
    by = staff_fk(_("by"))

    class Meta:
        verbose_name = _("change of player data")
        verbose_name_plural = _("changes of player data")
        ordering = ["player", "at", "id"]
        triggers = [append_only("player_change")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.field} {self.at:%Y-%m-%d %H:%M}"


class IdentityDocument(models.Model):
    """An identity document a staff member checked (PP1): kind, number, expiry,
    who checked it and when. Never edited; a new check is a new record (PP7)."""

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="documents"
    )
    kind = models.CharField(
        _("identity document"), max_length=16, choices=Player.Document.choices
    )
    number = models.CharField(_("document number"), max_length=64)
    expires = models.DateField(_("expires"), null=True, blank=True)
    checked_at = models.DateTimeField(_("checked at"), default=record_time)
    checked_by = staff_fk(_("checked by"))

    class Meta:
        verbose_name = _("identity document")
        verbose_name_plural = _("identity documents")
        ordering = ["player", "-checked_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(number=""), name="identity_document_number"
            ),
        ]
        triggers = [append_only("identity_document")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.checked_at:%Y-%m-%d})"


class DocumentLookup(models.Model):
    """Who was shown an identity document's number, and when (PP7)."""

    document = models.ForeignKey(
        IdentityDocument, on_delete=models.PROTECT, related_name="lookups"
    )
    at = models.DateTimeField(_("at"), default=record_time)
    by = staff_fk(_("by"))
    purpose = models.CharField(_("why"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("identity document look-up")
        verbose_name_plural = _("identity document look-ups")
        ordering = ["-at", "-id"]
        triggers = [append_only("document_lookup")]

    def __str__(self) -> str:
        return f"{self.document_id} {self.at:%Y-%m-%d %H:%M}"


class ProtectionRules(models.Model):
    """A version of the room's player-protection settings (PP2, PP4): the
    minimum age, the shortest self-exclusion and the cooling-off time. Append-only:
    a change is a new version, in force from when it is recorded."""

    version = models.PositiveIntegerField(_("version"), unique=True)
    min_age = models.PositiveSmallIntegerField(_("minimum age"))
    min_self_exclusion_days = models.PositiveIntegerField(
        _("shortest self-exclusion (days)")
    )
    cooling_off_hours = models.PositiveIntegerField(_("cooling-off time (hours)"))
    note = models.CharField(_("why"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created"), default=record_time)
    created_by = staff_fk(_("created by"), optional=True)

    class Meta:
        verbose_name = _("player-protection rules")
        verbose_name_plural = _("player-protection rules")
        ordering = ["-version"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(min_age__gte=16, min_age__lte=25)
                & models.Q(min_self_exclusion_days__gte=1),
                name="protection_rules_bounds",
            ),
        ]
        triggers = [append_only("protection_rules")]

    def __str__(self) -> str:
        return f"v{self.version}"


class Restriction(models.Model):
    """A bar by the house (PP3) or a player's self-exclusion (PP4). Never edited:
    how it ends is a :class:`RestrictionEnd` (PP7).

    ``until`` is the first gaming day the player is let in again (None: for good).
    """

    class Kind(models.TextChoices):
        BAR = "bar", _("bar")
        SELF_EXCLUSION = "self_exclusion", _("self-exclusion")

    class Scope(models.TextChoices):
        ROOM = "room", _("the room")
        CASH = "cash", _("cash games")
        TOURNAMENTS = "tournaments", _("tournaments")

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="restrictions"
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    scope = models.CharField(_("scope"), max_length=16, choices=Scope.choices)
    starts = models.DateTimeField(_("starts"), default=record_time)
    until = models.DateField(_("until"), null=True, blank=True)
    reason = models.CharField(_("why"), max_length=500)
    set_by = staff_fk(_("recorded by"))

    class Meta:
        verbose_name = _("restriction")
        verbose_name_plural = _("restrictions")
        ordering = ["player", "-starts", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="restriction_reason"
            ),
        ]
        triggers = [append_only("restriction")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.get_scope_display()})"


class RestrictionEnd(models.Model):
    """How a restriction ends: a bar ended early by a second manager (PP3), or a
    player's request that his ended self-exclusion lapse, in force after the
    cooling-off time (PP4). One a restriction; never edited."""

    class Kind(models.TextChoices):
        ENDED = "ended", _("ended early")
        LAPSE = "lapse", _("lapse asked by the player")

    restriction = models.OneToOneField(
        Restriction, on_delete=models.PROTECT, related_name="end"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    at = models.DateTimeField(_("at"), default=record_time)
    effective = models.DateTimeField(_("in force from"))
    reason = models.CharField(_("why"), max_length=500)
    by = staff_fk(_("by"))

    class Meta:
        verbose_name = _("end of a restriction")
        verbose_name_plural = _("ends of restrictions")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="restriction_end_reason"
            ),
        ]
        triggers = [append_only("restriction_end")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.restriction_id}"


class DoorRefusal(models.Model):
    """A door that refused a player (PP2–PP4), for the daily audit. Written in a
    transaction of its own, so the refusal is kept while the refused request
    changes nothing."""

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="refusals"
    )
    door = models.CharField(_("door"), max_length=16)
    rule = models.CharField(_("rule"), max_length=8)
    code = models.CharField(_("code"), max_length=32)
    gaming_day = models.DateField(_("gaming day"))
    at = models.DateTimeField(_("at"), default=record_time)

    class Meta:
        verbose_name = _("refusal at a door")
        verbose_name_plural = _("refusals at doors")
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["gaming_day"], name="door_refusal_day")]
        triggers = [append_only("door_refusal")]

    def __str__(self) -> str:
        return f"{self.rule} {self.code} {self.gaming_day}"


class AwardDecision(models.Model):
    """A manager's decision on an award held for a restricted player (PP6): pay
    it to him after all, or forfeit it (booked out of awards payable into
    forfeited awards). One a payable; never edited."""

    class Decision(models.TextChoices):
        PAY = "pay", _("pay to the player")
        FORFEIT = "forfeit", _("forfeit")

    payable = models.OneToOneField(
        "Payable", on_delete=models.PROTECT, related_name="decision"
    )
    decision = models.CharField(_("decision"), max_length=8, choices=Decision.choices)
    held_by = models.ForeignKey(
        Restriction,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("held because of"),
    )
    reason = models.CharField(_("why"), max_length=500)
    at = models.DateTimeField(_("at"), default=record_time)
    by = staff_fk(_("decided by"))
    booking = models.ForeignKey(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("booked by posting"),
    )

    class Meta:
        verbose_name = _("decision on a held award")
        verbose_name_plural = _("decisions on held awards")
        ordering = ["-at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="award_decision_reason"
            ),
            models.CheckConstraint(
                condition=models.Q(decision="pay", booking__isnull=True)
                | models.Q(decision="forfeit", booking__isnull=False),
                name="award_decision_forfeit_is_booked",
            ),
        ]
        triggers = [append_only("award_decision")]

    def __str__(self) -> str:
        return f"{self.get_decision_display()} #{self.payable_id}"
