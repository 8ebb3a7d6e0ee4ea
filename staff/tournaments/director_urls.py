"""The director's and the floor's tournament screens, under ``/floor/events/``."""

from django.urls import path

from staff.tournaments import director, floor

urlpatterns = [
    path("", director.events, name="tournament-events"),
    path("tonight", director.events_tonight, name="tournament-tonight"),
    path("new", director.event_new, name="tournament-event-new"),
    path("structures/new", director.structure_edit, name="tournament-structure-new"),
    path(
        "structures/<slug:code>",
        director.structure_edit,
        name="tournament-structure",
    ),
    path("<slug:event>/", floor.event_floor, name="tournament-floor"),
    path("<slug:event>/setup", director.event_setup, name="tournament-setup"),
    path("<slug:event>/tables", director.table_add, name="tournament-table-add"),
    path(
        "<slug:event>/payout-table",
        director.payout_table_set,
        name="tournament-payout-table",
    ),
    path("<slug:event>/clock", floor.event_clock, name="tournament-clock"),
    path(
        "<slug:event>/clock/change", floor.clock_change, name="tournament-clock-change"
    ),
    path("<slug:event>/seats/draw", floor.seats_draw, name="tournament-seats-draw"),
    path(
        "<slug:event>/tables/balance",
        floor.tables_rebalance,
        name="tournament-rebalance",
    ),
    path("<slug:event>/busts", floor.busts_report, name="tournament-busts"),
    path("<slug:event>/counts", floor.chips_count, name="tournament-count"),
    path(
        "<slug:event>/disqualify",
        floor.entry_disqualify,
        name="tournament-disqualify",
    ),
    path(
        "<slug:event>/chips/remove",
        floor.chips_remove,
        name="tournament-chips-remove",
    ),
    path("<slug:event>/race", floor.chip_race, name="tournament-race"),
    path(
        "<slug:event>/race/record",
        floor.chip_race_record,
        name="tournament-race-record",
    ),
    path(
        "<slug:event>/races/<int:race_id>",
        floor.chip_race_result,
        name="tournament-race-result",
    ),
    path("<slug:event>/deal", floor.deal, name="tournament-deal"),
    path(
        "<slug:event>/deal/propose",
        floor.deal_propose,
        name="tournament-deal-propose",
    ),
    path(
        "<slug:event>/deals/<int:deal_id>",
        floor.deal_detail,
        name="tournament-deal-detail",
    ),
    path(
        "<slug:event>/deals/<int:deal_id>/sign",
        floor.deal_sign,
        name="tournament-deal-sign",
    ),
    path(
        "<slug:event>/deals/<int:deal_id>/approve",
        floor.deal_approve,
        name="tournament-deal-approve",
    ),
    path("<slug:event>/payouts", floor.payouts, name="tournament-payouts"),
    path(
        "<slug:event>/payouts/prepare",
        floor.payout_sheet_prepare,
        name="tournament-payouts-prepare",
    ),
    path(
        "<slug:event>/payouts/approve",
        floor.payout_sheet_approve,
        name="tournament-payouts-approve",
    ),
    path(
        "<slug:event>/payouts/<int:payout_id>/release",
        floor.payout_release,
        name="tournament-payout-release",
    ),
    path(
        "<slug:event>/payouts/<int:payout_id>/forfeit",
        floor.payout_forfeit,
        name="tournament-payout-forfeit",
    ),
]
