"""A promotion's prize page (PR2, PR3, PR5), beside the bad-beat hits': the
winning hands drawn as cards, the period in room time or the hand it was found
in, and each award with where its money comes from (the house, the pool, PR1).
The floor verifies a pending prize there (the cards, the camera); a manager,
another person, approves it after a confirm step, or rejects it with a reason.
Approved, its awards are paid at the cage (CA6), a restricted player's held
(PP6)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_date, format_interval, format_time, get_datetime_format
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounting.models import Player
from cardroom.models import Hand
from core.api.permissions import staff
from core.money import locale_of
from core.roles import Role, has_role
from jackpots import selectors as jackpot_selectors
from jackpots import services as jackpot_services
from jackpots.models import Award, PromotionPrize
from staff.common.roles import floor_only, manager_only
from staff.manager._shared import decided, page_context, reason_of

#: What a fixed bonus pays for, by the line of its table (PR3), and aces cracked.
BONUS_LINES: dict[str, Promise] = {
    "royal_flush": gettext_lazy("royal flush"),
    "straight_flush": gettext_lazy("straight flush"),
    "four_of_a_kind": gettext_lazy("four of a kind"),
    "full_house": gettext_lazy("full house"),
    "aces_cracked": gettext_lazy("aces cracked"),
}


@dataclass(frozen=True, slots=True)
class Tabled:
    """A winning hand as the page draws it: who, the cards, what it is."""

    seat: int
    player: Player | None
    code: str
    hole: list[str]
    cards: list[str]
    hand: str
    board: list[str]
    where: str
    tabled_at: str
    bonus: str


def _zone(prize: PromotionPrize) -> ZoneInfo:
    return ZoneInfo(prize.promotion.room.time_zone or settings.TIME_ZONE)


def _datetime_pattern(locale: Locale) -> str:
    return str(get_datetime_format("medium", locale=locale)).replace("'", "")


def _clock_skeleton(locale: Locale) -> str:
    """``hm`` where the locale reads a 12-hour clock (en, ko), ``Hm`` elsewhere."""
    return "hm" if "h" in str(locale.time_formats["short"].pattern) else "Hm"


def period_words(prize: PromotionPrize) -> str:
    """The prize's period on the room's clock, as the page's language writes a
    date and an interval of times (CLDR): ``Nov 29, 2026, 9:00 – 10:00 PM``,
    ``29.11.2026 21.00–22.00``; a period over midnight with both dates. Empty
    for a bonus."""
    if prize.period_start is None or prize.period_end is None:
        return ""
    zone, locale = _zone(prize), locale_of(get_language())
    start = prize.period_start.astimezone(zone)
    end = prize.period_end.astimezone(zone)
    pattern = _datetime_pattern(locale)
    if (end - timedelta(microseconds=1)).date() == start.date():
        times = format_interval(
            start, end, skeleton=_clock_skeleton(locale), locale=locale
        )
        day = format_date(start, "medium", locale=locale)
        return pattern.replace("{1}", str(day)).replace("{0}", str(times))
    sides = [
        pattern.replace("{1}", str(format_date(at, "medium", locale=locale))).replace(
            "{0}", str(format_time(at, "short", locale=locale))
        )
        for at in (start, end)
    ]
    fallback = str(locale.interval_formats[None])
    return fallback.replace("{0}", sides[0]).replace("{1}", sides[1])


def _time_words(at: str, zone: ZoneInfo) -> str:
    if not at:
        return ""
    moment = datetime.fromisoformat(at).astimezone(zone)
    return str(format_time(moment, "short", locale=locale_of(get_language())))


def _tabled(prize: PromotionPrize, awards: list[Award]) -> list[Tabled]:
    """The winning hands of the prize's details, each with its player (from the
    awards) and, for a period's hands, the board of its own hand."""
    hands = list(prize.details.get("hands") or [])
    players = {a.player.code: a.player for a in awards}
    boards: dict[int, list[str]] = {}
    ids = {int(h["hand_id"]) for h in hands if h.get("hand_id")}
    if ids:
        boards = {
            pk: list((record or {}).get("board") or [])
            for pk, record in Hand.objects.filter(pk__in=ids).values_list(
                "pk", "record"
            )
        }
    zone = _zone(prize)
    rows = []
    for h in hands:
        code = str(h.get("player") or "")
        hand_id = h.get("hand_id")
        where = f"{h['table']}#{h['hand_no']}" if h.get("table") else ""
        rows.append(
            Tabled(
                seat=int(h.get("seat") or 0),
                player=players.get(code),
                code=code,
                hole=list(h.get("hole") or []),
                cards=list(h.get("cards") or []),
                hand=str(h.get("hand") or ""),
                board=boards.get(int(hand_id), []) if hand_id else [],
                where=where,
                tabled_at=_time_words(str(h.get("tabled_at") or ""), zone),
                bonus=str(BONUS_LINES.get(str(h.get("bonus") or ""), "")),
            )
        )
    return rows


