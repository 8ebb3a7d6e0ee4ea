"""Reads of the jackpots: pool amounts from the ledger, history, standings, lists.

A pool's amount is always its ledger balance (JD6): the accounts' balances, moved
only by entries in the same statement, which the trial balance checks against the
sum of the entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import orjson
from django.db.models import OuterRef, Q, QuerySet, Subquery, Sum

from accounting.models import Account, Entry
from accounting.selectors import balance_expression
from accounting.services import AccountRow, account_json
from cardroom.models import Hand, Room
from core.db import rows
from jackpots.domain.months import standings
from jackpots.domain.periods import period_of
from jackpots.domain.postings import AWARD_KIND, PROMOTION_CARRY_KIND
from jackpots.domain.promotions import (
    ACES_CRACKED,
    HIGH_HAND,
    Amount,
    Prize,
    PromotionRules,
    prize_amount,
)
from jackpots.models import (
    Award,
    Hit,
    Month,
    MonthHand,
    Pool,
    Promotion,
    PromotionEntry,
    PromotionPrize,
    PromotionVersion,
)


def drop_pools(*, room_id: int) -> list[Pool]:
    """Return the room's active pools that take a part of each drop, oldest first,
    with their pool and reserve accounts (JD4).

    The floor asks in every hand's booking: one prepared statement reads them
    (core.db.rows).
    """
    accounts = Account._meta.db_table
    found = rows.query(
        f"SELECT {rows.columns(Pool, 'p')}, {rows.columns(Account, 'a')},"  # noqa: S608
        f" {rows.columns(Account, 'r')} FROM {Pool._meta.db_table} p"
        f" JOIN {accounts} a ON a.id = p.account_id"
        f" JOIN {accounts} r ON r.id = p.reserve_account_id"
        " WHERE p.room_id = %s AND p.active AND p.drop_ratio > 0 ORDER BY p.id",
        [room_id],
    )
    pools = []
    for row in found:
        pool, at = rows.from_row(Pool, row)
        pool.account, at = rows.from_row(Account, row, at)
        pool.reserve_account = rows.from_row(Account, row, at)[0]
        pools.append(pool)
    return pools


def drop_pools_sql() -> str:
    """A scalar sub-select giving, as JSON text, what :func:`drop_pools` gives for
    the room ``%(room)s``: each pool's drop ratio, reserve percent, account and
    reserve account (:func:`accounting.services.account_json`), oldest first.

    The floor reads it in its own statement for a hand's booking
    (``drop_legs.pools_sql``, ``cardroom.hooks``), so the pools cost it no statement;
    :func:`drop_pools_read` reads the text.
    """
    accounts = Account._meta.db_table
    return (
        "(SELECT coalesce(json_agg(json_build_array(p.drop_ratio,"  # noqa: S608
        f" p.reserve_percent, {account_json('a')}, {account_json('r')})"
        f" ORDER BY p.id), '[]')::text FROM {Pool._meta.db_table} p"
        f" JOIN {accounts} a ON a.id = p.account_id"
        f" JOIN {accounts} r ON r.id = p.reserve_account_id"
        " WHERE p.room_id = %(room)s AND p.active AND p.drop_ratio > 0)"
    )


def drop_pools_read(text: str) -> list[tuple[int, int, Account, Account]]:
    """The pools of :func:`drop_pools_sql`'s text: (drop ratio, reserve percent,
    account, reserve account) each."""
    return [
        (
            ratio,
            reserve,
            AccountRow.of_json(account).as_account(),
            AccountRow.of_json(reserve_account).as_account(),
        )
        for ratio, reserve, account, reserve_account in orjson.loads(text)
    ]


def pool_amount_at(*, pool: Pool, at: datetime) -> int:
    """Return what a jackpot at ``at`` may pay from: the pool's ledger balance at
    that moment, less what jackpots booked since took (BB4).

    For a hit, ``at`` is its hand's end: the balance after that hand's drop (the
    hand is posted at its end time). Awards of earlier hits approved later are
    taken off, so a second hit is paid from what the first left; drops and seeds
    after ``at`` belong to the next jackpot.
    """
    total = Entry.objects.filter(account_id=pool.account_id).aggregate(
        s=Sum(
            "amount_cents",
            filter=Q(transaction__posted_at__lte=at) | Q(transaction__kind=AWARD_KIND),
        )
    )["s"]
    # A pool is a liability: its balance is the negated sum of its entries.
    return -(total or 0)


@dataclass(frozen=True, slots=True)
class PoolAmounts:
    """A pool as the board shows it (JD6)."""

    pool: Pool
    amount_cents: int
    reserve_cents: int


def _balance_of(field: str) -> Subquery:
    """The balance of the pool's account ``field``, summed accounts' pending
    entries included (``accounting.selectors.balance_expression``)."""
    return Subquery(
        Account.objects.filter(pk=OuterRef(field))
        .annotate(balance=balance_expression())
        .values("balance")
    )


def _with_amounts(pools: QuerySet[Pool]) -> QuerySet[Pool]:
    return pools.annotate(
        amount_cents=_balance_of("account_id"),
        reserve_cents=_balance_of("reserve_account_id"),
    )


def pool_amounts(*, pools: QuerySet[Pool]) -> list[PoolAmounts]:
    """Return each pool's amount and reserve: their ledger balances (JD6), read in
    the pools' one query, whether the accounts keep their balance on their row or
    as a sum of their entries."""
    rows = pools if "amount_cents" in pools.query.annotations else _with_amounts(pools)
    return [
        PoolAmounts(p, p.amount_cents, p.reserve_cents)  # type: ignore[attr-defined]
        for p in rows.select_related("account", "reserve_account", "room")
    ]


def board_pools(*, room: str | None = None) -> list[PoolAmounts]:
    """The pools for the public board, in the rooms' order (WL11, JD6): the active
    ones, and retired ones while they still hold players' money (JD5)."""
    pools = (
        _with_amounts(Pool.objects.all())
        .filter(Q(active=True) | Q(amount_cents__gt=0) | Q(reserve_cents__gt=0))
        .order_by("room_id", "pk")
    )
    if room:
        pools = pools.filter(room__code=room)
    return pool_amounts(pools=pools)


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One posting on a pool's account, with the account's balance after it."""

    kind: str
    reference: str
    memo: str
    posted_at: datetime
    amount_cents: int
    balance_cents: int | None
    transaction: int


def pool_history(
    *,
    pool: Pool,
    reserve: bool = False,
    kind: str | None = None,
    limit: int = 100,
    offset: int = 0,
) -> list[HistoryLine]:
    """Return the postings on a pool (or its reserve), newest first (JD6).

    Amounts are in the account's normal sign (positive adds to the pool). Without
    a ``kind`` filter each line carries the balance after it, counted back from
    the account's balance, so a page costs its own rows and those before it.
    """
    account = pool.reserve_account if reserve else pool.account
    entries = (
        Entry.objects.filter(account=account)
        .select_related("transaction")
        .order_by("-transaction__posted_at", "-transaction_id")
    )
    if kind:
        entries = entries.filter(transaction__kind=kind)
    rows = list(entries[offset : offset + limit])
    balance: int | None = None
    if not kind:
        newer = sum(entries[:offset].values_list("amount_cents", flat=True))
        balance = Account.objects.get(pk=account.pk).balance_cents + newer
    lines = []
    for e in rows:
        lines.append(
            HistoryLine(
                kind=e.transaction.kind,
                reference=e.transaction.reference,
                memo=e.transaction.memo,
                posted_at=e.transaction.posted_at,
                amount_cents=-e.amount_cents,
                balance_cents=balance,
                transaction=e.transaction_id,
            )
        )
        if balance is not None:
            balance += e.amount_cents
    return lines


def month_entries(
    *, pool: Pool, month: date, until: datetime | None = None
) -> QuerySet[MonthHand]:
    """The hands of a pool's month, best first, equal hands earlier first (HM2);
    with ``until``, only those that ended before it (HM1: a report of a closed
    period holds only that period's hands)."""
    entries = MonthHand.objects.filter(
        pool=pool, month=month, hand__status=Hand.Status.BOOKED
    )
    if until is not None:
        entries = entries.filter(ended_at__lt=until)
    return entries.select_related("player", "hand__table").order_by(
        "-key", "ended_at", "hand_id", "seat"
    )


def month_best_hands(*, pool: Pool, month: date) -> list[MonthHand]:
    """The month's best hand, or its tied best hands, earlier first (HM1, HM2)."""
    best = month_entries(pool=pool, month=month).first()
    if best is None:
        return []
    return list(month_entries(pool=pool, month=month).filter(key=best.key))


def month_standings(
    *, pool: Pool, month: date, limit: int = 10, until: datetime | None = None
) -> list[MonthHand]:
    """Each player's best hand of the month, best first: the leader and the
    standings while the month runs (HM4); with ``until``, as they stood then, of
    the hands that ended before it (HM1).

    Read through the standings index in growing LIMIT/OFFSET slices, only as far as
    ``limit`` players: a server-side cursor would make PostgreSQL plan for a tenth of
    the rows and sort the whole month first (benchmarks/README.md, "Reports").
    """
    entries = month_entries(pool=pool, month=month, until=until)
    seen: list[MonthHand] = []
    size = 4 * limit
    while True:
        batch = list(entries[len(seen) : len(seen) + size])
        seen += batch
        table = standings(seen, limit)
        if len(table) >= limit or len(batch) < size:
            return table
        size *= 4


def hit_list(*, status: str | None = None, pool: int | None = None) -> QuerySet[Hit]:
    hits = Hit.objects.select_related(
        "hand__table",
        "category",
        "category_version",
        "pool",
        "verified_by",
        "approved_by",
        "rejected_by",
    ).prefetch_related(
        "awards__player", "awards__pool", "awards__hand__table", "awards__payable"
    )
    if status:
        hits = hits.filter(status=status)
    if pool:
        hits = hits.filter(pool_id=pool)
    return hits


def award_list(
    *, status: str | None = None, player: str | None = None, pool: int | None = None
) -> QuerySet[Award]:
    awards = Award.objects.select_related(
        "player", "pool", "hand__table", "payable"
    ).order_by("-pk")
    if status:
        awards = awards.filter(status=status)
    if player:
        awards = awards.filter(player__code=player)
    if pool:
        awards = awards.filter(pool_id=pool)
    return awards


def month_list(*, pool: int | None = None) -> QuerySet[Month]:
    months = Month.objects.select_related(
        "pool", "closed_by", "approved_by", "rejected_by"
    ).prefetch_related(
        "awards__player", "awards__pool", "awards__hand__table", "awards__payable"
    )
    if pool:
        months = months.filter(pool_id=pool)
    return months


# Promotions (PR1–PR6).


@dataclass(frozen=True, slots=True)
class Clock:
    """Where a promotion's periods fall: its time zone, length and anchor (PR2)."""

    tz: ZoneInfo
    minutes: int
    anchor: int

    def period(self, at: datetime) -> tuple[datetime, datetime]:
        return period_of(at, self.tz, self.minutes, self.anchor)


def clock_of(promotion: Promotion, rules: PromotionRules) -> Clock:
    """The promotion's periods: its own time zone or the room's, anchored where
    it says or at the room's gaming-day cut-off (BI8)."""
    room = promotion.room
    anchor = rules.anchor_minutes
    return Clock(
        tz=ZoneInfo(rules.time_zone or room.time_zone),
        minutes=rules.period_minutes,
        anchor=room.gaming_day_cutoff_hour * 60 if anchor is None else anchor,
    )


class Versions:
    """A promotion's versions, read once, with their rules checked once."""

    def __init__(self, versions: Sequence[PromotionVersion]) -> None:
        self.versions = sorted(versions, key=lambda v: v.version)
        self._rules: dict[int, PromotionRules] = {}

    def rules(self, version: PromotionVersion) -> PromotionRules:
        if version.pk not in self._rules:
            self._rules[version.pk] = PromotionRules.from_config(version.rules)
        return self._rules[version.pk]

    def at(self, at: datetime) -> PromotionVersion | None:
        """The latest version published at or before ``at``."""
        found = None
        for v in self.versions:
            if v.created_at <= at:
                found = v
        return found

    def for_period(
        self, promotion: Promotion, at: datetime
    ) -> tuple[PromotionVersion, tuple[datetime, datetime]] | None:
        """The version a high-hand period containing ``at`` is decided by, and the
        period: the version in force at its start, or the first one when it was
        published inside it (a promotion counts from the period it starts in)."""
        candidate = self.at(at)
        if candidate is None:
            # Before the first version: only the period it was published in.
            first = self.versions[0] if self.versions else None
            if first is None or at < first.created_at - timedelta(days=2):
                return None
            candidate = first
        try:
            start, end = clock_of(promotion, self.rules(candidate)).period(at)
        except OverflowError:  # a moment at the calendar's edge has no period
            return None
        if candidate.created_at >= end:
            return None  # before the promotion's first period
        version = self.at(start)
        if version is None:
            first = self.versions[0]
            version = first if first.created_at < end else None
        if version is None:
            return None
        if version.pk != candidate.pk:
            start, end = clock_of(promotion, self.rules(version)).period(at)
        return version, (start, end)


def promotion_version_at(
    *, promotion: Promotion, at: datetime, until: datetime | None = None
) -> PromotionVersion | None:
    """The version in force at ``at``: the latest published at or before it. With
    ``until`` (a period's end), the first version when it was published inside
    the period ``[at, until)``: a promotion counts from the period it starts in."""
    versions = PromotionVersion.objects.filter(promotion=promotion)
    found = versions.filter(created_at__lte=at).order_by("-version").first()
    if found is None and until is not None:
        found = versions.filter(created_at__lt=until).order_by("version").first()
    return found


def promotion_pool_free(
    *,
    promotion: Promotion,
    at: datetime,
    carried_in: int = 0,
    exclude: int | None = None,
) -> int:
    """What the promotion's pool holds at ``at`` that no prize has been promised
    (PR1): its ledger balance then (carry-overs booked since included, as they
    belong to the periods before), less the prizes found and not yet paid by
    then, less ``carried_in`` (a period's carried prize, in the pool already).
    ``exclude``: a prize not to count (the one being decided again)."""
    pool = promotion.pool
    total = Entry.objects.filter(account_id=pool.account_id).aggregate(
        s=Sum(
            "amount_cents",
            filter=Q(transaction__posted_at__lte=at)
            | Q(transaction__kind=PROMOTION_CARRY_KIND),
        )
    )["s"]
    balance = -(total or 0)
    promised = (
        PromotionPrize.objects.filter(promotion=promotion)
        .filter(
            Q(status__in=["pending", "verified"])
            | Q(status="approved", booking__posted_at__gt=at)
        )
        .exclude(pk=exclude or 0)
        .aggregate(s=Sum("pool_cents"))["s"]
    )
    return balance - (promised or 0) - carried_in


def period_entries(
    *, promotion: Promotion, start: datetime
) -> QuerySet[PromotionEntry]:
    """The high hands of a period, best first, equal hands earlier first, of hands
    still booked (PR2, PR4)."""
    return (
        PromotionEntry.objects.filter(
            promotion=promotion, period_start=start, hand__status=Hand.Status.BOOKED
        )
        .select_related("player", "hand__table")
        .order_by("-key", "ended_at", "hand_id", "seat")
    )


def period_leaders(*, promotion: Promotion, start: datetime) -> list[PromotionEntry]:
    """The period's best hand, or its tied best hands, one a player, earlier first
    (PR2: ties share)."""
    entries = period_entries(promotion=promotion, start=start)
    best = entries.first()
    if best is None:
        return []
    return standings(entries.filter(key=best.key), 12)


def prize_list(
    *, status: str | None = None, promotion: int | None = None
) -> QuerySet[PromotionPrize]:
    prizes = PromotionPrize.objects.select_related(
        "promotion__room",
        "promotion__pool",
        "version",
        "hand__table",
        "verified_by",
        "approved_by",
        "rejected_by",
    ).prefetch_related(
        "awards__player", "awards__pool", "awards__hand__table", "awards__payable"
    )
    if status:
        prizes = prizes.filter(status=status)
    if promotion:
        prizes = prizes.filter(promotion_id=promotion)
    return prizes


def promotion_list(*, room: str | None = None) -> QuerySet[Promotion]:
    promotions = Promotion.objects.select_related("room", "pool").order_by(
        "room_id", "pk"
    )
    if room:
        promotions = promotions.filter(room__code=room)
    return promotions


def period_carried_in(*, promotion: Promotion, start: datetime) -> int:
    """What the high-hand period before the one starting at ``start`` carried into
    it (PR2): all of its prize when it had no hand and carried over, else 0."""
    before = (
        PromotionPrize.objects.filter(
            promotion=promotion, kind=PromotionPrize.Kind.PERIOD, period_end=start
        )
        .exclude(status=PromotionPrize.Status.CANCELLED)
        .first()
    )
    if before is None or before.status != PromotionPrize.Status.CARRIED_OVER:
        return 0
    return before.house_cents + before.pool_cents


@dataclass(frozen=True, slots=True)
class BoardPromotion:
    """A running promotion as the public board shows it (PR6).

    A high hand: its current period (``start``, ``end``), the period's best hand
    or tied best hands (``leaders``) and what the period would pay if it ended
    now (``prize``: its fixed amount, its share of what the pool holds free, what
    the empty periods before carried in). A fixed bonus or aces cracked: its
    table (``lines``: the hand and what it would pay now)."""

    promotion: Promotion
    rules: PromotionRules
    start: datetime | None = None
    end: datetime | None = None
    leaders: tuple[PromotionEntry, ...] = ()
    prize: Amount | None = None
    carried_in: int = 0
    lines: tuple[tuple[str, Amount], ...] = ()


def promotion_board(*, room: Room, now: datetime) -> list[BoardPromotion]:
    """The room's promotions running at ``now``, in the order they were started
    (PR6): a high hand in its current period with its leaders and the prize it
    would pay now; a bonus with its table of amounts. A promotion ended (its
    version in force inactive) or not started yet is left out. ``versions``
    reads a promotion's versions (:class:`PromotionVersions`)."""
    shown: list[BoardPromotion] = []
    promotions = (
        Promotion.objects.filter(room=room, pool__active=True)
        .select_related("room", "pool__account")
        .prefetch_related("versions")
        .order_by("pk")
    )
    for promotion in promotions:
        read = Versions(list(promotion.versions.all()))
        if promotion.kind == HIGH_HAND:
            found = read.for_period(promotion, now)
            if found is None or not found[0].active:
                continue
            version, (start, end) = found
            rules = read.rules(version)
            carried_in = period_carried_in(promotion=promotion, start=start)
            free = promotion_pool_free(
                promotion=promotion, at=now, carried_in=carried_in
            )
            shown.append(
                BoardPromotion(
                    promotion=promotion,
                    rules=rules,
                    start=start,
                    end=end,
                    leaders=tuple(period_leaders(promotion=promotion, start=start)),
                    prize=prize_amount(rules.prize, free=free, carried_in=carried_in),
                    carried_in=carried_in,
                )
            )
            continue
        in_force = read.at(now)
        if in_force is None or not in_force.active:
            continue
        rules = read.rules(in_force)
        free = promotion_pool_free(promotion=promotion, at=now)
        table = [(ACES_CRACKED, rules.prize.fixed)]
        if rules.kind != ACES_CRACKED:
            table = [(line.hand, line.fixed) for line in rules.bonuses]
        percent, funding = rules.prize.pool_percent, rules.prize.funding
        lines = tuple(
            (hand, prize_amount(Prize(fixed, percent, funding), free=free))
            for hand, fixed in table
        )
        shown.append(BoardPromotion(promotion=promotion, rules=rules, lines=lines))
    return shown
