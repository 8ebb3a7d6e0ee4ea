"""Waiting lists, calls, must-move games, lockups, pairs kept apart, time collections.

Every decision is an :class:`Event`, append-only: who (a staff member, a terminal or
the scheduled sweep), when, why (the rule and a reason) and what it touched.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.records import append_only, staff_fk

ACTIVE = ("waiting", "called")


class WaitingList(models.Model):
    """The waiting list of one game, code and stakes (WL1).

    Its row is the lock every change to the list takes first, so two floor
    terminals acting on one list at the same moment act one after the other.
    """

    game = models.OneToOneField(
        "cardroom.Game",
        on_delete=models.PROTECT,
        related_name="waiting_list",
        verbose_name=_("game"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("waiting list")
        verbose_name_plural = _("waiting lists")

    def __str__(self) -> str:
        return str(self.game)

    @property
    def key(self) -> str:
        """The list's name in URLs: game code and blinds, ``NLHE-100-200``."""
        g = self.game
        return f"{g.code}-{g.small_blind_cents}-{g.big_blind_cents}"


class Entry(models.Model):
    """A player waiting for a seat in a game, and what became of it.

    ``kind`` says why he waits: the list (WL1), a closed table (WL3, with his place
    in the draw), a must-move game (WL7) or a seat change (WL10). While waiting or
    called he has one entry per list; a call holds a seat at ``call_table`` until it
    is answered by sitting down, declined, or over after 5 minutes (WL2).
    """

    class Kind(models.TextChoices):
        # The values of waitlist.domain.seating.Kind, in call priority.
        CLOSED_TABLE = "closed_table", _("closed table")
        MUST_MOVE = "must_move", _("must-move")
        SEAT_CHANGE = "seat_change", _("seat change")
        LIST = "list", _("waiting list")

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        CALLED = "called", _("called")
        SEATED = "seated", _("seated")
        REMOVED = "removed", _("removed")

    class End(models.TextChoices):
        SEATED = "seated", _("seated")
        DECLINED = "declined", _("declined the seat")
        NO_SHOW = "no_show", _("not at the table within 5 minutes")
        REMOVED = "removed", _("removed by the floor")
        REFUSED_MOVE = "refused_move", _("refused the must-move")
        LEFT_GAME = "left_game", _("left the game")
        SEATED_IN_GAME = "seated_in_game", _("sat down in the game")
        TABLE_CLOSED = "table_closed", _("his table closed")

    waiting_list = models.ForeignKey(
        WaitingList,
        on_delete=models.PROTECT,
        related_name="entries",
        verbose_name=_("waiting list"),
    )
    player = models.ForeignKey(
        "accounting.Player",
        on_delete=models.PROTECT,
        related_name="waitlist_entries",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.WAITING
    )
    joined_at = models.DateTimeField(_("joined"))
    joined_by = staff_fk(_("added by"), optional=True)
    draw_no = models.PositiveSmallIntegerField(_("place in the draw"), null=True)
    table = models.ForeignKey(
        "cardroom.Table",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("for table"),
    )
    seat = models.PositiveSmallIntegerField(_("seat asked for"), null=True, blank=True)
    from_session = models.ForeignKey(
        "cardroom.SeatSession",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("moving from"),
    )
    called_at = models.DateTimeField(_("called"), null=True, blank=True)
    expires_at = models.DateTimeField(_("call ends"), null=True, blank=True)
    call_table = models.ForeignKey(
        "cardroom.Table",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("called to table"),
    )
    call_seat = models.PositiveSmallIntegerField(
        _("called to seat"), null=True, blank=True
    )
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)
    seated_session = models.ForeignKey(
        "cardroom.SeatSession",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("seated as"),
    )
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    end = models.CharField(
        _("how it ended"), max_length=16, choices=End.choices, blank=True
    )

    class Meta:
        verbose_name = _("waiting list entry")
        verbose_name_plural = _("waiting list entries")
        ordering = ["waiting_list", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["waiting_list", "player"],
                condition=models.Q(status__in=ACTIVE),
                name="entry_once_per_list",
                violation_error_message=_("WL1: a player is once on a list."),
            ),
            models.UniqueConstraint(
                fields=["call_table", "call_seat"],
                condition=models.Q(status="called"),
                name="entry_one_call_per_seat",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="called")
                | models.Q(
                    called_at__isnull=False,
                    expires_at__isnull=False,
                    call_table__isnull=False,
                    call_seat__isnull=False,
                ),
                name="entry_call_has_table_and_time",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=ACTIVE, ended_at__isnull=True, end="")
                | (
                    models.Q(status__in=["seated", "removed"], ended_at__isnull=False)
                    & ~models.Q(end="")
                ),
                name="entry_ended_with_a_reason",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="seated")
                | models.Q(seated_session__isnull=False),
                name="entry_seated_has_session",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind__in=["seat_change", "must_move"])
                | models.Q(table__isnull=False),
                name="entry_move_names_table",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "expires_at"]),
            models.Index(fields=["player", "status"]),
        ]

    def __str__(self) -> str:
        return f"{self.waiting_list} {self.player_id} {self.status}"


