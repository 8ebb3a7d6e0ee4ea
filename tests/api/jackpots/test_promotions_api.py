"""Promotions over the REST API: started, versioned and ended by a manager, their
high-hand standings, periods closed by hand, prizes verified, approved and
rejected by two people (PR1–PR6, API.md "Conventions")."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

import pytest

from accounting.models import Payable, Transaction
from accounting.selectors import trial_balance
from core.roles import Role
from jackpots.domain.promotions import EXAMPLES
from jackpots.models import Promotion, PromotionPrize, PromotionVersion
from tests.api.floor.conftest import HELSINKI

from .conftest import balance

pytestmark = pytest.mark.django_db

URL = "/api/v1/jackpots/promotions"
PRIZES = "/api/v1/jackpots/prizes"
EXPENSE = "expense:promotions"
POSTS = [
    "/api/v1/jackpots/promotions",
    "/api/v1/jackpots/promotions/{promotion_id}/versions",
    "/api/v1/jackpots/promotions/{promotion_id}/end",
    "/api/v1/jackpots/promotions/{promotion_id}/periods/close",
    "/api/v1/jackpots/prizes/{prize_id}/verify",
    "/api/v1/jackpots/prizes/{prize_id}/approve",
    "/api/v1/jackpots/prizes/{prize_id}/reject",
]


def high_hand(**changes: Any) -> dict[str, Any]:
    """An hourly high hand the house pays €100 an hour (PR1, PR2)."""
    rules = {
        "kind": "high_hand",
        "games": ["NLHE"],
        "min_hand": ["As", "Ah", "Ad", "Ks", "Kh"],
        "card_use": {"hole_cards": 2, "quads_pocket_pair": True},
        "min_pot_big_blinds": 10,
        "min_dealt_in": 4,
        "period_minutes": 60,
        "prize": {"fixed": 10_000, "funding": "house"},
    }
    rules.update(changes)
    return rules


HIGH_HAND = object()


def body(code: str = "high-hand", rules: Any = HIGH_HAND, **more: Any) -> dict:
    return {
        "code": code,
        "name": code.replace("-", " ").title(),
        "rules": high_hand() if rules is HIGH_HAND else rules,
        **more,
    }


@pytest.fixture
def boss(staff_client):
    return staff_client(Role.MANAGER, username="boss")


@pytest.fixture
def people(staff_client):
    """Who decides a prize: two floor persons, two managers, an auditor, a
    cashier, each with his own client."""
    return {
        "floor": staff_client(Role.FLOOR, username="fiona"),
        "floor2": staff_client(Role.FLOOR, username="felix"),
        "manager": staff_client(Role.MANAGER, username="maria"),
        "manager2": staff_client(Role.MANAGER, username="mats"),
        "auditor": staff_client(Role.AUDITOR, username="aud"),
        "cashier": staff_client(Role.CASHIER, username="cash"),
    }


def start(client, **kw: Any) -> dict[str, Any]:
    answer = client.post(URL, body(**kw), format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def quads_nines(dealer):
    """Four nines with a pocket pair against two pair (a high hand)."""
    return dealer.deal("9c 9d 2h Ks 3c", {1: "9s 9h", 2: "As Kd"})


def aces_cracked(dealer):
    """Pocket aces lose to a set of kings at the showdown (PR3)."""
    return dealer.deal("Kc 7d 9h 2s 3d", {1: "Ah Ad", 2: "Kh Kd"})


def refused(answer, status: int, rule: str | None = None) -> dict[str, Any]:
    assert answer.status_code == status, answer.content
    error = answer.json()["error"]
    assert {"code", "rule", "detail", "allowed"} <= set(error)
    assert error["detail"]
    if rule is not None:
        assert error["rule"] == rule, error
    return error


# -- the schema --------------------------------------------------------------------


def test_the_schema_documents_every_promotion_post_with_an_idempotency_key(api):
    spec = api.get("/api/schema/?format=json").json()
    for path in POSTS:
        operation = spec["paths"][path]["post"]
        assert "Idempotency-Key" in [p["name"] for p in operation["parameters"]], path
        assert "422" in operation["responses"], path
    schemas = spec["components"]["schemas"]
    rules = schemas["PromotionRulesInputRequest"]
    assert rules["additionalProperties"] is False
    assert set(rules["required"]) == {"kind", "games", "prize"}
    assert {"period_minutes", "min_hand", "card_use", "bonuses", "time_zone"} <= set(
        rules["properties"]
    )
    prize = schemas["PromotionPrize"]["properties"]
    assert prize["status"] == {"$ref": "#/components/schemas/PromotionPrizeStatus"}


# -- who may do what ---------------------------------------------------------------


def test_readers_read_and_only_a_manager_configures(people, boss, clock):
    """JD5, PR5: the floor, managers and auditors read; a cashier doesn't; only a
    manager starts, changes, ends a promotion or closes its period."""
    promo = start(boss)
    pid = promo["id"]
    for name in ("floor", "auditor", "manager"):
        client = people[name]
        assert client.get(URL).status_code == 200, name
        assert client.get(f"{URL}/{pid}").status_code == 200, name
        assert client.get(f"{URL}/{pid}/standings").status_code == 200, name
        assert client.get(PRIZES).status_code == 200, name
    assert people["cashier"].get(URL).status_code == 403
    assert people["cashier"].get(PRIZES).status_code == 403
    for name in ("floor", "auditor", "cashier"):
        client = people[name]
        refused(client.post(URL, body("other"), format="json"), 403)
        refused(client.post(f"{URL}/{pid}/versions", {}, format="json"), 403)
        refused(client.post(f"{URL}/{pid}/end", {"reason": "x"}, format="json"), 403)
        at = {"at": "2026-11-29T21:00:00+02:00"}
        refused(client.post(f"{URL}/{pid}/periods/close", at, format="json"), 403)
        refused(client.post(f"{PRIZES}/1/approve"), 403)
    for name in ("auditor", "cashier"):
        refused(people[name].post(f"{PRIZES}/1/verify", {}, format="json"), 403)
        refused(people[name].post(f"{PRIZES}/1/reject", {"reason": "no"}), 403)
    assert Promotion.objects.count() == 1
    assert PromotionVersion.objects.count() == 1


# -- a promotion's configuration ---------------------------------------------------


def test_a_manager_starts_a_promotion_once_whatever_the_retries(boss, clock):
    """PR1: the promotion, its pool and version 1 of its rules, normalised; the
    same key and body replays the answer, another body with it is refused, the
    code once a room (409)."""
    first = boss.post(URL, body(), format="json", HTTP_IDEMPOTENCY_KEY="promo-1")
    assert first.status_code == 201, first.content
    again = boss.post(URL, body(), format="json", HTTP_IDEMPOTENCY_KEY="promo-1")
    assert again.status_code == 201 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    other = boss.post(
        URL, body(name="Other"), format="json", HTTP_IDEMPOTENCY_KEY="promo-1"
    )
    refused(other, 422)
    refused(boss.post(URL, body(), format="json"), 409)
    promo = first.json()
    assert (promo["code"], promo["kind"], promo["active"]) == (
        "high-hand",
        "high_hand",
        True,
    )
    assert promo["amount"] == 0 and promo["currency"] == "EUR"
    current = promo["current"]
    assert current["version"] == 1 and current["created_by"] == "boss"
    rules = current["rules"]
    assert rules["period_minutes"] == 60 and rules["carry_over"] is True
    assert rules["first_run_only"] is True and rules["exclude_bomb_pots"] is True
    assert rules["prize"] == {"fixed": 10_000, "pool_percent": 0, "funding": "house"}
    assert [v["version"] for v in promo["versions"]] == [1]
    assert Promotion.objects.count() == PromotionVersion.objects.count() == 1
    listed = boss.get(URL).json()
    assert [p["code"] for p in listed] == ["high-hand"]
    assert boss.get(f"{URL}?kind=aces_cracked").json() == []
    refused(boss.get(f"{URL}?kind=royal"), 400)
    refused(boss.get(f"{URL}/999999"), 404)


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_the_examples_rooms_post_are_taken(boss, clock, example):
    """Each kind as rooms post it (jackpots.domain.promotions.EXAMPLES)."""
    ratio = 1 if EXAMPLES[example]["prize"].get("funding") in (None, "drop") else 0
    promo = start(boss, code=example, rules=EXAMPLES[example], drop_ratio=ratio)
    assert promo["kind"] == EXAMPLES[example]["kind"]
    assert promo["drop_ratio"] == ratio


# Rules that break the schema: 400, ``rule`` null, the field named.
MALFORMED: list[tuple[str, Any]] = [
    ("a string", "high hand"),
    ("a list", [high_hand()]),
    ("null", None),
    ("a number", 60),
    ("no kind", {k: v for k, v in high_hand().items() if k != "kind"}),
    ("an unknown kind", high_hand(kind="royal_flush")),
    ("an unknown field", high_hand(colour="red")),
    ("an unknown field inside", high_hand(card_use={"hole_cards": 2, "x": 1})),
    ("no game", high_hand(games=[])),
    ("a game twice", high_hand(games=["NLHE", "NLHE"])),
    ("a game without high hands", high_hand(games=["RAZZ"])),
    ("Sökö", high_hand(games=["SOKO"])),
    ("games as text", high_hand(games="NLHE")),
    ("four cards", high_hand(min_hand=["As", "Ah", "Ad", "Ks"])),
    ("a card twice", high_hand(min_hand=["As", "As", "Ad", "Ks", "Kh"])),
    ("no such card", high_hand(min_hand=["1s", "Ah", "Ad", "Ks", "Kh"])),
    ("a hand as text", high_hand(min_hand="AsAhAdKsKh")),
    ("three hole cards", high_hand(card_use={"hole_cards": 3})),
    ("card use as text", high_hand(card_use="both")),
    ("a pocket pair as text", high_hand(card_use={"quads_pocket_pair": "yes"})),
    ("a period of zero", high_hand(period_minutes=0)),
    ("a period of two days", high_hand(period_minutes=2880)),
    ("a period as a float", high_hand(period_minutes=60.0)),
    ("a period as text", high_hand(period_minutes="60")),
    ("a period as a boolean", high_hand(period_minutes=True)),
    ("an anchor below zero", high_hand(anchor_minutes=-1)),
    ("a zone that is a path", high_hand(time_zone="../../etc/passwd")),
    ("a zone as a number", high_hand(time_zone=2)),
    ("no prize", {k: v for k, v in high_hand().items() if k != "prize"}),
    ("a prize as a number", high_hand(prize=10_000)),
    ("a fixed prize in euros", high_hand(prize={"fixed": 100.5})),
    ("a fixed prize as text", high_hand(prize={"fixed": "10000"})),
    ("a negative prize", high_hand(prize={"fixed": -1})),
    ("a prize too big", high_hand(prize={"fixed": 10**13})),
    ("a percent over 100", high_hand(prize={"pool_percent": 101})),
    ("an unknown funding", high_hand(prize={"fixed": 1, "funding": "bank"})),
    ("a stake of zero", high_hand(big_blinds=[0])),
    ("a stake as text", high_hand(big_blinds=["200"])),
    ("one player dealt in", high_hand(min_dealt_in=1)),
    ("an unknown board", high_hand(board="turn")),
    ("bomb pots as text", high_hand(exclude_bomb_pots="no")),
    ("an unknown bonus hand", {**EXAMPLES["royal-flush"], "bonuses": [{"hand": "x"}]}),
    (
        "a bonus of nothing",
        {**EXAMPLES["royal-flush"], "bonuses": [{"hand": "royal_flush", "fixed": 0}]},
    ),
    ("deeply nested", high_hand(card_use={"hole_cards": {"a": {"b": [1]}}})),
]


@pytest.mark.parametrize(("case", "rules"), MALFORMED, ids=[c for c, _r in MALFORMED])
def test_rules_of_the_wrong_shape_are_malformed(boss, clock, case, rules):
    """API.md: a field the schema forbids is 400, in the error shape, and nothing
    is written."""
    error = refused(boss.post(URL, body(rules=rules), format="json"), 400)
    assert error["code"] == "invalid", case
    assert Promotion.objects.count() == 0


# Rules each field of which is well formed, refused by a rule together: 422 with
# the rule and the field.
UNUSABLE: list[tuple[str, Any, str, str]] = [
    ("a period that doesn't divide a day", high_hand(period_minutes=17), "PR2",
     "period_minutes"),
    ("a time zone nobody knows", high_hand(time_zone="Mars/Olympus_Mons"), "PR2",
     "time_zone"),
    ("the second run counting", high_hand(first_run_only=False), "PR4",
     "first_run_only"),
    ("a prize of nothing", high_hand(prize={}), "PR1", "prize"),
    ("a house prize from the pool",
     high_hand(prize={"fixed": 100, "pool_percent": 10, "funding": "house"}), "PR1",
     "prize.pool_percent"),
    ("both fundings with one part", high_hand(prize={"fixed": 100, "funding": "both"}),
     "PR1", "prize"),
    ("a bonus table on a high hand",
     high_hand(bonuses=[{"hand": "royal_flush", "fixed": 100}]), "PR3", "bonuses"),
    ("a fixed bonus without its table",
     {k: v for k, v in EXAMPLES["royal-flush"].items() if k != "bonuses"}, "PR3",
     "bonuses"),
    ("a hand twice in the table",
     {**EXAMPLES["royal-flush"], "bonuses": [{"hand": "royal_flush", "fixed": 5},
                                             {"hand": "royal_flush", "fixed": 9}]},
     "PR3", "bonuses"),
    ("a fixed bonus with its own amount",
     {**EXAMPLES["royal-flush"], "prize": {"fixed": 100, "funding": "house"}}, "PR1",
     "prize.fixed"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "rules", "rule", "field"), UNUSABLE, ids=[c[0] for c in UNUSABLE]
)
def test_rules_the_promotions_cant_use_are_refused_by_their_rule(
    boss, clock, case, rules, rule, field
):
    """What the schema can't state is refused with 422 and the rule it serves,
    the field named in ``allowed``; nothing is written."""
    error = refused(boss.post(URL, body(rules=rules), format="json"), 422, rule)
    assert error["code"] == "invalid_configuration", case
    assert error["allowed"]["field"] == field
    assert field.split(".")[0] in error["detail"]
    assert Promotion.objects.count() == 0


def test_a_promotion_the_drop_funds_takes_a_share_of_it(boss, clock):
    """PR1: drop funding without a drop ratio is refused, nothing written."""
    rules = high_hand(prize={"fixed": 10_000, "funding": "drop"})
    error = refused(boss.post(URL, body(rules=rules), format="json"), 422, "PR1")
    assert error["code"] == "promotion_unfunded"
    assert start(boss, rules=rules, drop_ratio=1)["drop_ratio"] == 1


@pytest.mark.parametrize(
    "wrong",
    [
        {"code": "Bad Code"},
        {"code": ""},
        {"name": " "},
        {"name": "x\u0000y"},
        {"drop_ratio": -1},
        {"drop_ratio": 1.5},
        {"room": "nowhere!"},
        {"note": "x" * 501},
    ],
)
def test_the_promotions_own_fields_are_checked(boss, clock, wrong):
    refused(boss.post(URL, {**body(), **wrong}, format="json"), 400)
    assert Promotion.objects.count() == 0


def test_an_unknown_room_is_404(boss, clock):
    refused(boss.post(URL, body(room="elsewhere"), format="json"), 404)


def test_a_new_version_changes_the_rules_and_ending_stops_it(boss, clock):
    """A version is in force from the next period and keeps the promotion's kind
    (PR1); without rules it keeps those in force; ending it is a last version,
    not active, and ending it again is refused (409)."""
    pid = start(boss)["id"]
    url = f"{URL}/{pid}"
    changed = boss.post(
        f"{url}/versions",
        {"rules": high_hand(period_minutes=30), "note": "half hours"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="v2",
    )
    assert changed.status_code == 201, changed.content
    again = boss.post(
        f"{url}/versions",
        {"rules": high_hand(period_minutes=30), "note": "half hours"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="v2",
    )
    assert again.json() == changed.json()
    detail = changed.json()
    assert detail["current"]["version"] == 2
    assert detail["current"]["rules"]["period_minutes"] == 30
    assert [v["version"] for v in detail["versions"]] == [2, 1]
    other_kind = boss.post(
        f"{url}/versions", {"rules": EXAMPLES["aces-cracked"]}, format="json"
    )
    error = refused(other_kind, 422, "PR1")
    assert error["allowed"] == {"field": "kind", "kind": "high_hand"}
    refused(boss.post(f"{url}/versions", {"rules": high_hand(period_minutes=7)}), 400)
    same = boss.post(f"{url}/versions", {}, format="json")
    assert same.json()["current"]["version"] == 3
    assert same.json()["current"]["rules"]["period_minutes"] == 30

    refused(boss.post(f"{url}/end", {"reason": " "}, format="json"), 400)
    refused(boss.post(f"{url}/end", {}, format="json"), 400)
    ended = boss.post(f"{url}/end", {"reason": "the season is over"}, format="json")
    assert ended.status_code == 200, ended.content
    assert ended.json()["active"] is False
    assert ended.json()["current"]["note"] == "the season is over"
    refused(boss.post(f"{url}/end", {"reason": "again"}, format="json"), 409)
    refused(boss.post(f"{url}/versions", {"active": False}, format="json"), 409)
    restarted = boss.post(f"{url}/versions", {"active": True}, format="json")
    assert restarted.json()["active"] is True
    assert PromotionVersion.objects.filter(promotion_id=pid).count() == 5
    refused(boss.post(f"{URL}/999999/end", {"reason": "x"}, format="json"), 404)


# -- the high hand's hour ----------------------------------------------------------


def test_the_standings_show_the_hours_leader_and_its_hands(
    boss, people, dealer, clock, sweep
):
    """PR2, PR6: the period now, its leading hand as cards and the hands tabled
    best first, the prize its rules promise."""
    clock.set("2026-11-29T21:00")
    pid = start(boss)["id"]
    clock.set("2026-11-29T21:10")
    dealer.deal("Ac Kc Kd 7s 3d", {1: "As Ad", 2: "Qh 4d"})  # aces full
    clock.set("2026-11-29T21:20")
    quads_nines(dealer)
    sweep()
    answer = people["floor"].get(f"{URL}/{pid}/standings")
    assert answer.status_code == 200, answer.content
    table = answer.json()
    period = table["period"]
    assert datetime.fromisoformat(period["start"]) == datetime(
        2026, 11, 29, 21, 0, tzinfo=HELSINKI
    )
    assert datetime.fromisoformat(period["end"]) == datetime(
        2026, 11, 29, 22, 0, tzinfo=HELSINKI
    )
    assert (period["version"], period["active"], period["closed"]) == (1, True, False)
    [leader] = table["leaders"]
    assert (leader["player"], leader["hand"]) == ("P-1", "four of a kind, nines")
    assert sorted(leader["cards"]) == sorted(["9s", "9h", "9c", "9d", "Ks"])
    assert leader["hole"] == ["9s", "9h"] and leader["table"] == "T01"
    assert [e["hand"] for e in table["entries"]] == [
        "four of a kind, nines",
        "full house, aces full of kings",
    ]
    assert table["prize"] == {"fixed": 10_000, "pool_percent": 0, "funding": "house"}
    assert table["prize_now"] == {
        "house": 10_000,
        "pool": 0,
        "carried_in": 0,
        "total": 10_000,
    }
    limited = people["floor"].get(f"{URL}/{pid}/standings?limit=1").json()
    assert len(limited["entries"]) == 1
    refused(people["floor"].get(f"{URL}/{pid}/standings?limit=-1"), 400)


def test_a_bonus_has_no_standings_nor_periods(boss, clock):
    pid = start(boss, code="aces", rules=EXAMPLES["aces-cracked"])["id"]
    refused(boss.get(f"{URL}/{pid}/standings"), 422, "PR2")
    at = {"at": "2026-11-29T20:00:00+02:00"}
    refused(boss.post(f"{URL}/{pid}/periods/close", at, format="json"), 422, "PR2")


def test_a_manager_closes_a_period_the_scheduler_missed(
    boss, people, dealer, clock, sweep
):
    """PR2: not before its end (422, when it may), once (409), the one before it
    first (422 naming it); a pending prize for the best hand; a moment far ahead
    is refused, never a 500."""
    clock.set("2026-11-29T21:00")
    promo = start(boss)
    url = f"{URL}/{promo['id']}/periods/close"
    clock.set("2026-11-29T21:20")
    quads_nines(dealer)
    sweep()
    early = boss.post(url, {"at": "2026-11-29T21:30:00+02:00"}, format="json")
    error = refused(early, 422, "PR2")
    assert error["code"] == "period_not_over"
    assert datetime.fromisoformat(error["allowed"]["after"]) == datetime(
        2026, 11, 29, 22, 0, tzinfo=HELSINKI
    )
    # The calendar's edges are moments like any other, never a 500 nor a 400.
    for far in ("3000-01-01T00:00:00+02:00", "9999-12-31T23:59:59-14:00"):
        answer = boss.post(url, {"at": far}, format="json")
        assert refused(answer, 422, "PR2")["code"] == "period_not_over"
    for past in ("2026-11-28T21:30:00+02:00", "0001-01-01T00:00:00+01:01"):
        answer = boss.post(url, {"at": past}, format="json")
        assert refused(answer, 422, "PR2")["code"] == "before_promotion"
    for wrong in (
        {"at": "tonight"},
        {"at": "2026-11-29T21:30:00"},  # no offset (API.md)
        {"at": 1},
        {},
        {"at": None},
    ):
        refused(boss.post(url, wrong, format="json"), 400)

    clock.set("2026-11-29T23:05")
    later = boss.post(url, {"at": "2026-11-29T22:10:00+02:00"}, format="json")
    error = refused(later, 422, "PR2")
    assert error["code"] == "earlier_period_open"
    assert datetime.fromisoformat(error["allowed"]["period"]) == datetime(
        2026, 11, 29, 21, 0, tzinfo=HELSINKI
    )
    closed = boss.post(
        url,
        {"at": "2026-11-29T21:00:00+02:00"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="close-21",
    )
    assert closed.status_code == 201, closed.content
    replay = boss.post(
        url,
        {"at": "2026-11-29T21:00:00+02:00"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="close-21",
    )
    assert replay.json() == closed.json()
    prize = closed.json()
    assert (prize["kind"], prize["status"], prize["closed_by"]) == (
        "period",
        "pending",
        "boss",
    )
    assert (prize["house"], prize["pool_amount"], prize["total"]) == (10_000, 0, 10_000)
    [hand] = prize["hands"]
    assert (hand["player"], hand["hand"], hand["table"]) == (
        "P-1",
        "four of a kind, nines",
        "T01",
    )
    [award] = prize["awards"]
    assert (award["player"], award["amount"], award["role"]) == (
        "P-1",
        10_000,
        "high_hand",
    )
    again = boss.post(url, {"at": "2026-11-29T21:59:59+02:00"}, format="json")
    assert refused(again, 409, "PR2")["code"] == "period_closed"
    empty = boss.post(url, {"at": "2026-11-29T22:00:00+02:00"}, format="json")
    assert empty.status_code == 201 and empty.json()["status"] == "carried_over"
    assert PromotionPrize.objects.count() == 2


# -- prizes decided by two people --------------------------------------------------


def test_a_prize_is_verified_by_the_floor_and_approved_by_another_manager(
    boss, people, dealer, clock, sweep
):
    """PR5: pending until a floor person verifies it; the verifier can't approve
    it; approved, it is booked once (retries replay, a second approval is 409)
    and payable at the cage (PR1, CA6); decided, it can't be rejected."""
    pid = start(boss, code="aces", rules=EXAMPLES["aces-cracked"])["id"]
    aces_cracked(dealer)
    sweep()
    listed = people["floor"].get(f"{PRIZES}?status=pending&promotion={pid}").json()
    [prize] = listed
    assert (prize["kind"], prize["promotion"], prize["table"]) == (
        "bonus",
        "aces",
        "T01",
    )
    assert prize["hands"][0]["hole"] == ["Ah", "Ad"] and prize["board"]
    assert people["floor"].get(f"{PRIZES}?kind=period").json() == []
    assert people["floor"].get(f"{PRIZES}?status=approved").json() == []
    refused(people["floor"].get(f"{PRIZES}?status=paid"), 400)
    refused(people["floor"].get(f"{PRIZES}?promotion=x"), 400)
    url = f"{PRIZES}/{prize['id']}"
    assert people["auditor"].get(url).json()["id"] == prize["id"]
    refused(people["auditor"].get(f"{PRIZES}/999999"), 404)

    refused(people["manager"].post(f"{url}/approve"), 422, "PR5")  # not verified
    verified = people["manager"].post(
        f"{url}/verify", {"note": "camera 4"}, format="json"
    )
    assert verified.status_code == 200, verified.content
    assert verified.json()["verified_by"] == "maria"
    again = people["floor"].post(f"{url}/verify", {}, format="json")
    assert refused(again, 409, "PR5")["code"] == "decided"
    four_eyes = people["manager"].post(f"{url}/approve")
    assert refused(four_eyes, 422, "PR5")["code"] == "four_eyes"
    refused(people["floor"].post(f"{url}/approve"), 403)

    approved = people["manager2"].post(f"{url}/approve", HTTP_IDEMPOTENCY_KEY="ok-1")
    assert approved.status_code == 200, approved.content
    retried = people["manager2"].post(f"{url}/approve", HTTP_IDEMPOTENCY_KEY="ok-1")
    assert retried.json() == approved.json()
    twice = people["manager2"].post(f"{url}/approve", HTTP_IDEMPOTENCY_KEY="ok-2")
    assert refused(twice, 409, "PR5")["code"] == "decided"
    done = approved.json()
    assert (done["status"], done["approved_by"], done["total"]) == (
        "approved",
        "mats",
        5_000,
    )
    [award] = done["awards"]
    assert award["player"] == "P-1" and award["role"] == "aces_cracked"
    assert Payable.objects.get(pk=award["payable"]).amount_cents == 5_000
    assert Transaction.objects.filter(kind="promotion_award").count() == 1
    assert balance(EXPENSE) == 5_000
    assert trial_balance().balanced
    late = people["floor"].post(f"{url}/reject", {"reason": "no"}, format="json")
    assert refused(late, 409, "PR5")["code"] == "decided"


