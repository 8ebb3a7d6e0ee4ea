"""DC3 receivables: booked by two people, listed, paid back at the cage, and a block.

A player who got money he wasn't due owes it (RULES.md DC3). He can't buy in while
he owes an amount past the house's terms (none by default); he pays it back in cash
at the cage, in parts if he likes, each part a numbered receipt and a balanced
posting. Each refusal here writes nothing.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounting.models import Account, Cage, Entry, Player, Receipt, Transaction
from accounting.selectors import trial_balance
from accounting.services.cage import receivable_check
from cardroom.models import SeatSession, StackMovement
from cardroom.services import room_default
from core.errors import Refusal
from core.roles import Role
from reports.builders import daily_audit
from reports.document import rows_of
from reports.selectors import Period
from tests.api.floor.conftest import leave, seat

pytestmark = pytest.mark.django_db


def ledger() -> tuple[object, ...]:
    """Entries, transactions, every balance, receipts and the floor's rows."""
    return (
        Entry.objects.count(),
        Transaction.objects.count(),
        tuple(Account.objects.order_by("code").values_list("code", "balance_cents")),
        Receipt.objects.count(),
        tuple(Cage.objects.values_list("code", "next_receipt_no")),
        StackMovement.objects.count(),
        SeatSession.objects.count(),
    )


def balance(code: str) -> int:
    account = Account.objects.filter(code=code).first()
    return account.balance_cents if account else 0


def refused_dc3(answer, code: str = "receivable_open") -> dict:
    assert answer.status_code == 422, answer.content
    error = answer.json()["error"]
    assert (error["rule"], error["code"]) == ("DC3", code), error
    return error


@pytest.fixture
def owing(clock, open_table, players, staff_client):
    """P-1 sits at T01; two floor people book that he owes €50 (DC2, DC3)."""
    t01 = open_table("T01")
    assert seat(t01, "T01", 1, "P-1", 20_000).status_code == 201
    anna = staff_client(Role.FLOOR, username="anna")
    ben = staff_client(Role.FLOOR, username="ben")
    asked = anna.post(
        "/api/v1/corrections",
        {
            "kind": "receivable",
            "table": "T01",
            "from_player": "P-1",
            "amount": 5_000,
            "reason": "camera: paid twice for one pot",
        },
        format="json",
    )
    assert asked.status_code == 201, asked.content
    approved = ben.post(f"/api/v1/corrections/{asked.json()['id']}/approve")
    assert approved.status_code == 200, approved.content
    assert balance("receivable:P-1") == 5_000
    cashier = staff_client(Role.CASHIER, username="kalle")
    opened = cashier.post(
        "/api/v1/cage/shifts",
        {"cage": "MAIN", "cash": 100_000, "chips": 100_000},
        format="json",
    )
    assert opened.status_code == 201, opened.content
    return t01, anna, cashier


def collect(cashier, amount: int, player: str = "P-1"):
    return cashier.post(
        "/api/v1/cage/receivables/collections",
        {"cage": "MAIN", "player": player, "amount": amount},
        format="json",
    )


def test_an_open_receivable_blocks_every_buy_in(owing):
    """DC3: no top-up, no seat, no chips at the cage while he owes; 422 with the
    amount open, and nothing written."""
    t01, _anna, cashier = owing
    before = ledger()
    up = t01.post(
        "/api/v1/tables/T01/seats/1/top-ups",
        {"amount": 5_000, "method": "cash"},
        format="json",
    )
    assert refused_dc3(up)["allowed"] == {"open": 5_000, "due": 5_000}
    assert ledger() == before
    # Leaving is not a buy-in: he takes his chips.
    assert leave(t01, "T01", 1, 20_000).status_code == 200
    before = ledger()
    again = seat(t01, "T01", 2, "P-1", 20_000, method="chips")
    assert refused_dc3(again)["allowed"] == {"open": 5_000, "due": 5_000}
    bought = cashier.post(
        "/api/v1/cage/purchases",
        {"cage": "MAIN", "player": "P-1", "amount": 10_000},
        format="json",
    )
    refused_dc3(bought)
    assert ledger() == before
    # Others play on.
    assert seat(t01, "T01", 2, "P-2", 20_000).status_code == 201


