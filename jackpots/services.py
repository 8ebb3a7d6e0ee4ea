"""Writes of the jackpots: pools and their money, categories, qualification, hits,
months and awards.

Every function is keyword-only and atomic; money moves only through the ledger
(``accounting.services.transaction_post``), in the same database transaction as the
rows that say why:

- a hand's drop: credited to the room's pools and reserves by their ratios (JD4),
  inside the floor's booking of the hand (:func:`drop_legs`);
- a seed from the house: house capital → pool or reserve (``jackpot_seed``);
- an approved hit or month: pool → awards payable, for each recipient a cage
  payable, and the reserve rolled into the pool as the next jackpot's seed
  (``jackpot_award``, BB5, HM3). The cashier pays the payables (CA6);
- a promotion ended: pool → its successor, or drops that reached no pool → a pool,
  with a manager's reason (``jackpot_transfer``, JD5).

Nothing else takes money out of a pool, and the ledger refuses a pool below zero
(JD5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Any

import pghistory
import structlog
from django.contrib.auth.models import User
from django.db import OperationalError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting import chart
from accounting.cage import payable_create
from accounting.models import Account, Player, Transaction
from accounting.services import Leg, retry_on_conflict, transaction_post
from cardroom.models import Hand, HandException, HandSeat, Room
from core.api.errors import ApiError, Conflict, RuleViolation
from core.errors import ApplicationError
from core.roles import Role, has_role
from jackpots import selectors
from jackpots.domain.months import (
    month_bounds,
    month_name,
    month_of,
    months_due,
    next_month,
)
from jackpots.domain.qualification import (
    BadBeat,
    HandFacts,
    SeatFacts,
    Shown,
    bad_beat,
    month_hands,
)
from jackpots.domain.rules import (
    HIGH_GAMES,
    HOLDEM_GAMES,
    OMAHA_GAMES,
    CardUse,
    CategoryRules,
    ConfigError,
)
from jackpots.domain.shares import PoolRatio, drop_split, percent_of, role_shares
from jackpots.models import (
    Award,
    Category,
    CategoryVersion,
    Hit,
    Month,
    MonthHand,
    Pool,
    QualifiedHand,
    SweepCursor,
    Transfer,
)

log = structlog.get_logger(__name__)

AWARD_KIND = selectors.AWARD_KIND
SEED_KIND = "jackpot_seed"
# A month's amount is the pool's just before the next month begins.
_INSTANT = timedelta(microseconds=1)


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _require(user: User, *roles: Role) -> None:
    """Refuse (403) a person without one of ``roles``: the admin calls these too."""
    if not has_role(user, *roles):
        raise ApiError(
            _("This needs the role: %(roles)s.")
            % {"roles": " or ".join(r.value for r in roles)},
            code="permission_denied",
            status_code=403,
        )


def _config_refusal(error: ConfigError) -> ApiError:
    return ApiError(
        _("%(field)s: %(detail)s") % {"field": error.field, "detail": error.detail},
        code="invalid_configuration",
        allowed={"field": error.field},
    )


# Pools -------------------------------------------------------------------------------


def _pool_fields_check(fields: dict[str, Any]) -> None:
    games = fields.get("games")
    if games is not None:
        bad = [g for g in games if g not in HIGH_GAMES]
        if not isinstance(games, list) or bad:
            raise _config_refusal(
                ConfigError(
                    "games", f"games with high hands are {', '.join(HIGH_GAMES)}"
                )
            )
    for name, low, high in (
        ("reserve_percent", 0, 100),
        ("payout_percent", 0, 100),
        ("month_close_day", 1, 28),
        ("month_close_hour", 0, 23),
        ("drop_ratio", 0, 10**6),
    ):
        value = fields.get(name)
        if value is not None and not (
            isinstance(value, int)
            and not isinstance(value, bool)
            and low <= value <= high
        ):
            raise _config_refusal(ConfigError(name, f"from {low} to {high}"))


@transaction.atomic
def pool_create(
    *,
    room: Room,
    code: str,
    name: str,
    kind: Pool.Kind | str,
    by: User | None,
    drop_ratio: int = 1,
    reserve_percent: int = 0,
    seed_cents: int = 0,
    games: list[str] | None = None,
    payout_percent: int = 100,
    month_close_day: int = 1,
    month_close_hour: int = 12,
    starts_on: date | None = None,
    now: datetime | None = None,
) -> Pool:
    """Start a pool in ``room``, with its ledger accounts (JD5) and, when
    ``seed_cents`` is given, the house's seed booked from house capital.

    A hand-of-the-month pool covers ``games`` (default: the Hold'em and Omaha games
    of BB2) from the month of ``starts_on`` (default: this month). Raises
    :class:`ApiError` (400) for a bad setting and :class:`Conflict` for a code the
    room already uses.
    """
    fields = {
        "games": games,
        "reserve_percent": reserve_percent,
        "payout_percent": payout_percent,
        "month_close_day": month_close_day,
        "month_close_hour": month_close_hour,
        "drop_ratio": drop_ratio,
    }
    _pool_fields_check(fields)
    if Pool.objects.filter(room=room, code=code).exists():
        raise Conflict(
            _("The room has a pool %(code)s already.") % {"code": code},
            code="pool_exists",
        )
    if kind == Pool.Kind.HAND_OF_THE_MONTH and not games:
        games = [*HOLDEM_GAMES, *OMAHA_GAMES]
    # One segment ("main.bad-beat"): jackpot:main.bad-beat:pool, as the board reads.
    key = f"{room.code}.{code}"
    with pghistory.context(user=getattr(by, "pk", None)):
        pool = Pool.objects.create(
            room=room,
            code=code,
            name=name,
            kind=kind,
            drop_ratio=drop_ratio,
            reserve_percent=reserve_percent,
            games=games or [],
            payout_percent=payout_percent,
            month_close_day=month_close_day,
            month_close_hour=month_close_hour,
            starts_on=(starts_on or month_of(_now(now), room.tz)).replace(day=1),
            account=chart.jackpot_pool(pool=key, currency=room.currency),
            reserve_account=chart.jackpot_reserve(pool=key, currency=room.currency),
            seed_cents=seed_cents,
            created_by=by,
        )
    _accounts_name(pool)
    if seed_cents:
        pool_seed(
            pool=pool,
            amount_cents=seed_cents,
            by=by,
            memo=_("The house's seed when the pool started."),
            now=now,
        )
    return pool


@transaction.atomic
def pool_update(*, pool: Pool, by: User | None, **changes: Any) -> Pool:
    """Change a pool's name, ratios, hand-of-the-month settings or ``active``.

    The change applies from the next hand; django-pghistory keeps who changed what.
    Raises :class:`ApiError` (400) for a bad setting or a field that can't change.
    """
    editable = {
        "name",
        "drop_ratio",
        "reserve_percent",
        "games",
        "payout_percent",
        "month_close_day",
        "month_close_hour",
        "active",
    }
    unknown = set(changes) - editable
    if unknown:
        raise ApiError(
            _("These can't change: %(fields)s.")
            % {"fields": ", ".join(sorted(unknown))},
            code="invalid_configuration",
        )
    _pool_fields_check(changes)
    with pghistory.context(user=getattr(by, "pk", None)):
        for field, value in changes.items():
            setattr(pool, field, value)
        pool.save(update_fields=list(changes))
    if "name" in changes:
        _accounts_name(pool)
    return pool


def _accounts_name(pool: Pool) -> None:
    """Name the pool's ledger accounts as the pool: the board shows them (JD6)."""
    Account.objects.filter(pk=pool.account_id).update(name=pool.name)
    Account.objects.filter(pk=pool.reserve_account_id).update(
        name=_("%(pool)s reserve") % {"pool": pool.name}
    )