def test_a_prize_rejected_with_a_reason_books_nothing(
    boss, people, dealer, clock, sweep
):
    start(boss, code="aces", rules=EXAMPLES["aces-cracked"])
    aces_cracked(dealer)
    sweep()
    prize = PromotionPrize.objects.get()
    url = f"{PRIZES}/{prize.pk}"
    for blank in ({}, {"reason": ""}, {"reason": "   "}, {"reason": 0}):
        refused(people["floor"].post(f"{url}/reject", blank, format="json"), 400)
    rejected = people["floor"].post(
        f"{url}/reject", {"reason": "a misdeal on camera"}, format="json"
    )
    assert rejected.status_code == 200, rejected.content
    answer = rejected.json()
    assert (answer["status"], answer["rejected_by"], answer["rejection_reason"]) == (
        "rejected",
        "fiona",
        "a misdeal on camera",
    )
    assert answer["awards"][0]["status"] == "rejected"
    refused(people["floor"].post(f"{url}/verify", {}, format="json"), 409, "PR5")
    refused(people["manager"].post(f"{url}/approve"), 409, "PR5")
    assert not Transaction.objects.filter(kind="promotion_award").exists()
    assert balance(EXPENSE) == 0


def test_hostile_ids_and_bodies_on_the_prize_doors_never_fail(people, clock):
    for path in ("verify", "approve", "reject"):
        url = f"{PRIZES}/99999999999999/{path}"
        answer = people["manager"].post(url, {"reason": "x"}, format="json")
        assert answer.status_code in (400, 404), (path, answer.status_code)
    refused(
        people["manager"].post(f"{PRIZES}/1/verify", {"note": 5}, format="json"), 400
    )
    refused(
        people["manager"].post(
            f"{PRIZES}/1/verify", {"note": "x", "extra": 1}, format="json"
        ),
        400,
    )
    refused(
        people["manager"].post(
            f"{PRIZES}/1/verify", "not json", content_type="application/json"
        ),
        400,
    )


