"""The tournament endpoints read their bodies as strictly as the cash games' (API.md
"Conventions"): numbers are JSON integers (no strings, floats or booleans), unknown
fields are refused, nested ones too, with 400 in the error shape and nothing
changed. Then the well-formed request is answered, so the refusal was the
attack's, not a broken endpoint's.
"""

from __future__ import annotations

import copy
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User

from accounting.models import Cage
from accounting.services import cage as cage_services
from core.roles import Role
from tests.api.cage.conftest import FLOAT
from tests.integration.tournaments.conftest import make_event
from tests.security.ledger import fingerprint
from tournaments import services
from tournaments.models import (
    Bust,
    ChipCount,
    ChipMovement,
    ClockChange,
    Entry,
    Event,
    PayoutSheet,
    Purchase,
    RefundApproval,
    SeatMove,
)

pytestmark = pytest.mark.django_db

BASE = "/api/v1/tournaments/open"


def tournament_state() -> dict[str, Any]:
    """The ledger and every tournament record a refused request must leave."""
    return {
        "ledger": fingerprint(),
        "entries": sorted(
            Entry.objects.values_list("pk", "status", "table", "seat", "place")
        ),
        "purchases": Purchase.objects.count(),
        "chips": ChipMovement.objects.count(),
        "counts": ChipCount.objects.count(),
        "busts": Bust.objects.count(),
        "clock": ClockChange.objects.count(),
        "seat_moves": SeatMove.objects.count(),
        "events": sorted(Event.objects.values_list("code", "status")),
        "sheets": PayoutSheet.objects.count(),
        "refund_approvals": RefundApproval.objects.count(),
    }


@pytest.fixture
def room_open(room, structure, staff_client):
    """An event running at level 2 with six players seated: registration, rebuys
    and its add-on open by the server's clock; a client for each role."""
    clients = {
        "cashier": staff_client(Role.CASHIER, username="kalle"),
        "floor": staff_client(Role.FLOOR, username="fred"),
        "manager": staff_client(Role.MANAGER, username="mia"),
    }
    cage = Cage.objects.create(code="MAIN", name="Main", currency="EUR")
    cage_services.cage_vault_fund(
        cage=cage,
        cash_cents=10_000_000,
        chips_cents=10_000_000,
        by=User.objects.create_user("vault-keeper"),
    )
    opened = clients["cashier"].post(
        "/api/v1/cage/shifts",
        {"cage": "MAIN", "cash": FLOAT, "chips": FLOAT},
        format="json",
    )
    assert opened.status_code == 201, opened.content
    event = make_event(room, structure, code="open", addon_level=2)
    kalle = User.objects.get(username="kalle")
    for n in range(7):
        cage_services.player_register(
            code=f"P-{n}",
            name=f"Player {n}",
            id_verified=True,
            birth_date=date(1985, 1, 1),
        )
    for n in range(6):
        services.entry_register(
            event=event, player=f"P-{n}", cage="MAIN", cashier=kalle
        )
    services.clock_change(
        event_code="open",
        action="start",
        level=2,
        by=User.objects.get(username="fred"),
    )
    return event, clients


def _at_tt1() -> list[str]:
    return list(
        Entry.objects.filter(table="TT1")
        .order_by("seat")
        .values_list("player__code", flat=True)
    )


def _receipt() -> str:
    purchase = Purchase.objects.filter(entry__number=1).get()
    assert purchase.receipt is not None
    return purchase.receipt.no


