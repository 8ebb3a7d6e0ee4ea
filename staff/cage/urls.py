"""The cage's screens, under ``/cage/``: the cashier's shift, players, awards,
receipts and box counts (CA1–CA6), and the tournament desk under
``/cage/events/`` (TO1, TO7, TO9, TO10)."""

from django.urls import include, path

from staff.cage import awards, boxes, players, shifts
from staff.cage.tournaments import desk, sales

tournament_desk = [
    path("", desk.events, name="tournament-cage-events"),
    path("<slug:event>", desk.desk, name="tournament-cage-desk"),
    path("<slug:event>/entries", sales.entry_sell, name="tournament-cage-entry"),
    path(
        "<slug:event>/entries/<int:number>/rebuy",
        sales.rebuy_sell,
        name="tournament-cage-rebuy",
    ),
    path(
        "<slug:event>/entries/<int:number>/addon",
        sales.addon_sell,
        name="tournament-cage-addon",
    ),
    path(
        "<slug:event>/refunds/<str:no>/approve",
        sales.refund_approve,
        name="tournament-cage-refund-approve",
    ),
    path(
        "<slug:event>/refunds/<str:no>/pay",
        sales.refund_pay,
        name="tournament-cage-refund-pay",
    ),
    path(
        "<slug:event>/prizes/<int:line>/pay",
        sales.prize_pay,
        name="tournament-cage-prize-pay",
    ),
    path(
        "<slug:event>/sheet/approve",
        sales.sheet_approve,
        name="tournament-cage-sheet-approve",
    ),
    path(
        "<slug:event>/receipts/<str:no>",
        desk.receipt,
        name="tournament-cage-receipt",
    ),
]

urlpatterns = [
    path("cage/", shifts.cage_home, name="cage-home"),
    path("cage/shift/open", shifts.shift_open, name="shift-open"),
    path("cage/shift/close", shifts.shift_close, name="shift-close"),
    path("cage/shift/close/over-short", shifts.shift_close_preview, name="over-short"),
    path("cage/count/totals", shifts.count_totals, name="count-totals"),
    path("cage/boxes", boxes.boxes, name="boxes"),
    path("cage/boxes/count", boxes.box_count, name="box-count"),
    path("cage/shifts/<int:shift_id>", shifts.shift_closed, name="shift-closed"),
    path("cage/players", players.player_search, name="players"),
    path("cage/players/<str:code>", players.player_detail, name="player"),
    path("cage/players/<str:code>/sell", players.chips_sell, name="sell"),
    path("cage/players/<str:code>/redeem", players.chips_redeem, name="redeem"),
    path(
        "cage/players/<str:code>/identity",
        players.player_identify,
        name="player-identity",
    ),
    path("cage/queue", shifts.queue, name="queue"),
    path("cage/slips/<int:slip_id>/issue", shifts.slip_issue, name="slip-issue"),
    path("cage/awards", awards.awards, name="awards"),
    path("cage/awards/<int:payable_id>/pay", awards.award_pay, name="award-pay"),
    path("cage/receipts/<str:no>", awards.receipt, name="receipt"),
    path("cage/events/", include(tournament_desk)),
]
