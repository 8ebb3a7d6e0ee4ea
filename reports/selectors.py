"""Reads for the reports: one grouped SQL query per figure family, nothing per row.

Two independent sources feed every report, so each figure can be checked:

- the ledger (``accounting``): entries grouped by account and transaction kind,
  before, during and after the period (:func:`ledger_movements`);
- the records of the floor and the cage: hands, stack movements, slips, box counts,
  shifts, receipts, corrections.

A period is a run of gaming days ``[first, last]``; its bounds are from the cut-off
of the first to the cut-off after the last, in the room's time zone (BI8).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, cast

from django.db.models import (
    Count,
    DateField,
    DateTimeField,
    DurationField,
    ExpressionWrapper,
    F,
    Func,
    Max,
    Min,
    Q,
    Sum,
    Value,
)
from django.db.models.functions import Cast, Coalesce, ExtractHour, Greatest, Least

from accounting.domain.accounts import PROMOTIONS_EXPENSE
from accounting.domain.cage import DrawerMovements
from accounting.domain.gaming_day import gaming_day_bounds
from accounting.models import (
    DEBIT_NORMAL,
    Account,
    BoxCount,
    CashTransaction,
    Entry,
    Player,
    Shift,
    TableSlip,
    Transaction,
)
from accounting.selectors import balance_expression, shifts_movements
from cardroom.models import (
    Correction,
    Hand,
    HandException,
    HandSeat,
    Room,
    SeatSession,
    StackMovement,
)
from reports.document import rows_of
from reports.models import Report

# Transaction kinds that move a hand's chips (the booking and its void, RK8): a
# jackpot account's entries of these kinds are its drops (JD1).
HAND_KIND = "hand"
HAND_KINDS = (HAND_KIND, "hand_void")
BUY_IN_KINDS = (
    StackMovement.Kind.BUY_IN,
    StackMovement.Kind.SHORT_BUY_IN,
    StackMovement.Kind.RETURN,
    StackMovement.Kind.TRANSFER,
    StackMovement.Kind.TOP_UP,
)


@dataclass(frozen=True, slots=True)
class Period:
    """Gaming days ``first``…``last`` of ``room``, and their bounds in time."""

    room: Room
    first: date
    last: date
    start: datetime
    end: datetime

    @classmethod
    def of(cls, room: Room, first: date, last: date | None = None) -> Period:
        last = last or first
        start, _ = gaming_day_bounds(first, room.tz, room.gaming_day_cutoff_hour)
        _, end = gaming_day_bounds(last, room.tz, room.gaming_day_cutoff_hour)
        return cls(room, first, last, start, end)

    def local(self, at: datetime | None) -> str:
        """``at`` on the room's clock, to the second, for people to read."""
        if at is None:
            return ""
        return at.astimezone(self.room.tz).isoformat(sep=" ", timespec="seconds")

    def gaming_day_of(self, field: str) -> Cast:
        """The gaming day of the timestamp ``field`` on the database (BI8): the
        room's wall clock less the cut-off hours, as a date — the same answer as
        :func:`accounting.domain.gaming_day.gaming_day`."""
        local = Func(
            Value(self.room.time_zone),
            F(field),
            function="timezone",
            output_field=DateTimeField(),
        )
        cutoff = Value(timedelta(hours=self.room.gaming_day_cutoff_hour))
        return Cast(
            ExpressionWrapper(local - cutoff, output_field=DateTimeField()),
            DateField(),
        )


# --- The ledger ---------------------------------------------------------------------