def _prize_context(
    prize: PromotionPrize, request: HttpRequest | None = None
) -> dict[str, Any]:
    # prize_list() prefetched the awards with their players, hands and payables.
    awards = sorted(prize.awards.all(), key=lambda a: a.position)
    user = request.user if request is not None else None
    manager = user is not None and has_role(user, Role.MANAGER)
    return page_context(
        manager=manager,
        verified_by_me=user is not None and prize.verified_by_id == user.pk,
        prize=prize,
        promotion=prize.promotion,
        period=period_words(prize),
        hands=_tabled(prize, awards),
        board=list(prize.details.get("board") or []) if prize.hand_id else [],
        awards=awards,
        awarded_cents=sum(a.amount_cents for a in awards),
        total_cents=prize.house_cents + prize.pool_cents,
    )


def _prize(prize_id: int) -> PromotionPrize:
    return get_object_or_404(
        jackpot_selectors.prize_list().select_related("closed_by"), pk=prize_id
    )


@floor_only
@require_GET
def prize_detail(request: HttpRequest, prize_id: int) -> HttpResponse:
    """A promotion's prize with its winning hands drawn as cards and its awards
    (PR2, PR3, PR5).

    The floor opens it to verify a pending prize (the cards, the camera); a
    manager to approve or reject a verified one. Whoever verified it can't
    approve it (PR5, four eyes): the page says so and offers him no approval."""
    prize = _prize(prize_id)
    return render(request, "staff/manager/prize.html", _prize_context(prize, request))


@floor_only
@require_POST
def prize_verify(request: HttpRequest, prize_id: int) -> HttpResponse:
    """A floor person (or a manager) verifies a pending prize with a note: the
    cards, the camera (PR5). Another manager then approves it; the service refuses
    a prize decided already (409) or one whose hand was voided (PR4)."""
    prize = _prize(prize_id)
    by, note = staff(request), (request.POST.get("note") or "").strip()[:500]
    page = reverse("staff:prize", args=[prize.pk])
    done = _("Prize %(id)d verified; a manager, another person, approves it.") % {
        "id": prize.pk
    }
    return decided(
        request,
        lambda: jackpot_services.prize_verify(prize=prize, by=by, note=note),
        done,
        back=page,
        after=page,
    )


@manager_only
def prize_approve(request: HttpRequest, prize_id: int) -> HttpResponse:
    """Ask once more (GET), then approve and book the prize's awards (POST, PR5).

    Only a verified prize is asked about; any other is shown as it stands."""
    prize = _prize(prize_id)
    if request.method != "POST":
        if prize.status != PromotionPrize.Status.VERIFIED:
            return redirect("staff:prize", prize.pk)
        return render(
            request, "staff/manager/prize_confirm.html", _prize_context(prize, request)
        )
    by = staff(request)
    done = _("Prize %(id)d approved: its awards are payable at the cage.") % {
        "id": prize.pk
    }
    return decided(
        request,
        lambda: jackpot_services.prize_approve(prize=prize, by=by),
        done,
        back=reverse("staff:prize", args=[prize.pk]),
    )


@manager_only
@require_POST
def prize_reject(request: HttpRequest, prize_id: int) -> HttpResponse:
    """Reject a prize with a reason: nothing is booked (PR5)."""
    prize = _prize(prize_id)
    by, reason = staff(request), reason_of(request)
    done = _("Prize %(id)d rejected.") % {"id": prize.pk}
    return decided(
        request,
        lambda: jackpot_services.prize_reject(prize=prize, by=by, reason=reason),
        done,
        back=reverse("staff:prize", args=[prize.pk]),
    )
