"""Input that breaks the contract is answered 400 (or 422 under a rule), never 500,
and changes nothing (API.md "Conventions", issue "Input that breaks the contract").

Each test performs the attack a hostile test found, checks the answer's status and
error shape, and that the ledger's fingerprint (entries, transactions, balances) and
the floor's records are as they were. Then a well-formed request is answered, so a
refusal is the attack's, not a broken endpoint's.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from accounting.models import Cage
from accounting.services import cage as cage_services
from cardroom.domain.hand_limits import HAND_NO_WINDOW
from cardroom.models import Hand
from core.roles import Role
from tests.api.floor.conftest import GAMES, POLICY, post_hand, seat
from tests.api.floor.test_hands import heads_up
from tests.api.test_auth import assert_error_shape
from tests.security.ledger import fingerprint

pytestmark = pytest.mark.django_db

HELSINKI = ZoneInfo("Europe/Helsinki")
BIG = 2**63  # one more than PostgreSQL's bigint holds
BIGGEST = 2**63 - 1


def raw(client, url: str, body: str, content_type: str = "application/json"):
    return client.post(url, data=body, content_type=content_type)


@pytest.fixture
def cage_room(db, staff_client):
    """A funded cage with an open shift, a registered player and its cashier."""
    keeper = User.objects.create_user("vault-keeper")
    cage = Cage.objects.create(code="MAIN", name="Main cage", currency="EUR")
    cage_services.cage_vault_fund(
        cage=cage, cash_cents=10**7, chips_cents=10**7, by=keeper
    )
    cage_services.player_register(
        code="P-1001", name="Aino", id_verified=True, birth_date=date(1985, 1, 1)
    )
    cashier = staff_client(Role.CASHIER, username="kalle")
    opened = cashier.post(
        "/api/v1/cage/shifts",
        {"cage": "MAIN", "cash": 500_000, "chips": 500_000},
        format="json",
    )
    assert opened.status_code == 201, opened.content
    return cashier


def table_body(**changes):
    return {"code": "T09", **GAMES["NL12"], "seats": 9, "policy": POLICY, **changes}


# -- integers PostgreSQL can't hold ----------------------------------------------


@pytest.mark.parametrize("value", [BIG, 2**64, -(2**63) - 1, 10**40])
@pytest.mark.parametrize("field", ["small_blind", "big_blind", "min_buy_in", "seats"])
def test_a_huge_integer_opening_a_table_is_malformed(manager, field, value):
    before = fingerprint()
    answer = manager.post("/api/v1/tables", table_body(**{field: value}), "json")
    assert_error_shape(answer, 400, "malformed_request")
    assert fingerprint() == before
    assert manager.post("/api/v1/tables", table_body(), "json").status_code == 201


@pytest.mark.parametrize("value", [BIGGEST, 10**12 + 1])
def test_an_amount_beyond_the_largest_opening_a_table_is_invalid(manager, value):
    """Within bigint but above the largest amount (core.api.fields.MAX_CENTS)."""
    before = fingerprint()
    answer = manager.post("/api/v1/tables", table_body(min_buy_in=value), "json")
    error = assert_error_shape(answer, 400, "invalid")
    assert "min_buy_in" in error["fields"]
    assert fingerprint() == before


@pytest.mark.parametrize("value", [BIG, BIGGEST, 2**70])
def test_a_huge_purchase_at_the_cage_is_refused(cage_room, value):
    before = fingerprint()
    answer = cage_room.post(
        "/api/v1/cage/purchases",
        {"cage": "MAIN", "player": "P-1001", "amount": value},
        format="json",
    )
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] in ("malformed_request", "invalid")
    assert fingerprint() == before
    ok = cage_room.post(
        "/api/v1/cage/purchases",
        {"cage": "MAIN", "player": "P-1001", "amount": 10_000},
        format="json",
    )
    assert ok.status_code == 201, ok.content


@pytest.mark.parametrize(
    ("where", "value"),
    [
        ("hand_no", BIG),
        ("button", BIG),
        ("streets", BIG),
        ("stack", BIG),
        ("put_in", 2**80),
    ],
)
def test_a_huge_integer_in_a_hand_is_malformed(t01, where, value):
    hand = heads_up()
    if where in ("stack", "put_in"):
        hand["seats"][0][where] = value
    else:
        hand[where] = value
    before = fingerprint()
    assert_error_shape(post_hand(t01, "T01", hand), 400, "malformed_request")
    assert fingerprint() == before
    assert post_hand(t01, "T01", heads_up()).status_code == 201


# -- strings and structures PostgreSQL or the parser can't hold ---------------------


@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "x\\ud83dy"])
def test_a_lone_surrogate_is_malformed(t01, escape):
    body = json.dumps(heads_up()).replace('"P-1"', f'"P-1{escape}"', 1)
    before = fingerprint()
    answer = raw(t01, "/api/v1/tables/T01/hands", body)
    error = assert_error_shape(answer, 400, "malformed_request")
    assert "surrogate" in error["detail"]
    assert fingerprint() == before


def test_a_lone_surrogate_in_a_key_is_malformed(manager):
    body = json.dumps(table_body()).replace('"policy"', '"po\\ud800licy"')
    before = fingerprint()
    assert_error_shape(raw(manager, "/api/v1/tables", body), 400, "malformed_request")
    assert fingerprint() == before


def test_a_surrogate_pair_is_a_character_and_goes_through(t01):
    """An escaped pair (an emoji) is valid UTF-16 for one character: not refused."""
    body = json.dumps(heads_up()).replace('"NLHE"', '"NLHE\\ud83d\\ude00"')
    answer = raw(t01, "/api/v1/tables/T01/hands", body)
    assert answer.status_code == 422, answer.content  # not the table's game, no 500
    assert answer.json()["error"]["code"] == "wrong_game"


@pytest.mark.parametrize("depth", [33, 1_000, 10_000, 100_000])
def test_deeply_nested_arrays_are_malformed(t01, depth):
    """10,000 levels made json raise RecursionError, a 500."""
    nested = "[" * depth + "]" * depth
    body = json.dumps(heads_up()).replace('"board": [', f'"deep": {nested}, "board": [')
    before = fingerprint()
    answer = raw(t01, "/api/v1/tables/T01/hands", body)
    assert_error_shape(answer, 400, "malformed_request")
    assert fingerprint() == before


@pytest.mark.parametrize("body", ["1e400", '{"x": -1e999}', "NaN", '{"a": Infinity}'])
def test_numbers_that_are_not_finite_are_malformed(t01, body):
    answer = raw(t01, "/api/v1/tables/T01/hands", body)
    assert_error_shape(answer, 400, "malformed_request")


@pytest.mark.parametrize("body", [b"\xff\xfe{}", b'{"a": "\xc3"}'])
def test_a_body_that_is_not_utf8_is_malformed(t01, body):
    answer = t01.post(
        "/api/v1/tables/T01/hands", data=body, content_type="application/json"
    )
    assert_error_shape(answer, 400, "malformed_request")


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=4096)
def test_a_body_over_the_size_limit_is_a_json_400(t01):
    """Not Django's HTML page: the error shape, with the limit allowed."""
    hand = heads_up()
    hand["seats"][0]["player"] = "P-1" + "x" * 5000
    before = fingerprint()
    answer = raw(t01, "/api/v1/tables/T01/hands", json.dumps(hand))
    error = assert_error_shape(answer, 400, "request_too_large")
    assert answer["Content-Type"] == "application/json"
    assert error["allowed"] == {"max_bytes": 4096}
    assert fingerprint() == before
    assert post_hand(t01, "T01", heads_up()).status_code == 201


