"""The staff screens: sign-in, each role's home page, the cage (CA1–CA6), the
floor (WL1–WL10, DC2, RK8)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from staff import floor, views

app_name = "staff"

urlpatterns = [
    path("", views.home, name="root"),
    path("login", views.LoginView.as_view(), name="login"),
    path(
        "logout", auth_views.LogoutView.as_view(next_page="staff:login"), name="logout"
    ),
    path("home", views.home, name="home"),
    path("cage/", views.cage_home, name="cage-home"),
    path("cage/shift/open", views.shift_open, name="shift-open"),
    path("cage/shift/close", views.shift_close, name="shift-close"),
    path("cage/shift/close/over-short", views.shift_close_preview, name="over-short"),
    path("cage/shifts/<int:shift_id>", views.shift_closed, name="shift-closed"),
    path("cage/players", views.player_search, name="players"),
    path("cage/players/<str:code>", views.player_detail, name="player"),
    path("cage/players/<str:code>/sell", views.chips_sell, name="sell"),
    path("cage/players/<str:code>/redeem", views.chips_redeem, name="redeem"),
    path(
        "cage/players/<str:code>/identity",
        views.player_identify,
        name="player-identity",
    ),
    path("cage/queue", views.queue, name="queue"),
    path("cage/slips/<int:slip_id>/issue", views.slip_issue, name="slip-issue"),
    path("cage/awards", views.awards, name="awards"),
    path("cage/awards/<int:payable_id>/pay", views.award_pay, name="award-pay"),
    path("cage/receipts/<str:no>", views.receipt, name="receipt"),
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
    path("floor/entries/<int:entry_id>/seat", floor.entry_seat, name="entry-seat"),
]
