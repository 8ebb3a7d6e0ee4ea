"""The floor: rooms, games and their policies, tables, seat sessions and hands."""

from __future__ import annotations

from datetime import date, datetime
from typing import ClassVar
from zoneinfo import ZoneInfo

import pgtrigger
from django.conf import settings
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from accounting.domain.gaming_day import gaming_day as business_date
from cardroom.domain.buyin import STRUCTURE_OF_GAME, Stakes
from core.db import rows
from core.db import triggers as guards
from core.keys import AbstractKey, KeyManager
from core.money import stakes_format
from core.records import never_deleted

MAX_SEATS = 12  # HS1
GAME_CODES = [(code, code) for code in STRUCTURE_OF_GAME]


class Room(models.Model):
    """A card room with its own clock: time zone, currency, gaming-day cut-off (BI8)."""

    code = models.SlugField(_("code"), max_length=16, unique=True)
    name = models.CharField(_("name"), max_length=100)
    time_zone = models.CharField(_("time zone"), max_length=64)
    currency = models.CharField(_("currency"), max_length=3)
    gaming_day_cutoff_hour = models.PositiveSmallIntegerField(
        _("gaming day ends at (hour)"), default=6
    )
    language = models.CharField(
        _("language of the board"),
        max_length=8,
        choices=settings.LANGUAGES,
        default="en",
    )

    class Meta:
        verbose_name = _("room")
        verbose_name_plural = _("rooms")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(gaming_day_cutoff_hour__lte=23),
                name="room_cutoff_is_an_hour",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    def gaming_day(self, at: datetime) -> date:
        """Return the gaming day ("night") that ``at`` belongs to (BI8)."""
        return business_date(at, self.tz, self.gaming_day_cutoff_hour)


class Game(models.Model):
    """A game the room deals, at given stakes: NLHE 1/2 (BI1, WL1)."""

    room = models.ForeignKey(Room, on_delete=models.PROTECT, related_name="games")
    code = models.CharField(_("game"), max_length=16, choices=GAME_CODES)
    small_blind_cents = models.BigIntegerField(_("small blind"))
    big_blind_cents = models.BigIntegerField(_("big blind"))
    min_buy_in_cents = models.BigIntegerField(_("minimum buy-in"))
    max_buy_in_cents = models.BigIntegerField(
        _("maximum buy-in"), null=True, blank=True
    )

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(
                fields=["room", "code", "small_blind_cents", "big_blind_cents"],
                name="game_unique_stakes",
            ),
            models.CheckConstraint(
                condition=models.Q(small_blind_cents__gt=0)
                & models.Q(big_blind_cents__gte=models.F("small_blind_cents"))
                & models.Q(min_buy_in_cents__gt=0),
                name="game_positive_stakes",
            ),
            models.CheckConstraint(
                condition=models.Q(max_buy_in_cents__isnull=True)
                | models.Q(max_buy_in_cents__gte=models.F("min_buy_in_cents")),
                name="game_max_at_least_min",
                violation_error_message=_("BI1: the maximum is at least the minimum."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.blinds_label()}"

    def blinds_label(self, language: str | None = None) -> str:
        """The blinds as the room says its stakes, in the room's currency:
        ``1/2``, ``0.50/1`` (``0,50/1`` in fi), ``1,000/2,000`` won (core.money);
        in the active language unless ``language`` is given."""
        try:
            currency = self.room.currency
        except Room.DoesNotExist:  # a game not yet given its room
            currency = ""
        return stakes_format(
            self.small_blind_cents,
            self.big_blind_cents,
            currency,
            language or get_language(),
        )

    @property
    def stakes(self) -> Stakes:
        return Stakes(
            self.code,
            self.small_blind_cents,
            self.big_blind_cents,
            self.min_buy_in_cents,
            self.max_buy_in_cents,
        )

    def current_policy(self) -> Policy:
        """Return the policy in force: the latest version (RK7)."""
        return self.policies.latest("version")


class Policy(models.Model):
    """A version of a game's rake and drop policy (API.md "Policy", RK7).

    Versions are append-only: a change is a new version, applying from the next hand;
    every hand records the version it was settled with.
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="policies")
    version = models.PositiveIntegerField(_("version"))
    document = models.JSONField(_("policy"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("policy version")
        verbose_name_plural = _("policy versions")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "version"], name="policy_unique_version"
            ),
        ]
        triggers = [
            guards.Protect(
                name="policy_append_only",
                operation=pgtrigger.Update | pgtrigger.Delete,
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} v{self.version}"


class Table(models.Model):
    """A poker table of the room, known to its terminal by ``code`` ("T01")."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    code = models.SlugField(_("code"), max_length=16, unique=True)
    name = models.CharField(_("name"), max_length=64, blank=True)
    seats = models.PositiveSmallIntegerField(_("seats"), default=9)
    room = models.ForeignKey(
        Room, on_delete=models.PROTECT, related_name="tables", null=True, blank=True
    )
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="tables", null=True, blank=True
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.CLOSED
    )
    gaming_day = models.DateField(_("gaming day"), null=True, blank=True)
    opened_at = models.DateTimeField(_("opened"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seats__gte=2, seats__lte=MAX_SEATS),
                name="table_seats_2_to_12",
                violation_error_message=_("HS1: a table has 2 to 12 seats."),
            ),
            models.CheckConstraint(
                condition=~models.Q(status="open")
                | models.Q(game__isnull=False, opened_at__isnull=False),
                name="table_open_with_a_game",
            ),
        ]

    def __str__(self) -> str:
        return self.code