@dataclass(slots=True)
class AccountMovements:
    """One account's entries, in raw sign (debits positive), around a period."""

    id: int
    code: str
    name: str
    type: str
    currency: str
    cached_balance: int
    cache_checked: bool = True  # total is the sum of every entry, not the cache
    before: int = 0  # everything posted before the period
    after: int | None = None  # posted after the period, when read on its own
    total: int = 0  # everything ever posted
    debits: int = 0  # during the period
    credits: int = 0  # during the period, as a negative number
    by_kind: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def normal(self) -> int:
        """+1 for debit-normal accounts (assets, expenses), −1 for the others."""
        return 1 if self.type in DEBIT_NORMAL else -1

    @property
    def during(self) -> int:
        return self.debits + self.credits

    @property
    def opening(self) -> int:
        """The balance when the period began, in the account's normal sign."""
        return self.normal * self.before

    @property
    def closing(self) -> int:
        """The balance when the period ended, from the entries up to then."""
        return self.normal * (self.before + self.during)

    @property
    def closing_from_cache(self) -> int:
        """The balance at the end from the cached balance less what came after."""
        after = self.total - self.before - self.during
        if self.after is not None:
            after = self.after
        return self.cached_balance - self.normal * after

    @property
    def cache_agrees(self) -> bool:
        """The cached balance equals the sum of every entry (DESIGN.md); only
        meaningful when ``cache_checked``."""
        return self.cached_balance == self.normal * self.total

    def net(self, *kinds: str) -> int:
        """Raw net movement of the period from transactions of ``kinds``."""
        return sum(sum(self.by_kind.get(k, (0, 0))) for k in kinds)

    def net_except(self, *kinds: str) -> tuple[int, int]:
        """Raw (debits, credits) of the period from transactions not of ``kinds``."""
        debit = sum(d for k, (d, _c) in self.by_kind.items() if k not in kinds)
        credit = sum(c for k, (_d, c) in self.by_kind.items() if k not in kinds)
        return debit, credit


# Accounts whose movements the reports read by transaction kind: the tables' boxes
# and trays, the jackpot funds (the promotions' pools among them) and the house's
# promotion expense (its prizes and its carry-overs, PR1).
KIND_PREFIXES = ("table:", "jackpot:", PROMOTIONS_EXPENSE)


def _rows(rows: Iterable[Any]) -> list[dict[str, Any]]:
    """The rows of a ``values()`` query as plain dicts (the stubs type them exactly)."""
    return list(rows)


def _accounts(code_prefix: str, *, cache_checked: bool) -> dict[int, AccountMovements]:
    accounts = Account.objects.all()
    if code_prefix:
        accounts = accounts.filter(code__startswith=code_prefix)
    return {
        a["id"]: AccountMovements(
            id=a["id"],
            code=a["code"],
            name=a["name"],
            type=a["type"],
            currency=a["currency"],
            cached_balance=a["balance"],
            cache_checked=cache_checked,
        )
        for a in accounts.annotate(balance=balance_expression()).values(
            "id", "code", "name", "type", "currency", "balance"
        )
    }


def _sides(during: Q) -> dict[str, Sum]:
    return {
        "debits": Sum("amount_cents", filter=during & Q(amount_cents__gt=0)),
        "credits": Sum("amount_cents", filter=during & Q(amount_cents__lt=0)),
    }


def ledger_movements(
    *,
    period: Period,
    code_prefix: str = "",
    since_start: bool = False,
    opening: dict[int, int] | None = None,
) -> dict[str, AccountMovements]:
    """Return every account's movements around ``period``, by account code.

    Reads every entry ever posted: one grouped query (by account and transaction
    kind) with the period's debits and credits, what came before and the total as
    filtered sums, and one over the accounts; the cached balances are checked
    against the totals (``cache_checked``). ``code_prefix`` limits both to accounts
    whose code starts with it.

    With ``since_start``, see :func:`_movements_since_start`: only the period's
    entries and those after it are read; ``opening`` (raw balances by account id
    at the period's start, from a stored snapshot) then gives what came before.
    """
    if since_start:
        return _movements_since_start(
            period=period, code_prefix=code_prefix, opening=opening
        )
    during = Q(transaction__posted_at__gte=period.start) & Q(
        transaction__posted_at__lt=period.end
    )
    entries = Entry.objects.all()
    if code_prefix:
        entries = entries.filter(account__code__startswith=code_prefix)
    rows = (
        entries.values("account_id", "transaction__kind")
        .annotate(
            **_sides(during),
            before=Sum(
                "amount_cents", filter=Q(transaction__posted_at__lt=period.start)
            ),
            total=Sum("amount_cents"),
        )
        .order_by()
    )
    by_id = _accounts(code_prefix, cache_checked=True)
    for row in cast("list[dict[str, Any]]", rows):
        account = by_id[row["account_id"]]
        debits, credits = row["debits"] or 0, row["credits"] or 0
        account.before += row["before"] or 0
        account.total += row["total"] or 0
        account.debits += debits
        account.credits += credits
        if debits or credits:
            account.by_kind[row["transaction__kind"]] = (debits, credits)
    return {a.code: a for a in by_id.values()}


