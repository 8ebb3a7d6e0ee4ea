"""The cage in the OpenAPI schema, and the admin's screens for cashiers."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

from accounting.models import Receipt, Transaction
from core.roles import Role

from .conftest import FLOAT, post

pytestmark = pytest.mark.django_db

MONEY_POSTS = [
    "/api/v1/cage/shifts",
    "/api/v1/cage/shifts/{shift_id}/close",
    "/api/v1/cage/shifts/{shift_id}/sign-off",
    "/api/v1/cage/purchases",
    "/api/v1/cage/redemptions",
    "/api/v1/cage/fills/{slip_id}/issue",
    "/api/v1/cage/credits/{slip_id}/issue",
    "/api/v1/cage/counts",
    "/api/v1/cage/payables/{payable_id}/pay",
    "/api/v1/cage/vault",
    "/api/v1/cage/vault/withdrawals",
    "/api/v1/cage/fills/{slip_id}/cancel",
    "/api/v1/cage/credits/{slip_id}/cancel",
]


def test_the_schema_documents_every_cage_endpoint(api, tmp_path):
    """Money-moving POSTs take an Idempotency-Key and answer a named component;
    the schema validates with no warning."""
    call_command(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(tmp_path / "schema.yaml"),
    )
    spec = api.get("/api/schema/?format=json").json()
    for path in MONEY_POSTS:
        operation = spec["paths"][path]["post"]
        headers = [p["name"] for p in operation.get("parameters", [])]
        assert "Idempotency-Key" in headers, path
        answer = next(iter(operation["responses"].values()))
        assert "$ref" in answer["content"]["application/json"]["schema"], path
    purchase = spec["components"]["schemas"]["CageExchangeInputRequest"]
    assert purchase["properties"]["amount"]["type"] == "integer"


def admin_login(username: str, *roles: Role, make_staff) -> Client:
    client = Client()
    client.force_login(make_staff(username, *roles))
    return client


def test_the_admin_shows_the_shift_the_receipt_and_the_ledger_read_only(
    cage, cashier, player, open_shift, make_staff
):
    """A cashier sees the running balance and prints a receipt; nobody can add,
    change or delete a posted transaction in the admin."""
    post(
        cashier,
        "cage/purchases",
        {"cage": "MAIN", "player": "P-1001", "amount": 12_345},
    )
    receipt = Receipt.objects.get()
    desk = admin_login("desk", Role.CASHIER, make_staff=make_staff)

    shift_page = desk.get(f"/admin/accounting/shift/{open_shift}/change/")
    assert shift_page.status_code == 200
    html = shift_page.content.decode()
    assert "MAIN-000001" in html
    # Running balance: the float, then the purchase on top of it.
    assert f"€{(FLOAT + 12_345) // 100:,}.{(FLOAT + 12_345) % 100:02d}" in html

    printed = desk.get(f"/admin/accounting/receipt/{receipt.pk}/print/")
    assert printed.status_code == 200
    text = printed.content.decode()
    assert "MAIN-000001" in text and "€123.45" in text and "P-1001" in text

    report = desk.get(f"/admin/accounting/shift/{open_shift}/report/")
    assert report.status_code == 200
    assert "End-of-shift report" in report.content.decode()

    for url in [
        "/admin/accounting/account/?type__exact=asset&currency=EUR",
        "/admin/accounting/transaction/?kind=chip_purchase",
        f"/admin/accounting/transaction/{receipt.transaction_id}/change/",
    ]:
        assert desk.get(url).status_code == 200, url

    boss = admin_login("boss", Role.MANAGER, make_staff=make_staff)
    txn = receipt.transaction_id
    entries = Transaction.objects.get(pk=txn).entries.count()
    assert boss.get("/admin/accounting/transaction/add/").status_code == 403
    assert (
        boss.post(
            f"/admin/accounting/transaction/{txn}/change/",
            {"kind": "x", "memo": "edited"},
        ).status_code
        == 403
    )
    assert (
        boss.post(
            f"/admin/accounting/transaction/{txn}/delete/", {"post": "yes"}
        ).status_code
        == 403
    )
    assert boss.post(
        "/admin/accounting/receipt/",
        {"action": "delete_selected", "_selected_action": [receipt.pk]},
    ).status_code in (200, 302)
    assert Transaction.objects.get(pk=txn).kind == "chip_purchase"
    assert Transaction.objects.get(pk=txn).entries.count() == entries
    assert Receipt.objects.filter(pk=receipt.pk).exists()


def test_the_floor_cant_open_cage_screens(cage, make_staff):
    """Roles decide: the floor sees players and slips, not the ledger."""
    floor = admin_login("fl", Role.FLOOR, make_staff=make_staff)
    assert floor.get("/admin/accounting/transaction/").status_code == 403
    assert floor.get("/admin/accounting/player/").status_code == 200


def test_a_manager_changes_a_cages_thresholds_not_its_counter(
    cage, cashier, player, open_shift, make_staff
):
    """A manager edits the thresholds; the receipt counter stays where the receipts
    left it (the database refuses any other move); a cashier can't edit."""
    for _ in range(2):
        post(
            cashier, "cage/purchases", {"cage": "MAIN", "player": "P-1001", "amount": 1}
        )
    boss = admin_login("boss", Role.MANAGER, make_staff=make_staff)
    answer = boss.post(
        f"/admin/accounting/cage/{cage.pk}/change/",
        {
            "name": cage.name,
            "over_short_signoff_cents": 5_000,
            "identity_threshold_cents": cage.identity_threshold_cents,
        },
    )
    assert answer.status_code == 302, answer.content
    cage.refresh_from_db()
    assert (cage.over_short_signoff_cents, cage.next_receipt_no) == (5_000, 3)
    cashier_view = admin_login("desk", Role.CASHIER, make_staff=make_staff)
    assert (
        cashier_view.post(
            f"/admin/accounting/cage/{cage.pk}/change/", {"name": "x"}
        ).status_code
        == 403
    )