def test_the_default_size_limit_refuses_a_megabyte(t01):
    """The issue's 1 MB field: over the limit, never read into the hand record."""
    hand = heads_up()
    hand["comment"] = "x" * 1_048_576
    before = fingerprint()
    answer = raw(t01, "/api/v1/tables/T01/hands", json.dumps(hand))
    assert_error_shape(answer, 400, "request_too_large")
    assert fingerprint() == before


# -- money is integer cents, in JSON ------------------------------------------------

NOT_CENTS = ["100.00", "20000", 100.0, 20000.0, True, False, "1e4", [20000], None]


@pytest.mark.parametrize("value", NOT_CENTS, ids=repr)
def test_a_buy_in_is_integer_cents(t01, value):
    before = fingerprint()
    answer = seat(t01, "T01", 3, "P-3", value)
    assert answer.status_code == 400, answer.content
    assert "amount" in answer.json()["error"]["fields"]
    assert fingerprint() == before


@pytest.mark.parametrize("value", NOT_CENTS, ids=repr)
def test_a_top_up_is_integer_cents(t01, value):
    before = fingerprint()
    answer = t01.post(
        "/api/v1/tables/T01/seats/1/top-ups",
        {"amount": value, "method": "cash"},
        format="json",
    )
    assert answer.status_code == 400, answer.content
    assert "amount" in answer.json()["error"]["fields"]
    assert fingerprint() == before


