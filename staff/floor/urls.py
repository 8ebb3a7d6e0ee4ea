"""The floor's screens, under ``/floor/``: the home with the live map and the
waiting lists, each list's whole screen, tables opened, closed, moved and broken,
corrections, voids and fills asked for, seats locked up, must-moves and pairs
kept apart (WL1–WL10, DC2, RK8, CA3), a table's tablets paired and unpaired and
the hands its terminal posted that were refused (issue 37); the tournament
director's and the floor's screens under ``/floor/events/`` (TO1–TO12). The
manager's approvals on those pages are the manager's (:mod:`staff.manager.urls`).
"""

from django.urls import include, path

from staff.floor import decisions, home, lists, refusals, tables, tablets
from staff.floor.tournaments import clock, deals, director, event, payouts, race

tournament_floor = [
    path("", director.events, name="tournament-events"),
    path("tonight", director.events_tonight, name="tournament-tonight"),
    path("new", director.event_new, name="tournament-event-new"),
    path("structures/new", director.structure_edit, name="tournament-structure-new"),
    path(
        "structures/<slug:code>",
        director.structure_edit,
        name="tournament-structure",
    ),
    path("<slug:event>/", event.event_floor, name="tournament-floor"),
    path("<slug:event>/setup", director.event_setup, name="tournament-setup"),
    path("<slug:event>/tables", director.table_add, name="tournament-table-add"),
    path(
        "<slug:event>/payout-table",
        director.payout_table_set,
        name="tournament-payout-table",
    ),
    path("<slug:event>/clock", clock.event_clock, name="tournament-clock"),
    path(
        "<slug:event>/clock/change", clock.clock_change, name="tournament-clock-change"
    ),
    path("<slug:event>/seats/draw", event.seats_draw, name="tournament-seats-draw"),
    path(
        "<slug:event>/tables/balance",
        event.tables_rebalance,
        name="tournament-rebalance",
    ),
    path("<slug:event>/busts", event.busts_report, name="tournament-busts"),
    path("<slug:event>/counts", event.chips_count, name="tournament-count"),
    path(
        "<slug:event>/disqualify",
        event.entry_disqualify,
        name="tournament-disqualify",
    ),
    path(
        "<slug:event>/chips/remove",
        event.chips_remove,
        name="tournament-chips-remove",
    ),
    path("<slug:event>/race", race.chip_race, name="tournament-race"),
    path(
        "<slug:event>/race/record",
        race.chip_race_record,
        name="tournament-race-record",
    ),
    path(
        "<slug:event>/races/<int:race_id>",
        race.chip_race_result,
        name="tournament-race-result",
    ),
    path("<slug:event>/deal", deals.deal, name="tournament-deal"),
    path(
        "<slug:event>/deal/propose",
        deals.deal_propose,
        name="tournament-deal-propose",
    ),
    path(
        "<slug:event>/deals/<int:deal_id>",
        deals.deal_detail,
        name="tournament-deal-detail",
    ),
    path(
        "<slug:event>/deals/<int:deal_id>/sign",
        deals.deal_sign,
        name="tournament-deal-sign",
    ),
    path("<slug:event>/payouts", payouts.payouts, name="tournament-payouts"),
    path(
        "<slug:event>/payouts/prepare",
        payouts.payout_sheet_prepare,
        name="tournament-payouts-prepare",
    ),
]

urlpatterns = [
    path("floor/events/", include(tournament_floor)),
    path("floor/", home.floor_home, name="floor-home"),
    path("floor/map", home.floor_map, name="floor-map"),
    path("floor/lists", home.floor_lists, name="floor-lists"),
    path("floor/tables/open", tables.table_open, name="table-open"),
    path("floor/tables/<str:code>/close", tables.table_close, name="table-close"),
    path("floor/tables/<str:code>/break", tables.table_break, name="table-break"),
    path("floor/tables/<str:code>/move", tables.house_move, name="house-move"),
    path(
        "floor/tables/<str:code>/correction",
        tables.correction_request,
        name="correction-request",
    ),
    path("floor/tables/<str:code>/void", tables.void_request, name="void-request"),
    path("floor/tables/<str:code>/tablets", tablets.tablets, name="table-tablets"),
    path(
        "floor/tables/<str:code>/tablets/<str:prefix>/unpair",
        tablets.tablet_unpair,
        name="tablet-unpair",
    ),
    path("floor/refused-hands", refusals.floor_refusals, name="floor-refusals"),
    path(
        "floor/refused-hands/<int:refusal_id>/handle",
        refusals.refusal_handle,
        name="refusal-handle",
    ),
    path("floor/lists/<int:list_id>/call", lists.list_call, name="list-call"),
    path("floor/lists/join", lists.list_join, name="list-join"),
    path("floor/fills", home.fill_request, name="fill-request"),
    path("floor/entries/<int:entry_id>/seat", lists.entry_seat, name="entry-seat"),
    path("floor/lists/<int:list_id>", lists.list_page, name="floor-list"),
    path(
        "floor/entries/<int:entry_id>/decline",
        lists.entry_decline,
        name="entry-decline",
    ),
    path(
        "floor/entries/<int:entry_id>/remove", lists.entry_remove, name="entry-remove"
    ),
    path("floor/decisions", decisions.decisions, name="floor-decisions"),
    path(
        "floor/lockups/<int:lockup_id>/release",
        decisions.lockup_release,
        name="lockup-release",
    ),
    path(
        "floor/must-moves/<int:must_move_id>/end",
        decisions.must_move_end,
        name="must-move-end",
    ),
    path("floor/pairs", decisions.pair_keep, name="pair-keep"),
    path("floor/pairs/<int:pair_id>/end", decisions.pair_end, name="pair-end"),
]
