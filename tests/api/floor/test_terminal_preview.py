"""A hand's preview (``POST hands/preview``): the settlement ``POST hands`` would
book, booking nothing, refused as ``POST hands`` refuses (API.md "Table
terminal")."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection

from cardroom.models import HandRefusal
from core.models import IdempotencyRecord
from tests.api.floor.conftest import post_hand
from tests.api.floor.test_hands import heads_up, t01  # noqa: F401
from tests.api.test_auth import assert_error_shape

pytestmark = pytest.mark.django_db

PREVIEW = "/api/v1/tables/T01/hands/preview"


def counts() -> dict[str, int]:
    """Every table's rows, and the sequences' positions: a preview moves none."""
    found = {
        m._meta.db_table: m.objects.count()
        for m in apps.get_models()
        if m._meta.managed and not m._meta.proxy
    }
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT sequencename, last_value FROM pg_sequences"
            " WHERE schemaname = current_schema()"
        )
        found.update({f"seq:{name}": value for name, value in cursor.fetchall()})
    return found


def preview(terminal, record, **extra):
    body = {k: v for k, v in record.items() if v is not None}
    return terminal.post(PREVIEW, body, format="json", **extra)


def test_the_preview_is_the_booked_settlement_and_writes_nothing(t01):  # noqa: F811
    """200 with the settlement; nothing written, not even with an idempotency key;
    the hand posted afterwards is booked with exactly that settlement."""
    before = counts()
    shown = preview(t01, heads_up(), HTTP_IDEMPOTENCY_KEY="preview-1")
    assert shown.status_code == 200, shown.content
    assert counts() == before
    assert not IdempotencyRecord.objects.exists()
    booked = post_hand(t01, "T01", heads_up())
    assert booked.status_code == 201
    assert shown.json() == booked.json()
    assert shown.json()["pots"][0]["winners"] == [{"seat": 1, "amount": 9_500}]


def test_a_hand_with_exceptions_previews_them(t01):  # noqa: F811
    """HS7 and HS6 as the booking raises them: pushes that differ from the rules
    (a mispaid pot), a stack reported below the ledger's."""
    record = heads_up(awarded=[{"seat": 2, "amount": 9_500}])
    record["seats"][1]["stack"] = 19_000
    shown = preview(t01, record)
    assert shown.status_code == 200, shown.content
    codes = sorted(e["code"] for e in shown.json()["exceptions"])
    assert codes == ["mispaid_pot", "stack_mismatch"]
    before = counts()
    booked = post_hand(t01, "T01", record)
    assert booked.status_code == 201, booked.content
    assert shown.json() == booked.json()
    assert counts() != before


def test_a_booked_hand_previews_as_booked_and_another_record_conflicts(t01):  # noqa: F811
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    again = preview(t01, heads_up())
    assert again.status_code == 200
    assert again.json() == post_hand(t01, "T01", heads_up()).json()
    other = heads_up(board=["2c", "7d", "9h", "Js", "4d"])
    assert_error_shape(preview(t01, other), 409, "hand_conflict")


@pytest.mark.parametrize(
    ("change", "status", "code"),
    [
        (lambda h: h.update(game="PLO"), 422, "wrong_game"),
        (lambda h: h.update(table="T02"), 422, "wrong_table"),
        (lambda h: h["seats"][0].update(player="P-9"), 422, "seat_not_held"),
        (lambda h: h["seats"][0].update(stack=99_000), 422, "stack_above_ledger"),
        (
            lambda h: h.update(board=["2c", "2c", "9h", "Js", "3d"]),
            422,
            "duplicate_card",
        ),
        (lambda h: h.update(hand_no=0), 400, "malformed_hand"),
        (lambda h: h.update(surprise=1), 400, "invalid"),
    ],
    ids=[
        "game",
        "table",
        "seat",
        "stack",
        "duplicate card",
        "hand 0",
        "unknown field",
    ],
)
def test_a_refusal_is_the_one_post_hands_gives(t01, change, status, code):  # noqa: F811
    """Each refusal of the preview equals POST hands' for the same record, and
    the preview keeps no refused hand."""
    record = heads_up()
    change(record)
    shown = preview(t01, record)
    assert shown.status_code == status, shown.content
    assert shown.json()["error"]["code"] == code
    assert not HandRefusal.objects.exists()
    posted = post_hand(t01, "T01", record)
    assert (posted.status_code, posted.json()) == (status, shown.json())


def test_a_closed_or_unknown_table(t01, floor, open_table):  # noqa: F811
    assert_error_shape(
        floor.post(
            "/api/v1/tables/T99/hands/preview",
            {k: v for k, v in heads_up().items() if k != "table"},
            format="json",
        ),
        404,
        "not_found",
    )
    t02 = open_table("T02")
    assert floor.post("/api/v1/tables/T02/close").status_code == 200
    closed = t02.post(
        "/api/v1/tables/T02/hands/preview", heads_up(table="T02"), format="json"
    )
    assert_error_shape(closed, 422, "table_closed")


def test_only_the_tables_own_terminal(t01, open_table):  # noqa: F811
    open_table("T02")
    answer = t01.post("/api/v1/tables/T02/hands/preview", heads_up(), format="json")
    assert_error_shape(answer, 403, "permission_denied")


def test_a_number_too_far_ahead_is_refused_as_posted(t01):  # noqa: F811
    """HS-P1 after a booked hand: the same refusal as POST hands."""
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    record = heads_up(hand_no=5_000)
    for row in record["seats"]:
        row["stack"] = {1: 24_500, 2: 15_000}[row["seat"]]
    shown = preview(t01, record)
    assert shown.status_code == 422, shown.content
    assert shown.json()["error"]["code"] == "hand_no_too_far_ahead"
    assert post_hand(t01, "T01", record).json() == shown.json()