@pytest.mark.parametrize("value", NOT_CENTS, ids=repr)
def test_a_leaving_stack_is_integer_cents(t01, value):
    before = fingerprint()
    answer = t01.post(
        "/api/v1/tables/T01/seats/1/leave", {"stack": value}, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert "stack" in answer.json()["error"]["fields"]
    assert fingerprint() == before


@pytest.mark.parametrize("value", NOT_CENTS, ids=repr)
@pytest.mark.parametrize("field", ["small_blind", "big_blind", "min_buy_in"])
def test_a_table_opens_with_integer_cents(manager, field, value):
    before = fingerprint()
    answer = manager.post("/api/v1/tables", table_body(**{field: value}), "json")
    assert answer.status_code == 400, answer.content
    assert field in answer.json()["error"]["fields"]
    assert fingerprint() == before


@pytest.mark.parametrize("value", NOT_CENTS, ids=repr)
def test_a_correction_is_integer_cents(t01, floor, value):
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    before = fingerprint()
    answer = floor.post(
        "/api/v1/corrections",
        {
            "kind": "pot_correction",
            "table": "T01",
            "hand_no": 1,
            "from_player": "P-1",
            "to_player": "P-2",
            "amount": value,
            "reason": "misread hand",
        },
        format="json",
    )
    assert answer.status_code == 400, answer.content
    assert "amount" in answer.json()["error"]["fields"]
    assert fingerprint() == before


def test_integer_cents_go_through(t01):
    """The same requests with integers are answered."""
    assert seat(t01, "T01", 3, "P-3", 20_000).status_code == 201
    top_up = t01.post(
        "/api/v1/tables/T01/seats/3/top-ups",
        {"amount": 100, "method": "cash"},
        format="json",
    )
    assert top_up.status_code == 201, top_up.content
    left = t01.post("/api/v1/tables/T01/seats/3/leave", {"stack": 20_100}, "json")
    assert left.status_code == 200, left.content


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/x-www-form-urlencoded", "seat=3&player=P-3&amount=20000"),
        ("multipart/form-data; boundary=x", "--x\r\n\r\n--x--\r\n"),
        ("text/plain", '{"seat": 3}'),
    ],
)
def test_a_form_encoded_body_is_refused(t01, content_type, body):
    """The API is JSON (API.md); a form's "20000" is never read as money."""
    before = fingerprint()
    answer = raw(t01, "/api/v1/tables/T01/seats", body, content_type)
    error = assert_error_shape(answer, 400, "unsupported_media_type")
    assert error["allowed"] == {"media_types": ["application/json"]}
    assert fingerprint() == before


# -- unknown fields -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda h: h.update(comment="x" * 100_000), "comment"),
        (lambda h: h.update(Hand_no=1), "Hand_no"),
        (lambda h: h["seats"][1].update(colour="red"), "seats[1].colour"),
        (lambda h: h.update(awarded=[{"seat": 1, "amount": 9500, "tip": 1}]), None),
    ],
)
def test_a_hand_with_an_unknown_field_is_refused_naming_it(t01, change, named):
    hand = heads_up()
    change(hand)
    before = fingerprint()
    error = assert_error_shape(post_hand(t01, "T01", hand), 400, "invalid")
    assert list(error["fields"]) == [named or "awarded[0].tip"]
    assert fingerprint() == before
    assert not Hand.objects.exists()


def test_every_field_of_the_hand_record_is_known(t01):
    """All of API.md's fields, optional ones included, are read, not refused."""
    hand = heads_up(
        started_at="2026-11-29T20:58:00+02:00",
        ended_at="2026-11-29T20:59:30+02:00",
        awarded=[{"seat": 1, "amount": 9_500}],
    )
    answer = post_hand(t01, "T01", hand)
    assert answer.status_code == 201, answer.content


@pytest.mark.parametrize(
    ("url", "body"),
    [
        (
            "/api/v1/tables/T01/seats",
            {"seat": 3, "player": "P-3", "amount": 20_000, "method": "cash", "x": 1},
        ),
        ("/api/v1/tables/T01/seats/1/top-ups", {"amount": 1, "method": "cash", "x": 1}),
        ("/api/v1/tables/T01/seats/1/leave", {"stack": 20_000, "x": 1}),
    ],
)
def test_floor_endpoints_refuse_unknown_fields(t01, url, body):
    before = fingerprint()
    error = assert_error_shape(t01.post(url, body, format="json"), 400, "invalid")
    assert list(error["fields"]) == ["x"]
    assert fingerprint() == before