@transaction.atomic
def pool_seed(
    *,
    pool: Pool,
    amount_cents: int,
    by: User | None,
    to_reserve: bool = False,
    memo: str = "",
    now: datetime | None = None,
    source: str = "",
) -> Transaction:
    """Put house money into a pool or its reserve: house capital → pool (JD5).

    Raises :class:`ApiError` (400) for an amount that isn't positive cents.
    """
    if (
        isinstance(amount_cents, bool)
        or not isinstance(amount_cents, int)
        or (amount_cents <= 0)
    ):
        raise ApiError(
            _("A seed is a positive number of cents."), code="invalid_amount"
        )
    target = pool.reserve_account if to_reserve else pool.account
    return transaction_post(
        kind=SEED_KIND,
        legs=[
            Leg(chart.house_capital(currency=target.currency), amount_cents),
            Leg(target, -amount_cents),
        ],
        posted_by=by,
        source=source or ("" if by else "jackpots"),
        reference=f"pool {pool.room.code}:{pool.code}",
        memo=memo or _("Seed from the house."),
        posted_at=_now(now),
    )


TRANSFER_KIND = "jackpot_transfer"


def _reason_check(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise RuleViolation(
            _("JD5: a manager records why money held in trust moves."),
            code="reason_required",
            rule="JD5",
        )
    return reason


def _still_owed(pool: Pool) -> None:
    """Refuse to move a pool's money while a hit or a month waits on it (BB4, HM3)."""
    hits = pool.hits.filter(status__in=[Hit.Status.PENDING, Hit.Status.VERIFIED])
    months = pool.months.filter(status=Month.Status.PENDING)
    waiting = [*(f"hit {pk}" for pk in hits.values_list("pk", flat=True))]
    waiting += [f"month {pk}" for pk in months.values_list("pk", flat=True)]
    if waiting:
        raise RuleViolation(
            _("JD5: %(pool)s still owes players; decide %(what)s first.")
            % {"pool": pool.code, "what": ", ".join(waiting)},
            code="pool_owes",
            rule="JD5",
            allowed={"waiting": waiting},
        )


def _transfer_book(
    *,
    room: Room,
    source: Pool | None,
    target: Pool,
    legs: list[Leg],
    amount_cents: int,
    reserve_cents: int,
    reason: str,
    retired: bool,
    by: User,
    now: datetime | None,
) -> Transfer:
    at = _now(now)
    txn = transaction_post(
        kind=TRANSFER_KIND,
        legs=legs,
        posted_by=by,
        reference=f"pool {room.code}:{source.code if source else 'drops'}"
        f" -> {target.code}",
        memo=reason,
        posted_at=at,
    )
    return Transfer.objects.create(
        room=room,
        source=source,
        target=target,
        amount_cents=amount_cents,
        reserve_cents=reserve_cents,
        reason=reason,
        retired=retired,
        decided_by=by,
        decided_at=at,
        ledger_transaction=txn,
    )


def _lock_pools(*pools: Pool) -> list[Pool]:
    """The pools' rows and their accounts, locked in one order (no deadlock): FOR
    UPDATE locks the joined account rows too, so the balances read stay put."""
    ids = sorted(p.pk for p in pools)
    locked = {
        p.pk: p
        for p in Pool.objects.select_for_update()
        .select_related("room", "account", "reserve_account")
        .filter(pk__in=ids)
        .order_by("pk")
    }
    return [locked[p.pk] for p in pools]


def _target_check(pool: Pool, target: Pool) -> None:
    if target.pk == pool.pk or target.room_id != pool.room_id or not target.active:
        raise RuleViolation(
            _("JD5: the successor is another active pool of room %(room)s.")
            % {"room": pool.room.code},
            code="bad_successor",
            rule="JD5",
        )
    if target.account.currency != pool.account.currency:
        raise RuleViolation(
            _("JD5: the successor pool keeps another currency."),
            code="bad_successor",
            rule="JD5",
        )


@retry_on_conflict()
@transaction.atomic
def pool_retire(
    *,
    pool: Pool,
    successor: Pool,
    reason: str,
    by: User,
    now: datetime | None = None,
) -> Transfer | None:
    """End a promotion (JD5): the pool takes no more drops and all it holds, its
    amount and its reserve, moves to ``successor`` (amount to amount, reserve to
    reserve), with the manager's record of why.

    Refused (422, JD5) without a reason, for a successor that isn't another active
    pool of the room, or while a hit or a month waits on the pool. Returns the
    transfer, or None when the pool held nothing (it is retired all the same).
    """
    _require(by, Role.MANAGER)
    reason = _reason_check(reason)
    pool, successor = _lock_pools(pool, successor)
    _target_check(pool, successor)
    if not pool.active:
        raise Conflict(
            _("%(pool)s was retired already.") % {"pool": pool.code},
            code="already_retired",
        )
    _still_owed(pool)
    amount = pool.account.balance_cents
    reserve = pool.reserve_account.balance_cents
    with pghistory.context(user=by.pk, reason=reason):
        pool.active = False
        pool.save(update_fields=["active"])
    if not amount and not reserve:
        return None
    legs = []
    if amount:
        legs += [Leg(pool.account, amount), Leg(successor.account, -amount)]
    if reserve:
        legs += [
            Leg(pool.reserve_account, reserve),
            Leg(successor.reserve_account, -reserve),
        ]
    return _transfer_book(
        room=pool.room,
        source=pool,
        target=successor,
        legs=legs,
        amount_cents=amount,
        reserve_cents=reserve,
        reason=reason,
        retired=True,
        by=by,
        now=now,
    )


@retry_on_conflict()
@transaction.atomic
def drops_allocate(
    *,
    pool: Pool,
    reason: str,
    by: User,
    amount_cents: int | None = None,
    now: datetime | None = None,
) -> Transfer:
    """Give hands' drops that reached no pool (``jackpot:drops``, booked while the
    room had no active pool) to ``pool``: held in trust, they go to players (JD5).

    ``amount_cents`` defaults to all of them. Refused (422, JD5) without a reason,
    for an inactive pool, or for more than is held.
    """
    _require(by, Role.MANAGER)
    reason = _reason_check(reason)
    (pool,) = _lock_pools(pool)
    drops = Account.objects.select_for_update().get(pk=chart.jackpot_drops().pk)
    if not pool.active or drops.currency != pool.account.currency:
        raise RuleViolation(
            _("JD5: the drops go to an active pool in %(currency)s.")
            % {"currency": drops.currency},
            code="bad_successor",
            rule="JD5",
        )
    held = drops.balance_cents
    amount = held if amount_cents is None else amount_cents
    whole = isinstance(amount, int) and not isinstance(amount, bool)
    if not whole or not 0 < amount <= held:
        raise RuleViolation(
            _("JD5: %(held)d cents of drops wait for a pool; give from 1 to that.")
            % {"held": held},
            code="invalid_amount",
            rule="JD5",
            allowed={"min": 1 if held else 0, "max": held},
        )
    return _transfer_book(
        room=pool.room,
        source=None,
        target=pool,
        legs=[Leg(drops, amount), Leg(pool.account, -amount)],
        amount_cents=amount,
        reserve_cents=0,
        reason=reason,
        retired=False,
        by=by,
        now=now,
    )


def drop_legs(
    *,
    room: Room | int,
    table: object,
    amount_cents: int,
    accounts: Mapping[str, Account] | None = None,
) -> list[Leg]:
    """Return the legs crediting a hand's drop to the room's pools (JD1, JD4).

    The floor calls this inside the hand's booking (``CARDROOM_JACKPOT_DROP_LEGS``),
    with the ``accounts`` it read for the hand. The active pools share the drop by
    their ratios, each pool's part split again with its reserve, by the
    largest-remainder method: the legs always add up to the drop. A room without
    pools credits the one account ``jackpot:drops``, held in trust until a manager
    allocates it (JD5).
    """
    room_id = room if isinstance(room, int) else room.pk
    pools = selectors.drop_pools(room_id=room_id)
    if not pools:
        drops = (accounts or {}).get(chart.JACKPOT_DROPS) or chart.jackpot_drops()
        return [Leg(drops, -amount_cents)]
    parts = drop_split(
        amount_cents, [PoolRatio(p.drop_ratio, p.reserve_percent) for p in pools]
    )
    legs = []
    for pool, (to_pool, to_reserve) in zip(pools, parts, strict=True):
        legs.append(Leg(pool.account, -to_pool))
        if to_reserve:
            legs.append(Leg(pool.reserve_account, -to_reserve))
    return legs


# Categories --------------------------------------------------------------------------


@transaction.atomic
def category_publish(
    *,
    category: Category,
    config: dict[str, Any],
    pool_code: str,
    by: User | None,
    active: bool = True,
    note: str = "",
) -> CategoryVersion:
    """Add a version of a category's rules (BB2); it applies to hands qualified
    from now on, while hits already found keep the version they were found under.

    Raises :class:`ApiError` (400) naming the first field the rules can't use.
    """
    try:
        rules = CategoryRules.from_config(config)
    except ConfigError as error:
        raise _config_refusal(error) from error
    locked = Category.objects.select_for_update().get(pk=category.pk)
    latest = locked.versions.order_by("-version").first()
    document = rules.to_config()
    return CategoryVersion.objects.create(
        category=locked,
        version=(latest.version if latest else 0) + 1,
        active=active,
        pool_code=pool_code,
        games=document["games"],
        min_losing_hand=document["min_losing_hand"],
        card_use=document["card_use"],
        min_participants=rules.min_participants,
        min_pot_cents=rules.min_pot_cents,
        payout_percent=rules.payout.percent,
        loser_part=rules.payout.loser,
        winner_part=rules.payout.winner,
        table_part=rules.payout.table,
        note=note,
        created_by=by,
    )


# Qualification (BB1–BB3, HM1) ----------------------------------------------------


def hand_facts(
    hand: Hand, seats: Sequence[HandSeat], board: Sequence[str] | None = None
) -> HandFacts:
    """Return what the rules need of a booked hand: its record and ``seats``.

    ``board`` is one run's board of a hand run more than once (HS10); the first
    run's by default. A seat that mucked at the showdown tabled no hand (BB1): it
    counts as folded here.
    """
    record = hand.record
    mucked = {
        row.get("seat")
        for row in record.get("seats") or ()
        if isinstance(row, dict) and row.get("mucked") is True
    }
    return HandFacts(
        game=hand.game.code,
        streets=int(record.get("streets", 0)),
        board=tuple(record.get("board") or () if board is None else board),
        seats=tuple(
            SeatFacts(
                seat=s.seat,
                player=s.player.code,
                present=s.present,
                folded=s.folded or s.seat in mucked,
                cards=tuple(s.cards) if s.cards else None,
            )
            for s in seats
        ),
        pot_cents=hand.pot_cents,
    )


def hand_runs_facts(hand: Hand, seats: Sequence[HandSeat]) -> list[HandFacts]:
    """Return the facts of each run that counts for the jackpots (HS10).

    The first run only, unless the hand was run more than once and the policy it
    was settled with sets ``jackpots_first_run_only`` to false: then every run.
    """
    boards = hand.record.get("boards") or []
    # The policy is read only for a hand run more than once, which is rare.
    if len(boards) < 2 or hand.policy.document.get("jackpots_first_run_only", True):
        return [hand_facts(hand, seats)]
    return [hand_facts(hand, seats, board) for board in boards]


def _shown(s: Shown) -> dict[str, Any]:
    return {
        "seat": s.seat,
        "player": s.player,
        "hand": s.description,
        "cards": list(s.cards),
        "hole": list(s.hole),
    }


def _hit_details(beat: BadBeat, facts: HandFacts) -> dict[str, Any]:
    return {
        "losers": [_shown(s) for s in beat.losers],
        "winners": [_shown(s) for s in beat.winners],
        "other_losers": [_shown(s) for s in beat.other_losers],
        "table": list(beat.table),
        "participants": len(facts.participants),
        "pot": facts.pot_cents,
    }


Members = list[tuple[Hand, int, Player]]


def _recipients(
    beat: BadBeat, hand: Hand, players: dict[int, Player], version: CategoryVersion
) -> list[tuple[Award.Role, int, Members]]:
    """The roles in BB6's priority order, each with its part and its seats;
    ``players`` by seat."""

    def members(seats: Iterable[int]) -> Members:
        return [(hand, n, players[n]) for n in seats]

    return [
        (Award.Role.LOSER, version.loser_part, members(s.seat for s in beat.losers)),
        (Award.Role.WINNER, version.winner_part, members(s.seat for s in beat.winners)),
        (Award.Role.TABLE, version.table_part, members(beat.table)),
    ]


def _awards_new(
    *,
    pool: Pool,
    payout: int,
    roles: Sequence[tuple[Award.Role, int, Members]],
    hit: Hit | None = None,
    month: Month | None = None,
) -> list[Award]:
    """Create the pending awards of a hit or a month: ``payout`` split between the
    roles by their parts and equally within each, by largest remainder (BB6, HM2).
    """
    shares = role_shares(payout, [(part, len(members)) for _r, part, members in roles])
    awards, position = [], 0
    for (role, part, members), amounts in zip(roles, shares, strict=True):
        for (hand, seat, player), amount in zip(members, amounts, strict=True):
            awards.append(
                Award(
                    pool=pool,
                    hit=hit,
                    month=month,
                    hand=hand,
                    seat=seat,
                    player=player,
                    role=role,
                    part=part,
                    sharing=len(members),
                    position=position,
                    amount_cents=amount,
                )
            )
            position += 1
    return Award.objects.bulk_create(awards)


def _current_versions() -> list[CategoryVersion]:
    """The version in force of each category, retired ones left out."""
    latest = (
        CategoryVersion.objects.select_related("category")
        .order_by("category_id", "-version")
        .distinct("category_id")
    )
    return [v for v in latest if v.active]


@retry_on_conflict()
@transaction.atomic
def hand_qualify(*, hand_id: int, now: datetime | None = None) -> list[Hit]:
    """Look at a booked hand for the jackpots, once: bad beats and hand of the month.

    For each category in force (BB2) a bad beat (BB1, BB3) becomes a pending hit on
    the pool the category names, in the hand's room, with its awards computed from
    the pool's amount after the hand's drop (BB4), and a ``bad_beat_candidate``
    exception on the hand for the floor. Hands tabled at a showdown in a game a
    hand-of-the-month pool covers are entered in that month's standings (HM1,
    HM4). Runs after the booking commits (a Celery task); the hand's row lock and
    its :class:`QualifiedHand` record make a second run do nothing, and the
    database allows one hit per hand and category.
    """
    hand = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("table__room", "game")
        .filter(pk=hand_id)
        .first()
    )
    if hand is None:
        log.warning("jackpots.qualify.unknown_hand", hand=hand_id)
        return []
    if QualifiedHand.objects.filter(hand=hand).exists():
        return list(hand.jackpot_hits.all())
    now = _now(now)
    QualifiedHand.objects.create(hand=hand, qualified_at=now)
    if hand.status != Hand.Status.BOOKED:
        return []
    room = hand.table.room
    assert room is not None
    seats = list(hand.seats.select_related("player").order_by("seat"))
    runs = hand_runs_facts(hand, seats)
    players = {s.seat: s.player for s in seats}
    versions = _current_versions()
    hits = []
    for version in versions:
        rules = CategoryRules.from_config(version.config())
        # HS10: the first run that is a bad beat, of the runs that count.
        for facts in runs:
            verdict = bad_beat(rules, facts)
            if verdict.bad_beat is not None:
                hits += _bad_beat_record(
                    hand, facts, players, version, verdict.bad_beat, now
                )
                break
    _month_entries(hand, runs, players, versions, room)
    return hits