def _movements_since_start(
    *, period: Period, code_prefix: str, opening: dict[int, int] | None = None
) -> dict[str, AccountMovements]:
    """The period's movements from its own entries, the rest from the caches.

    The period's transactions are a range of ids, ``[first, last]``: the entries
    of that range are summed by account without a join (the entries' transaction
    index), less those of the few transactions in the range posted outside the
    period (a late or back-dated posting). Transaction kinds are read only for the
    accounts the reports need them for (``KIND_PREFIXES``), and only for postings
    other than hands: a hand's share is what the others leave. What came after
    the period is summed from its transactions; what came before is the cached
    balance less all that, or with ``opening`` the stored snapshot's (the closing
    from the cache is then a check of its own). So the work is the period's, not
    the ledger's history; the cached balances are taken as they are
    (``cache_checked`` false) and checked by the daily audit's continuity instead.
    """
    in_period = Q(posted_at__gte=period.start) & Q(posted_at__lt=period.end)
    by_id = _accounts(code_prefix, cache_checked=False)
    span = Transaction.objects.filter(in_period).aggregate(
        first=Min("id"), last=Max("id")
    )
    later = Entry.objects.filter(transaction__posted_at__gte=period.end)
    if code_prefix:
        later = later.filter(account__code__startswith=code_prefix)
    after: dict[int, int] = dict(
        later.values_list("account_id").annotate(s=Sum("amount_cents")).order_by()
    )
    if span["first"] is not None:
        ids = (span["first"], span["last"])
        strays = Transaction.objects.filter(id__range=ids).exclude(in_period)
        entries = Entry.objects.filter(transaction__id__range=ids).exclude(
            transaction_id__in=strays.values("id")
        )
        if code_prefix:
            entries = entries.filter(account__code__startswith=code_prefix)
        sides = _sides(Q())
        for row in cast(
            "Iterable[dict[str, Any]]",
            entries.values("account_id").annotate(**sides).order_by(),
        ):
            account = by_id[row["account_id"]]
            account.debits, account.credits = row["debits"] or 0, row["credits"] or 0
        # Kinds: a hand's entries are most of a day's, so only the other postings
        # of the period are read by kind (through the transactions' kind index
        # and the entries' transaction index); the hands' are what is left.
        kinds = [a.id for a in by_id.values() if a.code.startswith(KIND_PREFIXES)]
        others = (
            Transaction.objects.filter(in_period, id__range=ids)
            .exclude(kind=HAND_KIND)
            .values("id")
        )
        for account_id in kinds:
            account = by_id[account_id]
            account.by_kind[HAND_KIND] = (account.debits, account.credits)
        for row in _rows(
            Entry.objects.filter(account_id__in=kinds, transaction_id__in=others)
            .values("account_id", "transaction__kind")
            .annotate(**sides)
            .order_by()
        ):
            account = by_id[row["account_id"]]
            debits, credits = row["debits"] or 0, row["credits"] or 0
            account.by_kind[row["transaction__kind"]] = (debits, credits)
            hand_debits, hand_credits = account.by_kind[HAND_KIND]
            account.by_kind[HAND_KIND] = (hand_debits - debits, hand_credits - credits)
        for account_id in kinds:
            if by_id[account_id].by_kind[HAND_KIND] == (0, 0):
                del by_id[account_id].by_kind[HAND_KIND]
    for account in by_id.values():
        account.total = account.normal * account.cached_balance
        account.after = after.get(account.id, 0)
        if opening is None:
            account.before = account.total - account.during - account.after
        else:
            account.before = opening.get(account.id, 0)
    return {a.code: a for a in by_id.values()}


def previous_audit(*, period: Period) -> Report | None:
    """The latest version of the daily audit of the day before ``period``; None
    when there is none, or no day before it (``period`` starts on 1 January of
    year 1, the first day a date holds)."""
    if period.first == date.min:
        return None
    return (
        Report.objects.filter(
            kind=Report.Kind.DAILY_AUDIT, period_end=period.first - timedelta(days=1)
        )
        .order_by("-version")
        .first()
    )


def previous_closings(*, period: Period) -> tuple[str, dict[str, int]] | None:
    """The closing balances of the daily audit of the day before ``period``.

    Returns its name and ``{account: closing}`` (accounts it left out closed at
    zero), or ``None`` when that day has no stored audit.
    """
    report = previous_audit(period=period)
    if report is None:
        return None
    closings = {
        row["account"]: row["closing"] for row in rows_of(report.data, "trial_balance")
    }
    return f"#{report.pk} {report.period_label} v{report.version}", closings


