"""The auditor's proofs of a figure through the test client (docs/digest.md): the
day's digest on the audit's preview, a hand's, a receipt's and an award's proof
checked on the page and downloaded, the day's digest file, and what can't be
proved said in words."""

from __future__ import annotations

import json

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from accounting.models import Receipt
from cardroom.models import Hand
from core.roles import Role
from jackpots.models import Award
from reports.domain.merkle import leaf_hash, root_from_path
from reports.models import DayDigest, Report
from tests.integration.reports.conftest import (
    DAY,
    build,
    clock,
    floor,
    manager,
    open_table,
    played_day,
    players,
    stock_tray,
)

__all__ = [
    "build",
    "clock",
    "floor",
    "manager",
    "open_table",
    "played_day",
    "players",
    "stock_tray",
]

pytestmark = pytest.mark.django_db


@pytest.fixture
def audrey(make_staff) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_staff("audrey-proofs", Role.AUDITOR))
    return client


def said(answer) -> list[str]:
    return [str(m) for m in get_messages(answer.wsgi_request)]


def test_an_auditor_proves_a_hand_a_receipt_and_an_award_of_a_sealed_day(
    played_day, audrey
):
    hand = Hand.objects.filter(table__code="A1", ledger_transaction__isnull=False)[0]
    asked = {"kind": "hand", "of": f"A1#{hand.hand_no}"}
    early = audrey.get("/auditor/proof", asked)
    assert "is in no day&#x27;s digest yet" in early.content.decode()

    produced = audrey.post(
        "/auditor/produce", {"kind": "daily_audit", "day": str(DAY), "once": "p1"}
    )
    report = Report.objects.get()
    sealed = DayDigest.objects.get(gaming_day=DAY)
    assert produced["Location"] == f"/auditor/reports/{report.pk}"
    preview = audrey.get(produced["Location"]).content.decode()
    assert 'id="ledger-digest"' in preview
    assert f"{DAY}:{sealed.hash}" in preview and sealed.signature in preview
    assert f"/auditor/digests/{DAY}.json" in preview

    page = audrey.get("/auditor/proof", asked).content.decode()
    assert (
        f"This record is in the signed digest of gaming day {DAY}, as it was sealed"
        in page
    )
    assert f"--digest {DAY}:{sealed.hash}" in page
    assert f"A1#{hand.hand_no} · {DAY}" in page
    download = audrey.get("/auditor/proof.json", asked)
    assert download["Content-Disposition"] == (
        f'attachment; filename="proof-hand-A1-{hand.hand_no}.json"'
    )
    proof = json.loads(download.content)
    root = root_from_path(
        leaf_hash(proof["leaf"].encode()),
        proof["leaf_index"],
        proof["tree_size"],
        [bytes.fromhex(h) for h in proof["audit_path"]],
    )
    assert root.hex() == sealed.root

    award = Award.objects.filter(hit__isnull=False, status="approved").first()
    receipt = Receipt.objects.get(payable_id=award.payable_id)
    award_page = audrey.get("/auditor/proof", {"kind": "award", "of": award.pk})
    assert f"Award #{award.pk}" in award_page.content.decode()
    assert f"of={receipt.no}" in award_page.content.decode()
    receipt_page = audrey.get("/auditor/proof", {"kind": "receipt", "of": receipt.no})
    assert "as it was sealed" in receipt_page.content.decode()

    file = audrey.get(f"/auditor/digests/{DAY}.json")
    assert json.loads(file.content)["hash"] == sealed.hash
    assert len(json.loads(file.content)["leaves"]) == sealed.size
    assert audrey.get("/auditor/digests/2026-01-01.json").status_code == 404


def test_what_cant_be_proved_is_said_in_words(played_day, audrey):
    for kind, of, words in (
        ("hand", "A1", "Name a hand as its table and number: A1#17."),
        ("hand", "A1#999999", "No such resource."),
        ("award", "x", "Name a hand (A1#17), a receipt (MAIN-000012) or an award"),
        ("receipt", "MAIN-999999", "No such resource."),
    ):
        answer = audrey.get("/auditor/proof", {"kind": kind, "of": of})
        assert answer.status_code == 200
        assert any(words in m for m in said(answer)), (kind, of, said(answer))