def _bad_beat_record(
    hand: Hand,
    facts: HandFacts,
    players: dict[int, Player],
    version: CategoryVersion,
    beat: BadBeat,
    now: datetime,
) -> list[Hit]:
    """Record a bad beat: a pending hit with its awards on the category's pool in
    the hand's room, and a ``bad_beat_candidate`` exception on the hand (BB1).
    Once per hand and category, even if the hand's qualification record is lost."""
    known = HandException.objects.filter(
        hand=hand,
        kind=HandException.Kind.BAD_BEAT_CANDIDATE,
        details__category=version.category.code,
    ).exists()
    if known:
        return list(Hit.objects.filter(hand=hand, category=version.category))
    pool = Pool.objects.filter(
        room=hand.table.room, code=version.pool_code, active=True
    ).first()
    hit = None
    if pool is not None:
        amount = selectors.pool_amount_at(pool=pool, at=hand.ended_at)
        hit = Hit.objects.create(
            hand=hand,
            hand_ended_at=hand.ended_at,
            category=version.category,
            category_version=version,
            pool=pool,
            details=_hit_details(beat, facts),
            pool_cents=amount,
            payout_cents=0,
            found_at=now,
        )
        awards = _awards_new(
            pool=pool,
            payout=percent_of(amount, version.payout_percent),
            roles=_recipients(beat, hand, players, version),
            hit=hit,
        )
        hit.payout_cents = sum(a.amount_cents for a in awards)
        hit.save(update_fields=["payout_cents"])
    HandException.objects.create(
        hand=hand,
        kind=HandException.Kind.BAD_BEAT_CANDIDATE,
        details={
            "code": "bad_beat_candidate",
            "rule": "BB1",
            "detail": _(
                "%(category)s: %(loser)s lost to %(winner)s. A floor person verifies "
                "the cards and the camera; a manager approves."
            )
            % {
                "category": version.category.name,
                "loser": beat.losers[0].description,
                "winner": beat.winners[0].description,
            },
            "category": version.category.code,
            "pool": version.pool_code if pool is not None else None,
            "hit": hit.pk if hit is not None else None,
            "losers": [s.seat for s in beat.losers],
            "winners": [s.seat for s in beat.winners],
        },
    )
    return [hit] if hit is not None else []


