"""The jackpots' REST surface: roles, pools and their history, categories,
standings, months, the public summary and the schema (API.md, JD6, BB2, HM4)."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from accounting.models import Transaction
from core.errors import Invalid
from core.roles import Role
from jackpots import services
from jackpots.models import Category, Hit, Month, Pool

from .conftest import SEED, balance

pytestmark = pytest.mark.django_db

POOL = "jackpot:main.bad-beat:pool"
MONEY_POSTS = [
    "/api/v1/jackpots/pools",
    "/api/v1/jackpots/pools/{pool_id}/seed",
    "/api/v1/jackpots/hits/{hit_id}/approve",
    "/api/v1/jackpots/months/{month_id}/approve",
]


def test_the_schema_documents_the_money_posts_with_an_idempotency_key(api):
    spec = api.get("/api/schema/?format=json").json()
    for path in MONEY_POSTS:
        operation = spec["paths"][path]["post"]
        assert "Idempotency-Key" in [p["name"] for p in operation["parameters"]], path
        answer = next(iter(operation["responses"].values()))
        assert "$ref" in answer["content"]["application/json"]["schema"], path
    hit = spec["components"]["schemas"]["JackpotHit"]["properties"]
    assert hit["status"] == {"$ref": "#/components/schemas/JackpotHitStatus"}


def test_only_the_summary_is_public(api, pools):
    """JD6: a retired pool stays on the board while it holds players' money."""
    services.pool_update(pool=pools["bad-beat"], by=None, active=False)
    services.pool_update(pool=pools["month"], by=None, active=False)
    board = api.get("/api/v1/jackpots/summary")
    assert board.status_code == 200
    assert [(p["name"], p["amount"]) for p in board.json()["pools"]] == [
        ("Bad beat", SEED)
    ]
    for path in ["pools", "hits", "awards", "months", "categories"]:
        assert api.get(f"/api/v1/jackpots/{path}").status_code == 401, path


def test_roles_read_and_decide_what_they_may(staff_client, pools):
    auditor = staff_client(Role.AUDITOR, username="aud")
    cashier = staff_client(Role.CASHIER, username="cash")
    floor = staff_client(Role.FLOOR, username="flo")
    assert auditor.get("/api/v1/jackpots/pools").status_code == 200
    assert auditor.get("/api/v1/jackpots/hits").status_code == 200
    assert cashier.get("/api/v1/jackpots/awards").status_code == 200
    assert cashier.get("/api/v1/jackpots/hits").status_code == 403
    pool = pools["bad-beat"].pk
    body = {"amount": 1_000}
    for client in (auditor, cashier, floor):
        answer = client.post(f"/api/v1/jackpots/pools/{pool}/seed", body, format="json")
        assert answer.status_code == 403
    assert auditor.post("/api/v1/jackpots/hits/1/verify").status_code == 403


def test_a_manager_starts_a_pool_with_a_seed_and_changes_it(manager, clock):
    """JD5: the seed is booked from house capital; a retry seeds once; the pool's
    amount is its ledger balance (JD6); changes are kept (django-pghistory)."""
    body = {
        "code": "bad-beat",
        "name": "Bad beat",
        "kind": "bad_beat",
        "drop_ratio": 3,
        "seed": 50_000,
    }
    first = manager.post(
        "/api/v1/jackpots/pools", body, format="json", HTTP_IDEMPOTENCY_KEY="p1"
    )
    assert first.status_code == 201, first.content
    again = manager.post(
        "/api/v1/jackpots/pools", body, format="json", HTTP_IDEMPOTENCY_KEY="p1"
    )
    assert again.status_code == 201 and again.json() == first.json()
    pool = first.json()
    assert (pool["amount"], pool["reserve"], pool["seed"]) == (50_000, 0, 50_000)
    assert balance(POOL) == 50_000
    assert Transaction.objects.filter(kind="jackpot_seed").count() == 1
    duplicate = manager.post("/api/v1/jackpots/pools", body, format="json")
    assert duplicate.status_code == 409

    url = f"/api/v1/jackpots/pools/{pool['id']}"
    changed = manager.patch(url, {"reserve_percent": 10}, format="json")
    assert changed.status_code == 200 and changed.json()["reserve_percent"] == 10
    assert manager.patch(url, {"reserve_percent": 101}, format="json").status_code == (
        400
    )
    assert Pool.objects.get().events.count() == 2

    seeded = manager.post(
        f"{url}/seed",
        {"amount": 2_500, "to_reserve": True},
        format="json",
        HTTP_IDEMPOTENCY_KEY="s1",
    )
    assert seeded.status_code == 201 and seeded.json()["reserve"] == 2_500
    assert manager.post(f"{url}/seed", {"amount": 1.5}, format="json").status_code == (
        400
    )