def test_paid_back_in_parts_at_the_cage(owing):
    """A part, then too much (refused, nothing written), then the rest; then he
    buys in again. Each part is a receipt and a balanced posting."""
    t01, anna, cashier = owing
    assert leave(t01, "T01", 1, 20_000).status_code == 200
    listed = anna.get("/api/v1/cage/receivables").json()
    assert [(r["player"], r["open"], r["due"]) for r in listed] == [
        ("P-1", 5_000, 5_000)
    ]
    (amount,) = listed[0]["amounts"]
    assert (amount["booked"], amount["open"], amount["reason"]) == (
        5_000,
        5_000,
        "camera: paid twice for one pot",
    )

    part = collect(cashier, 2_000)
    assert part.status_code == 201, part.content
    receipt = part.json()
    assert (receipt["kind"], receipt["amount"], receipt["player"]) == (
        "collection",
        2_000,
        "P-1",
    )
    assert balance("receivable:P-1") == 3_000
    posting = Transaction.objects.get(pk=receipt["transaction"])
    assert sum(e.amount_cents for e in posting.entries.all()) == 0
    assert posting.reference == receipt["no"]

    before = ledger()
    error = refused_dc3(collect(cashier, 3_001), code="above_open")
    assert error["allowed"] == {"min": 1, "max": 3_000}
    assert ledger() == before
    refused_dc3(seat(t01, "T01", 1, "P-1", 20_000, method="chips"))
    assert ledger() == before

    rest = collect(cashier, 3_000)
    assert rest.status_code == 201
    assert rest.json()["number"] == receipt["number"] + 1  # no gap (CA2)
    assert balance("receivable:P-1") == 0
    assert anna.get("/api/v1/cage/receivables").json() == []
    assert seat(t01, "T01", 1, "P-1", 20_000, method="chips").status_code == 201
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree

    shift = cashier.get(f"/api/v1/cage/shifts/{receipt['shift']}").json()
    assert shift["cash"]["collections"] == 5_000
    assert shift["reconciled"]


def test_a_player_who_owes_nothing_pays_nothing(owing):
    _t01, _anna, cashier = owing
    before = ledger()
    error = refused_dc3(collect(cashier, 100, player="P-2"), code="above_open")
    assert error["allowed"] == {"min": 1, "max": 0}
    assert ledger() == before


def test_the_list_filters_and_its_readers(owing, staff_client):
    _t01, anna, _cashier = owing
    assert anna.get("/api/v1/cage/receivables?player=P-2").json() == []
    assert len(anna.get("/api/v1/cage/receivables?due=true").json()) == 1
    bad = anna.get("/api/v1/cage/receivables?due=AAA")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_filter"
    # Only the cashier collects.
    before = ledger()
    assert collect(anna, 1_000).status_code == 403
    assert ledger() == before


def test_house_terms_delay_the_block(owing, settings, clock):
    """With terms of a week, he may play on that week; then he must pay."""
    settings.CARDROOM_DC3_TERMS_DAYS = 7
    player = Player.objects.get(code="P-1")
    receivable_check(player=player, now=clock.now + timedelta(days=6))
    with pytest.raises(Refusal) as refused:
        receivable_check(player=player, now=clock.now + timedelta(days=7, minutes=1))
    assert refused.value.allowed == {"open": 5_000, "due": 5_000}


def test_the_daily_audit_lists_what_is_open(owing, clock):
    """The daily audit's section of open receivables at the day's end (DC3)."""
    _t01, _anna, cashier = owing
    assert collect(cashier, 1_500).status_code == 201
    room = room_default()
    period = Period.of(room, room.gaming_day(clock.now))
    rows = rows_of(daily_audit(period=period, now=period.end), "receivables")
    assert [(r["player"], r["booked"], r["collected"], r["open"]) for r in rows] == [
        ("P-1", 5_000, 1_500, 3_500)
    ]