def _month_entries(
    hand: Hand,
    runs: Sequence[HandFacts],
    players: dict[int, Player],
    versions: Sequence[CategoryVersion],
    room: Room,
) -> None:
    """Enter the hand's showdown hands in the standings of the room's
    hand-of-the-month pools that cover its game (HM1, HM4), unless that month of
    the pool is closed already. Of several runs that count (HS10), each seat's
    best hand on any of them."""
    facts = runs[0]
    month = month_of(hand.ended_at, room.tz)
    pools = [
        p
        for p in Pool.objects.filter(
            room=room, kind=Pool.Kind.HAND_OF_THE_MONTH, active=True
        ).exclude(months__month=month)
        if facts.game in p.games and month >= p.starts_on.replace(day=1)
    ]
    if not pools:
        return
    # Card use as in BB2 for the game: the rule of the category that covers it.
    card_use = next(
        (
            CategoryRules.from_config(v.config()).loser
            for v in versions
            if facts.game in v.games
        ),
        CardUse(),
    )
    MonthHand.objects.bulk_create(
        [
            MonthHand(
                pool=pool,
                month=month,
                hand=hand,
                ended_at=hand.ended_at,
                seat=s.seat,
                player=players[s.seat],
                key=s.key,
                description=s.description,
                cards=list(s.cards),
            )
            for s in _best_month_hands(runs, card_use)
            for pool in pools
        ],
        ignore_conflicts=True,
    )