def table_accounts(
    ledger: dict[str, AccountMovements],
) -> dict[str, dict[str, AccountMovements]]:
    """Group ``table:<T>:<box>`` accounts by table: ``{T: {box: movements}}``."""
    tables: dict[str, dict[str, AccountMovements]] = defaultdict(dict)
    for code, account in ledger.items():
        parts = code.split(":")
        if len(parts) == 3 and parts[0] == "table":
            tables[parts[1]][parts[2]] = account
    return tables


# --- The floor's records ------------------------------------------------------------


def hands_by_table(*, period: Period) -> dict[str, dict[str, int]]:
    """Hands of the period per table: dealt, booked, voided, raked; rake and drop."""
    booked = Q(status=Hand.Status.BOOKED)
    rows = (
        Hand.objects.filter(gaming_day__gte=period.first, gaming_day__lte=period.last)
        .values("table__code")
        .annotate(
            dealt=Count("id"),
            booked=Count("id", filter=booked),
            voided=Count("id", filter=Q(status=Hand.Status.VOIDED)),
            raked=Count("id", filter=booked & Q(rake_cents__gt=0)),
            dropped=Count("id", filter=booked & Q(jackpot_drop_cents__gt=0)),
            pots=Coalesce(Sum("pot_cents", filter=booked), 0),
            rake=Coalesce(Sum("rake_cents", filter=booked), 0),
            drop=Coalesce(Sum("jackpot_drop_cents", filter=booked), 0),
        )
        .order_by()
    )
    return {r.pop("table__code"): r for r in cast("list[dict[str, Any]]", rows)}


def rake_by_hour(*, period: Period) -> dict[tuple[str, int], int]:
    """Rake of the period's booked hands by table and local hour of their end."""
    rows = (
        Hand.objects.filter(
            gaming_day__gte=period.first,
            gaming_day__lte=period.last,
            status=Hand.Status.BOOKED,
        )
        .annotate(hour=ExtractHour("ended_at", tzinfo=period.room.tz))
        .values("table__code", "hour")
        .annotate(rake=Sum("rake_cents"))
        .order_by()
    )
    return {(r["table__code"], r["hour"]): r["rake"] for r in rows}


def movements_by_table(*, period: Period) -> dict[str, dict[tuple[str, str], int]]:
    """Stack movements of the period per table, by (kind, method), in cents."""
    rows = (
        StackMovement.objects.filter(
            gaming_day__gte=period.first, gaming_day__lte=period.last
        )
        .values("session__table__code", "kind", "method")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    )
    out: dict[str, dict[tuple[str, str], int]] = defaultdict(dict)
    for r in rows:
        out[r["session__table__code"]][(r["kind"], r["method"])] = r["total"]
    return out


def slips_by_table(*, period: Period) -> dict[str, dict[str, tuple[int, int]]]:
    """Fills and credits issued in the period per table: {kind: (count, cents)}."""
    rows = (
        TableSlip.objects.filter(
            status=TableSlip.Status.ISSUED,
            issued_at__gte=period.start,
            issued_at__lt=period.end,
        )
        .values("table", "kind")
        .annotate(n=Count("id"), total=Sum("amount_cents"))
        .order_by()
    )
    out: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
    for r in rows:
        out[r["table"]][r["kind"]] = (r["n"], r["total"])
    return out


@dataclass(frozen=True, slots=True)
class BoxCountLine:
    table: str
    box: str
    recorded: int
    counted: int
    variance: int
    counted_by: str
    counted_at: datetime
    # From the count's own ledger transaction: what left the box, and the variance
    # as over/short booked it (a shortage debits the expense).
    ledger_emptied: int
    ledger_variance: int


def box_counts(*, period: Period) -> list[BoxCountLine]:
    """The period's drop, rake and jackpot box counts (CA4) with their postings.

    A count is made after the gaming day it counts, so its posting is found through
    the count's transaction, not by time: one grouped query over those entries.
    """
    counts = list(
        BoxCount.objects.filter(
            gaming_day__gte=period.first, gaming_day__lte=period.last
        )
        .select_related("counted_by")
        .order_by("table", "box")
    )
    legs = (
        Entry.objects.filter(transaction__box_count__in=[c.pk for c in counts])
        .values("transaction__box_count", "account__code")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    )
    posted: dict[int, dict[str, int]] = defaultdict(dict)
    for leg in legs:
        posted[leg["transaction__box_count"]][leg["account__code"]] = leg["total"]
    lines = []
    for c in counts:
        entries = posted.get(c.pk, {})
        box_account = f"table:{c.table}:{c.box}_box"
        lines.append(
            BoxCountLine(
                table=c.table,
                box=c.box,
                recorded=c.recorded_cents,
                counted=c.counted_cents,
                variance=c.variance_cents,
                counted_by=c.counted_by.get_username(),
                counted_at=c.counted_at,
                ledger_emptied=-entries.get(box_account, 0),
                ledger_variance=-entries.get("expense:over_short", 0),
            )
        )
    return lines


