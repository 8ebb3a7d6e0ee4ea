"""Two different people for money, over the API (DESIGN.md, DC2, BB5, HM3, CA3, CA6).

Already covered elsewhere, and not repeated here:

- DC2, a pot correction approved by who asked for it (tests/api/floor/
  test_corrections.py::test_pot_correction_needs_a_second_person);
- BB5, the manager who verified a hit approving it (tests/api/jackpots/
  test_end_to_end.py::test_the_manager_who_verified_can_not_approve);
- CA1, a cashier-manager signing off his own shift (tests/api/cage/
  test_shift_flow.py::test_a_cashier_who_is_also_a_manager_cant_sign_off_his_own_
  shift);
- CA3, the floor person who signed a fill issuing it; CA6, a cashier paying an
  award he approved, the award made in the cage by the service (tests/api/cage/
  test_refusals.py).

Here: the other kinds of money correction (a held pot, its release, a receivable),
a manager who asks for a correction (he has the floor's rights), the person who
closed a month approving it (HM3), a credit received by who signed it (CA3), and
the jackpot payout end to end: the manager who approved a hit or a month can't pay
its award at the cage, another cashier can (BB5, HM3, CA6). Each refusal names its
rule and writes nothing.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User

from accounting.models import Payable, Receipt, Transaction
from cardroom.models import Correction
from core.roles import Role
from jackpots import services as jackpots
from jackpots.models import Hit, Month
from tests.api.floor.conftest import post_hand
from tests.api.floor.test_hands import heads_up

pytestmark = pytest.mark.django_db


def refused(answer, rule: str, code: str) -> None:
    assert answer.status_code == 422, answer.content
    error = answer.json()["error"]
    assert (error["rule"], error["code"]) == (rule, code), error


def ask(client, **body):
    body = {"table": "T01", "reason": "ruling on camera", **body}
    answer = client.post("/api/v1/corrections", body, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


@pytest.fixture
def floors(staff_client):
    return {
        "anna": staff_client(Role.FLOOR, username="anna"),
        "ben": staff_client(Role.FLOOR, username="ben"),
        "boss": staff_client(Role.MANAGER, username="boss"),
    }


@pytest.mark.parametrize("asker", ["anna", "boss"])
@pytest.mark.parametrize("kind", ["hold", "release", "receivable"])
def test_no_money_correction_is_approved_by_who_asked_for_it(t01, floors, kind, asker):
    """DC2: held pots, releases and receivables need a second person too, even
    when a manager asked."""
    post_hand(t01, "T01", heads_up())
    body = {
        "hold": {"kind": "hold", "hand_no": 1, "from_player": "P-1", "amount": 4_000},
        "release": {"kind": "release", "to_player": "P-2", "amount": 4_000},
        "receivable": {
            "kind": "receivable",
            "from_player": "P-1",
            "to_player": "P-2",
            "amount": 1_000,
        },
    }[kind]
    if kind == "release":
        hold = ask(
            floors["ben"], kind="hold", hand_no=1, from_player="P-1", amount=4_000
        )
        other = "anna" if asker == "boss" else "boss"
        decided = floors[other].post(f"/api/v1/corrections/{hold}/approve")
        assert decided.status_code == 200, decided.content
        body["held"] = hold
    cid = ask(floors[asker], **body)
    before = Transaction.objects.count()
    refused(
        floors[asker].post(f"/api/v1/corrections/{cid}/approve"), "DC2", "four_eyes"
    )
    assert Transaction.objects.count() == before
    assert Correction.objects.get(pk=cid).status == Correction.Status.PENDING
    approver = "ben" if asker != "ben" else "anna"
    approved = floors[approver].post(f"/api/v1/corrections/{cid}/approve")
    assert approved.status_code == 200, approved.content
    assert Transaction.objects.count() == before + 1


def test_the_floor_person_who_signed_a_credit_cannot_receive_it(
    clock, open_table, staff_client
):
    """CA3: a credit, like a fill, is signed by one person and received by another."""
    open_table("T01")
    both = staff_client(Role.CASHIER, Role.FLOOR, username="bea")
    opened = both.post(
        "/api/v1/cage/shifts", {"cage": "MAIN", "cash": 0, "chips": 0}, format="json"
    )
    assert opened.status_code == 201, opened.content
    slip = both.post(
        "/api/v1/cage/credits",
        {"cage": "MAIN", "table": "T01", "amount": 10_000},
        format="json",
    ).json()["id"]
    before = Transaction.objects.count()
    refused(both.post(f"/api/v1/cage/credits/{slip}/issue"), "CA3", "same_person")
    assert Transaction.objects.count() == before
    cashier = staff_client(Role.CASHIER, username="carl")
    cashier.post(
        "/api/v1/cage/shifts", {"cage": "MAIN", "cash": 0, "chips": 0}, format="json"
    )
    issued = cashier.post(f"/api/v1/cage/credits/{slip}/issue")
    assert issued.status_code == 200, issued.content


def test_the_manager_who_closed_a_month_cannot_approve_it(
    pools, dealer, clock, staff_client
):
    """HM3: the person who closed a month by hand doesn't approve its awards."""
    pools["month"].starts_on = date(2026, 10, 1)
    pools["month"].save(update_fields=["starts_on"])
    clock.set("2026-10-10T21:00")
    dealer.deal("Ac Kc Qc 5s 2d", {3: "Jc Tc", 4: "Ks Kd"})
    clock.set("2026-11-01T12:00")
    boss = staff_client(Role.MANAGER, username="boss")
    month = jackpots.month_close(
        pool=pools["month"],
        month=date(2026, 10, 1),
        by=User.objects.get(username="boss"),
        source="close_month command",
    )
    before = Transaction.objects.count()
    url = f"/api/v1/jackpots/months/{month.pk}/approve"
    refused(boss.post(url), "HM3", "four_eyes")
    assert Transaction.objects.count() == before
    assert Month.objects.get(pk=month.pk).status == Month.Status.PENDING
    other = staff_client(Role.MANAGER, username="mats")
    assert other.post(url).status_code == 200