def _best_month_hands(runs: Sequence[HandFacts], card_use: CardUse) -> list[Shown]:
    """Return each seat's best month hand over the runs, in seat order (HM1)."""
    best: dict[int, Shown] = {}
    for facts in runs:
        for shown in month_hands(facts, {facts.game: card_use}):
            if shown.seat not in best or shown.key > best[shown.seat].key:
                best[shown.seat] = shown
    return [best[seat] for seat in sorted(best)]


def hands_qualify_missed(
    *, since: datetime, until: datetime | None = None, room: Room | None = None
) -> int:
    """Qualify the booked hands that ended in ``[since, until)`` and were never
    looked at (their task lost with a broker down); return how many.

    Each hand in its own transaction, in the order they ended.
    """
    hands = Hand.objects.filter(ended_at__gte=since).exclude(
        Exists(QualifiedHand.objects.filter(hand_id=OuterRef("pk")))
    )
    if until is not None:
        hands = hands.filter(ended_at__lt=until)
    if room is not None:
        hands = hands.filter(table__room=room)
    count = 0
    for hand_id in hands.order_by("ended_at", "pk").values_list("pk", flat=True):
        hand_qualify(hand_id=hand_id)
        count += 1
    return count


SWEEP = "hands"
SWEEP_BATCH = 500
"""The most hands one sweep qualifies in its transaction; the task sweeps again
until fewer are left."""
SWEEP_LOOKBACK = 1_000
"""How many ids below the cursor each sweep looks at again. Ids are drawn when a
hand is inserted, not when it commits: a booking that commits after a later one
is found here, and ``hands_qualify_missed`` (every five minutes, two days back)
catches what is slower still."""


@retry_on_conflict()
@transaction.atomic
def hands_qualify_new(*, limit: int = SWEEP_BATCH, now: datetime | None = None) -> int:
    """Qualify the hands booked since the sweep's cursor, in one transaction, in id
    order; return how many (BB1, HM1).

    The cursor row is locked first, so sweeps run one at a time, and moved in the
    same transaction: a sweep that fails leaves it and its hands as they were, and
    the next one does them again. Hands already qualified are left out (and
    :func:`hand_qualify` does nothing twice). One hand that fails is logged and
    left for :func:`hands_qualify_missed`; the others go on.
    """
    cursor, _created = SweepCursor.objects.select_for_update().get_or_create(name=SWEEP)
    ids = list(
        Hand.objects.filter(pk__gt=max(cursor.last_hand_id - SWEEP_LOOKBACK, 0))
        .exclude(Exists(QualifiedHand.objects.filter(hand_id=OuterRef("pk"))))
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )
    for hand_id in ids:
        try:
            hand_qualify(hand_id=hand_id, now=now)
        except OperationalError:
            raise  # a deadlock or a lost connection: the whole sweep again
        except Exception:  # one bad hand must not hold back the room's jackpots
            log.exception("jackpots.sweep.hand_failed", hand=hand_id)
    cursor.last_hand_id = max([cursor.last_hand_id, *ids])
    cursor.swept_at = _now(now)
    cursor.save(update_fields=["last_hand_id", "swept_at"])
    return len(ids)


