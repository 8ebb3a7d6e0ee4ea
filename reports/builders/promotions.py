"""The promotions in the jackpot report and the daily audit (PR1, PR2, PR5, JD5).

Each promotion's pool is reconciled as every jackpot fund is: opening + the drop's
share + what the house booked into it (carry-overs) − the awards paid out of it
(+ anything else posted on it) = closing, compared with the account's balance at
the period's end. The ledger's figures are then tied to the promotions' own
records: what the prizes approved in the period took from the pools and from the
house, what the carried-over periods booked into the pools. The period's prizes
are listed with their status and who decided them, one row an award, and the
carry-overs with the period they went to. The house's side is the expense
account ``expense:promotions`` (PR1), reconciled the same way.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db.models import Q

from accounting.domain.accounts import PROMOTIONS_EXPENSE
from accounting.models import Payable
from jackpots.domain.postings import PROMOTION_AWARD_KIND, PROMOTION_CARRY_KIND
from jackpots.models import Award, Promotion, PromotionPrize
from reports.document import BOOL, MONEY, Checks, Column, Section
from reports.document import said as _
from reports.selectors import HAND_KINDS, AccountMovements, Period

__all__ = [
    "promotion_carry_overs",
    "promotion_expense",
    "promotion_funds",
    "promotion_prizes",
    "promotion_sections",
]

_OWN_KINDS = (*HAND_KINDS, PROMOTION_CARRY_KIND, PROMOTION_AWARD_KIND)


def _name(user: object) -> str:
    return user.get_username() if user is not None else ""  # type: ignore[attr-defined]


def _in(period: Period, field: str) -> Q:
    return Q(**{f"{field}__gte": period.start, f"{field}__lt": period.end})


def _posted(moment: datetime | None, period: Period) -> bool:
    return moment is not None and period.start <= moment < period.end


def _promotions(period: Period) -> list[Promotion]:
    return list(
        Promotion.objects.filter(room=period.room)
        .select_related("pool__account")
        .order_by("pk")
    )


def _booked(period: Period) -> list[PromotionPrize]:
    """The prizes whose money moved in ``period``: approved (their booking), or
    carried over with the house's part booked into the pool."""
    return list(
        PromotionPrize.objects.filter(
            promotion__room=period.room,
        )
        .filter(
            _in(period, "booking__posted_at") | _in(period, "carry_booking__posted_at")
        )
        .select_related("booking", "carry_booking")
    )


# --- The pools ------------------------------------------------------------------------


def _funds_section() -> Section:
    return Section(
        key="promotion_funds",
        title=_("Promotions: pool reconciliation"),
        columns=[
            Column("promotion", _("promotion")),
            Column("kind", _("kind")),
            Column("account", _("account")),
            Column("opening", _("opening"), MONEY),
            Column("drop_in", _("drop in"), MONEY),
            Column("house_in", _("house in (carry-overs)"), MONEY),
            Column("awards_out", _("awards out"), MONEY),
            Column("other", _("other movements"), MONEY),
            Column("closing", _("closing"), MONEY),
            Column("ledger_closing", _("ledger balance at end"), MONEY),
            Column("agrees", _("agrees"), BOOL),
        ],
        note=_(
            "Each promotion's pool (PR1, JD5): opening + the drop's share + the "
            "house's carry-overs − awards + other movements = closing, from the "
            "entries; checked against the account's balance at the period's end. "
            "The house's part of an award is booked from the expense account, not "
            "from the pool."
        ),
    )


