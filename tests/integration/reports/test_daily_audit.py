"""The daily audit of a day played through the API, checked figure by figure against
sums computed here, independently, from the ledger's entries and the hands."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from typing import Any

import pytest

from accounting.models import DEBIT_NORMAL, Account, BoxCount, Entry
from cardroom.models import Hand, HandException, StackMovement
from jackpots.models import Hit, Pool
from reports.document import rows_of
from reports.models import Report
from tests.integration.reports.conftest import DAY
from tests.integration.reports.day import (
    A2_DROP_OVER,
    DROP_BOX_SHORT,
    HOLD,
    SEED,
    SHIFT_SHORT,
    local,
)

pytestmark = pytest.mark.django_db
START, END = local(DAY, 6), local(DAY + timedelta(days=1), 6)
HAND_KINDS = {"hand", "hand_void"}


class Ledger:
    """Every entry, read once, summed in Python: the test's own view of the books."""

    def __init__(self) -> None:
        self.rows = [
            (
                e.account.code,
                e.account.type,
                e.transaction_id,
                e.transaction.kind,
                e.transaction.posted_at,
                e.amount_cents,
            )
            for e in Entry.objects.select_related("account", "transaction")
        ]

    def during(self):
        return [r for r in self.rows if START <= r[4] < END]

    def sum(self, code: str, kinds: set[str] | None = None, *, sign: int = 0) -> int:
        return sum(
            r[5]
            for r in self.during()
            if r[0] == code
            and (kinds is None or r[3] in kinds)
            and (sign == 0 or (r[5] > 0) == (sign > 0))
        )

    def kinds_like(self, code: str, prefix: str) -> int:
        return sum(
            r[5] for r in self.during() if r[0] == code and r[3].startswith(prefix)
        )

    def by_transaction(self) -> dict[int, dict[str, int]]:
        out: dict[int, dict[str, int]] = defaultdict(dict)
        for r in self.during():
            out[r[2]][r[0]] = r[5]
        return out

    def closing(self, code: str, account_type: str) -> int:
        raw = sum(r[5] for r in self.rows if r[0] == code and r[4] < END)
        return raw if account_type in DEBIT_NORMAL else -raw


def audit(auditor) -> dict[str, Any]:
    made = auditor.post(
        "/api/v1/reports/",
        {"kind": "daily_audit", "first": DAY.isoformat()},
        format="json",
    )
    assert made.status_code == 201, made.content
    report = auditor.get(f"/api/v1/reports/{made.json()['report']['id']}")
    assert report.status_code == 200
    return report.json()


def by(rows: list[dict[str, Any]], *keys: str) -> dict[Any, dict[str, Any]]:
    return {tuple(r[k] for k in keys) if len(keys) > 1 else r[keys[0]]: r for r in rows}


