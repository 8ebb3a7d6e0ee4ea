"""The promotions on the public board (PR6, WL11): the panel the board plugs in.

``waitlist.views.board_panels`` calls :func:`promotion_panel` by its import path
(the ``WAITLIST_BOARD_PANELS`` setting): beside the jackpots, each running
promotion, a high hand with its period's leading hand drawn as cards, the prize it
would pay now and the time left in the period, a bonus with its table of amounts.
The panel's script asks the board again for the panel's data every few seconds
(``/board?panel=promotions``) and runs the time left down in between. No player is
named: a hand, its table, its cards; the money written in the board's language by
core.money.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from cardroom.models import Room
from cardroom.templatetags.hands import hand_words
from core.money import money_format
from jackpots import selectors
from jackpots.domain.promotions import ACES_CRACKED
from jackpots.models import Promotion

KEY = "promotions"

# The hands a bonus table names (jackpots.domain.promotions.BONUS_HANDS), and
# aces cracked, as the board says them.
LINE_NAMES = {
    "royal_flush": gettext_noop("Royal flush"),
    "straight_flush": gettext_noop("Straight flush"),
    "four_of_a_kind": gettext_noop("Four of a kind"),
    "full_house": gettext_noop("Full house"),
    ACES_CRACKED: gettext_noop("Pocket aces beaten at a showdown"),
}


def promotion_labels() -> dict[str, str]:
    """Return the panel's words in the active language."""
    return {
        "title": _("Promotions"),
        "leader": _("Leading hand"),
        "leaders": _("Tie: the prize is shared"),
        "nobody": _("No qualifying hand yet"),
        "prize": _("Prize"),
        "time_left": _("Time left"),
    }


def _money(cents: int, promotion: Promotion, language: str) -> str:
    return money_format(cents, promotion.pool.account.currency, language, whole=True)


def promotion_data(
    *, room: Room | None, now: datetime, language: str
) -> dict[str, Any]:
    """Return what the panel shows, in the active language: plain JSON, times as
    ISO text and the seconds left at ``now`` (the script runs them down)."""
    shown = [] if room is None else selectors.promotion_board(room=room, now=now)
    out = []
    for item in shown:
        promotion = item.promotion
        entry: dict[str, Any] = {
            "code": promotion.code,
            "name": promotion.name,
            "kind": promotion.kind,
            "kind_label": str(Promotion.Kind(promotion.kind).label),
            "ends_at": (
                item.end.astimezone(promotion.room.tz).isoformat() if item.end else None
            ),
            "seconds_left": (
                max(0, int((item.end - now).total_seconds())) if item.end else None
            ),
            "leaders": [
                {
                    "hand": hand_words(e.description),
                    "cards": list(e.cards),
                    "hole": list(e.hole),
                    "table": e.hand.table.name or e.hand.table.code,
                }
                for e in item.leaders
            ],
            "prize": item.prize.total if item.prize else None,
            "prize_text": (
                _money(item.prize.total, promotion, language) if item.prize else None
            ),
            "lines": [
                {
                    "hand": _(LINE_NAMES.get(hand, hand)),
                    "amount": amount.total,
                    "amount_text": _money(amount.total, promotion, language),
                }
                for hand, amount in item.lines
            ],
        }
        out.append(entry)
    return {"at": now.isoformat(), "promotions": out}


def promotion_panel(*, language: str) -> dict[str, Any] | None:
    """Return the board's promotions panel, or None when none is running."""
    room = Room.objects.order_by("pk").first()
    data = promotion_data(room=room, now=timezone.now(), language=language)
    if not data["promotions"]:
        return None
    return {
        "key": KEY,
        "template": "jackpots/board_promotions.html",
        "labels": promotion_labels(),
        "data": data,
    }