def promotion_funds(
    period: Period, ledger: dict[str, AccountMovements], checks: Checks
) -> Section:
    """Reconcile each promotion's pool: opening + drop in + house in − awards out
    + other = closing = the ledger's balance at the end (PR1, JD5); tie awards out
    and house in to the prizes' records (PR2, PR5)."""
    section = _funds_section()
    booked = _booked(period)
    awarded: dict[int, int] = defaultdict(int)
    carried: dict[int, int] = defaultdict(int)
    for prize in booked:
        if prize.booking is not None and _posted(prize.booking.posted_at, period):
            awarded[prize.promotion_id] += prize.pool_cents
        if prize.carry_booking is not None and _posted(
            prize.carry_booking.posted_at, period
        ):
            carried[prize.promotion_id] += prize.house_cents
    for promotion in _promotions(period):
        code = promotion.pool.account.code
        account = ledger.get(code)
        if account is None:
            continue
        drop_in = -account.net(*HAND_KINDS)
        house_in = -account.net(PROMOTION_CARRY_KIND)
        awards_out = account.net(PROMOTION_AWARD_KIND)
        other = -sum(account.net_except(*_OWN_KINDS))
        closing = account.opening + drop_in + house_in - awards_out + other
        found = account.closing_from_cache
        section.add(
            promotion=promotion.name,
            kind=str(Promotion.Kind(promotion.kind).label),
            account=code,
            opening=account.opening,
            drop_in=drop_in,
            house_in=house_in,
            awards_out=awards_out,
            other=other,
            closing=closing,
            ledger_closing=found,
            agrees=closing == found,
        )
        names = {"promotion": promotion.name}
        checks.compare(
            _("%(promotion)s: opening + in − out = closing (PR1, JD5)") % names,
            closing,
            found,
        )
        if awards_out or awarded[promotion.pk]:
            checks.compare(
                _("%(promotion)s: awards out of the pool = prizes approved (PR5)")
                % names,
                awarded[promotion.pk],
                awards_out,
            )
        if house_in or carried[promotion.pk]:
            checks.compare(
                _("%(promotion)s: house in = carry-overs booked (PR1, PR2)") % names,
                carried[promotion.pk],
                house_in,
            )
    return section


def promotion_expense(
    period: Period, ledger: dict[str, AccountMovements], checks: Checks
) -> Section:
    """The house's promotion expense of the period (PR1): the house's part of the
    prizes approved and of the carry-overs booked into the pools, from the ledger,
    checked against the prizes' records."""
    section = Section(
        key="promotion_expense",
        title=_("Promotions: the house's expense"),
        columns=[
            Column("account", _("account")),
            Column("opening", _("opening"), MONEY),
            Column("awards", _("prizes approved"), MONEY),
            Column("carry_overs", _("carry-overs into the pools"), MONEY),
            Column("other", _("other movements"), MONEY),
            Column("total", _("expense of the period"), MONEY),
            Column("closing", _("closing"), MONEY),
        ],
        note=_(
            "What the house paid into promotions (PR1): its part of each prize "
            "approved, and its part of each prize carried over, booked into the "
            "promotion's pool to be held for players."
        ),
    )
    account = ledger.get(PROMOTIONS_EXPENSE)
    booked = _booked(period)
    awarded = sum(
        p.house_cents
        for p in booked
        if p.booking is not None and _posted(p.booking.posted_at, period)
    )
    carried = sum(
        p.house_cents
        for p in booked
        if p.carry_booking is not None and _posted(p.carry_booking.posted_at, period)
    )
    if account is None:
        if awarded or carried:
            checks.compare(_("promotion expense (PR1)"), awarded + carried, 0)
        return section
    awards = account.net(PROMOTION_AWARD_KIND)
    carry_overs = account.net(PROMOTION_CARRY_KIND)
    total = account.closing - account.opening
    section.add(
        account=account.code,
        opening=account.opening,
        awards=awards,
        carry_overs=carry_overs,
        other=total - awards - carry_overs,
        total=total,
        closing=account.closing,
    )
    checks.compare(
        _("promotion expense: the house's part of the prizes approved (PR1, PR5)"),
        awarded,
        awards,
    )
    checks.compare(
        _("promotion expense: carry-overs booked into the pools (PR1, PR2)"),
        carried,
        carry_overs,
    )
    return section


