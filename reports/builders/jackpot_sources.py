"""Where the jackpot report reads hits, awards and hand-of-the-month standings.

The report's money figures (pool balances, drops, awards out, the reconciliation)
come from the ledger alone; this module reads the jackpots app's own records — who
verified and approved each hit (BB5), who closed and approved each month (HM3), the
awards and whether the cage paid them (CA6), the standings (HM4) — so that the
report can tie them to the ledger: what the approved hits and months booked must be
what left the jackpot accounts as awards.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Q, Sum

from accounting.models import Payable
from jackpots.models import Award, Hit, Month, Pool
from jackpots.selectors import AWARD_KIND, month_standings
from reports.document import DATETIME, INT, MONEY, Column, Section
from reports.document import said as _
from reports.selectors import Period

__all__ = [
    "AWARD_KIND",
    "awards_booked",
    "hand_of_the_month_standings",
    "hits_and_awards",
]


def _name(user: object) -> str:
    return user.get_username() if user is not None else ""  # type: ignore[attr-defined]


def _in(period: Period, field: str) -> Q:
    return Q(**{f"{field}__gte": period.start, f"{field}__lt": period.end})


def _hits_awards_section() -> Section:
    return Section(
        key="hits_awards",
        title=_("Hits and awards"),
        columns=[
            Column("what", _("jackpot")),
            Column("pool", _("pool")),
            Column("hand", _("hand")),
            Column("status", _("status")),
            Column("verified_by", _("verified or closed by")),
            Column("approved_by", _("approved by")),
            Column("rejected", _("rejected by, why")),
            Column("pays", _("pays"), MONEY),
            Column("role", _("award")),
            Column("player", _("player")),
            Column("amount", _("amount"), MONEY),
            Column("award_status", _("award status")),
            Column("paid", _("paid at the cage")),
            Column("posting", _("posting")),
        ],
        note=_(
            "Bad-beat hits (BB5: verified by a floor person, approved by another "
            "person, a manager) and hand-of-the-month months (HM3), one line per "
            "award (BB3, HM2), with the cage's payment (CA6)."
        ),
    )


def hits_and_awards(*, period: Period) -> Section:
    """Hits and months of ``period`` with who decided them, one row per award.

    A hit belongs to the period when its hand ended in it or it was decided in it;
    a month when it ended, was closed or was decided in it.
    """
    section = _hits_awards_section()
    awards = Award.objects.select_related("player", "hand__table", "payable")
    hits = (
        Hit.objects.filter(
            _in(period, "hand_ended_at")
            | _in(period, "approved_at")
            | _in(period, "rejected_at")
        )
        .select_related(
            "pool", "hand__table", "verified_by", "approved_by", "rejected_by"
        )
        .order_by("hand_ended_at", "pk")
    )
    months = (
        Month.objects.filter(
            _in(period, "ends_at")
            | _in(period, "closed_at")
            | _in(period, "approved_at")
            | _in(period, "rejected_at")
        )
        .select_related("pool", "closed_by", "approved_by", "rejected_by")
        .order_by("ends_at", "pk")
    )
    by_hit: dict[int, list[Award]] = {}
    by_month: dict[int, list[Award]] = {}
    for award in awards.filter(
        Q(hit__in=[h.pk for h in hits]) | Q(month__in=[m.pk for m in months])
    ).order_by("position", "pk"):
        if award.hit_id:
            by_hit.setdefault(award.hit_id, []).append(award)
        elif award.month_id is not None:
            by_month.setdefault(award.month_id, []).append(award)

    for hit in hits:
        _award_rows(
            section,
            by_hit.get(hit.pk, []),
            period,
            what=_("bad beat #%(id)d %(hand)s") % {"id": hit.pk, "hand": hit.hand},
            pool=hit.pool.name,
            status=hit.status,
            verified_by=_name(hit.verified_by),
            approved_by=_name(hit.approved_by),
            rejected=f"{_name(hit.rejected_by)} {hit.rejection_reason}".strip(),
            pays=hit.payout_cents,
            posting=f"#{hit.booking_id}" if hit.booking_id else "",
        )
    for month in months:
        _award_rows(
            section,
            by_month.get(month.pk, []),
            period,
            what=_("hand of the month %(m)s") % {"m": month.month.strftime("%Y-%m")},
            pool=month.pool.name,
            status=month.status,
            verified_by=_name(month.closed_by) or month.closed_source,
            approved_by=_name(month.approved_by),
            rejected=f"{_name(month.rejected_by)} {month.rejection_reason}".strip(),
            pays=month.payout_cents,
            posting=f"#{month.booking_id}" if month.booking_id else "",
        )
    return section


def _award_rows(
    section: Section, awards: list[Award], period: Period, **jackpot: Any
) -> None:
    """One row per award of a hit or month, or one row when it has none."""
    listed: list[Award | None] = [*awards] or [None]
    for award in listed:
        payable = award.payable if award else None
        if payable is not None and payable.status == Payable.Status.PAID:
            paid = _("paid %(at)s") % {"at": period.local(payable.paid_at)}
        else:
            paid = _("owed") if payable is not None else ""
        section.add(
            **jackpot,
            hand=str(award.hand) if award else "",
            role=award.role if award else "",
            player=award.player.code if award else "",
            amount=award.amount_cents if award else None,
            award_status=award.status if award else "",
            paid=paid,
        )


def awards_booked(*, period: Period) -> int:
    """What the hits and months approved in ``period`` booked out of their pools:
    the records' side of the ledger's ``jackpot_award`` postings."""
    total = 0
    for model in (Hit, Month):
        total += (
            model.objects.filter(
                status="approved",
                booking__posted_at__gte=period.start,
                booking__posted_at__lt=period.end,
            ).aggregate(s=Sum("payout_cents"))["s"]
            or 0
        )
    return total


def hand_of_the_month_standings(*, period: Period, month: date) -> Section:
    """Each hand-of-the-month pool's standings for ``month``, best first (HM4), as
    they stood at the period's end: a report of a closed period holds only the
    hands that ended before its last gaming day's cut-off (HM1, BI8), not those
    dealt since."""
    section = Section(
        key="hm_standings",
        title=_("Hand of the month %(month)s") % {"month": month.strftime("%Y-%m")},
        columns=[
            Column("pool", _("pool")),
            Column("place", _("place"), INT),
            Column("player", _("player")),
            Column("hand", _("hand")),
            Column("cards", _("best five")),
            Column("table", _("table")),
            Column("hand_no", _("hand no"), INT),
            Column("ended_at", _("ended"), DATETIME),
        ],
        note=_(
            "Each player's best hand tabled at a showdown in the month, best first; "
            "equal hands, the earlier first (HM1, HM2, HM4)."
        ),
    )
    pools = Pool.objects.filter(
        room=period.room, kind=Pool.Kind.HAND_OF_THE_MONTH
    ).order_by("pk")
    for pool in pools:
        standing = month_standings(pool=pool, month=month, until=period.end)
        for place, entry in enumerate(standing, start=1):
            section.add(
                pool=pool.name,
                place=place,
                player=entry.player.code,
                hand=entry.description,
                cards=" ".join(entry.cards),
                table=entry.hand.table.code,
                hand_no=entry.hand.hand_no,
                ended_at=period.local(entry.ended_at),
            )
    return section