@pytest.mark.parametrize("continued", [False, True], ids=["first", "continued"])
def test_every_figure_of_the_daily_audit_traces_to_the_ledger_and_the_hands(
    played_day, auditor, continued
):
    """Tables, box counts, shifts, jackpot funds, exceptions and the trial balance:
    each figure equals the sum made here from the entries and the hands — in the
    first audit, which adds up the whole ledger, and in one that continues from
    the audit of the day before, which reads only its own day's entries."""
    if continued:
        before = auditor.post(
            "/api/v1/reports/",
            {"kind": "daily_audit", "first": (DAY - timedelta(days=1)).isoformat()},
            format="json",
        )
        assert before.status_code == 201, before.content
    body = audit(auditor)
    data = body["data"]
    trial_note = next(s for s in data["sections"] if s["key"] == "trial_balance")
    assert ("checked against audit" in trial_note["note"]) is continued
    ledger = Ledger()
    per_txn = ledger.by_transaction()

    # Tables: hands, rake, drop from the hands; rake and drop from the boxes.
    hands = list(Hand.objects.filter(gaming_day=DAY).select_related("table"))
    tables = by(rows_of(data, "tables_hands"), "table")
    assert set(tables) == {"A1", "A2"}
    for code, row in tables.items():
        mine = [h for h in hands if h.table.code == code]
        booked = [h for h in mine if h.status == "booked"]
        assert row["dealt"] == len(mine) == played_day.facts["hands"][code]
        assert row["voided"] == sum(1 for h in mine if h.status == "voided")
        assert row["raked"] == sum(1 for h in booked if h.rake_cents)
        assert row["pots"] == sum(h.pot_cents for h in booked)
        assert row["rake"] == sum(h.rake_cents for h in booked)
        assert row["rake"] == ledger.sum(f"table:{code}:rake_box", HAND_KINDS) > 0
        assert row["drop"] == sum(h.jackpot_drop_cents for h in booked)
        assert row["drop"] == ledger.sum(f"table:{code}:jackpot_box", HAND_KINDS)
        assert row["time"] == 0
    assert tables["A1"]["drop"] > 0 and tables["A2"]["drop"] == 0  # 7 vs 5 players
    assert tables["A2"]["voided"] == 1

    # Tables: buy-ins by method, players leaving, fills and credits.
    chips_in: dict[str, int] = defaultdict(int)
    left: dict[str, int] = defaultdict(int)
    kinds = {r[2]: r[3] for r in ledger.during()}
    for txn, legs in per_txn.items():
        table = next(
            (
                c.split(":")[3]
                for c in legs
                if c.startswith("player:") and ":table:" in c
            ),
            None,
        )
        carried = sum(
            v
            for c, v in legs.items()
            if c.endswith(":chips") and c.startswith("player:")
        )
        if table and kinds[txn].startswith("seat_") and kinds[txn] != "seat_leave":
            chips_in[table] += carried
        if table and kinds[txn] == "seat_leave":
            left[table] -= carried
    chips = by(rows_of(data, "tables_chips"), "table")
    for code, row in chips.items():
        assert row["buy_ins_cash"] == ledger.kinds_like(
            f"table:{code}:drop_box", "seat_"
        )
        assert row["buy_ins_chips"] == chips_in[code]
        assert row["left_with"] == left[code] > 0
        assert row["fills"] == ledger.sum(f"table:{code}:tray", {"fill"})
        assert row["credits"] == -ledger.sum(f"table:{code}:tray", {"credit"})
    assert (
        chips["A2"]["buy_ins_chips"] == 40_000
    )  # P-9 brought chips bought at the cage
    assert (
        chips["A1"]["fills"] == 2_000_000 + 100_000 and chips["A1"]["fill_slips"] == 2
    )
    assert chips["A2"]["credits"] == 20_000 and chips["A2"]["credit_slips"] == 1
    cash_moves = sum(
        m.amount_cents
        for m in StackMovement.objects.filter(gaming_day=DAY, method="cash")
    )
    assert sum(r["buy_ins_cash"] for r in chips.values()) == cash_moves

    # Box counts (CA4): recorded, counted and variance, from each count's posting.
    counts = by(rows_of(data, "box_counts"), "table", "box")
    assert len(counts) == BoxCount.objects.filter(gaming_day=DAY).count() == 5
    rows = [
        (c.transaction_id, c.table, c.box)
        for c in BoxCount.objects.filter(gaming_day=DAY)
    ]
    all_txn: dict[int, dict[str, int]] = defaultdict(dict)
    for r in ledger.rows:
        all_txn[r[2]][r[0]] = r[5]
    for txn, table, box in rows:
        row = counts[(table, box)]
        legs = all_txn[txn]
        vault = "cage:MAIN:cash" if box == "drop" else "cage:MAIN:chips"
        assert row["recorded"] == -legs[f"table:{table}:{box}_box"]
        assert row["counted"] == legs[vault]
        assert row["variance"] == row["counted"] - row["recorded"]
    assert counts[("A1", "drop")]["variance"] == -DROP_BOX_SHORT
    assert counts[("A2", "drop")]["variance"] == A2_DROP_OVER
    assert counts[("A1", "rake")]["recorded"] == tables["A1"]["rake"]
    assert counts[("A1", "rake")]["day_records"] == tables["A1"]["rake"]
    assert counts[("A1", "drop")]["day_records"] == chips["A1"]["buy_ins_cash"]

    # The cashier's shift (CA1): expected from the drawer's entries, €3 short.
    drawers = by(rows_of(data, "shift_drawers"), "shift", "side")
    cash = drawers[(played_day.shift, "cash")]
    drawer = f"cage:MAIN:shift:{played_day.shift}:cash"
    expected = sum(
        r[5]
        for r in ledger.rows
        if r[0] == drawer and r[3] not in {"over_short", "shift_close"}
    )
    assert cash["expected"] == expected
    assert cash["counted"] == expected - SHIFT_SHORT
    assert cash["over_short"] == -SHIFT_SHORT == ledger.sum(drawer, {"over_short"})
    assert cash["payouts"] == played_day.facts["award"]
    shifts = by(rows_of(data, "shifts"), "shift")
    assert shifts[played_day.shift]["status"] == "closed"
    assert shifts[played_day.shift]["cashier"] == "kalle"
    assert len(shifts) == 2  # kalle's and the tray cashier's, still open

    # Jackpot funds: opening + drops + in − awards = closing, per account.
    funds = by(rows_of(data, "jackpot_funds"), "account")
    assert set(funds) == set(
        Account.objects.filter(code__startswith="jackpot:").values_list(
            "code", flat=True
        )
    )
    for code, row in funds.items():
        other = [r for r in ledger.during() if r[0] == code and r[3] not in HAND_KINDS]
        drops = -ledger.sum(code, HAND_KINDS)
        out = sum(r[5] for r in other if r[5] > 0)
        other_in = -sum(r[5] for r in other if r[5] < 0)
        assert row["opening"] == 0
        assert (row["drops"], row["awards"], row["other_in"]) == (drops, out, other_in)
        assert (
            row["closing"]
            == drops + other_in - out
            == ledger.closing(code, "liability")
        )
        assert row["ledger_closing"] == Account.objects.get(code=code).balance_cents
    bad_beat = Pool.objects.get(code="bad-beat")
    pool, reserve = (
        funds[bad_beat.account.code],
        funds[bad_beat.reserve_account.code],
    )
    month = funds[Pool.objects.get(code="hand-of-the-month").account.code]
    assert pool["other_in"] == SEED
    assert pool["drops"] > 0 and reserve["drops"] > 0 and month["drops"] > 0
    hit = Hit.objects.get(pk=played_day.facts["hit"])
    assert (
        pool["awards"] + reserve["awards"]
        == hit.payout_cents
        == played_day.facts["award"]
    )
    assert reserve["closing"] == 0  # the reserve rolled into the jackpot it paid
    total_drops = sum(r["drops"] for r in funds.values())
    assert total_drops == tables["A1"]["drop"]

    # Exceptions of the day, with their status.
    summary = {
        (r["what"], r["status"]): r["count"]
        for r in rows_of(data, "exceptions_summary")
    }
    raised = defaultdict(int)
    for e in HandException.objects.filter(hand__gaming_day=DAY):
        raised[(e.kind, e.status)] += 1
    assert raised[("stack_mismatch", "open")] == 1
    # The mispaid pot's correction was approved: its flag is resolved (HS7).
    assert raised[("mispaid_pot", "resolved")] == 1
    for key, n in raised.items():
        assert summary[key] == n
    assert summary[("void", "booked")] == 1
    assert summary[("correction: pot_correction", "approved")] == 1
    assert summary[("correction: hold", "approved")] == 1
    assert summary[("held pot", "open")] == 1
    listed = rows_of(data, "hand_exceptions")
    assert {(r["table"], r["hand_no"], r["kind"]) for r in listed} >= {
        ("A1", played_day.facts["mispaid"], "mispaid_pot"),
    }
    mismatch = next(r for r in listed if r["kind"] == "stack_mismatch")
    assert "reported" in mismatch["details"] and "recorded" in mismatch["details"]
    [void] = rows_of(data, "voids")
    voided = Hand.objects.get(table__code="A2", hand_no=played_day.facts["voided"])
    assert void["hand_no"] == voided.hand_no and void["reason"] == "misdeal"
    assert void["pots"] == voided.pot_cents and void["rake"] == voided.rake_cents
    reversal = voided.ledger_transaction.reversed_by
    assert void["reversal"] == f"#{reversal.pk}"
    assert void["by"] == "floor"
    corrections = by(rows_of(data, "corrections"), "id")
    fix = corrections[played_day.facts["correction"]]
    assert (fix["kind"], fix["status"], fix["amount"]) == (
        "pot_correction",
        "approved",
        400,
    )
    assert (fix["requested_by"], fix["decided_by"]) == ("floor", "manager")
    [hold] = rows_of(data, "open_holds")
    assert hold["id"] == played_day.facts["hold"]
    assert (
        hold["still_held"]
        == HOLD
        == Account.objects.get(code="liability:escrow").balance_cents
    )

    # The trial balance: every account's closing from its entries up to the end.
    accounts = {a.code: a for a in Account.objects.all()}
    trial = by(rows_of(data, "trial_balance"), "account")
    touched = {r[0] for r in ledger.rows if r[4] < END}
    assert set(trial) == touched
    debit_balances = credit_balances = 0
    for code, row in trial.items():
        kind = accounts[code].type
        assert row["closing"] == ledger.closing(code, kind), code
        assert row["debits"] == ledger.sum(code, sign=+1), code
        assert row["credits"] == -ledger.sum(code, sign=-1), code
        assert row["ledger_closing"] == row["closing"], code
        raw = row["closing"] if kind in DEBIT_NORMAL else -row["closing"]
        debit_balances += max(raw, 0)
        credit_balances += max(-raw, 0)
    assert debit_balances == credit_balances > 0

    # Every reconciliation check agrees, and the stored report says so.
    checks = rows_of(data, "checks")
    assert checks and all(c["agrees"] for c in checks), [
        c for c in checks if not c["agrees"]
    ]
    # And so does the database's: its guards on, the app's role, nothing changed.
    database = rows_of(data, "database_guards")
    assert database and all(r["agrees"] for r in database), [
        r for r in database if not r["agrees"]
    ]
    assert body["checks_total"] == len(checks) + len(database)
    assert body["checks_failed"] == 0
    assert {c["check"] for c in checks} >= {
        "A1 rake",
        "A1 jackpot drop",
        "A1 cash buy-ins",
        "A1 fills",
        "A2 credits",
        "jackpot drops of the hands",
        "jackpot awards booked (BB5, HM3)",
    }

    # The chart of rake by hour and table adds up to the tables' rake.
    [chart] = data["charts"]
    assert chart["key"] == "rake_by_hour" and len(chart["x"]) == 24
    assert chart["x"][0] == "06"
    per_table = {s["name"]: sum(s["values"]) for s in chart["series"]}
    assert per_table == {code: row["rake"] for code, row in tables.items()}
    assert Report.objects.get(pk=body["id"]).digest == body["digest"]