def test_an_hour_with_a_tie_shares_its_prize_over_the_api(
    boss, people, dealer, clock, sweep
):
    """PR2: two equal best hands share the prize, largest remainder, the earlier
    hand the odd cent; the two decisions book it whole."""
    clock.set("2026-11-29T21:00")
    rules = copy.deepcopy(high_hand(prize={"fixed": 10_001, "funding": "house"}))
    pid = start(boss, rules=rules)["id"]
    clock.set("2026-11-29T21:10")
    quads_nines(dealer)
    clock.set("2026-11-29T21:20")
    dealer.deal("9c 9d 2h Ks 3c", {3: "9s 9h", 4: "As Kd"})
    sweep()
    clock.set("2026-11-29T22:01")
    answer = boss.post(
        f"{URL}/{pid}/periods/close",
        {"at": "2026-11-29T21:00:00+02:00"},
        format="json",
    )
    prize = answer.json()
    assert sorted((a["player"], a["amount"]) for a in prize["awards"]) == [
        ("P-1", 5_001),
        ("P-3", 5_000),
    ]
    url = f"{PRIZES}/{prize['id']}"
    assert people["floor"].post(f"{url}/verify", {}, format="json").status_code == 200
    assert people["manager"].post(f"{url}/approve").status_code == 200
    assert balance(EXPENSE) == 10_001
    assert trial_balance().balanced


