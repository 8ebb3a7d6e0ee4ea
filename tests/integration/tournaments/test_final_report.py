"""The event's final report tells the whole story (TO1, TO3, TO5–TO10).

A bounty event of four €135 entries (€100 to the pool, €10 fee, €5 staff fee, €20
bounty): half an entry refunded while it plays, two colour-up races (one giving a
chip so no one is raced out), two busts, a deal between the last two sharing their
bounties otherwise than their heads, the payout sheet with both deal prizes held:
one released and paid, the other forfeited to the house. Every figure below was
worked out by hand from those numbers, not read from the code.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pypdfium2
import pytest
from django.template.loader import render_to_string
from django.utils import translation

from accounting.services.cage import gaming_day_of
from core.roles import Role
from reports.builders import daily_audit
from reports.builders.tournaments import event_report
from reports.document import rows_of, section_of
from reports.render import render
from reports.selectors import Period
from tests.conftest import ROOM_EVENING
from tournaments import services
from tournaments.models import Entry, Event, Payout
from tournaments.services import BustIn
from tournaments.services.deals import deal_approve
from tournaments.services.payouts import payout_forfeit

from .conftest import make_event

pytestmark = pytest.mark.django_db

PRICE = 10_000 + 1_000 + 500 + 2_000  # pool, fee, staff fee, bounty
# TO10: €50 of a €135 entry, pro rata by the largest remainder: 3,703.70 / 370.37 /
# 185.19 / 740.74 → 3,703 / 370 / 185 / 740 and the two cents left go to the largest
# remainders, the bounty's .74 and the pool's .70.
PART = (3_704, 370, 185, 741)
POOL = 4 * 10_000 - 3_704  # 36,296
# TO7: 50/30/20 of 36,296 to the cent: 18,148 / 10,888.8 / 7,259.2 → 18,148, 10,888,
# 7,259, and the cent left to the top: 18,149.
THIRD = 7_259
DEALT = POOL - THIRD  # 29,037 for the first two places
AGREED = {"A": 17_037, "B": 12_000}
# TO8: A's own €20 and B's €20 less the €7.41 refunded, 3,259, shared evenly.
HEADS = {"A": 1_630, "B": 1_629}


def _at(minutes: int):
    return ROOM_EVENING + timedelta(minutes=minutes)


def _local(minutes: int) -> str:
    return _at(minutes).isoformat(sep=" ", timespec="seconds")


@pytest.fixture
def played(room, structure, cage, shift, cashier, manager, floor_person, players):
    """The event played to its end; its entries by letter."""
    event = make_event(
        room,
        structure,
        bounty_kind=Event.Bounty.STANDARD,
        bounty_cents=2_000,
        payout_unit_cents=1,
        payout_table=[
            {"min_entries": 1, "shares": [10_000]},
            {"min_entries": 3, "shares": [5_000, 3_000, 2_000]},
        ],
    )
    who = {}
    for letter, player in zip("ABCD", players[:4], strict=True):
        who[letter] = services.entry_register(
            event=event, player=player.code, cage="MAIN", cashier=cashier
        )
    services.event_start(event=event)
    event.refresh_from_db()

    no = who["B"].purchases.get().receipt.no
    services.refund_approve(
        event=event,
        receipt=no,
        by=manager,
        reason="Dealer short: half back",
        amount_cents=5_000,
        at=_at(10),
    )
    services.refund_pay(
        event=event, receipt=no, cage="MAIN", cashier=cashier, at=_at(11)
    )

    # TO6: at TT1 the 25s race: seat 1's 50 wins the 100, seat 2's 75 (all he has)
    # would leave him nothing, so he gets a 100 too: 75 chips given. At TT2 seat 2's
    # 75 wins, seat 1's 75 is removed, 25 of seat 2's too: 50 out of play.
    services.chip_race_record(
        event=event,
        table="TT1",
        denomination=25,
        new_denomination=100,
        stacks={"1": 20_050, "2": 75, "3": 20_000},
        retired={"1": 2, "2": 3},
        race_order=["1", "2"],
        by=floor_person,
        at=_at(20),
    )
    services.chip_race_record(
        event=event,
        table="TT2",
        denomination=25,
        new_denomination=100,
        stacks={"1": 20_075, "2": 75},
        retired={"1": 3, "2": 3},
        race_order=["2", "1"],
        by=floor_person,
        at=_at(21),
    )
    for hand, loser in (("h1", "D"), ("h2", "C")):
        services.busts_record(
            event=event,
            hand=hand,
            busts=[BustIn(who[loser], 5_000, [who["A"]])],
            by=floor_person,
        )
    # TO3: 80,000 issued + 75 given − 50 removed = 80,025, counted table by table.
    stacks = {"A": 55_025, "B": 25_000}
    for e in (who["A"], who["B"]):
        e.refresh_from_db()
    by_table: dict[str, int] = {}
    for letter in "AB":
        by_table[who[letter].table] = (
            by_table.get(who[letter].table, 0) + (stacks[letter])
        )
    for n, (table, chips) in enumerate(sorted(by_table.items())):
        services.chip_count_record(
            event=event, chips=chips, table=table, by=floor_person, at=_at(30 + n)
        )

    a, b = who["A"].pk, who["B"].pk
    deal = services.deal_propose(
        event=event,
        method="custom",
        stacks={a: stacks["A"], b: stacks["B"]},
        button_order=[a, b],
        amounts={a: AGREED["A"], b: AGREED["B"]},
        bounties={a: HEADS["A"], b: HEADS["B"]},
        by=floor_person,
        at=_at(40),
    )
    for e in (who["A"], who["B"]):
        deal = services.deal_sign(
            deal=deal, entry=e, witnessed_by=floor_person, at=_at(41)
        )
    deal_approve(deal=deal, by=manager, at=_at(42))

    sheet = services.payout_sheet_prepare(
        event=event,
        by=floor_person,
        holds={a: "absent at the end", b: "absent at the end"},
        at=_at(50),
    )
    services.payout_sheet_approve(sheet=sheet, by=manager, at=_at(51))
    line = {p.entry_id: p for p in Payout.objects.filter(sheet=sheet)}
    services.payout_release(
        payout=line[a], by=manager, reason="came back with his passport", at=_at(60)
    )
    payout_forfeit(
        payout=line[b],
        by=manager,
        reason="not claimed in 30 days",
        destination="house",
        at=_at(61),
    )
    for e in (who["A"], who["C"]):
        services.payout_pay(
            payout=Payout.objects.get(sheet=sheet, entry=e),
            cage="MAIN",
            cashier=cashier,
            player=e.player.code,
            player_signed=True,
        )
    event.refresh_from_db()
    return event, who, no


def test_the_final_report_tells_the_whole_story(played):
    event, who, sold_on = played
    code = {letter: e.player.code for letter, e in who.items()}
    with translation.override("en"):
        report = event_report(event=event, now=_at(120))

    checks = rows_of(report, "checks")
    assert checks and all(c["agrees"] for c in checks), [
        c for c in checks if not c["agrees"]
    ]
    by_check = {c["check"]: c for c in checks}
    # TO8, TO10: the bounty pool less the refund's bounty part (741), not the
    # purchase's 2,000: 8,000 in − 4,000 at the busts − 3,259 in the deal − 741.
    assert by_check["bounty pool = bounties in − paid − refunded"]["records"] == 0
    assert by_check["refunds out of the prize pool"]["ledger"] == 3_704
    assert by_check["prizes forfeited = out of the held account"]["records"] == 12_000

    money = {r["line"]: r["amount"] for r in rows_of(report, "prize_pool")}
    assert money == {
        "sold": 40_000,
        "refunded": -3_704,
        "buy_ins": POOL,
        "overlay": 0,
        "pool": POOL,
        "held_now": 0,
        "fees": 4_000 - 370,
        "staff_fees": 2_000 - 185,
        "bounties": 8_000 - 741,
    }
    entries = {r["kind"]: r for r in rows_of(report, "entries")}
    assert entries["buy-in"]["count"] == 4
    assert entries["buy-in"]["prize_pool"] == 40_000

    (refund,) = rows_of(report, "refunds")
    assert refund["receipt"] != sold_on and refund["purchase_receipt"] == sold_on
    assert (refund["entry"], refund["player"], refund["purchase"]) == (
        f"#{who['B'].number}",
        code["B"],
        "buy-in",
    )
    parts = (refund["prize_pool"], refund["fee"], refund["staff_fee"])
    assert (refund["amount"], *parts, refund["bounty"]) == (5_000, *PART)
    assert refund["left"] == PRICE - 5_000
    assert (refund["approved_by"], refund["paid_by"]) == ("mia", "kalle")
    assert refund["reason"] == "Dealer short: half back"
    assert refund["at"] == _local(11)

    payouts = {r["player"]: r for r in rows_of(report, "payouts")}
    assert {p: r["amount"] for p, r in payouts.items()} == {
        code["A"]: AGREED["A"],
        code["B"]: AGREED["B"],
        code["C"]: THIRD,
    }
    released, forfeited, third = (
        payouts[code["A"]],
        payouts[code["B"]],
        payouts[code["C"]],
    )
    assert (released["status"], released["decision"]) == (
        "paid",
        "released to the cage",
    )
    assert released["hold_reason"] == "absent at the end"
    assert (released["decided_by"], released["decided_at"]) == ("mia", _local(60))
    assert released["decision_reason"] == "came back with his passport"
    assert released["receipt"].startswith("MAIN-") and not released["forfeited_to"]
    assert (forfeited["status"], forfeited["decision"]) == ("forfeited", "forfeited")
    assert (forfeited["decided_by"], forfeited["decided_at"]) == ("mia", _local(61))
    assert forfeited["decision_reason"] == "not claimed in 30 days"
    assert forfeited["forfeited_to"] == "house revenue" and not forfeited["receipt"]
    assert (third["status"], third["decision"], third["place"]) == ("paid", "", "3")

    (deal,) = rows_of(report, "deals")
    assert (deal["method"], deal["status"]) == ("agreed figures", "approved")
    assert (deal["pool"], deal["left_in_play"], deal["bounties"]) == (DEALT, 0, 3_259)
    assert (deal["recorded_by"], deal["recorded_at"]) == ("fred", _local(40))
    assert (deal["signed_at"], deal["approved_at"]) == (_local(41), _local(42))
    assert deal["approved_by"] == "mia"
    players = {r["player"]: r for r in rows_of(report, "deal")}
    assert {p: (r["chips"], r["agreed"], r["bounty"]) for p, r in players.items()} == {
        code["A"]: (55_025, AGREED["A"], HEADS["A"]),
        code["B"]: (25_000, AGREED["B"], HEADS["B"]),
    }
    assert all(r["signed"] and r["witnessed_by"] == "fred" for r in players.values())
    assert all(r["chip_chop"] + r["icm"] > 0 for r in players.values())
    assert "approved by mia" in section_of(report, "deal")["note"]

    bounties = rows_of(report, "bounties")
    assert sorted((b["winner"], b["reason"], b["paid"]) for b in bounties) == sorted(
        [
            (code["A"], "bust", 2_000),
            (code["A"], "bust", 2_000),
            (code["A"], "deal", HEADS["A"]),
            (code["B"], "deal", HEADS["B"]),
        ]
    )

    chips = {(r["line"], r["cause"]): r["chips"] for r in rows_of(report, "chips")}
    assert chips[("chips issued", "entry")] == 80_000
    assert chips[("chips issued", "race_minimum")] == 75
    assert chips[("chips removed", "race")] == 50
    assert chips[("in play", "")] == chips[("counted", "")] == 80_025
    assert chips[("difference", "")] == 0
    (balance,) = rows_of(report, "chip_balance")
    assert (balance["issued"], balance["removed"], balance["balanced"]) == (
        80_075,
        50,
        True,
    )
    tables = {who["A"].table, who["B"].table}
    counts = rows_of(report, "chip_counts")
    assert {c["table"] for c in counts} == tables
    assert sum(c["chips"] for c in counts) == 80_025
    assert balance["counted_at"] == _local(30) and not balance["whole_field"]
    races = {r["table"]: r for r in rows_of(report, "races")}
    assert (races["TT1"]["removed"], races["TT1"]["added"]) == (0, 75)
    assert (races["TT1"]["winners"], races["TT1"]["given"]) == ("1", "2")
    assert (races["TT2"]["removed"], races["TT2"]["added"]) == (50, 0)
    assert (
        races["TT2"]["denomination"] == 25 and races["TT2"]["new_denomination"] == 100
    )


def test_the_final_report_as_files(played, staff_client):
    """The auditor's CSV keeps cents; the PDF writes them as money, in each language."""
    event, _who, _no = played
    auditor = staff_client(Role.AUDITOR, username="aud")
    answer = auditor.get(f"/api/v1/reports/tournaments/{event.code}/csv")
    assert answer.status_code == 200
    lines = list(csv.reader(io.StringIO(answer.content.decode())))
    refund_header = next(i for i, line in enumerate(lines) if "refunds" in line[1:2])
    header, row = lines[refund_header + 1], lines[refund_header + 2]
    assert row[header.index("amount (cents)")] == "5000"
    assert row[header.index("bounty (cents)")] == "741"

    for language in ("en", "fi", "ko"):
        with translation.override(language):
            report = event_report(event=event, now=_at(120))
            pdf = pypdfium2.PdfDocument(render(report, "pdf", meta={}))
            text = "".join(
                pdf[n].get_textpage().get_text_range() for n in range(len(pdf))
            )
            refunds = translation.gettext("Refunds (TO10)")
        assert refunds in text
        # Cents written as money, as the report's language writes it (core.money).
        decimal = "," if language == "fi" else "."
        assert "3,704.00" not in text and f"37{decimal}04" in text
        assert f"170{decimal}37" in text  # the released prize
        assert "Every reconciliation check agrees." in text or language != "en"