# Hits (BB4–BB6) ----------------------------------------------------------------------


def _lock_hit(hit: Hit) -> Hit:
    # Pool first, then the hit: every approval on a pool queues on the pool's row,
    # so hits are booked one after another, in the order they are approved.
    Pool.objects.select_for_update().filter(pk=hit.pool_id).get()
    return (
        Hit.objects.select_for_update(of=("self",))
        .select_related("pool__room", "pool__account", "pool__reserve_account", "hand")
        .get(pk=hit.pk)
    )


def _hand_still_booked(hand: Hand) -> None:
    if hand.status != Hand.Status.BOOKED:
        raise RuleViolation(
            _("RK8: hand %(hand)s was voided; its hit can only be rejected.")
            % {"hand": hand},
            code="hand_voided",
            rule="RK8",
        )


def _decided(hit: Hit) -> Conflict:
    return Conflict(
        _("Hit %(id)d is %(status)s already.")
        % {"id": hit.pk, "status": hit.get_status_display()},
        code="already_approved" if hit.status == Hit.Status.APPROVED else "decided",
        rule="BB5",
    )


@retry_on_conflict()
@transaction.atomic
def hit_verify(
    *, hit: Hit, by: User, note: str = "", now: datetime | None = None
) -> Hit:
    """A floor person confirms the hit: the cards, the camera (BB5).

    Raises :class:`Conflict` (409) for a hit no longer pending, :class:`RuleViolation`
    (RK8) for a voided hand.
    """
    _require(by, Role.FLOOR, Role.MANAGER)
    h = _lock_hit(hit)
    if h.status != Hit.Status.PENDING:
        raise _decided(h)
    _hand_still_booked(h.hand)
    h.status = Hit.Status.VERIFIED
    h.verified_by, h.verified_at, h.verification_note = by, _now(now), note
    h.save(update_fields=["status", "verified_by", "verified_at", "verification_note"])
    return h


@retry_on_conflict()
@transaction.atomic
def hit_approve(*, hit: Hit, by: User, now: datetime | None = None) -> Hit:
    """A manager, not the verifier, approves a verified hit; its awards are booked
    from the pool to awards payable and made payable at the cage (BB5, CA6).

    The amount is the pool's after the hand's drop, less what earlier hits took
    (BB4); earlier hits on the pool are decided first. Each recipient's share is
    fixed by the largest-remainder method (BB6). The pool's reserve rolls into the
    pool as the next jackpot's seed.

    Raises :class:`Conflict` (409, ``already_approved``) for an approved hit;
    :class:`RuleViolation` for a hit not verified (BB5), the verifier approving
    (BB5, ``four_eyes``), an earlier hit undecided (BB4), a voided hand (RK8).
    """
    _require(by, Role.MANAGER)
    h = _lock_hit(hit)
    if h.status in (Hit.Status.APPROVED, Hit.Status.REJECTED):
        raise _decided(h)
    if h.status != Hit.Status.VERIFIED:
        raise RuleViolation(
            _("BB5: a floor person verifies the hit before a manager approves it."),
            code="not_verified",
            rule="BB5",
        )
    if h.verified_by_id == by.pk:
        raise RuleViolation(
            _("BB5: the manager approving a hit is not the one who verified it."),
            code="four_eyes",
            rule="BB5",
        )
    _hand_still_booked(h.hand)
    earlier = (
        Hit.objects.filter(
            pool=h.pool, status__in=[Hit.Status.PENDING, Hit.Status.VERIFIED]
        )
        .filter(
            Q(hand_ended_at__lt=h.hand_ended_at)
            | Q(hand_ended_at=h.hand_ended_at, pk__lt=h.pk)
        )
        .order_by("hand_ended_at", "pk")
        .first()
    )
    if earlier is not None:
        raise RuleViolation(
            _("BB4: hit %(id)d, from an earlier hand, is paid first; decide it first.")
            % {"id": earlier.pk},
            code="earlier_hit_pending",
            rule="BB4",
            allowed={"hit": earlier.pk},
        )
    now = _now(now)
    amount = selectors.pool_amount_at(pool=h.pool, at=h.hand_ended_at)
    booking, paid = _awards_book(
        pool=h.pool,
        awards=list(
            h.awards.select_for_update(of=("self",))
            .select_related("player")
            .order_by("position")
        ),
        payout=percent_of(amount, h.category_version.payout_percent),
        reference=f"bad beat #{h.pk} {h.hand}",
        external_id=f"jackpot:hit:{h.pk}",
        approved_by=by,
        created_by=h.verified_by,
        now=now,
    )
    h.status = Hit.Status.APPROVED
    h.approved_by, h.approved_at = by, now
    _candidate_resolve(
        h, by=by, at=now, resolution=_("BB5: approved; the awards are payable.")
    )
    h.pool_cents, h.payout_cents, h.booking = amount, paid, booking
    h.save(
        update_fields=[
            "status",
            "approved_by",
            "approved_at",
            "pool_cents",
            "payout_cents",
            "booking",
        ]
    )
    return h