def test_the_audit_flags_a_figure_the_ledger_and_records_disagree_on(
    played_day, auditor
):
    """A posting into a rake box that no hand made: the A1 rake check disagrees."""
    from accounting import chart
    from accounting.services import Leg, transaction_post

    transaction_post(
        kind="hand",
        legs=[
            Leg(chart.table_rake_box(table="A1"), 700),
            Leg(chart.rake_revenue(), -700),
        ],
        source="test",
        posted_at=local(DAY, 23),
    )
    data = audit(auditor)["data"]
    failed = [c for c in rows_of(data, "checks") if not c["agrees"]]
    assert [(c["check"], c["difference"]) for c in failed] == [("A1 rake", 700)]
    assert Report.objects.get().checks_failed == 1


def test_the_next_audit_continues_from_the_last_and_flags_a_posting_dated_into_it(
    played_day, auditor, manager, clock
):
    """The next day's audit reads only its own entries: its openings come from the
    cached balances and must equal the closings the day before's audit stored. A
    posting dated into an audited day after its audit breaks that continuity."""
    from django.contrib.auth.models import User

    from accounting import chart
    from accounting.models import Cage
    from accounting.services import Leg, cage, transaction_post

    first = audit(auditor)
    closed = {
        r["account"]: r["closing"] for r in rows_of(first["data"], "trial_balance")
    }
    next_day = DAY + timedelta(days=1)
    clock.now = local(next_day, 10)
    cage.cage_vault_fund(
        cage=Cage.objects.get(code="MAIN"),
        cash_cents=5_000,
        chips_cents=0,
        by=User.objects.get(username="manager"),
    )
    clock.now = local(next_day + timedelta(days=1), 7)
    # A day later the morning's bearer tokens have expired: log in afresh.
    for client, name in ((auditor, "audrey"), (manager, "manager")):
        client.credentials()
        client.force_authenticate(User.objects.get(username=name))

    def audit_of_next_day(client, **extra) -> dict[str, Any]:
        made = client.post(
            "/api/v1/reports/",
            {"kind": "daily_audit", "first": next_day.isoformat(), **extra},
            format="json",
        )
        assert made.status_code == 201, made.content
        return client.get(f"/api/v1/reports/{made.json()['report']['id']}").json()

    body = audit_of_next_day(auditor)
    data = body["data"]
    assert body["checks_failed"] == 0, [
        c for c in rows_of(data, "checks") if not c["agrees"]
    ]
    section = next(s for s in data["sections"] if s["key"] == "trial_balance")
    assert f"#{first['id']} " in section["note"]
    end = local(next_day + timedelta(days=1), 6)
    ledger = Ledger()
    trial = by(rows_of(data, "trial_balance"), "account")
    accounts = {a.code: a.type for a in Account.objects.all()}
    for code, row in trial.items():
        assert row["previous_closing"] == closed.get(code, 0), code
        assert row["opening"] == row["previous_closing"], code
        raw = sum(r[5] for r in ledger.rows if r[0] == code and r[4] < end)
        assert row["closing"] == (raw if accounts[code] in DEBIT_NORMAL else -raw)
    assert trial["cage:MAIN:cash"]["debits"] == 5_000
    assert trial["equity:house_capital"]["credits"] == 5_000

    transaction_post(
        kind="hand",
        legs=[
            Leg(chart.table_rake_box(table="A1"), 700),
            Leg(chart.rake_revenue(), -700),
        ],
        source="test",
        posted_at=local(DAY, 23),
    )
    again = audit_of_next_day(manager, new_version=True, reason="late posting")
    failed = {
        c["check"]: c["difference"]
        for c in rows_of(again["data"], "checks")
        if not c["agrees"]
    }
    assert failed == {
        "table:A1:rake_box opening = previous closing": 700,
        "revenue:rake opening = previous closing": 700,
        "EUR openings = previous closings (Σ of balances)": 1_400,
    }