class TableBreak(models.Model):
    """A table the floor broke, and the draw for its players' seats (WL3).

    While the table stays open after the break it takes no new player; the draw is
    repeatable from ``seed``.
    """

    table = models.ForeignKey(
        "cardroom.Table", on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("broken at"))
    seed = models.BigIntegerField(_("draw seed"))
    order = models.JSONField(_("draw"))
    by = staff_fk(_("broken by"), optional=True)

    class Meta:
        verbose_name = _("broken table")
        verbose_name_plural = _("broken tables")
        triggers = [append_only("table_break")]

    def __str__(self) -> str:
        return f"{self.table_id} {self.at:%H:%M}"


class MustMove(models.Model):
    """A second game of a kind whose players move to the main game (WL7)."""

    table = models.ForeignKey(
        "cardroom.Table",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("must-move table"),
    )
    main = models.ForeignKey(
        "cardroom.Table",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("main game"),
    )
    started_at = models.DateTimeField(_("started"))
    started_by = staff_fk(_("started by"), optional=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    ended_by = staff_fk(_("ended by"), optional=True)

    class Meta:
        verbose_name = _("must-move game")
        verbose_name_plural = _("must-move games")
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(ended_at__isnull=True),
                name="must_move_once_per_table",
            ),
            models.CheckConstraint(
                condition=~models.Q(table=models.F("main")),
                name="must_move_to_another_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} → {self.main_id}"


class Bar(models.Model):
    """A player who refused a must-move can't play or list the game (WL7)."""

    player = models.ForeignKey(
        "accounting.Player", on_delete=models.PROTECT, related_name="+"
    )
    game = models.ForeignKey(
        "cardroom.Game", on_delete=models.PROTECT, related_name="+"
    )
    since = models.DateTimeField(_("since"))
    until = models.DateTimeField(_("until"))
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    by = staff_fk(_("recorded by"), optional=True)

    class Meta:
        verbose_name = _("bar from a game")
        verbose_name_plural = _("bars from games")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(until__gt=models.F("since")), name="bar_ends_later"
            ),
        ]
        triggers = [append_only("bar")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} → {self.until:%H:%M}"


