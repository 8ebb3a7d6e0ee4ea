"""The staff screens: sign-in, each role's home page, the cage (CA1–CA6), the
manager's approvals, terminal keys and player protection (PP1–PP7: players,
held awards, the exclusion list, the settings), the floor
(WL1–WL10, DC2, RK8) and the auditor's reports (BI8)."""

from django.urls import include, path

from staff import (
    floor,
)
from staff.auditor import urls as auditor
from staff.cage import urls as cage
from staff.common import urls as common
from staff.manager import urls as manager

app_name = "staff"

urlpatterns = [
    *common.urlpatterns,
    *cage.urlpatterns,
    *manager.urlpatterns,
    *auditor.urlpatterns,
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
