"""The floor's API, under ``/api/v1/``: every hand of every table (first, so the
resolver tries them first), tables, seats, top-ups, breaks and leaving, custody,
corrections, voids, stack reviews, hand histories, the terminals' keys and
pairing codes, a table's state and a hand's preview for its terminal, and the
refused hands kept for the floor.
"""

from django.urls import path

from cardroom.api import keys, pairing, refusals, table_state, views

urlpatterns = [
    # Every hand of every table: first, so the resolver tries them first.
    path("tables/<slug:table>/hands", views.HandRecordApi.as_view(), name="hands"),
    path(
        "tables/<slug:table>/hands/batch",
        views.HandBatchApi.as_view(),
        name="hands-batch",
    ),
    path(
        "tables/<slug:table>/hands/preview",
        table_state.HandPreviewApi.as_view(),
        name="hands-preview",
    ),
    path(
        "tables/<slug:table>/state",
        table_state.TableStateApi.as_view(),
        name="table-state",
    ),
    path("terminal-keys", keys.TerminalKeyListApi.as_view(), name="terminal-keys"),
    path(
        "terminal-pairings",
        pairing.TerminalPairingApi.as_view(),
        name="terminal-pairings",
    ),
    path("terminal/pair", pairing.TerminalPairApi.as_view(), name="terminal-pair"),
    path(
        "hand-refusals",
        refusals.HandRefusalListApi.as_view(),
        name="hand-refusals",
    ),
    path(
        "hand-refusals/<int:pk>/handle",
        refusals.HandRefusalHandleApi.as_view(),
        name="hand-refusal-handle",
    ),
    path(
        "terminal-keys/<str:prefix>/revoke",
        keys.TerminalKeyRevokeApi.as_view(),
        name="terminal-key-revoke",
    ),
    path("tables", views.TableOpenApi.as_view(), name="table-open"),
    path("tables/<slug:table>", views.TableDetailApi.as_view(), name="table"),
    path(
        "tables/<slug:table>/close",
        views.TableCloseApi.as_view(),
        name="table-close",
    ),
    path("tables/<slug:table>/seats", views.SeatApi.as_view(), name="seat"),
    path(
        "tables/<slug:table>/seats/<int:seat>/top-ups",
        views.TopUpApi.as_view(),
        name="top-up",
    ),
    path(
        "tables/<slug:table>/seats/<int:seat>/leave",
        views.LeaveApi.as_view(),
        name="leave",
    ),
    path(
        "tables/<slug:table>/seats/<int:seat>/away",
        views.AwayApi.as_view(),
        name="away",
    ),
    path(
        "tables/<slug:table>/seats/<int:seat>/back",
        views.BackApi.as_view(),
        name="back",
    ),
    path(
        "tables/<slug:table>/seats/<int:seat>/pick-up",
        views.PickUpApi.as_view(),
        name="pick-up",
    ),
    path(
        "custody/<str:player>/return",
        views.CustodyReturnApi.as_view(),
        name="custody-return",
    ),
    path("corrections", views.CorrectionRequestApi.as_view(), name="corrections"),
    path(
        "corrections/<int:pk>/approve",
        views.CorrectionDecideApi.as_view(approve=True),
        name="correction-approve",
    ),
    path(
        "corrections/<int:pk>/reject",
        views.CorrectionDecideApi.as_view(approve=False),
        name="correction-reject",
    ),
    path(
        "tables/<slug:table>/hands/<int:hand_no>.phh",
        views.HandPhhApi.as_view(),
        name="hand-phh",
    ),
    path(
        "tables/<slug:table>/hands/<int:hand_no>/void",
        views.HandVoidApi.as_view(),
        name="hand-void",
    ),
    path(
        "voids/<int:pk>/approve",
        views.VoidDecideApi.as_view(approve=True),
        name="void-approve",
    ),
    path(
        "voids/<int:pk>/reject",
        views.VoidDecideApi.as_view(approve=False),
        name="void-reject",
    ),
    path("stack-reviews", views.StackReviewListApi.as_view(), name="stack-reviews"),
    path(
        "stack-reviews/<int:pk>/propose",
        views.StackReviewProposeApi.as_view(),
        name="stack-review-propose",
    ),
    path(
        "stack-reviews/<int:pk>/approve",
        views.StackReviewApproveApi.as_view(),
        name="stack-review-approve",
    ),
]