# --- The prizes -----------------------------------------------------------------------


def _prizes_section() -> Section:
    return Section(
        key="promotion_prizes",
        title=_("Promotions: prizes"),
        columns=[
            Column("promotion", _("promotion")),
            Column("prize", _("prize")),
            Column("what", _("period or hand")),
            Column("status", _("status")),
            Column("hands", _("winning hands")),
            Column("house", _("from the house"), MONEY),
            Column("pool", _("from the pool"), MONEY),
            Column("carried_in", _("carried in"), MONEY),
            Column("verified_by", _("verified or closed by")),
            Column("approved_by", _("approved by")),
            Column("rejected", _("rejected by, why")),
            Column("player", _("player")),
            Column("amount", _("amount"), MONEY),
            Column("paid", _("paid at the cage")),
            Column("posting", _("posting")),
        ],
        note=_(
            "The promotions' prizes of the period (PR2, PR3): high-hand periods "
            "that overlap it and bonuses of its hands, and every prize decided, "
            "booked or carried over in it; one line an award, with the cage's "
            "payment (PR5, CA6). Carried in is in the pool part; periods are on "
            "the room's clock."
        ),
    )


def _prizes_of(period: Period) -> list[PromotionPrize]:
    window = (
        _in(period, "found_at")
        | _in(period, "verified_at")
        | _in(period, "approved_at")
        | _in(period, "rejected_at")
        | _in(period, "booking__posted_at")
        | _in(period, "carry_booking__posted_at")
        | _in(period, "hand__ended_at")
        | (Q(period_start__lt=period.end) & Q(period_end__gt=period.start))
    )
    return list(
        PromotionPrize.objects.filter(promotion__room=period.room)
        .filter(window)
        .select_related(
            "promotion",
            "hand__table",
            "closed_by",
            "verified_by",
            "approved_by",
            "rejected_by",
        )
        .order_by("promotion_id", "period_start", "found_at", "pk")
    )


def _span(start: datetime | None, end: datetime | None, period: Period) -> str:
    """A high-hand period on the room's clock: ``2026-11-29 21:00–22:00``, the
    end's date written when it is another day's."""
    if start is None:
        return ""
    first = start.astimezone(period.room.tz)
    text = first.strftime("%Y-%m-%d %H:%M")
    if end is None:
        return f"{text}–"
    last = end.astimezone(period.room.tz)
    same_day = last.date() == first.date()
    return f"{text}–{last.strftime('%H:%M' if same_day else '%Y-%m-%d %H:%M')}"


def _what(prize: PromotionPrize, period: Period) -> str:
    """A period as its bounds on the room's clock, a bonus as its hand."""
    if prize.kind == PromotionPrize.Kind.PERIOD:
        return _span(prize.period_start, prize.period_end, period)
    hand = prize.hand
    return f"{hand.table.code} #{hand.hand_no}" if hand is not None else ""


def _hands(prize: PromotionPrize) -> str:
    details: dict[str, Any] = prize.details or {}
    return "; ".join(
        f"{h.get('hand', '')} ({' '.join(h.get('cards') or [])})"
        for h in details.get("hands") or []
    )


def _paid(award: Award, period: Period) -> str:
    payable: Payable | None = award.payable
    if payable is None:
        return ""
    if payable.status == Payable.Status.PAID:
        return _("paid %(at)s") % {"at": period.local(payable.paid_at)}
    return _("owed")