def test_a_pools_history_lists_its_postings_with_the_balance_after_each(
    manager, pools, dealer, clock
):
    for _ in range(3):
        clock.advance(minutes=1)
        dealer.ordinary()
    url = f"/api/v1/jackpots/pools/{pools['bad-beat'].pk}/history"
    lines = manager.get(url).json()
    assert [(x["kind"], x["amount"], x["balance"]) for x in lines] == [
        ("hand", 75, SEED + 225),
        ("hand", 75, SEED + 150),
        ("hand", 75, SEED + 75),
        ("jackpot_seed", SEED, SEED),
    ]
    page = manager.get(f"{url}?offset=1&limit=2").json()
    assert [x["balance"] for x in page] == [SEED + 150, SEED + 75]
    seeds = manager.get(f"{url}?kind=jackpot_seed").json()
    assert [(x["amount"], x["balance"]) for x in seeds] == [(SEED, None)]


def test_categories_show_bb2_defaults_and_a_manager_publishes_a_version(
    manager, staff_client
):
    floor = staff_client(Role.FLOOR, username="flo")
    listed = floor.get("/api/v1/jackpots/categories").json()
    assert [(c["code"], c["current"]["version"]) for c in listed] == [
        ("1", 1),
        ("2", 1),
    ]
    holdem = listed[0]["current"]
    assert holdem["games"] == ["LHE", "NLHE", "PLHE"]
    assert holdem["min_losing_hand"] == ["As", "Ah", "Ad", "Ts", "Th"]
    assert holdem["payout"] == {"percent": 90, "loser": 50, "winner": 25, "table": 25}
    assert holdem["card_use"]["loser"] == {"hole_cards": 2, "quads_pocket_pair": True}
    body = {
        "pool": "bad-beat",
        "games": ["NLHE"],
        "min_losing_hand": ["2c", "2d", "2h", "2s", "3c"],
        "loser_card_use": {"hole_cards": 2, "quads_pocket_pair": True},
        "winner_card_use": {"hole_cards": 1, "quads_pocket_pair": False},
        "min_participants": 5,
        "min_pot": 10_000,
        "payout": {"percent": 80, "loser": 60, "winner": 30, "table": 10},
        "note": "quads or better from January",
    }
    url = "/api/v1/jackpots/categories/1/versions"
    assert floor.post(url, body, format="json").status_code == 403
    published = manager.post(url, body, format="json")
    assert published.status_code == 201, published.content
    assert published.json()["version"] == 2
    detail = floor.get("/api/v1/jackpots/categories/1").json()
    assert [v["version"] for v in detail["versions"]] == [2, 1]
    assert detail["current"]["min_pot"] == 10_000
    bad = manager.post(url, body | {"min_losing_hand": ["Xx"] * 5}, format="json")
    assert bad.status_code == 400  # no cards, as the schema says
    assert "min_losing_hand" in bad.json()["error"]["fields"]
    assert Category.objects.get(code="1").versions.count() == 2


@pytest.mark.parametrize("role", ["loser", "winner", "table"])
def test_a_part_too_big_for_its_column_is_refused_not_a_500(manager, role):
    """BB2: a role's part of the jackpot is a ``smallint``; 40,000 (or 2^62 - 1,
    which the schema allowed) failed in the database (500). The schema and the
    rules bound it: 400, nothing published."""
    payout = {"percent": 90, "loser": 50, "winner": 25, "table": 25}
    body = {
        "pool": "bad-beat",
        "games": ["NLHE"],
        "min_losing_hand": ["2c", "2d", "2h", "2s", "3c"],
        "loser_card_use": {"hole_cards": 2, "quads_pocket_pair": True},
        "winner_card_use": {"hole_cards": 1, "quads_pocket_pair": False},
        "min_participants": 5,
        "payout": {**payout, role: 40_000},
    }
    url = "/api/v1/jackpots/categories/1/versions"
    answer = manager.post(url, body, format="json")
    assert answer.status_code == 400, answer.content
    assert Category.objects.get(code="1").versions.count() == 1
    with pytest.raises(Invalid) as refused:
        services.category_publish(
            category=Category.objects.get(code="1"),
            config={
                "games": ["NLHE"],
                "min_losing_hand": ["2c", "2d", "2h", "2s", "3c"],
                "min_participants": 5,
                "payout": {**payout, role: 40_000},
            },
            pool_code="bad-beat",
            by=None,
        )
    assert refused.value.allowed == {"field": f"payout.{role}"}
    assert Category.objects.get(code="1").versions.count() == 1