class TerminalKeyManager(KeyManager["TerminalKey"]):
    def get_usable_keys(self) -> models.QuerySet[TerminalKey]:
        return super().get_usable_keys().select_related("table")

    def get_from_key(self, key: str) -> TerminalKey:
        """Return the usable key ``key``, its table read along.

        What the library's manager does, in one prepared statement (core.db.rows): a
        terminal authenticates every request. Raises ``DoesNotExist`` for a key
        unknown, revoked or not matching its hash.
        """
        prefix = key.partition(".")[0]
        keys, tables = TerminalKey._meta.db_table, Table._meta.db_table
        found = rows.query(
            f"SELECT {rows.columns(TerminalKey, 'k')},"  # noqa: S608
            f" {rows.columns(Table, 't')} FROM {keys} k"
            f" JOIN {tables} t ON t.id = k.table_id"
            " WHERE k.prefix = %s AND NOT k.revoked",
            [prefix],
        )
        if not found:
            raise TerminalKey.DoesNotExist("No usable key with this prefix.")
        row = found[0]
        api_key, at = rows.from_row(TerminalKey, row)
        api_key.table = rows.from_row(Table, row, at)[0]
        if not api_key.is_valid(key):
            raise TerminalKey.DoesNotExist("Key is not valid.")
        return api_key


class TerminalKey(AbstractKey):
    """An API key of one table's terminal: stored hashed, shown once, revocable."""

    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="terminal_keys"
    )

    objects: ClassVar[TerminalKeyManager] = TerminalKeyManager()

    class Meta(AbstractKey.Meta):
        verbose_name = _("terminal key")
        verbose_name_plural = _("terminal keys")