def test_a_refund_receipt_shows_its_own_parts(played):
    """TO10: the printed receipt of a partial refund shows what it gave back of
    each part, and what the purchase cost."""
    event, who, _no = played
    refund = who["B"].purchases.get().refunds.get()
    with translation.override("en"):
        printed = render_to_string(
            "accounting/receipt.html", {"receipt": refund.receipt}
        )
    assert "refund of" in printed and "Dealer short: half back" in printed
    for cents in (5_000, *PART, PRICE):
        assert f"€{cents // 100:,}.{cents % 100:02d}" in printed, cents
    assert "€100.00" not in printed  # not the purchase's buy-in
    assert "Part of a purchase of" in printed
    entry = who["A"].purchases.get().receipt
    sold = render_to_string("accounting/receipt.html", {"receipt": entry})
    assert "€100.00" in sold and "Part of a purchase of" not in sold
    assert Entry.objects.filter(event=event, status="refunded").count() == 0


def test_the_daily_audit_takes_a_partial_refund_out_of_the_pool_by_its_part(played):
    """TO10: the audit's check of the refunds out of the pool reads the refund's
    prize-pool part (37.04), not the purchase's (100.00)."""
    event, _who, _no = played
    period = Period.of(event.room, gaming_day_of(_at(0)))
    with translation.override("en"):
        audit = daily_audit(period=period, now=_at(120))
    (row,) = rows_of(audit, "tournaments")
    assert (row["event"], row["entries"], row["refunds"]) == (event.code, 4, 1)
    assert row["pool_in"] == 40_000 and row["pool_closing"] == 0
    checks = {
        c["check"]: c
        for c in rows_of(audit, "checks")
        if c["check"].startswith(event.code)
    }
    refunds = checks[f"{event.code} refunds out of the prize pool"]
    assert (refunds["records"], refunds["ledger"], refunds["agrees"]) == (
        3_704,
        3_704,
        True,
    )
    assert all(c["agrees"] for c in checks.values())
