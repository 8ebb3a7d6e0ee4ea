"""A director sets tonight's event up through the API alone: a blind structure, the
event with its money and rule settings, its tables and its payout table, and sees
the prizes a field would pay (TO1, TO7, TO8, TO11, TO12).

Strict input (no strings or floats for numbers, unknown fields refused), refusals
in the error shape with their rule, idempotent POSTs, and what may change when.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.utils import timezone
from pghistory.models import Events

from accounting.models import Cage
from accounting.services import cage as cage_services
from cardroom.models import Game, Table
from core.roles import Role
from tournaments import services
from tournaments.models import (
    ClockChange,
    Event,
    EventTable,
    Level,
    PayoutSheet,
    Structure,
)

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments"

LEVELS = [
    {"small_blind": 100, "big_blind": 200, "ante": 0, "minutes": 30},
    {
        "small_blind": 200,
        "big_blind": 400,
        "ante": 400,
        "big_blind_ante": True,
        "minutes": 30,
    },
    {"break": True, "minutes": 15, "retire_denomination": 25},
    {
        "small_blind": 300,
        "big_blind": 600,
        "ante": 600,
        "big_blind_ante": True,
        "minutes": 30,
    },
]

TABLE_ROWS = [
    {"min_entries": 1, "shares": [10_000]},
    {"min_entries": 10, "shares": [5_000, 3_000, 2_000]},
    {"min_entries": 20, "shares": [4_000, 2_500, 1_800, 1_000, 700]},
]


def event_body(**changes):
    body = {
        "code": "fri-55",
        "name": "Friday €55",
        "structure": "DS-30",
        "starts_at": "2026-11-29T19:00:00+02:00",
        "buy_in": 5_500,
        "fee": 500,
        "starting_stack": 20_000,
        "late_registration_level": 3,
        "reentry_max": 1,
        "payout_unit": 1_000,
        "payout_table": TABLE_ROWS,
    }
    body.update(changes)
    return body


@pytest.fixture
def director(staff_client):
    return staff_client(Role.FLOOR, username="dora")


@pytest.fixture
def manager_client(staff_client):
    return staff_client(Role.MANAGER, username="mia")


@pytest.fixture
def cashier_client(staff_client):
    return staff_client(Role.CASHIER, username="kalle")


@pytest.fixture
def auditor_client(staff_client):
    return staff_client(Role.AUDITOR, username="aino")


def post(client, path, body, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"{API}/{path}", body, format="json", **headers)


def error_of(answer):
    body = answer.json()
    assert set(body) == {"error"}, body
    return body["error"]


@pytest.fixture
def ds30(director, room):
    answer = post(
        director, "structures", {"code": "DS-30", "name": "Deep 30", "levels": LEVELS}
    )
    assert answer.status_code == 201, answer.content
    return Structure.objects.get(code="DS-30")


@pytest.fixture
def friday(director, ds30):
    answer = post(director, "events", event_body())
    assert answer.status_code == 201, answer.content
    return Event.objects.get(code="fri-55")


# ---------------------------------------------------------------- structures


def test_a_structure_is_created_with_its_levels_numbered_in_order(
    director, auditor_client, room
):
    body = {"code": "DS-30", "name": "Deep 30", "levels": LEVELS}
    answer = post(director, "structures", body, key="s-1")
    assert answer.status_code == 201, answer.content
    made = answer.json()
    assert [lv["number"] for lv in made["levels"]] == [1, 2, 3, 4]
    assert made["levels"][2] == {
        "number": 3,
        "small_blind": 0,
        "big_blind": 0,
        "ante": 0,
        "big_blind_ante": False,
        "minutes": 15,
        "retire_denomination": 25,
        "break": True,
    }
    assert made["levels"][1]["big_blind_ante"] is True
    assert made["fixed"] is False and made["events"] == []
    levels = Level.objects.filter(structure__code="DS-30").order_by("number")
    assert [(lv.number, lv.big_blind, lv.is_break) for lv in levels] == [
        (1, 200, False),
        (2, 400, False),
        (3, 0, True),
        (4, 600, False),
    ]
    # A retry with the same key writes nothing and answers the same.
    again = post(director, "structures", body, key="s-1")
    assert again.status_code == 201 and again.json() == made
    assert again["Idempotent-Replayed"] == "true"
    assert Level.objects.filter(structure__code="DS-30").count() == 4
    # The same key with another body is refused.
    other = post(director, "structures", {**body, "name": "Other"}, key="s-1")
    assert other.status_code == 422
    # Read by the tournament's staff.
    listed = auditor_client.get(f"{API}/structures")
    assert listed.status_code == 200 and [s["code"] for s in listed.json()] == ["DS-30"]
    one = auditor_client.get(f"{API}/structures/DS-30")
    assert one.status_code == 200 and one.json() == made


@pytest.mark.parametrize(
    ("level", "field"),
    [
        ({"small_blind": "100", "big_blind": 200, "minutes": 30}, "small_blind"),
        ({"small_blind": 100, "big_blind": 200.0, "minutes": 30}, "big_blind"),
        ({"small_blind": 100, "big_blind": 200, "minutes": True}, "minutes"),
        ({"small_blind": 100, "big_blind": 200, "minutes": 30, "color": 1}, "color"),
        ({"break": "true", "minutes": 15}, "break"),
        ({"small_blind": 100, "big_blind": 200, "minutes": 0}, "minutes"),
    ],
)
def test_a_structure_takes_json_integers_and_known_fields_only(
    director, room, level, field
):
    body = {"code": "S1", "name": "S", "levels": [level]}
    answer = post(director, "structures", body)
    assert answer.status_code == 400, answer.content
    error = error_of(answer)
    assert error["code"] == "invalid" and field in error["detail"]
    assert not Structure.objects.exists()


@pytest.mark.parametrize(
    ("levels", "text"),
    [
        ([], "at least one level"),
        ([{"break": True, "minutes": 15}], "starts with a level of play"),
        ([{"small_blind": 300, "big_blind": 200, "minutes": 20}], "small blind"),
        ([{"small_blind": 0, "big_blind": 0, "minutes": 20}], "no big blind"),
        ([LEVELS[0], {"break": True, "big_blind": 200, "minutes": 10}], "level 2"),
        (
            [
                {
                    "small_blind": 1,
                    "big_blind": 2,
                    "minutes": 9,
                    "retire_denomination": 5,
                }
            ],
            "TO6",
        ),
    ],
)
def test_a_structure_the_clock_cant_run_is_refused(director, room, levels, text):
    answer = post(director, "structures", {"code": "S1", "name": "S", "levels": levels})
    assert answer.status_code == 422, answer.content
    error = error_of(answer)
    assert error["code"] == "structure_invalid" and text in error["detail"]
    assert error["rule"] in ("TO12", "TO6")
    assert not Structure.objects.exists()


def test_a_structure_code_is_taken_once(director, ds30):
    answer = post(
        director, "structures", {"code": "DS-30", "name": "x", "levels": LEVELS}
    )
    assert answer.status_code == 409 and error_of(answer)["code"] == "structure_exists"


def test_an_unused_structure_is_replaced_whole(director, ds30):
    body = {"name": "Deep 20", "levels": [LEVELS[0], {**LEVELS[1], "minutes": 20}]}
    answer = director.put(f"{API}/structures/DS-30", body, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["name"] == "Deep 20"
    assert [lv["minutes"] for lv in answer.json()["levels"]] == [30, 20]
    assert ds30.levels.count() == 2


def test_a_structure_a_started_event_uses_is_fixed(director, friday, ds30):
    services.event_start(event=friday)
    body = {"name": "Changed", "levels": LEVELS[:1]}
    answer = director.put(f"{API}/structures/DS-30", body, format="json")
    assert answer.status_code == 409, answer.content
    error = error_of(answer)
    assert error["code"] == "structure_in_use" and error["rule"] == "TO12"
    assert "fri-55" in error["detail"]
    assert ds30.levels.count() == 4 and Structure.objects.get().name == "Deep 30"
    listed = director.get(f"{API}/structures/DS-30").json()
    assert listed["fixed"] is True and listed["events"] == ["fri-55"]


def test_a_started_clock_fixes_the_structure_too(director, friday, ds30):
    ClockChange.objects.create(event=friday, action="start", level=1, at=timezone.now())
    answer = director.put(
        f"{API}/structures/DS-30", {"name": "x", "levels": LEVELS}, format="json"
    )
    assert answer.status_code == 409 and error_of(answer)["rule"] == "TO12"


def test_a_structure_keeps_the_levels_its_events_need(director, friday):
    # Late registration closes after level 3 of Friday's event.
    body = {"name": "Short", "levels": LEVELS[:2]}
    answer = director.put(f"{API}/structures/DS-30", body, format="json")
    assert answer.status_code == 422, answer.content
    error = error_of(answer)
    assert error["code"] == "structure_too_short" and error["rule"] == "TO1"
    assert error["allowed"] == {"levels": {"min": 3}}


# ---------------------------------------------------------------- events


def test_an_event_is_created_with_its_settings(director, ds30, room):
    body = event_body(
        bounty_kind="standard",
        bounty=2_000,
        staff_fee=300,
        rebuy_max=2,
        rebuy_until_level=2,
        rebuy_stack_limit=20_000,
        rebuy=5_500,
        rebuy_fee=500,
        rebuy_chips=20_000,
        addon_level=3,
        addon=5_500,
        addon_fee=500,
        addon_chips=30_000,
        guarantee=100_000,
        payout_remainder="first",
        tax_document_threshold=150_000,
    )
    answer = post(director, "events", body, key="ev-1")
    assert answer.status_code == 201, answer.content
    made = answer.json()
    assert made["status"] == "scheduled" and made["room"] == "hki"
    assert made["currency"] == "EUR"  # the room's
    assert made["entry_total"] == 5_500 + 500 + 300 + 2_000
    assert made["created_by"] == "dora"
    assert made["payout_table"] == TABLE_ROWS
    assert made["starts_at"].startswith("2026-11-29T")
    for name in ("addon_level", "rebuy_chips", "guarantee", "payout_remainder"):
        assert made[name] == body[name]
    event = Event.objects.get(code="fri-55")
    assert (event.buy_in_cents, event.fee_cents, event.bounty_cents) == (
        5_500,
        500,
        2_000,
    )
    assert event.tax_document_threshold_cents == 150_000
    assert event.created_by.username == "dora"
    # Its history says who created it.
    history = Events.objects.filter(pgh_obj_model="tournaments.Event")
    assert history.get().pgh_context["username"] == "dora"
    # A retry creates nothing more.
    again = post(director, "events", body, key="ev-1")
    assert again.status_code == 201 and again.json() == made
    assert Event.objects.count() == 1


def test_events_are_listed_by_status(director, cashier_client, friday):
    services.event_start(event=friday)
    post(director, "events", event_body(code="sat-55"))
    every = cashier_client.get(f"{API}/events")
    assert every.status_code == 200
    assert sorted(e["code"] for e in every.json()) == ["fri-55", "sat-55"]
    running = cashier_client.get(f"{API}/events?status=running").json()
    assert [e["code"] for e in running] == ["fri-55"]
    wrong = cashier_client.get(f"{API}/events?status=open")
    assert wrong.status_code == 400 and error_of(wrong)["code"] == "invalid"


def test_the_events_summary_is_still_its_own_route(director, friday):
    answer = director.get(f"{API}/fri-55")
    assert answer.status_code == 200 and answer.json()["code"] == "fri-55"
    assert answer.json()["places_paid"] == [0]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"buy_in": "5500"}, "buy_in"),
        ({"buy_in": 5500.0}, "buy_in"),
        ({"fee": 99.5}, "fee"),
        ({"starting_stack": "20000"}, "starting_stack"),
        ({"reentry_max": True}, "reentry_max"),
        ({"late_reg": 3}, "late_reg"),
        ({"starts_at": "2026-11-29T19:00:00"}, "starts_at"),
        ({"payout_table": [{"min_entries": 1, "shares": ["10000"]}]}, "shares"),
        ({"payout_table": [{"min_entries": 1, "shares": [10000], "x": 1}]}, "x"),
        ({"bounty_kind": "pko"}, "bounty_kind"),
        ({"payout_unit": 0}, "payout_unit"),
    ],
)
def test_an_event_takes_json_integers_and_known_fields_only(
    director, ds30, changes, field
):
    answer = post(director, "events", event_body(**changes))
    assert answer.status_code == 400, answer.content
    assert field in error_of(answer)["detail"]
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    ("changes", "status", "code", "rule"),
    [
        ({"structure": "nope"}, 404, "no_such_structure", None),
        ({"room": "nowhere"}, 404, "no_such_room", None),
        ({"code": "events"}, 400, "event_code_reserved", None),
        ({"code": "structures"}, 400, "event_code_reserved", None),
        ({"bounty_kind": "standard"}, 422, "settings_invalid", "TO8"),
        ({"bounty": 1000}, 422, "settings_invalid", "TO8"),
        ({"late_registration_level": 5}, 422, "settings_invalid", "TO1"),
        ({"rebuy_max": 1}, 422, "settings_invalid", "TO1"),
        ({"rebuy": 5_500}, 422, "settings_invalid", "TO1"),
        ({"addon_level": 3}, 422, "settings_invalid", "TO1"),
        ({"addon_chips": 10_000}, 422, "settings_invalid", "TO1"),
        ({"satellite_target": "nope"}, 422, "satellite_target_invalid", "TO7"),
        (
            {"payout_table": [{"min_entries": 2, "shares": [10_000]}]},
            422,
            "payout_table_invalid",
            "TO7",
        ),
    ],
)
def test_settings_that_cant_be_played_are_refused(
    director, ds30, room, changes, status, code, rule
):
    answer = post(director, "events", event_body(**changes))
    assert answer.status_code == status, answer.content
    error = error_of(answer)
    assert (error["code"], error["rule"]) == (code, rule)
    assert not Event.objects.exists()


def test_an_event_code_is_taken_once(director, friday):
    answer = post(director, "events", event_body(name="Again"))
    assert answer.status_code == 409 and error_of(answer)["code"] == "event_exists"


def test_a_satellite_names_its_target(director, friday):
    answer = post(
        director, "events", event_body(code="sat-fri", satellite_target="fri-55")
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["satellite_target"] == "fri-55"
    preview = director.get(f"{API}/sat-fri/payout-table/preview?entries=3")
    # 3 × €55 = €165 buys two seats of €60 (55 + 5 fee) and €45 in cash.
    assert preview.json()["places"] == [
        {"place": 1, "share": None, "prize": 0, "seat": 6_000},
        {"place": 2, "share": None, "prize": 0, "seat": 6_000},
        {"place": 3, "share": None, "prize": 4_500, "seat": 0},
    ]


# ---------------------------------------------------------------- settings


@pytest.fixture
def sold(friday):
    """One entry sold at the cage."""
    cashier = cage_services_shift()
    player = cage_services.player_register(
        code="P-1", name="One", id_verified=True, birth_date=date(1985, 1, 1)
    )
    services.entry_register(
        event=friday, player=player.code, cage="MAIN", cashier=cashier, level=0
    )
    return friday


def cage_services_shift():
    from django.contrib.auth.models import Group, User

    cashier = User.objects.create_user("kassa")
    cashier.groups.set(Group.objects.filter(name="cashier"))
    keeper = User.objects.create_user("keeper")
    cage = Cage.objects.create(code="MAIN", name="Main", currency="EUR")
    cage_services.cage_vault_fund(
        cage=cage, cash_cents=1_000_000, chips_cents=1_000_000, by=keeper
    )
    cage_services.shift_open(
        cage=cage, cashier=cashier, cash_cents=100_000, chips_cents=100_000
    )
    return cashier


def patch(client, event, body):
    return client.patch(f"{API}/{event}/settings", body, format="json")


def test_a_scheduled_event_is_edited_freely(director, friday):
    post(director, "structures", {"code": "DS-20", "name": "Deep 20", "levels": LEVELS})
    answer = patch(
        director,
        "fri-55",
        {
            "buy_in": 6_000,
            "structure": "DS-20",
            "starts_at": "2026-11-29T20:00:00+02:00",
        },
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["buy_in"] == 6_000 and answer.json()["structure"] == "DS-20"
    friday.refresh_from_db()
    assert friday.buy_in_cents == 6_000 and friday.starts_at.hour == 18  # UTC
    assert director.get(f"{API}/fri-55/settings").json()["buy_in"] == 6_000
    # The change is in the event's history, under the action that made it (the
    # events of one test share its transaction's time, and their keys come from
    # each event table's own sequence: neither orders them).
    history = Events.objects.filter(pgh_obj_model="tournaments.Event")
    actions = [(e.pgh_context or {}).get("action") for e in history]
    assert "event_settings_update" in actions, actions


def test_the_prices_are_fixed_once_an_entry_is_sold(director, sold):
    answer = patch(director, "fri-55", {"buy_in": 6_000, "name": "Friday Special"})
    assert answer.status_code == 409, answer.content
    error = error_of(answer)
    assert error["code"] == "settings_locked" and error["rule"] == "TO1"
    assert error["allowed"] == {"locked": ["buy_in"]}
    assert Event.objects.get().buy_in_cents == 5_500
    assert Event.objects.get().name == "Friday €55"  # nothing changed
    # The same price again is no change; other terms still change before the start.
    same = patch(director, "fri-55", {"buy_in": 5_500, "guarantee": 50_000})
    assert same.status_code == 200 and same.json()["guarantee"] == 50_000


def test_after_the_start_only_the_name_and_the_prizes_rounding_change(director, friday):
    services.event_start(event=friday)
    for body in (
        {"guarantee": 100_000},
        {"late_registration_level": 4},
        {"starts_at": "2026-11-29T20:00:00+02:00"},
        {"reentry_max": 2},
    ):
        answer = patch(director, "fri-55", body)
        assert answer.status_code == 409, (body, answer.content)
        assert error_of(answer)["code"] == "settings_locked"
    fine = patch(
        director,
        "fri-55",
        {"name": "Friday Main", "payout_unit": 500, "payout_remainder": "first"},
    )
    assert fine.status_code == 200, fine.content
    assert fine.json()["payout_unit"] == 500


def test_nothing_changes_once_the_sheet_or_the_end_is_there(
    director, friday, make_staff
):
    services.event_start(event=friday)
    PayoutSheet.objects.create(
        event=friday,
        pool_cents=0,
        prepared_by=make_staff("paula"),
        prepared_at=timezone.now(),
    )
    answer = patch(director, "fri-55", {"name": "Late"})
    assert answer.status_code == 409 and error_of(answer)["rule"] == "TO7"
    cancelled = post(director, "events", event_body(code="sun-55"))
    assert cancelled.status_code == 201
    Event.objects.filter(code="sun-55").update(status="cancelled")
    answer = patch(director, "sun-55", {"name": "Late"})
    assert answer.status_code == 409 and "cancelled" in error_of(answer)["detail"]


def test_a_settings_patch_is_strict(director, friday):
    for body in (
        {"code": "other"},
        {"currency": "USD"},
        {"buy_in": "6000"},
        {"guarantee": 1.5},
    ):
        answer = patch(director, "fri-55", body)
        assert answer.status_code == 400, (body, answer.content)
    assert patch(director, "nope", {"name": "x"}).status_code == 404


# ---------------------------------------------------------------- tables


def test_tables_are_added_in_their_breaking_order(director, friday, cashier_client):
    first = post(director, "fri-55/event-tables", {"table": "T05", "break_order": 3})
    assert first.status_code == 201, first.content
    assert first.json() == {
        "table": "T05",
        "seats": 9,
        "break_order": 3,
        "status": "open",
    }
    second = post(director, "fri-55/event-tables", {"table": "T06", "seats": 10}, "t-6")
    assert second.status_code == 201 and second.json()["break_order"] == 4
    again = post(director, "fri-55/event-tables", {"table": "T06", "seats": 10}, "t-6")
    assert again.status_code == 201 and again.json() == second.json()
    listed = cashier_client.get(f"{API}/fri-55/event-tables")
    assert [t["table"] for t in listed.json()] == ["T05", "T06"]
    # The floor's map of the event, served by its own route, sees them.
    floor_map = director.get(f"{API}/fri-55/tables")
    assert floor_map.status_code == 200
    assert {t["table"] for t in floor_map.json()} == {"T05", "T06"}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"table": "T05"}, 409, "event_table_exists"),
        ({"table": "T07", "break_order": 1}, 409, "break_order_taken"),
        ({"table": "T 7"}, 400, "invalid"),
        ({"table": "T07", "seats": 12}, 400, "invalid"),
        ({"table": "T07", "seats": "9"}, 400, "invalid"),
        ({"table": "T07", "dealer": "Ann"}, 400, "invalid"),
    ],
)
def test_a_table_is_refused(director, friday, body, status, code):
    assert post(director, "fri-55/event-tables", {"table": "T05"}).status_code == 201
    answer = post(director, "fri-55/event-tables", body)
    assert answer.status_code == status, answer.content
    assert error_of(answer)["code"] == code
    assert EventTable.objects.count() == 1


def test_a_table_plays_one_running_event(director, friday, room):
    post(director, "fri-55/event-tables", {"table": "T05"})
    services.event_start(event=friday)
    post(director, "events", event_body(code="turbo-fri"))
    services.event_start(event=Event.objects.get(code="turbo-fri"))
    answer = post(director, "turbo-fri/event-tables", {"table": "T05"})
    assert answer.status_code == 409 and error_of(answer)["code"] == "table_in_play"
    # A closed cash table joins; an open one doesn't while the event runs.
    Table.objects.create(code="T09", name="Hold'em 1/2")
    assert post(director, "turbo-fri/event-tables", {"table": "T09"}).status_code == 201
    game = Game.objects.create(
        room=room,
        code="NLHE",
        small_blind_cents=100,
        big_blind_cents=200,
        min_buy_in_cents=4_000,
    )
    Table.objects.create(
        code="T10",
        name="Hold'em 1/2",
        game=game,
        status="open",
        opened_at=timezone.now(),
    )
    answer = post(director, "turbo-fri/event-tables", {"table": "T10"})
    assert answer.status_code == 409 and "Hold'em 1/2" in error_of(answer)["detail"]


def test_a_finished_event_takes_no_table(director, friday):
    Event.objects.filter(pk=friday.pk).update(status="cancelled")
    answer = post(director, "fri-55/event-tables", {"table": "T05"})
    assert answer.status_code == 409 and error_of(answer)["code"] == "event_closed"


# ---------------------------------------------------------------- payout tables


def put_table(client, event, rows):
    return client.put(f"{API}/{event}/payout-table", {"rows": rows}, format="json")


def test_the_payout_table_is_read_and_replaced(director, auditor_client, friday):
    got = auditor_client.get(f"{API}/fri-55/payout-table").json()
    assert got == {"rows": TABLE_ROWS, "default": False, "fixed": False}
    rows = [
        {"min_entries": 1, "shares": [10_000]},
        {"min_entries": 4, "shares": [6_500, 3_500]},
    ]
    answer = put_table(director, "fri-55", rows)
    assert answer.status_code == 200, answer.content
    assert answer.json()["rows"] == rows
    assert Event.objects.get().payout_table == rows
    # Empty: back to the default table, shown as it is paid.
    default = put_table(director, "fri-55", []).json()
    assert default["default"] is True and default["rows"][0] == {
        "min_entries": 1,
        "shares": [10_000],
    }
    assert Event.objects.get().payout_table == []


@pytest.mark.parametrize(
    ("rows", "text"),
    [
        ([{"min_entries": 2, "shares": [10_000]}], "first row"),
        (
            [
                {"min_entries": 1, "shares": [10_000]},
                {"min_entries": 1, "shares": [10_000]},
            ],
            "row 2",
        ),
        (
            [
                {"min_entries": 1, "shares": [10_000]},
                {"min_entries": 9, "shares": [6_000, 3_000]},
            ],
            "9000 basis points",
        ),
        (
            [
                {"min_entries": 1, "shares": [10_000]},
                {"min_entries": 9, "shares": [3_000, 7_000]},
            ],
            "place 2 pays more",
        ),
        (
            [
                {"min_entries": 1, "shares": [10_000]},
                {"min_entries": 2, "shares": [10_000, 0]},
            ],
            "no share",
        ),
        (
            [
                {"min_entries": 1, "shares": [10_000]},
                {"min_entries": 2, "shares": [4_000, 3_000, 3_000]},
            ],
            "3 places from 2 entries",
        ),
        ([{"min_entries": 1, "shares": []}], "pays no place"),
    ],
)
def test_a_payout_table_that_cant_be_paid_is_refused(director, friday, rows, text):
    answer = put_table(director, "fri-55", rows)
    assert answer.status_code == 422, answer.content
    error = error_of(answer)
    assert (error["code"], error["rule"]) == ("payout_table_invalid", "TO7")
    assert text in error["detail"], error["detail"]
    assert Event.objects.get().payout_table == TABLE_ROWS


def test_a_payout_table_is_strict(director, friday):
    for rows in (
        [{"min_entries": "1", "shares": [10_000]}],
        [{"min_entries": 1, "shares": [10_000.0]}],
        [{"min_entries": 1, "shares": [10_000], "places": 1}],
    ):
        assert put_table(director, "fri-55", rows).status_code == 400
    answer = director.put(f"{API}/fri-55/payout-table", {"table": []}, format="json")
    assert answer.status_code == 400


def test_the_payout_table_is_fixed_with_the_payout_sheet(director, friday, make_staff):
    services.event_start(event=friday)
    PayoutSheet.objects.create(
        event=friday,
        pool_cents=0,
        prepared_by=make_staff("paula"),
        prepared_at=timezone.now(),
    )
    answer = put_table(director, "fri-55", TABLE_ROWS[:1])
    assert answer.status_code == 409, answer.content
    assert error_of(answer)["code"] == "payout_table_fixed"
    assert error_of(answer)["rule"] == "TO9"
    assert director.get(f"{API}/fri-55/payout-table").json()["fixed"] is True


def test_the_preview_shows_the_rounding_of_the_worked_example(director, friday):
    """docs/api.md's worked example: 23 entries at €55 (+ €5 fee), prizes rounded
    to €10, the remainder to the top places."""
    answer = director.get(f"{API}/fri-55/payout-table/preview?entries=23")
    assert answer.status_code == 200, answer.content
    preview = answer.json()
    assert preview["pool"] == 126_500 and preview["overlay"] == 0
    assert (preview["unit"], preview["remainder"]) == (1_000, "top")
    assert [p["share"] for p in preview["places"]] == [4_000, 2_500, 1_800, 1_000, 700]
    prizes = [p["prize"] for p in preview["places"]]
    assert prizes == [51_500, 32_000, 23_000, 12_000, 8_000]
    assert sum(prizes) == 126_500
    # All the whole units left to first place instead.
    patch(director, "fri-55", {"payout_remainder": "first"})
    first = director.get(f"{API}/fri-55/payout-table/preview?entries=23").json()
    assert [p["prize"] for p in first["places"]] == [
        53_500,
        31_000,
        22_000,
        12_000,
        8_000,
    ]
    # A guarantee of €1,300: the house's overlay of €35 tops the pool up.
    patch(director, "fri-55", {"payout_remainder": "top", "guarantee": 130_000})
    topped = director.get(f"{API}/fri-55/payout-table/preview?entries=23").json()
    assert (topped["pool"], topped["overlay"]) == (130_000, 3_500)
    assert [p["prize"] for p in topped["places"]] == [
        53_000,
        32_000,
        23_000,
        13_000,
        9_000,
    ]
    # Rebuys and add-ons count into the pool.
    more = director.get(f"{API}/fri-55/payout-table/preview?entries=23&rebuys=2")
    assert more.json()["buy_ins"] == 126_500  # a freezeout: rebuys cost nothing
    # Nine entries use the first row: the winner takes the pool, or the guarantee.
    nine = director.get(f"{API}/fri-55/payout-table/preview?entries=9").json()
    assert [p["prize"] for p in nine["places"]] == [130_000]
    patch(director, "fri-55", {"guarantee": 0})
    nine = director.get(f"{API}/fri-55/payout-table/preview?entries=9").json()
    assert [p["prize"] for p in nine["places"]] == [49_500]


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?entries=0",
        "?entries=1.0",
        "?entries=x",
        "?entries=-3",
        "?entries=5&rebuys=1e3",
    ],
)
def test_the_preview_takes_whole_counts(director, friday, query):
    answer = director.get(f"{API}/fri-55/payout-table/preview{query}")
    assert answer.status_code == 400, answer.content
    assert error_of(answer)["code"] == "invalid"


def test_a_cashier_reads_but_doesnt_set_up(cashier_client, auditor_client, friday):
    assert (
        cashier_client.get(f"{API}/fri-55/payout-table/preview?entries=5").status_code
        == 200
    )
    for client in (cashier_client, auditor_client):
        assert post(client, "structures", {}).status_code == 403
        assert post(client, "events", event_body(code="x")).status_code == 403
        assert patch(client, "fri-55", {"name": "x"}).status_code == 403
        assert put_table(client, "fri-55", []).status_code == 403
        assert post(client, "fri-55/event-tables", {"table": "T1"}).status_code == 403
    assert Event.objects.get().name == "Friday €55"


def test_a_manager_sets_up_too(manager_client, ds30):
    answer = post(manager_client, "events", event_body(code="mgr-1"))
    assert answer.status_code == 201 and answer.json()["created_by"] == "mia"


def test_timestamps_with_offsets_are_kept(director, ds30):
    starts = timezone.now() + timedelta(hours=2)
    body = event_body(starts_at=starts.isoformat())
    assert post(director, "events", body).status_code == 201
    assert Event.objects.get().starts_at == starts