def pay(client, payable: Payable):
    return client.post(
        f"/api/v1/cage/payables/{payable.pk}/pay",
        {"cage": "MAIN", "player": payable.player.code, "player_signed": True},
        format="json",
    )


def open_shift(client) -> None:
    answer = client.post(
        "/api/v1/cage/shifts",
        {"cage": "MAIN", "cash": 1_000_000, "chips": 0},
        format="json",
    )
    assert answer.status_code == 201, answer.content


@pytest.mark.parametrize("jackpot", ["bad beat", "hand of the month"])
def test_the_manager_who_approved_a_jackpot_cannot_pay_it_out(
    jackpot,
    pools,
    dealer,
    clock,
    staff_client,
    sweep,
):
    """BB5, HM3, CA6: a manager who is also a cashier approves a jackpot; its
    awards are paid by another cashier, never by him."""
    boss = staff_client(Role.MANAGER, Role.CASHIER, username="boss")
    if jackpot == "bad beat":
        dealer.bad_beat()
        sweep()
        hit = Hit.objects.get()
        floor = staff_client(Role.FLOOR, username="fiona")
        assert floor.post(f"/api/v1/jackpots/hits/{hit.pk}/verify").status_code == 200
        approved = boss.post(f"/api/v1/jackpots/hits/{hit.pk}/approve")
    else:
        pools["month"].starts_on = date(2026, 10, 1)
        pools["month"].save(update_fields=["starts_on"])
        clock.set("2026-10-10T21:00")
        dealer.deal("Ac Kc Qc 5s 2d", {3: "Jc Tc", 4: "Ks Kd"})
        clock.set("2026-11-01T12:00")
        [month] = jackpots.months_close_due()
        approved = boss.post(f"/api/v1/jackpots/months/{month.pk}/approve")
    assert approved.status_code == 200, approved.content
    payables = list(Payable.objects.select_related("player").order_by("pk"))
    assert payables
    open_shift(boss)
    before = (Transaction.objects.count(), Receipt.objects.count())
    for payable in payables:
        refused(pay(boss, payable), "CA6", "four_eyes")
    assert (Transaction.objects.count(), Receipt.objects.count()) == before
    assert not Payable.objects.filter(status=Payable.Status.PAID).exists()
    cashier = staff_client(Role.CASHIER, username="carl")
    open_shift(cashier)
    for payable in payables:
        assert pay(cashier, payable).status_code == 201
