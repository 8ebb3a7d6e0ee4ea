"""Player activity: each player's buy-ins, results and cash over the period, and
the players whose cash reached the identity threshold (CA5)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings

from accounting.models import Receipt
from cardroom.models import StackMovement
from reports import selectors as q
from reports.builders.common import CASH, CHIPS, Progress, quiet, report_document
from reports.document import (
    BOOL,
    INT,
    MONEY,
    TEXT,
    Column,
    Section,
)
from reports.document import said as _
from reports.selectors import Period

# --- Player activity ------------------------------------------------------------------


def _players_section(threshold: int) -> Section:
    return Section(
        key="players",
        title=_("Players"),
        columns=[
            Column("player", _("player")),
            Column("name", _("name")),
            Column("id_verified", _("identity verified"), BOOL),
            Column("hands", _("hands"), INT),
            Column("tables", _("tables"), INT),
            Column("minutes_seated", _("minutes seated"), INT),
            Column("buy_ins_cash", _("buy-ins, cash"), MONEY),
            Column("buy_ins_chips", _("buy-ins, chips"), MONEY),
            Column("left_with", _("left tables with"), MONEY),
            Column("net", _("won − put in"), MONEY),
            Column("chips_bought", _("chips bought at the cage"), MONEY),
            Column("cashed_out", _("cashed out at the cage"), MONEY),
            Column("award_payouts", _("award payouts"), MONEY),
            Column("cash_total", _("cash transactions (CA5)"), MONEY),
            Column("ca5", _("CA5 threshold reached"), BOOL),
        ],
        note=_(
            "Cash transactions are the CA5 log: cash buy-ins at the tables, chip "
            "purchases, redemptions and award payouts at the cage. Threshold: "
            "%(t)d cents in a gaming day."
        )
        % {"t": threshold},
    )


def _review_section() -> Section:
    return Section(
        key="ca5_review",
        title=_("Identity threshold reached (CA5)"),
        columns=[
            Column("player", _("player")),
            Column("name", _("name")),
            Column("cash_total", _("cash transactions"), MONEY),
            Column("id_verified", _("identity verified"), BOOL),
            Column("flag", _("flag"), TEXT),
        ],
        note=_(
            "Players whose cash transactions reached the threshold, for AML review."
        ),
    )


def player_activity(
    *, period: Period, now: datetime, progress: Progress = quiet
) -> dict[str, Any]:
    """Build the player activity of ``period`` for the floor and AML review (CA5)."""
    cash = q.player_cash(period=period)
    moves = q.player_movements(period=period)
    progress(_("cash and buy-ins"))
    played = q.player_hands(period=period)
    progress(_("hands"))
    seated = q.player_time_seated(period=period, now=now)
    progress(_("time seated"))
    codes = set(cash) | set(moves) | set(played) | set(seated)
    names = q.players_named(codes)
    threshold = settings.CARDROOM_IDENTITY_THRESHOLD_CENTS
    players = _players_section(threshold)
    review = _review_section()
    for code in sorted(codes):
        c, m, h = cash.get(code, {}), moves.get(code, {}), played.get(code, {})
        who = names.get(code, {"name": "", "id_verified": False})
        total = sum(c.values())
        reached = total >= threshold
        players.add(
            player=code,
            name=who["name"],
            id_verified=who["id_verified"],
            hands=h.get("hands", 0),
            tables=h.get("tables", 0),
            minutes_seated=seated.get(code, {}).get("seconds", 0) // 60,
            buy_ins_cash=sum(m.get((k, CASH), 0) for k in q.BUY_IN_KINDS),
            buy_ins_chips=sum(m.get((k, CHIPS), 0) for k in q.BUY_IN_KINDS),
            left_with=m.get((StackMovement.Kind.LEAVE, CHIPS), 0),
            net=h.get("net", 0) or 0,
            chips_bought=c.get(Receipt.Kind.PURCHASE, 0),
            cashed_out=c.get(Receipt.Kind.REDEMPTION, 0),
            award_payouts=c.get(Receipt.Kind.AWARD_PAYOUT, 0),
            cash_total=total,
            ca5=reached,
        )
        if reached:
            review.add(
                player=code,
                name=who["name"],
                cash_total=total,
                id_verified=who["id_verified"],
                flag=_("review") if who["id_verified"] else _("NO VERIFIED IDENTITY"),
            )
    progress(_("players"))
    return report_document(
        kind="player_activity",
        title=_("Player activity"),
        period=period,
        now=now,
        sections=[review, players],
        charts=[],
    )