# Each endpoint: the role that calls it, its path, a well-formed body, the status
# that body gets (several when a house rule may refuse it: the body was read), and
# the places in the body to attack: integer fields (a path of keys) and the
# objects where an unknown field is slipped in.
ENDPOINTS: dict[str, dict[str, Any]] = {
    "entry": {
        "role": "cashier",
        "path": "entries",
        "body": {"cage": "MAIN", "player": "P-6", "level": 2},
        "ok": {201},
        "ints": [("level",)],
        "unknown": [((), "buy_in")],
    },
    "rebuy": {
        "role": "cashier",
        "path": "entries/1/rebuys",
        "body": {"cage": "MAIN", "stack": 5000, "level": 2},
        "ok": {201},
        "ints": [("stack",), ("level",)],
        "unknown": [((), "amount")],
    },
    "addon": {
        "role": "cashier",
        "path": "entries/1/addons",
        "body": {"cage": "MAIN", "level": 2},
        "ok": {201},
        "ints": [("level",)],
        "unknown": [((), "chips")],
    },
    "bust": {
        "role": "floor",
        "path": "tables/TT1/busts",
        "body": "bust",
        "ok": {201},
        "ints": [("busts", 0, "stack")],
        "unknown": [((), "table"), (("busts", 0), "chips_won")],
    },
    "hand-for-hand bust": {
        "role": "floor",
        "path": "busts",
        "body": "bust",
        "ok": {201},
        "ints": [("busts", 0, "stack")],
        "unknown": [((), "tables"), (("busts", 0), "chips_won")],
    },
    "chip count": {
        "role": "floor",
        "path": "tables/TT1/chip-counts",
        "body": {"chips": 8000},
        "ok": {201},
        "ints": [("chips",)],
        "unknown": [((), "table")],
    },
    "clock": {
        "role": "floor",
        "path": "clock",
        "body": {"action": "move", "level": 3, "seconds": 600},
        "ok": {200},
        "ints": [("level",), ("seconds",)],
        "unknown": [((), "minutes")],
    },
    "seat draw": {
        "role": "floor",
        "path": "seats/draw",
        "body": {"entries": [1]},
        "ok": {201},
        "ints": [("entries", 0)],
        "unknown": [((), "seed")],
    },
    "rebalance": {
        "role": "floor",
        "path": "tables/rebalance",
        "body": {"big_blinds": {"TT1": 3}, "tolerance": 1},
        "ok": {200},
        "ints": [("tolerance",), ("big_blinds", "TT1")],
        "unknown": [((), "seed")],
    },
    "payout sheet": {
        "role": "floor",
        "path": "payout-sheet",
        "body": {"holds": {"1": "absent"}},
        "ok": {422},  # TO7: players still play; the body was read
        "ints": [],
        "unknown": [((), "pool")],
    },
    "payout pay": {
        "role": "cashier",
        "path": "payouts/1/pay",
        "body": {"cage": "MAIN", "player": "P-0", "player_signed": True},
        "ok": {404},  # no payout yet; the body was read first
        "ints": [],
        "unknown": [((), "amount")],
    },
    "cancel": {
        "role": "manager",
        "path": "cancel",
        "body": {"reason": "power cut"},
        "ok": {200},
        "ints": [],
        "unknown": [((), "refund_all")],
    },
    "refund approval": {
        "role": "manager",
        "path": "refunds/{receipt}/approve",
        "body": {"reason": "ill"},
        "ok": {201, 422},  # the house's refund rules (TO10) decide
        "ints": [],
        "unknown": [((), "bogus")],
    },
    "refund": {
        "role": "cashier",
        "path": "refunds/{receipt}",
        "body": {"cage": "MAIN"},
        "ok": {201, 422},  # TO10: not approved
        "ints": [],
        "unknown": [((), "bogus")],
    },
}

NOT_INTEGERS = ["1", "8000", 1.0, 8000.0, True, False, None, [1]]


def _body(name: str) -> dict[str, Any]:
    body = ENDPOINTS[name]["body"]
    if body == "bust":
        loser, winner = _at_tt1()[:2]
        return {
            "hand": "h1",
            "busts": [{"player": loser, "stack": 20_000, "busted_by": [winner]}],
        }
    return copy.deepcopy(body)