# --- The cage -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShiftLine:
    shift: Shift
    # The drawer's lines from the shift's receipts and issued slips (CA1), as the
    # cashier's end-of-shift report adds them up.
    movements: DrawerMovements
    ledger_over_short_cash: int
    ledger_over_short_chips: int


def shifts(*, period: Period) -> list[ShiftLine]:
    """The period's cashier shifts with their drawer's lines and over/short posts.

    Three grouped queries besides the shifts: receipts and slips by shift and line
    (:func:`accounting.selectors.cage.shifts_movements`, the end-of-shift report's),
    and the over/short postings of those shifts (CA1) by their unique keys.
    """
    rows = list(
        Shift.objects.filter(gaming_day__gte=period.first, gaming_day__lte=period.last)
        .select_related("cage", "cashier", "signed_off_by")
        .order_by("opened_at", "pk")
    )
    ids = [s.pk for s in rows]
    movements = shifts_movements(shifts=rows)
    keys = [f"shift:{i}:over_short:{what}" for i in ids for what in ("cash", "chips")]
    over_short = dict(
        Entry.objects.filter(
            transaction__external_id__in=keys, account__code="expense:over_short"
        )
        .values_list("transaction__external_id")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    )
    return [
        ShiftLine(
            shift=s,
            movements=movements[s.pk],
            # The drawer's difference is the negative of over/short's entry.
            ledger_over_short_cash=-over_short.get(f"shift:{s.pk}:over_short:cash", 0),
            ledger_over_short_chips=-over_short.get(
                f"shift:{s.pk}:over_short:chips", 0
            ),
        )
        for s in rows
    ]


# --- Exceptions and corrections -------------------------------------------------------


def hand_exceptions(*, period: Period) -> list[dict[str, Any]]:
    """Exceptions raised on the period's hands (HS6, HS7, BB1), with their status."""
    return _rows(
        HandException.objects.filter(
            hand__gaming_day__gte=period.first, hand__gaming_day__lte=period.last
        )
        .values(
            "id",
            "kind",
            "status",
            "details",
            "resolution",
            "hand__table__code",
            "hand__hand_no",
            "resolved_by__username",
        )
        .order_by("hand__table__code", "hand__hand_no", "id")
    )


def voided_hands(*, period: Period) -> list[dict[str, Any]]:
    """The period's voided hands (RK8), each with the reversal that undid it."""
    return _rows(
        Hand.objects.filter(
            gaming_day__gte=period.first,
            gaming_day__lte=period.last,
            status=Hand.Status.VOIDED,
        )
        .values(
            "table__code",
            "hand_no",
            "pot_cents",
            "rake_cents",
            "jackpot_drop_cents",
            "ledger_transaction",
            "ledger_transaction__reversed_by",
            "ledger_transaction__reversed_by__memo",
            "ledger_transaction__reversed_by__posted_by__username",
            "ledger_transaction__reversed_by__source",
        )
        .order_by("table__code", "hand_no")
    )


def corrections(*, period: Period) -> list[dict[str, Any]]:
    """Corrections of the period's hands, or asked for during it (HS7, HS8, DC2)."""
    return _rows(
        Correction.objects.filter(
            Q(hand__gaming_day__gte=period.first, hand__gaming_day__lte=period.last)
            | Q(
                hand__isnull=True,
                requested_at__gte=period.start,
                requested_at__lt=period.end,
            )
        )
        .values(
            "id",
            "kind",
            "status",
            "amount_cents",
            "reason",
            "table__code",
            "hand__hand_no",
            "from_player__code",
            "to_player__code",
            "requested_by__username",
            "decided_by__username",
            "ledger_transaction",
        )
        .order_by("requested_at", "id")
    )


