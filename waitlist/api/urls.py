"""The waiting lists' API, under ``/api/v1/``: the lists, their entries, calls and
seats, seat changes, breaks and must-moves (``waitlist/``); the public board's JSON
and the table terminal's time collection at the root (API.md "Table terminal").
"""

from django.urls import include, path

from waitlist.api import views

list_patterns = [
    path("lists", views.ListsApi.as_view(), name="waitlist-lists"),
    path("lists/<str:key>", views.ListDetailApi.as_view(), name="waitlist-list"),
    path("lists/<str:key>/join", views.JoinApi.as_view(), name="waitlist-join"),
    path("lists/<str:key>/call", views.CallApi.as_view(), name="waitlist-call"),
    path("entries/<int:pk>", views.EntryDetailApi.as_view(), name="waitlist-entry"),
    path("entries/<int:pk>/answer", views.AnswerApi.as_view(), name="waitlist-answer"),
    path("entries/<int:pk>/seat", views.SeatApi.as_view(), name="waitlist-seat"),
    path("entries/<int:pk>/remove", views.RemoveApi.as_view(), name="waitlist-remove"),
    path("seat-changes", views.SeatChangeApi.as_view(), name="waitlist-seat-changes"),
    path("tables/<slug:table>/break", views.BreakApi.as_view(), name="waitlist-break"),
    path(
        "tables/<slug:table>/balance",
        views.BalanceApi.as_view(),
        name="waitlist-balance",
    ),
    path("must-moves", views.MustMovesApi.as_view(), name="waitlist-must-moves"),
    path(
        "must-moves/<int:pk>/end",
        views.MustMoveEndApi.as_view(),
        name="waitlist-must-move-end",
    ),
    path("lockups", views.LockupsApi.as_view(), name="waitlist-lockups"),
    path(
        "lockups/<int:pk>/release",
        views.LockupReleaseApi.as_view(),
        name="waitlist-lockup-release",
    ),
    path("kept-apart", views.KeptApartApi.as_view(), name="waitlist-kept-apart"),
    path(
        "kept-apart/<int:pk>/end",
        views.KeptApartEndApi.as_view(),
        name="waitlist-kept-apart-end",
    ),
    path("events", views.EventsApi.as_view(), name="waitlist-events"),
]

root_patterns = [
    path("board", views.BoardApi.as_view(), name="board"),
    path(
        "tables/<slug:table>/calls/<int:pk>/seat",
        views.TableCallSeatApi.as_view(),
        name="table-call-seat",
    ),
    path(
        "tables/<slug:table>/time",
        views.TimeCollectionApi.as_view(),
        name="time-collection",
    ),
]

urlpatterns = [path("waitlist/", include(list_patterns)), *root_patterns]