def promotion_prizes(*, period: Period) -> Section:
    """The period's promotion prizes with their status and who decided them, one
    row an award (one row for a prize without any)."""
    section = _prizes_section()
    prizes = _prizes_of(period)
    by_prize: dict[int, list[Award]] = defaultdict(list)
    for award in (
        Award.objects.filter(prize__in=[p.pk for p in prizes])
        .select_related("player", "payable")
        .order_by("position", "pk")
    ):
        if award.prize_id is not None:
            by_prize[award.prize_id].append(award)
    for prize in prizes:
        postings = [
            f"#{t}" for t in (prize.booking_id, prize.carry_booking_id) if t is not None
        ]
        shared = {
            "promotion": prize.promotion.name,
            "prize": f"#{prize.pk}",
            "what": _what(prize, period),
            "status": prize.status,
            "hands": _hands(prize),
            "house": prize.house_cents,
            "pool": prize.pool_cents,
            "carried_in": prize.carried_in_cents,
            "verified_by": _name(prize.verified_by)
            or _name(prize.closed_by)
            or prize.closed_source,
            "approved_by": _name(prize.approved_by),
            "rejected": f"{_name(prize.rejected_by)} {prize.rejection_reason}".strip(),
            "posting": " ".join(postings),
        }
        awards: list[Award | None] = [*by_prize.get(prize.pk, [])] or [None]
        for line in awards:
            section.add(
                **shared,
                player=line.player.code if line else "",
                amount=line.amount_cents if line else None,
                paid=_paid(line, period) if line else "",
            )
    return section


# --- The carry-overs ------------------------------------------------------------------


def promotion_carry_overs(*, period: Period) -> Section:
    """The high-hand periods of ``period`` that no hand won and that carried their
    prize to the next one (PR2): what they carried, the house's part booked into
    the pool (PR1), and what became of it in the next period."""
    section = Section(
        key="promotion_carry_overs",
        title=_("Promotions: carry-overs"),
        columns=[
            Column("promotion", _("promotion")),
            Column("period", _("period")),
            Column("carried_in", _("carried in"), MONEY),
            Column("from_pool", _("from the pool"), MONEY),
            Column("from_house", _("from the house, booked into the pool"), MONEY),
            Column("carried", _("carried to the next period"), MONEY),
            Column("posting", _("posting")),
            Column("next_period", _("next period")),
            Column("next_status", _("next period's status")),
        ],
        note=_(
            "A period without a qualifying hand carries its prize to the next one "
            "(PR2): the pool's part stays in the pool, the house's part is booked "
            "into it at the period's close (PR1)."
        ),
    )
    carried = list(
        PromotionPrize.objects.filter(
            promotion__room=period.room,
            status=PromotionPrize.Status.CARRIED_OVER,
        )
        .filter(
            (Q(period_end__gt=period.start) & Q(period_end__lte=period.end))
            | _in(period, "carry_booking__posted_at")
        )
        .select_related("promotion")
        .order_by("promotion_id", "period_start")
    )
    following = {
        (p.promotion_id, p.period_start): p
        for p in PromotionPrize.objects.filter(
            kind=PromotionPrize.Kind.PERIOD,
            promotion__in={c.promotion_id for c in carried},
            period_start__in={c.period_end for c in carried},
        ).exclude(status=PromotionPrize.Status.CANCELLED)
    }
    for prize in carried:
        after = following.get((prize.promotion_id, prize.period_end))
        section.add(
            promotion=prize.promotion.name,
            period=_what(prize, period),
            carried_in=prize.carried_in_cents,
            from_pool=prize.pool_cents - prize.carried_in_cents,
            from_house=prize.house_cents,
            carried=prize.house_cents + prize.pool_cents,
            posting=f"#{prize.carry_booking_id}" if prize.carry_booking_id else "",
            next_period=(
                _what(after, period)
                if after is not None
                else _span(prize.period_end, None, period)
            ),
            next_status=after.status if after is not None else _("not closed yet"),
        )
    return section


def promotion_sections(
    period: Period, ledger: dict[str, AccountMovements], checks: Checks
) -> list[Section]:
    """The promotions' sections of a report: the pools reconciled, the prizes,
    the carry-overs."""
    return [
        promotion_funds(period, ledger, checks),
        promotion_prizes(period=period),
        promotion_carry_overs(period=period),
    ]