def _set(body: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    node: Any = body
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _post(clients, name: str, body: Any):
    spec = ENDPOINTS[name]
    path = spec["path"]
    if "{receipt}" in path:
        path = path.format(receipt=_receipt())
    return clients[spec["role"]].post(f"{BASE}/{path}", body, format="json")


def _refused(answer) -> dict[str, Any]:
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert {"code", "rule", "detail", "allowed"} <= set(error)
    assert error["detail"]
    return error


def _then_well_formed(clients, name: str) -> None:
    answer = _post(clients, name, _body(name))
    assert answer.status_code in ENDPOINTS[name]["ok"], answer.content


def _dotted(path: tuple[Any, ...]) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(
        "."
    )


def _names(fields: dict[str, Any], path: tuple[Any, ...]) -> bool:
    """Whether the error's ``fields`` name ``path``: flat (``busts[0].chips_won``)
    or nested as DRF reports a value it refused (``{"busts": {"0": ...}}``)."""
    if _dotted(path) in fields:
        return True
    node: Any = fields
    for key in path:
        if not isinstance(node, dict) or str(key) not in node:
            return False
        node = node[str(key)]
    return True


WITH_INTEGERS = [name for name, spec in ENDPOINTS.items() if spec["ints"]]


@pytest.mark.parametrize("name", WITH_INTEGERS)
def test_a_number_is_a_json_integer(room_open, name):
    """API.md: a string, a float, a boolean, null or a list where an integer is
    due is 400 naming the field, and changes nothing."""
    _event, clients = room_open
    before = tournament_state()
    for path in ENDPOINTS[name]["ints"]:
        for value in NOT_INTEGERS:
            if value is None and path in (("level",), ("seconds",)):
                continue  # optional: null is absent
            body = _body(name)
            _set(body, path, value)
            error = _refused(_post(clients, name, body))
            assert _names(error["fields"], path), (value, error)
            assert tournament_state() == before, (path, value)
    _then_well_formed(clients, name)


@pytest.mark.parametrize("name", list(ENDPOINTS))
def test_an_unknown_field_is_refused(room_open, name):
    """API.md: a field the server doesn't read (``buy_in`` on an entry, ``amount``
    on a rebuy, ``chips_won`` inside a bust) is 400 naming it, never ignored."""
    _event, clients = room_open
    before = tournament_state()
    for where, field in ENDPOINTS[name]["unknown"]:
        body = _body(name)
        node: Any = body
        for key in where:
            node = node[key]
        node[field] = 1
        error = _refused(_post(clients, name, body))
        assert _names(error["fields"], (*where, field)), error
        assert tournament_state() == before, field
    _then_well_formed(clients, name)


@pytest.mark.parametrize(
    "holds", [{"x": "why"}, {"-1": "why"}, {"99999999999999999999": "why"}]
)
def test_held_prizes_name_entries_by_number(room_open, holds):
    """TO9: the payout sheet's holds are keyed by entry numbers; a key that names
    no entry, too big for the database or no number at all, is 404 as a number
    that isn't an entry (not a 500, and not 400: the schema can't say what the
    keys may be)."""
    _event, clients = room_open
    before = tournament_state()
    answer = _post(clients, "payout sheet", {"holds": holds})
    assert answer.status_code == 404, answer.content
    assert tournament_state() == before


def test_held_prizes_are_an_object(room_open):
    """What the schema forbids is malformed (400): holds that are no object."""
    _event, clients = room_open
    before = tournament_state()
    _refused(_post(clients, "payout sheet", {"holds": ["1"]}))
    assert tournament_state() == before


@pytest.mark.parametrize("number", [2**31, 2**63, 10**30])
def test_an_entry_number_beyond_the_column_is_not_found(room_open, number):
    """A path's entry or payout number too big for the database is 404, not 500
    (the schemathesis run fixes them to a real one)."""
    _event, clients = room_open
    before = tournament_state()
    rebuy = clients["cashier"].post(
        f"{BASE}/entries/{number}/rebuys", {"cage": "MAIN", "stack": 0}, format="json"
    )
    assert rebuy.status_code == 404, rebuy.content
    pay = clients["cashier"].post(
        f"{BASE}/payouts/{number}/pay",
        {"cage": "MAIN", "player": "P-0", "player_signed": True},
        format="json",
    )
    assert pay.status_code == 404, pay.content
    assert tournament_state() == before