class Lockup(models.Model):
    """A seat held for a player on his way (WL8).

    With players on the game's list a new game's lockup is released after 5
    minutes, any other after 10.
    """

    class Kind(models.TextChoices):
        NEW_GAME = "new_game", _("new game")
        SEAT = "seat", _("seat")

    class Release(models.TextChoices):
        FLOOR = "floor", _("released by the floor")
        TIMED_OUT = "timed_out", _("held too long with a list waiting")
        TAKEN = "taken", _("the player sat down")

    table = models.ForeignKey(
        "cardroom.Table", on_delete=models.PROTECT, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        "accounting.Player",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    note = models.CharField(_("note"), max_length=200, blank=True)
    locked_at = models.DateTimeField(_("locked"))
    locked_by = staff_fk(_("locked by"), optional=True)
    released_at = models.DateTimeField(_("released"), null=True, blank=True)
    released_by = staff_fk(_("released by"), optional=True)
    release = models.CharField(
        _("why released"), max_length=16, choices=Release.choices, blank=True
    )

    class Meta:
        verbose_name = _("lockup")
        verbose_name_plural = _("lockups")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=models.Q(released_at__isnull=True),
                name="lockup_one_per_seat",
            ),
            models.CheckConstraint(
                condition=models.Q(released_at__isnull=True, release="")
                | (models.Q(released_at__isnull=False) & ~models.Q(release="")),
                name="lockup_released_with_a_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} {self.seat} {self.kind}"


class KeptApart(models.Model):
    """Two players the house keeps out of the same game (WL9)."""

    player_a = models.ForeignKey(
        "accounting.Player", on_delete=models.PROTECT, related_name="+"
    )
    player_b = models.ForeignKey(
        "accounting.Player", on_delete=models.PROTECT, related_name="+"
    )
    reason = models.CharField(_("reason"), max_length=300)
    created_at = models.DateTimeField(_("since"))
    created_by = staff_fk(_("decided by"), optional=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    ended_by = staff_fk(_("ended by"), optional=True)

    class Meta:
        verbose_name = _("pair kept apart")
        verbose_name_plural = _("pairs kept apart")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(player_a__lt=models.F("player_b")),
                name="kept_apart_ordered_pair",
            ),
            models.UniqueConstraint(
                fields=["player_a", "player_b"],
                condition=models.Q(ended_at__isnull=True),
                name="kept_apart_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_a_id} / {self.player_b_id}"


class TimeCollection(models.Model):
    """A period's time collection at a table, and who paid or skipped it (RK6)."""

    table = models.ForeignKey(
        "cardroom.Table", on_delete=models.PROTECT, related_name="+"
    )
    game = models.ForeignKey(
        "cardroom.Game", on_delete=models.PROTECT, related_name="+"
    )
    policy = models.ForeignKey(
        "cardroom.Policy", on_delete=models.PROTECT, related_name="+"
    )
    period_start = models.DateTimeField(_("period from"))
    period_end = models.DateTimeField(_("period to"))
    collected_at = models.DateTimeField(_("collected"))
    amount_cents = models.BigIntegerField(_("amount a seat"))
    waiting = models.PositiveSmallIntegerField(_("players waiting"))
    everyone_pays = models.BooleanField(_("everyone pays"))
    charged = models.JSONField(_("charged"))
    exempt = models.JSONField(_("exempt"))
    total_cents = models.BigIntegerField(_("total"))
    by = staff_fk(_("collected by"), optional=True)
    source = models.CharField(_("source"), max_length=64, blank=True)

    class Meta:
        verbose_name = _("time collection")
        verbose_name_plural = _("time collections")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "period_start"], name="time_once_per_period"
            ),
            models.CheckConstraint(
                condition=models.Q(total_cents__gte=0, amount_cents__gt=0)
                & models.Q(period_end__gt=models.F("period_start")),
                name="time_amounts_and_period",
            ),
        ]
        triggers = [append_only("time_collection")]

    def __str__(self) -> str:
        return f"{self.table_id} {self.period_start:%H:%M}"


class Event(models.Model):
    """One decision about waiting and seating: who, when, why (append-only)."""

    class Kind(models.TextChoices):
        JOINED = "joined", _("joined the list")
        CALLED = "called", _("called")
        ANSWERED = "answered", _("answered the call")
        DECLINED = "declined", _("declined")
        SEATED = "seated", _("seated")
        REMOVED = "removed", _("removed")
        EXPIRED = "expired", _("call ran out")
        CALL_CANCELLED = "call_cancelled", _("call cancelled")
        DRAW = "draw", _("draw for a closed table")
        TABLE_CLOSED = "table_closed", _("table closed")
        MOVED = "moved", _("moved by the house")
        MUST_MOVE_STARTED = "must_move_started", _("must-move started")
        MUST_MOVE_ENDED = "must_move_ended", _("must-move ended")
        BARRED = "barred", _("barred from the game")
        LOCKUP_TAKEN = "lockup_taken", _("seat locked up")
        LOCKUP_RELEASED = "lockup_released", _("lockup released")
        KEPT_APART = "kept_apart", _("pair kept apart")
        KEPT_APART_ENDED = "kept_apart_ended", _("pair no longer kept apart")
        SEAT_CHANGE_REQUESTED = "seat_change_requested", _("seat change asked")
        TIME_COLLECTED = "time_collected", _("time collected")

    at = models.DateTimeField(_("at"), db_index=True)
    kind = models.CharField(_("what"), max_length=24, choices=Kind.choices)
    rule = models.CharField(_("rule"), max_length=8, blank=True)
    reason = models.CharField(_("why"), max_length=300, blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)
    waiting_list = models.ForeignKey(
        WaitingList,
        on_delete=models.PROTECT,
        related_name="events",
        null=True,
        blank=True,
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="events", null=True, blank=True
    )
    table = models.ForeignKey(
        "cardroom.Table",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    player = models.ForeignKey(
        "accounting.Player",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    by = staff_fk(_("by"), optional=True)
    source = models.CharField(
        _("source"),
        max_length=64,
        blank=True,
        help_text=_("A terminal or the scheduled sweep, when no staff member acted."),
    )

    class Meta:
        verbose_name = _("waiting list event")
        verbose_name_plural = _("waiting list events")
        ordering = ["at", "pk"]
        triggers = [append_only("waitlist_event")]

    def __str__(self) -> str:
        return f"{self.at:%H:%M:%S} {self.kind}"