def test_standings_show_the_leader_during_the_month(
    staff_client, pools, dealer, clock, sweep
):
    """HM4, through the API: each player's best hand this month, best first."""
    floor = staff_client(Role.FLOOR, username="flo")
    dealer.ordinary()
    sweep()
    clock.advance(minutes=5)
    dealer.deal("Ac Kc Qc 5s 2d", {3: "Jc Tc", 4: "Ks Kd"})
    sweep()
    url = f"/api/v1/jackpots/pools/{pools['month'].pk}/standings"
    body = floor.get(url).json()
    assert (body["month"], body["closed"]) == ("2026-11", False)
    assert body["leader"]["player"] == "P-3"
    assert [(s["player"], s["hand"]) for s in body["standings"]] == [
        ("P-3", "royal flush"),
        ("P-4", "three of a kind, kings"),
        ("P-1", "one pair, aces"),
        ("P-2", "one pair, kings"),
    ]
    assert floor.get(f"{url}?month=2026-10").json()["standings"] == []
    assert floor.get(f"{url}?month=10-2026").status_code == 400


def test_a_manager_approves_a_months_awards_through_the_api(
    staff_client, pools, dealer, clock
):
    boss = staff_client(Role.MANAGER, username="boss")
    pools["month"].starts_on = date(2026, 10, 1)
    pools["month"].save(update_fields=["starts_on"])
    clock.set("2026-10-10T21:00")
    hand = dealer.deal("Ac Kc Qc 5s 2d", {3: "Jc Tc", 4: "Ks Kd"})
    clock.set("2026-11-01T12:00")
    [month] = services.months_close_due()
    listed = boss.get("/api/v1/jackpots/months").json()
    assert [(m["month"], m["status"], m["closed_by"]) for m in listed] == [
        ("2026-10", "pending", "beat")
    ]
    url = f"/api/v1/jackpots/months/{month.pk}"
    approved = boss.post(f"{url}/approve", HTTP_IDEMPOTENCY_KEY="m1")
    assert approved.status_code == 200, approved.content
    [award] = approved.json()["awards"]
    assert (award["player"], award["hand_no"], award["amount"]) == (
        "P-3",
        hand.hand_no,
        25,
    )
    assert award["payable"] is not None
    assert boss.post(f"{url}/approve").status_code == 409
    assert Month.objects.get().status == Month.Status.APPROVED


def test_hits_can_be_filtered_and_read_one_by_one(staff_client, pools, dealer, sweep):
    floor = staff_client(Role.FLOOR, username="flo")
    dealer.bad_beat()
    sweep()
    hit = Hit.objects.get()
    assert floor.get("/api/v1/jackpots/hits?status=approved").json() == []
    detail = floor.get(f"/api/v1/jackpots/hits/{hit.pk}").json()
    assert detail["status"] == "pending" and len(detail["awards"]) == 6
    assert floor.get("/api/v1/jackpots/hits/999999").status_code == 404


def test_the_admin_lists_pools_with_their_ledger_amounts(make_staff, pools):
    client = Client()
    client.force_login(make_staff("admin-floor", Role.FLOOR))
    page = client.get("/admin/jackpots/pool/")
    assert page.status_code == 200
    assert "€1,000.00" in page.content.decode()
    assert client.get("/admin/jackpots/hit/").status_code == 200
    assert client.get("/admin/jackpots/pool/add/").status_code == 403


@pytest.mark.parametrize("summed", [False, True])
def test_the_board_shows_a_pools_balance_right_after_drops(
    api, pools, dealer, make_staff, summed
):
    """JD6, issue 16: the board reads the ledger's balance (balance_expression), so
    a pool kept as a sum of its entries, whose row no hand updates, shows its drops
    at once."""
    from accounting.models import Account, AccountType, Entry
    from accounting.services import account_get_or_open
    from cardroom.services import room_default

    code = "jackpot:main.royal:pool"
    account_get_or_open(
        code=code,
        name="Royal",
        type=AccountType.LIABILITY,
        currency="EUR",
        non_negative=True,
        summed=summed,
    )
    royal = services.pool_create(
        room=room_default(),
        code="royal",
        name="Royal",
        kind=Pool.Kind.BAD_BEAT,
        by=make_staff("boss", Role.MANAGER),
        drop_ratio=2,
    )
    assert (royal.account.code, royal.account.summed) == (code, summed)

    def board():
        pools = api.get("/api/v1/jackpots/summary").json()["pools"]
        return {p["name"]: p["amount"] for p in pools}

    assert board()["Royal"] == 0
    dealer.ordinary()
    dealer.no_showdown()
    entries = Entry.objects.filter(account__code=code)
    ledger = -sum(entries.values_list("amount_cents", flat=True))
    assert board()["Royal"] == ledger > 0
    stored = Account.objects.values_list("balance_cents", flat=True).get(code=code)
    # Kept as a sum, its row was never moved by a hand: the board didn't read it.
    assert stored == (0 if summed else ledger)
    # Retired, it stays on the board while it holds players' money (JD5).
    services.pool_update(pool=royal, by=None, active=False)
    assert board()["Royal"] == ledger