class SeatSession(models.Model):
    """A player's time in one seat, and the stack the floor knows he has (HS6).

    Open while ``ended_at`` is null. The database keeps one open session per player
    (WL6) and per seat, and the stack at zero or above; the stack equals the ledger
    balance of the player's account at that table.
    """

    class Kind(models.TextChoices):
        BUY_IN = "buy_in", _("buy-in")
        SHORT_BUY_IN = "short_buy_in", _("short buy-in")
        RETURN = "return", _("return")
        TRANSFER = "transfer", _("transfer")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="sessions")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        "accounting.Player", on_delete=models.PROTECT, related_name="seat_sessions"
    )
    kind = models.CharField(_("how he sat down"), max_length=16, choices=Kind.choices)
    house_move = models.BooleanField(_("moved by the house"), default=False)
    gaming_day = models.DateField(_("gaming day"), db_index=True)
    started_at = models.DateTimeField(_("sat down"))
    ended_at = models.DateTimeField(_("left"), null=True, blank=True)
    stack_cents = models.BigIntegerField(_("stack"))
    left_with_cents = models.BigIntegerField(_("left with"), null=True, blank=True)
    last_hand_no = models.BigIntegerField(_("last hand"), null=True, blank=True)
    away_since = models.DateTimeField(_("away since"), null=True, blank=True)
    must_leave_at = models.DateTimeField(
        _("must leave since"),
        null=True,
        blank=True,
        help_text=_(
            "PP5: a restriction began while he sat; he leaves at the end of the hand"
            " in play."
        ),
    )
    must_leave_rule = models.CharField(_("because of"), max_length=8, blank=True)

    class Meta:
        verbose_name = _("seat session")
        verbose_name_plural = _("seat sessions")
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=models.Q(ended_at__isnull=True),
                name="session_one_seat_per_player",
                violation_error_message=_("WL6: one seat per player at a time."),
            ),
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=models.Q(ended_at__isnull=True),
                name="session_one_player_per_seat",
            ),
            models.CheckConstraint(
                condition=models.Q(stack_cents__gte=0),
                name="session_stack_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(seat__gte=1, seat__lte=MAX_SEATS),
                name="session_seat_1_to_12",
            ),
        ]
        indexes = [models.Index(fields=["player", "gaming_day"])]

    def __str__(self) -> str:
        return f"{self.table.code} seat {self.seat}: {self.player_id}"


class StackMovement(models.Model):
    """Chips that came to or left a seat outside hands: buy-in, top-up, leaving."""

    class Kind(models.TextChoices):
        BUY_IN = "buy_in", _("buy-in")
        SHORT_BUY_IN = "short_buy_in", _("short buy-in")
        RETURN = "return", _("return")
        TRANSFER = "transfer", _("transfer")
        TOP_UP = "top_up", _("top-up")
        LEAVE = "leave", _("leave")
        PICK_UP = "pick_up", _("picked up into custody")
        GIVE_BACK = "give_back", _("given back from custody")

    class Method(models.TextChoices):
        CASH = "cash", _("cash")
        CHIPS = "chips", _("chips")

    session = models.ForeignKey(
        SeatSession, on_delete=models.PROTECT, related_name="movements"
    )
    player = models.ForeignKey(
        "accounting.Player", on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    method = models.CharField(_("method"), max_length=8, choices=Method.choices)
    amount_cents = models.BigIntegerField(_("amount"))
    gaming_day = models.DateField(_("gaming day"), db_index=True)
    at = models.DateTimeField(_("at"))
    ledger_transaction = models.OneToOneField(
        "accounting.Transaction", on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("stack movement")
        verbose_name_plural = _("stack movements")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0), name="movement_positive"
            ),
        ]
        triggers = [
            guards.Protect(
                name="movement_append_only",
                operation=pgtrigger.Update | pgtrigger.Delete,
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount_cents}"


class Hand(models.Model):
    """A hand as recorded and settled, with the ledger transaction that booked it."""

    class Status(models.TextChoices):
        BOOKED = "booked", _("booked")
        VOIDED = "voided", _("voided")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    hand_no = models.BigIntegerField(_("hand number"))
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="hands")
    policy = models.ForeignKey(Policy, on_delete=models.PROTECT, related_name="hands")
    gaming_day = models.DateField(_("gaming day"), db_index=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended"), db_index=True)
    record = models.JSONField(_("hand record"))
    record_hash = models.CharField(max_length=64)
    settlement = models.JSONField(_("settlement"))
    pot_cents = models.BigIntegerField(_("pots"))
    rake_cents = models.BigIntegerField(_("rake"))
    jackpot_drop_cents = models.BigIntegerField(_("jackpot drop"))
    participants = models.PositiveSmallIntegerField(_("participants"))
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.BOOKED
    )
    ledger_transaction = models.OneToOneField(
        "accounting.Transaction",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    source = models.CharField(_("posted by"), max_length=64)
    created_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["table", "hand_no"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "hand_no"], name="hand_natural_key"
            ),
            models.CheckConstraint(
                condition=models.Q(rake_cents__gte=0, jackpot_drop_cents__gte=0)
                & models.Q(
                    pot_cents__gte=models.F("rake_cents")
                    + models.F("jackpot_drop_cents")
                ),
                name="hand_rake_and_drop_within_pots",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table.code}#{self.hand_no}"