@retry_on_conflict()
@transaction.atomic
def hit_reject(*, hit: Hit, by: User, reason: str, now: datetime | None = None) -> Hit:
    """Reject a pending or verified hit with a reason; the pool is untouched (BB5).

    Raises :class:`RuleViolation` (BB5) without a reason, :class:`Conflict` (409)
    for a hit already decided.
    """
    _require(by, Role.FLOOR, Role.MANAGER)
    if not reason.strip():
        raise RuleViolation(
            _("BB5: a rejected hit records why."), code="reason_required", rule="BB5"
        )
    h = _lock_hit(hit)
    if h.status in (Hit.Status.APPROVED, Hit.Status.REJECTED):
        raise _decided(h)
    h.status = Hit.Status.REJECTED
    h.rejected_by, h.rejected_at, h.rejection_reason = by, _now(now), reason.strip()
    _candidate_resolve(
        h,
        by=by,
        at=h.rejected_at,
        resolution=_("BB5: rejected: %(reason)s") % {"reason": h.rejection_reason},
    )
    h.save(update_fields=["status", "rejected_by", "rejected_at", "rejection_reason"])
    h.awards.update(status=Award.Status.REJECTED)
    return h


def _candidate_resolve(hit: Hit, *, by: User, at: datetime, resolution: str) -> None:
    """Close the hand's ``bad_beat_candidate`` exception for ``hit`` once the hit is
    decided (BB1, BB5): it needs no person any more, and the audit lists it as
    resolved, by whom and how."""
    HandException.objects.filter(
        hand_id=hit.hand_id,
        kind=HandException.Kind.BAD_BEAT_CANDIDATE,
        details__hit=hit.pk,
        status=HandException.Status.OPEN,
    ).update(
        status=HandException.Status.RESOLVED,
        resolved_by=by,
        resolved_at=at,
        resolution=resolution[:500],
    )


def _awards_book(
    *,
    pool: Pool,
    awards: list[Award],
    payout: int,
    reference: str,
    external_id: str,
    approved_by: User,
    created_by: User | None,
    now: datetime,
) -> tuple[Transaction, int]:
    """Fix the shares of ``payout``, book them to awards payable, make them payable.

    ``awards`` in their priority order; the roles keep their parts and members.
    One posting: the pool pays the awards into awards payable and receives its
    reserve. Raises :class:`RuleViolation` (JD5) when there is nothing to pay.
    """
    roles: list[tuple[int, int]] = []
    for i, award in enumerate(awards):
        if i == 0 or awards[i - 1].role != award.role:
            roles.append((award.part, award.sharing))
    shares = [a for role in role_shares(payout, roles) for a in role]
    total = sum(shares)
    if total <= 0:
        raise RuleViolation(
            _("JD5: the pool holds nothing to pay for this jackpot."),
            code="nothing_to_pay",
            rule="JD5",
        )
    currency = pool.account.currency
    # Drops only add to the reserve while this runs: what is read can be moved.
    reserve = Account.objects.get(pk=pool.reserve_account_id).balance_cents
    booking = transaction_post(
        kind=AWARD_KIND,
        legs=[
            Leg(pool.account, total - reserve),
            Leg(pool.reserve_account, reserve),
            Leg(chart.awards_payable(currency=currency), -total),
        ],
        # Both people in the ledger (DC2): who verified or closed it, who approved.
        posted_by=created_by or approved_by,
        approved_by=approved_by if created_by is not None else None,
        reference=reference[:120],
        memo=_("Jackpot awards of %(pool)s") % {"pool": pool.name},
        external_id=external_id,
        posted_at=now,
    )
    for award, amount in zip(awards, shares, strict=True):
        award.amount_cents = amount
        award.status = Award.Status.APPROVED
        if amount:
            award.payable = payable_create(
                player=award.player,
                amount_cents=amount,
                reference=reference[:120],
                memo=award.get_role_display(),
                approved_by=approved_by,
                created_by=created_by,
                booking=booking,
                currency=currency,
            )
        award.save(update_fields=["amount_cents", "status", "payable"])
    return booking, total


# Hand of the month (HM1–HM4) -----------------------------------------------------


