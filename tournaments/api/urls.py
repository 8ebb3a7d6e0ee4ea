"""The tournaments' API, under ``/api/v1/``: the director's set-up (structures,
events, their tables and payout tables), the director's doors (deals, races, chips,
disqualifications, payouts, refunds), an event's own routes (entries, rebuys,
add-ons, busts, standings), the terminals' (the clock, tables, busts and chip counts)
and the board's clocks.

The set-up comes before the event's own routes: ``structures`` and ``events`` are the
set-up's lists (no event takes those codes), and every other pattern of the set-up
ends in a segment no other route of an event uses.
"""

from django.urls import include, path

from tournaments.api import board, director, setup, terminals, views

setup_patterns = [
    path("structures", setup.StructuresApi.as_view(), name="tournament-structures"),
    path(
        "structures/<slug:code>",
        setup.StructureApi.as_view(),
        name="tournament-structure",
    ),
    path("events", setup.EventsApi.as_view(), name="tournament-events"),
    path(
        "<slug:event>/settings",
        setup.EventSettingsApi.as_view(),
        name="tournament-settings",
    ),
    path(
        "<slug:event>/event-tables",
        setup.EventTablesApi.as_view(),
        name="tournament-event-tables",
    ),
    path(
        "<slug:event>/payout-table",
        setup.PayoutTableApi.as_view(),
        name="tournament-payout-table",
    ),
    path(
        "<slug:event>/payout-table/preview",
        setup.PayoutPreviewApi.as_view(),
        name="tournament-payout-preview",
    ),
]

director_patterns = [
    path(
        "<slug:event>/deals/offers",
        director.DealOffersApi.as_view(),
        name="tournament-deal-offers",
    ),
    path("<slug:event>/deals", director.DealsApi.as_view(), name="tournament-deals"),
    path(
        "<slug:event>/deals/<int:deal_id>",
        director.DealApi.as_view(),
        name="tournament-deal",
    ),
    path(
        "<slug:event>/deals/<int:deal_id>/signatures",
        director.DealSignatureApi.as_view(),
        name="tournament-deal-signatures",
    ),
    path(
        "<slug:event>/deals/<int:deal_id>/approve",
        director.DealApproveApi.as_view(),
        name="tournament-deal-approve",
    ),
    path("<slug:event>/races", director.RaceApi.as_view(), name="tournament-races"),
    path(
        "<slug:event>/chips/removals",
        director.ChipRemovalApi.as_view(),
        name="tournament-chip-removals",
    ),
    path(
        "<slug:event>/entries/<int:number>/disqualify",
        director.DisqualifyApi.as_view(),
        name="tournament-disqualify",
    ),
    path(
        "<slug:event>/payouts/<int:payout_id>/release",
        director.PayoutReleaseApi.as_view(),
        name="tournament-payout-release",
    ),
    path(
        "<slug:event>/payouts/<int:payout_id>/forfeit",
        director.PayoutForfeitApi.as_view(),
        name="tournament-payout-forfeit",
    ),
    path(
        "<slug:event>/refunds/<slug:receipt>/partial-approve",
        director.RefundPartialApproveApi.as_view(),
        name="tournament-refund-partial-approve",
    ),
]

event_patterns = [
    path("<slug:event>", views.EventApi.as_view(), name="tournament"),
    path("<slug:event>/entries", views.EntryApi.as_view(), name="tournament-entries"),
    path(
        "<slug:event>/entries/<int:number>/rebuys",
        views.RebuyApi.as_view(),
        name="tournament-rebuys",
    ),
    path(
        "<slug:event>/entries/<int:number>/addons",
        views.AddonApi.as_view(),
        name="tournament-addons",
    ),
    path(
        "<slug:event>/payout-sheet",
        views.PayoutSheetApi.as_view(),
        name="tournament-payout-sheet",
    ),
    path(
        "<slug:event>/payout-sheet/approve",
        views.PayoutSheetApproveApi.as_view(),
        name="tournament-payout-sheet-approve",
    ),
    path(
        "<slug:event>/payouts/<int:payout_id>/pay",
        views.PayoutPayApi.as_view(),
        name="tournament-payout-pay",
    ),
    path(
        "<slug:event>/cancel",
        views.EventCancelApi.as_view(),
        name="tournament-cancel",
    ),
    path(
        "<slug:event>/refunds/<slug:receipt>/approve",
        views.RefundApproveApi.as_view(),
        name="tournament-refund-approve",
    ),
    path(
        "<slug:event>/refunds/<slug:receipt>",
        views.RefundApi.as_view(),
        name="tournament-refund",
    ),
]

terminal_patterns = [
    path("<slug:event>/clock", terminals.ClockApi.as_view(), name="tournament-clock"),
    path(
        "<slug:event>/tables", terminals.TablesApi.as_view(), name="tournament-tables"
    ),
    path(
        "<slug:event>/tables/rebalance",
        terminals.RebalanceApi.as_view(),
        name="tournament-rebalance",
    ),
    path(
        "<slug:event>/seats/draw",
        terminals.SeatDrawApi.as_view(),
        name="tournament-seat-draw",
    ),
    path(
        "<slug:event>/busts",
        terminals.HandForHandBustsApi.as_view(),
        name="tournament-busts-h4h",
    ),
    path(
        "<slug:event>/tables/<slug:table>/busts",
        terminals.BustsApi.as_view(),
        name="tournament-busts",
    ),
    path(
        "<slug:event>/tables/<slug:table>/clock",
        terminals.TableClockApi.as_view(),
        name="tournament-table-clock",
    ),
    path(
        "<slug:event>/tables/<slug:table>/chip-counts",
        terminals.ChipCountApi.as_view(),
        name="tournament-chip-counts",
    ),
]

board_patterns = [path("", board.BoardClocksApi.as_view(), name="board-clocks")]

urlpatterns = [
    path(
        "tournaments/",
        include(
            setup_patterns + director_patterns + event_patterns + terminal_patterns
        ),
    ),
    path("board/tournaments", include(board_patterns)),
]