class HandSeat(models.Model):
    """One seat dealt in a hand, and what the settlement gave it."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        "accounting.Player", on_delete=models.PROTECT, related_name="+"
    )
    session = models.ForeignKey(SeatSession, on_delete=models.PROTECT, related_name="+")
    stack_cents = models.BigIntegerField(_("stack"))
    put_in_cents = models.BigIntegerField(_("put in"))
    returned_cents = models.BigIntegerField(_("returned"))
    won_cents = models.BigIntegerField(_("won"))
    final_stack_cents = models.BigIntegerField(_("final stack"))
    present = models.BooleanField(_("present"))
    folded = models.BooleanField(_("folded"))
    cards = models.JSONField(_("cards"), null=True, blank=True)
    description = models.CharField(_("hand"), max_length=120, blank=True)

    class Meta:
        verbose_name = _("hand seat")
        verbose_name_plural = _("hand seats")
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="hand_seat_unique"),
            models.CheckConstraint(
                condition=models.Q(
                    final_stack_cents=models.F("stack_cents")
                    - models.F("put_in_cents")
                    + models.F("returned_cents")
                    + models.F("won_cents")
                ),
                name="hand_seat_chips_add_up",
            ),
            models.CheckConstraint(
                condition=models.Q(put_in_cents__lte=models.F("stack_cents"))
                & models.Q(final_stack_cents__gte=0),
                name="hand_seat_table_stakes",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat}"


class HandException(models.Model):
    """Something about a hand that needs a person (HS6, HS7, BB1)."""

    class Kind(models.TextChoices):
        STACK_MISMATCH = "stack_mismatch", _("stack mismatch")
        MISPAID_POT = "mispaid_pot", _("mispaid pot")
        BAD_BEAT_CANDIDATE = "bad_beat_candidate", _("bad beat candidate")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RESOLVED = "resolved", _("resolved")

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="exceptions")
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    details = models.JSONField(_("details"))
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    created_at = models.DateTimeField(_("raised"), auto_now_add=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    resolved_at = models.DateTimeField(_("resolved"), null=True, blank=True)
    resolution = models.CharField(_("resolution"), max_length=500, blank=True)

    class Meta:
        verbose_name = _("hand exception")
        verbose_name_plural = _("hand exceptions")

    def __str__(self) -> str:
        return f"{self.hand} {self.kind}"


class Correction(models.Model):
    """A money correction after a hand, asked by one floor person, approved by another.

    ``pot_correction`` (HS7, DC1): chips from one player to another, asked before the
    next hand at the table starts. ``hold`` (HS8): chips from a player's stack into
    escrow while a ruling is pending; ``release``: escrow to whom the ruling says.
    ``receivable`` (DC3): money a player got and wasn't due, found later; he owes it.
    Nothing moves until a second person approves (DC2).
    """

    class Kind(models.TextChoices):
        POT_CORRECTION = "pot_correction", _("pot correction")
        HOLD = "hold", _("held pot")
        RELEASE = "release", _("release of a held pot")
        RECEIVABLE = "receivable", _("receivable")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        APPROVED = "approved", _("approved and booked")
        REJECTED = "rejected", _("rejected")

    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    hand = models.ForeignKey(
        Hand,
        on_delete=models.PROTECT,
        related_name="corrections",
        null=True,
        blank=True,
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    from_player = models.ForeignKey(
        "accounting.Player",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    to_player = models.ForeignKey(
        "accounting.Player",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    held = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        related_name="releases",
        null=True,
        blank=True,
        help_text=_("The hold a release pays out."),
    )
    amount_cents = models.BigIntegerField(_("amount"))
    reason = models.CharField(_("reason"), max_length=500)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(_("asked at"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    ledger_transaction = models.OneToOneField(
        "accounting.Transaction",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )

    class Meta:
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0), name="correction_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(decided_by__isnull=True)
                | ~models.Q(decided_by=models.F("requested_by")),
                name="correction_four_eyes",
                violation_error_message=_(
                    "DC2: corrections of money need two different staff."
                ),
            ),
            models.CheckConstraint(
                condition=~models.Q(status="approved")
                | models.Q(ledger_transaction__isnull=False),
                name="correction_approved_is_booked",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount_cents}"


class Absence(models.Model):
    """A seated player away from the table (BI9): his breaks, one long one a night."""

    session = models.ForeignKey(
        SeatSession, on_delete=models.PROTECT, related_name="absences"
    )
    player = models.ForeignKey(
        "accounting.Player", on_delete=models.PROTECT, related_name="+"
    )
    gaming_day = models.DateField(_("gaming day"))
    long_break = models.BooleanField(_("long break"), default=False)
    started_at = models.DateTimeField(_("away since"))
    ended_at = models.DateTimeField(_("back at"), null=True, blank=True)
    picked_up_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("chips picked up by"),
    )

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        constraints = [
            models.UniqueConstraint(
                fields=["session"],
                condition=models.Q(ended_at__isnull=True),
                name="absence_one_open_per_session",
            ),
            models.UniqueConstraint(
                fields=["player", "gaming_day"],
                condition=models.Q(long_break=True),
                name="absence_one_long_break_a_night",
                violation_error_message=_("BI9: one long break per gaming day."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} away {self.started_at:%H:%M}"


class StackReview(models.Model):
    """Chips the ledger holds for a seat beyond what the table reported (HS6).

    A hand books on the ledger's stacks. When a seat reports less than the ledger
    holds, the difference is frozen in the player's review hold at that table (an
    escrow account neither a leave nor a redemption can pay) until the review is
    resolved: a floor person proposes a release to the player or a correction to
    whom the chips belong (another player, or the house's over/short), and a
    manager who is another person approves; the approval books it (DC2).
    """

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        PROPOSED = "proposed", _("proposed, waiting for a manager")
        RESOLVED = "resolved", _("resolved and booked")

    class Resolution(models.TextChoices):
        RELEASE = "release", _("release to the player")
        CORRECTION = "correction", _("correction")

    hand = models.ForeignKey(
        Hand, on_delete=models.PROTECT, related_name="stack_reviews"
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    session = models.ForeignKey(
        SeatSession, on_delete=models.PROTECT, related_name="stack_reviews"
    )
    player = models.ForeignKey(
        "accounting.Player", on_delete=models.PROTECT, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    reported_cents = models.BigIntegerField(_("stack reported"))
    recorded_cents = models.BigIntegerField(_("stack the ledger held"))
    amount_cents = models.BigIntegerField(_("frozen"))
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    resolution = models.CharField(
        _("resolution"), max_length=16, choices=Resolution.choices, blank=True
    )
    to_player = models.ForeignKey(
        "accounting.Player",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text=_("A correction's player; none: the house's over/short."),
    )
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("raised"))
    hold_transaction = models.OneToOneField(
        "accounting.Transaction",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("frozen by"),
    )
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    proposed_at = models.DateTimeField(_("proposed at"), null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)
    ledger_transaction = models.OneToOneField(
        "accounting.Transaction",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )

    class Meta:
        verbose_name = _("stack review")
        verbose_name_plural = _("stack reviews")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0)
                & models.Q(
                    amount_cents=models.F("recorded_cents") - models.F("reported_cents")
                ),
                name="stack_review_frozen_is_the_difference",
            ),
            models.CheckConstraint(
                condition=models.Q(approved_by__isnull=True)
                | ~models.Q(approved_by=models.F("proposed_by")),
                name="stack_review_four_eyes",
                violation_error_message=_(
                    "HS6: a stack review is approved by another person."
                ),
            ),
            models.CheckConstraint(
                condition=~models.Q(status="resolved")
                | models.Q(ledger_transaction__isnull=False, approved_by__isnull=False),
                name="stack_review_resolved_is_booked",
            ),
            models.UniqueConstraint(
                fields=["hand", "seat"], name="stack_review_one_per_seat"
            ),
        ]
        triggers = [
            never_deleted("stack_review"),
            guards.FSM(
                name="stack_review_status_moves_forward",
                field="status",
                transitions=[("open", "proposed"), ("proposed", "resolved")],
            ),
            guards.Protect(
                name="stack_review_resolved_is_final",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(old__status="resolved"),
            ),
            guards.ReadOnly(
                name="stack_review_facts_fixed",
                fields=[
                    "hand",
                    "table",
                    "session",
                    "player",
                    "seat",
                    "reported_cents",
                    "recorded_cents",
                    "amount_cents",
                    "hold_transaction",
                    "created_at",
                ],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat}: {self.amount_cents}"


class HandVoid(models.Model):
    """A void of a hand (RK8), asked for by a floor person with a closed-list reason.

    A hand that took rake or drop is voided only once a manager, another person,
    approves (four-eyes, DC2); then the reversing ledger transaction is booked.
    """

    class Reason(models.TextChoices):
        FOUL_DECK = "foul_deck", _("foul deck")
        MISDEAL = "misdeal", _("misdeal before action")
        DUPLICATE_CARD = "duplicate_card", _("duplicate card")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for a manager")
        BOOKED = "booked", _("voided and booked")
        REJECTED = "rejected", _("rejected")

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="voids")
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    needs_approval = models.BooleanField(_("needs a manager's approval"))
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(_("asked at"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    ledger_transaction = models.OneToOneField(
        "accounting.Transaction",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )

    class Meta:
        verbose_name = _("hand void")
        verbose_name_plural = _("hand voids")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(decided_by__isnull=True)
                | ~models.Q(decided_by=models.F("requested_by")),
                name="hand_void_four_eyes",
                violation_error_message=_(
                    "RK8: a void of a raked hand is approved by another person."
                ),
            ),
            models.CheckConstraint(
                condition=~models.Q(status="booked")
                | models.Q(needs_approval=False)
                | models.Q(decided_by__isnull=False),
                name="hand_void_approved_when_raked",
            ),
            models.UniqueConstraint(
                fields=["hand"],
                condition=~models.Q(status="rejected"),
                name="hand_void_one_live_per_hand",
            ),
        ]
        triggers = [
            never_deleted("hand_void"),
            guards.FSM(
                name="hand_void_status_moves_forward",
                field="status",
                transitions=[("pending", "booked"), ("pending", "rejected")],
            ),
            guards.Protect(
                name="hand_void_decided_is_final",
                operation=pgtrigger.Update,
                condition=~pgtrigger.Q(old__status="pending"),
            ),
            guards.ReadOnly(
                name="hand_void_request_fixed",
                fields=[
                    "hand",
                    "reason",
                    "needs_approval",
                    "requested_by",
                    "requested_at",
                ],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} void ({self.reason})"