@retry_on_conflict()
@transaction.atomic
def month_close(
    *,
    pool: Pool,
    month: date,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> Month:
    """Close a past month of a hand-of-the-month pool (HM3).

    Any hand of the month not yet qualified is qualified first. The best hand, or
    the tied best hands, get pending awards of the pool's payout at the month's
    end, split equally, earlier hand first (HM2); a month without a qualifying hand
    carries the pool forward.

    Raises :class:`Conflict` (409, HM3) for a month closed already;
    :class:`RuleViolation` (HM3) for a month not over, before the pool's first
    month, or after a month still open; :class:`ApiError` (400) for a pool of
    another kind.
    """
    now = _now(now)
    locked = Pool.objects.select_for_update().select_related("room").get(pk=pool.pk)
    if locked.kind != Pool.Kind.HAND_OF_THE_MONTH:
        raise ApiError(
            _("%(pool)s is not a hand-of-the-month pool.") % {"pool": locked.name},
            code="not_a_month_pool",
        )
    month = month.replace(day=1)
    tz = locked.room.tz
    start, end = month_bounds(month, tz)
    if Month.objects.filter(pool=locked, month=month).exists():
        raise Conflict(
            _("HM3: %(month)s of %(pool)s is closed already.")
            % {"month": month_name(month), "pool": locked.name},
            code="month_closed",
            rule="HM3",
        )
    if now < end:
        raise RuleViolation(
            _("HM3: %(month)s is not over yet.") % {"month": month_name(month)},
            code="month_not_over",
            rule="HM3",
        )
    first = locked.starts_on.replace(day=1)
    if month < first:
        raise RuleViolation(
            _("HM3: %(pool)s starts with %(first)s.")
            % {"pool": locked.name, "first": month_name(first)},
            code="before_first_month",
            rule="HM3",
            allowed={"from": month_name(first)},
        )
    previous = (start - timedelta(days=1)).date().replace(day=1)
    if month > first and not Month.objects.filter(pool=locked, month=previous).exists():
        raise RuleViolation(
            _("HM3: close %(previous)s first.") % {"previous": month_name(previous)},
            code="earlier_month_open",
            rule="HM3",
            allowed={"month": month_name(previous)},
        )
    hands_qualify_missed(since=start, until=end, room=locked.room)
    entries = list(selectors.month_best_hands(pool=locked, month=month))
    amount = selectors.pool_amount_at(pool=locked, at=end - _INSTANT)
    payout = percent_of(amount, locked.payout_percent) if entries else 0
    record = Month.objects.create(
        pool=locked,
        month=month,
        ends_at=end,
        status=Month.Status.PENDING if entries else Month.Status.CARRIED_FORWARD,
        pool_cents=amount,
        payout_cents=payout,
        best_hand=entries[0].description if entries else "",
        closed_at=now,
        closed_by=by,
        closed_source=(source or "jackpots") if by is None else "",
    )
    if entries:
        _awards_new(
            pool=locked,
            payout=payout,
            roles=[
                (
                    Award.Role.MONTH,
                    100,
                    [(e.hand, e.seat, e.player) for e in entries],
                )
            ],
            month=record,
        )
    log.info(
        "jackpots.month.closed",
        pool=locked.code,
        month=month_name(month),
        winners=len(entries),
        payout=payout,
    )
    return record


def months_close_due(
    *, now: datetime | None = None, source: str = "beat"
) -> list[Month]:
    """Close every month whose closing moment has passed, oldest first (HM3).

    The scheduled task calls this every hour; a month closes once whatever the
    schedule (the unique month per pool), and a missed run catches up.
    """
    now = _now(now)
    closed = []
    for pool in Pool.objects.filter(
        kind=Pool.Kind.HAND_OF_THE_MONTH, active=True
    ).select_related("room"):
        last = pool.months.order_by("-month").values_list("month", flat=True).first()
        first = next_month(last) if last else pool.starts_on.replace(day=1)
        due = months_due(
            first, now, pool.room.tz, pool.month_close_day, pool.month_close_hour
        )
        try:
            for month in due:
                closed.append(
                    month_close(pool=pool, month=month, source=source, now=now)
                )
        except ApplicationError as error:
            # One pool's refusal doesn't hold up the others; it is retried next hour.
            log.error("jackpots.month.not_closed", pool=pool.pk, error=str(error))
    return closed


def _lock_month(month: Month) -> Month:
    Pool.objects.select_for_update().filter(pk=month.pool_id).get()
    return (
        Month.objects.select_for_update(of=("self",))
        .select_related("pool__room", "pool__account", "pool__reserve_account")
        .get(pk=month.pk)
    )


def _month_decided(month: Month) -> Conflict:
    return Conflict(
        _("%(month)s is %(status)s already.")
        % {"month": month, "status": month.get_status_display()},
        code="already_approved" if month.status == Month.Status.APPROVED else "decided",
        rule="HM3",
    )


@retry_on_conflict()
@transaction.atomic
def month_approve(*, month: Month, by: User, now: datetime | None = None) -> Month:
    """A manager approves a closed month's awards: booked from the pool to awards
    payable and made payable at the cage (HM3, CA6).

    The amount is the pool's at the month's end, less what earlier months took;
    earlier months are decided first. Raises :class:`Conflict` (409) for a month
    decided already, :class:`RuleViolation` (HM3) for an earlier month pending or
    the person who closed it approving.
    """
    _require(by, Role.MANAGER)
    m = _lock_month(month)
    if m.status != Month.Status.PENDING:
        raise _month_decided(m)
    if m.closed_by_id is not None and m.closed_by_id == by.pk:
        raise RuleViolation(
            _("HM3: the month is approved by another person than who closed it."),
            code="four_eyes",
            rule="HM3",
        )
    earlier = (
        Month.objects.filter(
            pool=m.pool, status=Month.Status.PENDING, month__lt=m.month
        )
        .order_by("month")
        .first()
    )
    if earlier is not None:
        raise RuleViolation(
            _("HM3: %(month)s is decided first.")
            % {"month": month_name(earlier.month)},
            code="earlier_month_pending",
            rule="HM3",
            allowed={"month": month_name(earlier.month)},
        )
    now = _now(now)
    amount = selectors.pool_amount_at(pool=m.pool, at=m.ends_at - _INSTANT)
    booking, paid = _awards_book(
        pool=m.pool,
        awards=list(
            m.awards.select_for_update(of=("self",))
            .select_related("player")
            .order_by("position")
        ),
        payout=percent_of(amount, m.pool.payout_percent),
        reference=f"hand of the month {m.pool.code} {month_name(m.month)}",
        external_id=f"jackpot:month:{m.pk}",
        approved_by=by,
        created_by=m.closed_by,
        now=now,
    )
    m.status = Month.Status.APPROVED
    m.approved_by, m.approved_at = by, now
    m.pool_cents, m.payout_cents, m.booking = amount, paid, booking
    m.save(
        update_fields=[
            "status",
            "approved_by",
            "approved_at",
            "pool_cents",
            "payout_cents",
            "booking",
        ]
    )
    return m


@retry_on_conflict()
@transaction.atomic
def month_reject(
    *, month: Month, by: User, reason: str, now: datetime | None = None
) -> Month:
    """Reject a closed month's awards with a reason: the pool carries forward.

    Raises :class:`RuleViolation` (HM3) without a reason, :class:`Conflict` (409)
    for a month decided already.
    """
    _require(by, Role.MANAGER)
    if not reason.strip():
        raise RuleViolation(
            _("HM3: a rejection records why."), code="reason_required", rule="HM3"
        )
    m = _lock_month(month)
    if m.status != Month.Status.PENDING:
        raise _month_decided(m)
    m.status = Month.Status.REJECTED
    m.rejected_by, m.rejected_at, m.rejection_reason = by, _now(now), reason.strip()
    m.save(update_fields=["status", "rejected_by", "rejected_at", "rejection_reason"])
    m.awards.update(status=Award.Status.REJECTED)
    return m


__all__ = [
    "category_publish",
    "drop_legs",
    "hand_qualify",
    "hands_qualify_missed",
    "hands_qualify_new",
    "hit_approve",
    "hit_reject",
    "hit_verify",
    "month_approve",
    "month_close",
    "month_reject",
    "months_close_due",
    "pool_create",
    "pool_seed",
    "pool_update",
]