def open_holds() -> list[dict[str, Any]]:
    """Approved held pots not yet fully released, whenever held (HS8)."""
    released = Sum(
        "releases__amount_cents",
        filter=Q(releases__status=Correction.Status.APPROVED),
    )
    rows = (
        Correction.objects.filter(
            kind=Correction.Kind.HOLD, status=Correction.Status.APPROVED
        )
        .annotate(released=Coalesce(released, 0))
        .filter(amount_cents__gt=F("released"))
        .values(
            "id",
            "table__code",
            "hand__hand_no",
            "hand__gaming_day",
            "amount_cents",
            "released",
            "reason",
            "ledger_transaction",
        )
        .order_by("id")
    )
    return _rows(rows)


# --- Players --------------------------------------------------------------------------


def player_cash(*, period: Period) -> dict[str, dict[str, int]]:
    """Each player's cash transactions of the period by kind (the CA5 log)."""
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for r in (
        CashTransaction.objects.filter(
            gaming_day__gte=period.first, gaming_day__lte=period.last
        )
        .values("player__code", "kind")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    ):
        out[r["player__code"]][r["kind"]] = r["total"]
    return out


def player_movements(*, period: Period) -> dict[str, dict[tuple[str, str], int]]:
    """Each player's stack movements of the period by (kind, method)."""
    out: dict[str, dict[tuple[str, str], int]] = defaultdict(dict)
    for r in (
        StackMovement.objects.filter(
            gaming_day__gte=period.first, gaming_day__lte=period.last
        )
        .values("player__code", "kind", "method")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    ):
        out[r["player__code"]][(r["kind"], r["method"])] = r["total"]
    return out


def player_hands(*, period: Period) -> dict[str, dict[str, int]]:
    """Each player's booked hands of the period: count, tables, net result."""
    rows = (
        HandSeat.objects.filter(
            hand__gaming_day__gte=period.first,
            hand__gaming_day__lte=period.last,
            hand__status=Hand.Status.BOOKED,
        )
        .values("player__code")
        .annotate(
            hands=Count("id"),
            tables=Count("hand__table", distinct=True),
            net=Sum(F("won_cents") + F("returned_cents") - F("put_in_cents")),
        )
        .order_by()
    )
    return {r.pop("player__code"): r for r in cast("list[dict[str, Any]]", rows)}


def player_time_seated(*, period: Period, now: datetime) -> dict[str, dict[str, int]]:
    """Each player's time seated within the period's bounds, in seconds.

    A session still open counts up to ``now`` (or the period's end if earlier).
    """
    until = min(now, period.end)
    overlap = ExpressionWrapper(
        Least(Coalesce("ended_at", Value(until)), Value(period.end))
        - Greatest("started_at", Value(period.start)),
        output_field=DurationField(),
    )
    rows = (
        SeatSession.objects.filter(started_at__lt=until)
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=period.start))
        .values("player__code")
        .annotate(seated=Sum(overlap), sessions=Count("id"))
        .order_by()
    )
    return {
        r["player__code"]: {
            "seconds": max(0, int(r["seated"].total_seconds())) if r["seated"] else 0,
            "sessions": r["sessions"],
        }
        for r in rows
    }


def players_named(codes: set[str]) -> dict[str, dict[str, Any]]:
    return {
        p["code"]: p  # type: ignore[misc]
        for p in Player.objects.filter(code__in=codes).values(
            "code", "name", "id_verified"
        )
    }


# --- Jackpot contributions by day -----------------------------------------------------


def jackpot_daily(*, period: Period) -> dict[tuple[str, date], tuple[int, int]]:
    """Raw (drops, other) movements of jackpot accounts per gaming day of the period.

    ``drops`` are entries of the hands' transactions (JD1), ``other`` everything
    else (awards, transfers between a pool and its reserve…).
    """
    day = period.gaming_day_of("transaction__posted_at")
    rows = (
        Entry.objects.filter(
            account__code__startswith="jackpot:",
            transaction__posted_at__gte=period.start,
            transaction__posted_at__lt=period.end,
        )
        .annotate(day=day)
        .values("account__code", "day")
        .annotate(
            drops=Sum("amount_cents", filter=Q(transaction__kind__in=HAND_KINDS)),
            other=Sum("amount_cents", filter=~Q(transaction__kind__in=HAND_KINDS)),
        )
        .order_by()
    )
    return {
        (r["account__code"], r["day"]): (r["drops"] or 0, r["other"] or 0) for r in rows
    }
