"""The staff screens: sign-in, each role's home page, the cage (CA1–CA6), the
manager's approvals, terminal keys and player protection (PP1–PP7: players,
held awards, the exclusion list, the settings), the floor
(WL1–WL10, DC2, RK8) and the auditor's reports (BI8)."""

from django.urls import include, path

from staff import (
    auditor,
    floor,
    manager,
    protection,
    protection_manager,
)
from staff.cage import urls as cage
from staff.common import urls as common

app_name = "staff"

urlpatterns = [
    *common.urlpatterns,
    *cage.urlpatterns,
    path("manager/", manager.approvals, name="approvals"),
    path(
        "manager/corrections/<int:correction_id>",
        manager.correction_decide,
        name="correction-decide",
    ),
    path("manager/voids/<int:void_id>", manager.void_decide, name="void-decide"),
    path(
        "manager/stack-reviews/<int:review_id>",
        manager.review_approve,
        name="review-approve",
    ),
    path(
        "manager/shifts/<int:shift_id>/sign-off",
        manager.shift_sign_off,
        name="shift-sign-off",
    ),
    path("manager/months/<int:month_id>", manager.month_decide, name="month-decide"),
    path("manager/hits/<int:hit_id>", manager.hit_detail, name="hit"),
    path("manager/hits/<int:hit_id>/verify", manager.hit_verify, name="hit-verify"),
    path("manager/hits/<int:hit_id>/approve", manager.hit_approve, name="hit-approve"),
    path("manager/hits/<int:hit_id>/reject", manager.hit_reject, name="hit-reject"),
    path("manager/keys", manager.terminal_keys, name="terminal-keys"),
    path(
        "manager/keys/<str:prefix>/revoke",
        manager.terminal_key_revoke,
        name="terminal-key-revoke",
    ),
    path("manager/players", protection.players, name="protection-players"),
    path(
        "manager/players/<str:code>",
        protection.player,
        name="protection-player",
    ),
    path(
        "manager/players/<str:code>/restrictions",
        protection.restriction_set,
        name="restriction-set",
    ),
    path(
        "manager/players/<str:code>/correct",
        protection.player_correct,
        name="player-correct",
    ),
    path(
        "manager/restrictions/<int:restriction_id>/end",
        protection.restriction_end,
        name="restriction-end",
    ),
    path(
        "manager/restrictions/<int:restriction_id>/lapse",
        protection.self_exclusion_lapse,
        name="self-exclusion-lapse",
    ),
    path(
        "manager/documents/<int:document_id>/number",
        protection.document_number,
        name="document-number",
    ),
    path("manager/held-awards", protection_manager.held_awards, name="held-awards"),
    path(
        "manager/held-awards/<int:payable_id>/pay",
        protection_manager.held_award,
        {"decision": "pay"},
        name="held-award-pay",
    ),
    path(
        "manager/held-awards/<int:payable_id>/forfeit",
        protection_manager.held_award,
        {"decision": "forfeit"},
        name="held-award-forfeit",
    ),
    path("manager/exclusions", protection_manager.exclusions, name="exclusions"),
    path(
        "manager/protection-settings",
        protection_manager.settings_page,
        name="protection-settings",
    ),
    path("auditor/", auditor.auditor_home, name="auditor-home"),
    path("auditor/produce", auditor.report_produce, name="report-produce"),
    path("auditor/today", auditor.report_open, name="report-open"),
    path(
        "auditor/today/<str:fmt>",
        auditor.report_open_download,
        name="report-open-download",
    ),
    path(
        "auditor/reports/<int:report_id>",
        auditor.report_preview,
        name="report-preview",
    ),
    path(
        "auditor/reports/<int:report_id>/<str:fmt>",
        auditor.report_download,
        name="report-download",
    ),
    path("floor/events/", include("staff.tournaments.director_urls")),
    path("floor/", floor.floor_home, name="floor-home"),
    path("floor/map", floor.floor_map, name="floor-map"),
    path("floor/lists", floor.floor_lists, name="floor-lists"),
    path("floor/tables/open", floor.table_open, name="table-open"),
    path("floor/tables/<str:code>/close", floor.table_close, name="table-close"),
    path("floor/tables/<str:code>/break", floor.table_break, name="table-break"),
    path("floor/tables/<str:code>/move", floor.house_move, name="house-move"),
    path(
        "floor/tables/<str:code>/correction",
        floor.correction_request,
        name="correction-request",
    ),
    path("floor/tables/<str:code>/void", floor.void_request, name="void-request"),
    path("floor/lists/<int:list_id>/call", floor.list_call, name="list-call"),
    path("floor/lists/join", floor.list_join, name="list-join"),
    path("floor/fills", floor.fill_request, name="fill-request"),
    path("floor/entries/<int:entry_id>/seat", floor.entry_seat, name="entry-seat"),
]