# -- a hand's number and times -----------------------------------------------------


def test_a_hand_number_far_ahead_is_refused_and_the_table_goes_on(t01):
    """2^63-1 would have left the table no number for its next hand."""
    assert post_hand(t01, "T01", heads_up(1)).status_code == 201
    back = {"seats": heads_up()["seats"]}
    for row in back["seats"]:
        row["stack"] = 20_000 + (4_500 if row["seat"] == 1 else -5_000)
    for hand_no in (BIGGEST, 2**62, 1 + HAND_NO_WINDOW + 1):
        before = fingerprint()
        answer = post_hand(t01, "T01", heads_up(hand_no, **back))
        error = assert_error_shape(answer, 422, "hand_no_too_far_ahead")
        assert error["rule"] == "HS6"
        assert error["allowed"] == {"min": 2, "max": 1 + HAND_NO_WINDOW, "last": 1}
        assert fingerprint() == before
    answer = post_hand(t01, "T01", heads_up(1 + HAND_NO_WINDOW, **back))
    assert answer.status_code == 201, answer.content


def test_the_first_hand_of_a_table_has_a_bounded_number(t01):
    before = fingerprint()
    answer = post_hand(t01, "T01", heads_up(BIGGEST))
    error = assert_error_shape(answer, 422, "hand_no_too_far_ahead")
    assert (error["allowed"]["min"], error["allowed"]["last"]) == (1, None)
    assert fingerprint() == before


@pytest.mark.parametrize(
    "when",
    [
        "1970-01-01T00:00:00+00:00",  # booked into gaming day 1969-12-31 before
        "2026-11-29T05:59:59+02:00",  # the night before the table's
        "2026-11-30T21:00:00+02:00",  # tomorrow evening
        "2026-11-29T21:10:00+02:00",  # ten minutes ahead of the room's clock
    ],
)
def test_a_hand_ending_outside_the_tables_gaming_day_is_refused(t01, when):
    before = fingerprint()
    answer = post_hand(t01, "T01", heads_up(ended_at=when))
    error = assert_error_shape(answer, 422, "hand_time_outside_gaming_day")
    assert error["rule"] == "BI8"
    assert error["allowed"] == {
        "from": datetime(2026, 11, 29, 6, tzinfo=HELSINKI).astimezone(UTC).isoformat(),
        "to": "2026-11-29T19:05:00+00:00",
    }
    assert fingerprint() == before


def test_a_hand_starting_outside_the_tables_gaming_day_is_refused(t01):
    hand = heads_up(
        started_at="1970-01-01T00:00:00+00:00", ended_at="2026-11-29T20:59:00+02:00"
    )
    error = assert_error_shape(
        post_hand(t01, "T01", hand), 422, "hand_time_outside_gaming_day"
    )
    assert "started_at" in error["detail"]


def test_a_hand_ending_before_it_started_is_refused(t01):
    before = fingerprint()
    hand = heads_up(
        started_at="2026-11-29T20:59:00+02:00", ended_at="2026-11-29T20:58:00+02:00"
    )
    error = assert_error_shape(
        post_hand(t01, "T01", hand), 422, "hand_ends_before_it_starts"
    )
    assert error["rule"] == "BI8"
    assert fingerprint() == before


def test_a_hand_within_the_gaming_day_and_a_little_clock_skew_is_booked(t01):
    hand = heads_up(
        started_at="2026-11-29T06:00:00+02:00", ended_at="2026-11-29T21:04:00+02:00"
    )
    answer = post_hand(t01, "T01", hand)
    assert answer.status_code == 201, answer.content
    assert Hand.objects.get().gaming_day.isoformat() == "2026-11-29"


@pytest.mark.parametrize(
    ("language", "detail"),
    [
        ("fi", "Lähetä runko JSON-muodossa (Content-Type: application/json)."),
        ("ko", "본문을 JSON으로 보내십시오(Content-Type: application/json)."),
        ("en", "Send the body as JSON (Content-Type: application/json)."),
    ],
)
def test_the_refusals_speak_the_callers_language(t01, language, detail):
    answer = t01.post(
        "/api/v1/tables/T01/seats",
        data="seat=3",
        content_type="application/x-www-form-urlencoded",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert assert_error_shape(answer, 400, "unsupported_media_type")["detail"] == detail