# -- the admin: configuration and records, read-only -------------------------------


def test_the_admin_shows_promotions_versions_and_prizes_read_only(
    boss, make_staff, dealer, clock, sweep
):
    """The admin keeps reference data and shows records: promotions, their
    versions and prizes are read there, never added, changed or decided (PR1,
    PR5)."""
    from django.contrib import admin as django_admin
    from django.test import Client, RequestFactory

    start(boss, code="aces", rules=EXAMPLES["aces-cracked"])
    aces_cracked(dealer)
    sweep()
    promotion = Promotion.objects.get()
    version = PromotionVersion.objects.get()
    prize = PromotionPrize.objects.get()
    user = make_staff("admin-floor", Role.FLOOR)
    client = Client()
    client.force_login(user)
    pages = {
        "promotion": promotion.pk,
        "promotionversion": version.pk,
        "promotionprize": prize.pk,
    }
    for model, pk in pages.items():
        listed = client.get(f"/admin/jackpots/{model}/")
        assert listed.status_code == 200, model
        shown = client.get(f"/admin/jackpots/{model}/{pk}/change/")
        assert shown.status_code == 200, model
        assert 'type="submit"' not in shown.content.decode().split("<form")[-1]
        assert client.get(f"/admin/jackpots/{model}/add/").status_code == 403
        assert client.post(f"/admin/jackpots/{model}/{pk}/delete/").status_code == 403
    page = client.get(f"/admin/jackpots/promotionprize/{prize.pk}/change/")
    assert "€50.00" in page.content.decode()
    request = RequestFactory().get("/admin/jackpots/promotionprize/")
    request.user = user
    for kind in (Promotion, PromotionVersion, PromotionPrize):
        model_admin = django_admin.site._registry[kind]
        assert model_admin.get_actions(request) == {}, kind
        assert not model_admin.has_change_permission(request)
    nobody = Client()
    nobody.force_login(make_staff("admin-cashier", Role.CASHIER))
    assert nobody.get("/admin/jackpots/promotion/").status_code == 403
