"""The manager's screens with Django's test client: each decision through its
service, booked once per form, four eyes refused in words (DC2, BB5, CA1), and the
terminals' keys (shown once, revoked)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.test import Client

from accounting.models import Payable, Shift
from accounting.services import cage as cage_services
from cardroom import services as floor_services
from cardroom.models import (
    Correction,
    HandVoid,
    SeatSession,
    StackReview,
    TerminalKey,
)
from core.roles import Role
from jackpots import services as jackpot_services
from jackpots.models import Award, Hit, Month
from tests.api.floor.test_stack_reviews import frozen, t01
from tests.api.floor.test_voids import raked
from tests.api.jackpots.conftest import (
    clock,
    dealer,
    manager,
    open_table,
    players,
    pools,
    stock_tray,
)
from tests.conftest import PASSWORD

__all__ = [
    "clock",
    "dealer",
    "frozen",
    "manager",
    "open_table",
    "players",
    "pools",
    "raked",
    "stock_tray",
    "t01",
]

pytestmark = pytest.mark.django_db


def text(page) -> str:
    return page.content.decode()


def form_of(page, action: str) -> dict[str, str]:
    """The idempotency key of the form posting to ``action`` on ``page``."""
    found = re.search(
        rf'<form method="post" action="{re.escape(action)}"[^>]*>.*?'
        r'name="once" value="([^"]+)"',
        text(page),
        re.S,
    )
    assert found, f"no form to {action} with a key"
    return {"once": found.group(1)}


def browser(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


@pytest.fixture
def table(open_table, players) -> str:
    """T01 open, nobody seated: enough for a correction or a terminal key."""
    open_table("T01")
    return "T01"


@pytest.fixture
def mia(make_staff):
    return make_staff("mia", Role.MANAGER)


@pytest.fixture
def mats(make_staff):
    return make_staff("mats", Role.MANAGER)


def test_a_manager_lands_on_the_approvals_and_no_one_else_gets_in(
    mia, make_staff, cage
):
    """After signing in a manager is on his inbox; a cashier or the floor get 403."""
    answer = Client().post("/login", {"username": "mia", "password": PASSWORD})
    assert (answer.status_code, answer["Location"]) == (302, "/manager/")
    assert "Nothing is waiting for your approval." in text(
        browser(mia).get("/manager/")
    )
    for role in (Role.CASHIER, Role.FLOOR):
        other = browser(make_staff(f"x-{role.value}", role))
        assert other.get("/manager/").status_code == 403
        assert other.get("/manager/keys").status_code == 403
    assert Client().get("/manager/")["Location"].startswith("/login")


def receivable(by, player: str, amount: int, reason: str) -> Correction:
    """A receivable asked for at T01 (DC3): ``player`` owes the house ``amount``."""
    return floor_services.correction_request(
        kind=Correction.Kind.RECEIVABLE,
        table_code="T01",
        amount=amount,
        reason=reason,
        by=by,
        from_player=player,
    )


def test_a_correction_is_approved_by_another_manager_once(table, mia, mats):
    """DC2: the manager who asked is refused in words; another approves, and the
    same form sent twice books one transaction; a rejection books nothing."""
    correction = receivable(mia, "P-1", 12_345, "marker for a rebuy")
    action = f"/manager/corrections/{correction.pk}"
    own = browser(mia)
    page = own.get("/manager/")
    assert "€123.45" in text(page) and "marker for a rebuy" in text(page)
    refused = own.post(action, form_of(page, action) | {"decision": "approve"})
    assert "DC2: corrections of money need two different staff." in text(
        own.get(refused["Location"])
    )
    correction.refresh_from_db()
    assert correction.status == Correction.Status.PENDING
    other = browser(mats)
    form = form_of(other.get("/manager/"), action) | {"decision": "approve"}
    first, again = other.post(action, form), other.post(action, form)
    assert first["Location"] == again["Location"] == "/manager/"
    correction.refresh_from_db()
    assert correction.status == Correction.Status.APPROVED
    assert correction.ledger_transaction is not None
    assert "it was decided once" in text(other.get("/manager/"))
    typo = receivable(mia, "P-2", 5_000, "typo")
    action = f"/manager/corrections/{typo.pk}"
    other.post(action, form_of(other.get("/manager/"), action) | {"decision": "reject"})
    typo.refresh_from_db()
    assert (typo.status, typo.ledger_transaction) == (Correction.Status.REJECTED, None)


def test_the_void_of_a_raked_hand_is_approved_by_another_manager(raked, mia, mats):
    """RK8: the manager who asked for the void is refused in words; another
    approves and the hand is voided."""
    void = floor_services.hand_void(
        table_code="BIG", hand_no=1, reason="duplicate_card", by=mia
    )
    assert void.status == HandVoid.Status.PENDING
    action = f"/manager/voids/{void.pk}"
    own = browser(mia)
    page = own.get("/manager/")
    assert "duplicate card" in text(page) and "€5.00" in text(page)
    refused = own.post(action, form_of(page, action) | {"decision": "approve"})
    assert "RK8: the void of a raked hand is approved by another person" in text(
        own.get(refused["Location"])
    )
    other = browser(mats)
    other.post(
        action, form_of(other.get("/manager/"), action) | {"decision": "approve"}
    )
    void.refresh_from_db()
    assert void.status == HandVoid.Status.BOOKED and void.ledger_transaction


def test_the_void_of_a_corrected_hand_shows_what_it_reverses(raked, mia, mats):
    """RK8, DC2: the manager decides the void with the hand's booked corrections
    in view; approving it reverses them with the hand."""
    rich, poor = (
        SeatSession.objects.filter(table__code="BIG", ended_at__isnull=True)
        .select_related("player")
        .order_by("-stack_cents", "seat")[:2]
    )
    correction = floor_services.correction_request(
        kind="pot_correction",
        table_code="BIG",
        hand_no=1,
        from_player=rich.player.code,
        to_player=poor.player.code,
        amount=150,
        reason="the dealer pushed the pot to the wrong seat",
        by=mia,
    )
    floor_services.correction_decide(correction=correction, approve=True, by=mats)
    void = floor_services.hand_void(
        table_code="BIG", hand_no=1, reason="duplicate_card", by=mia
    )
    page = text(browser(mats).get("/manager/"))
    shown = f"pot correction €1.50 {rich.player.code} → {poor.player.code}"
    assert shown in page
    action = f"/manager/voids/{void.pk}"
    other = browser(mats)
    other.post(
        action, form_of(other.get("/manager/"), action) | {"decision": "approve"}
    )
    void.refresh_from_db()
    assert void.status == HandVoid.Status.BOOKED
    # Every contribution back, the corrected chips too: the buy-ins again.
    assert dict(
        SeatSession.objects.filter(
            table__code="BIG", ended_at__isnull=True
        ).values_list("seat", "stack_cents")
    ) == {1: 20_000, 2: 10_000, 3: 20_000, 4: 20_000, 5: 20_000, 6: 20_000}


def test_a_stack_review_is_approved_by_another_than_who_proposed(frozen, mia, mats):
    """HS6: the proposer is refused in words; another manager approves the release
    and it is booked."""
    floor_services.stack_review_propose(
        review=frozen, resolution="release", reason="counted again: his", by=mia
    )
    action = f"/manager/stack-reviews/{frozen.pk}"
    own = browser(mia)
    page = own.get("/manager/")
    assert "€10.00" in text(page) and "counted again: his" in text(page)
    refused = own.post(action, form_of(page, action))
    assert "HS6: a stack review is approved by another person (DC2)." in text(
        own.get(refused["Location"])
    )
    other = browser(mats)
    other.post(action, form_of(other.get("/manager/"), action))
    frozen.refresh_from_db()
    assert frozen.status == StackReview.Status.RESOLVED and frozen.approved_by == mats


@pytest.fixture
def hit(dealer, mia) -> Hit:
    """A bad beat at T01 (aces full lose to four tens), verified by mia."""
    hand = dealer.bad_beat()
    [found] = jackpot_services.hand_qualify(hand_id=hand.pk)
    return jackpot_services.hit_verify(hit=found, by=mia, note="camera 3")


def test_a_hit_is_approved_after_a_confirm_step_by_another_manager(
    pools, hit, mia, mats
):
    """BB5, BB6: the hands drawn with suits in their colours, each share in euros
    adding up to what the hit pays, no raw JSON. Approving asks once more and books
    nothing until confirmed; the verifier is refused in words; another manager's
    confirmation books the awards once and makes them payable at the cage."""
    shown = text(browser(mats).get(f"/manager/hits/{hit.pk}"))
    assert '<span class="playing-card black" title="As">A♠</span>' in shown
    assert '<span class="playing-card red" title="Ad">A♦</span>' in shown
    assert '<span class="playing-card red" title="Th">10♥</span>' in shown
    assert "'cards'" not in shown and '"hole"' not in shown
    awards = list(hit.awards.order_by("position"))
    assert sum(a.amount_cents for a in awards) == hit.payout_cents > 0
    for award in awards:
        amount = f"€{award.amount_cents // 100:,}.{award.amount_cents % 100:02d}"
        assert amount in shown
    assert "losing hand" in shown and "table share" in shown and "shared by" in shown
    confirm_url = f"/manager/hits/{hit.pk}/approve"
    own = browser(mia)
    page = own.get(confirm_url)
    assert "Yes, approve and book" in text(page)
    assert Hit.objects.get(pk=hit.pk).status == Hit.Status.VERIFIED
    refused = own.post(confirm_url, form_of(page, confirm_url))
    assert refused["Location"] == f"/manager/hits/{hit.pk}"
    assert "BB5: the manager approving a hit is not the one who verified it." in text(
        own.get(refused["Location"])
    )
    other = browser(mats)
    form = form_of(other.get(confirm_url), confirm_url)
    other.post(confirm_url, form)
    other.post(confirm_url, form)
    hit.refresh_from_db()
    assert hit.status == Hit.Status.APPROVED and hit.approved_by == mats
    assert set(hit.awards.values_list("status", flat=True)) == {Award.Status.APPROVED}
    assert Payable.objects.filter(jackpot_award__hit=hit).count() == hit.awards.count()


def test_a_hit_is_rejected_only_with_a_reason(pools, hit, mats):
    """BB5: a rejection records why; without one it is refused and nothing changes.
    The hit and the inbox in the room's other languages, money their way."""
    first = hit.awards.order_by("position").first()
    euros, cents = divmod(first.amount_cents, 100)
    fi = text(browser(mats, "fi").get(f"/manager/hits/{hit.pk}"))
    assert f"{euros},{cents:02d}\xa0€" in fi and "jaettuna 4 kesken" in fi
    assert "Hyväksy…" in fi and "hävinnyt käsi" in fi and "pöydän osuus" in fi
    ko = text(browser(mats, "ko").get("/manager/"))
    assert "잭팟 적중" in ko and "적중 보기" in ko and "확인됨, 승인 대기" in ko
    client = browser(mats)
    url = f"/manager/hits/{hit.pk}/reject"
    page = client.get(f"/manager/hits/{hit.pk}")
    refused = client.post(url, form_of(page, url) | {"reason": " "})
    assert "BB5: a rejected hit records why." in text(client.get(refused["Location"]))
    assert Hit.objects.get(pk=hit.pk).status == Hit.Status.VERIFIED
    page = client.get(f"/manager/hits/{hit.pk}")
    client.post(url, form_of(page, url) | {"reason": "cards exposed early"})
    hit.refresh_from_db()
    assert (hit.status, hit.rejection_reason) == (
        Hit.Status.REJECTED,
        "cards exposed early",
    )
    answer = client.get(f"/manager/hits/{hit.pk}/approve")
    assert answer["Location"] == f"/manager/hits/{hit.pk}"


@pytest.fixture
def october(pools, dealer, clock, mia) -> Month:
    """October closed by mia with one hand of the month (a royal flush at T01)."""
    pools["month"].starts_on = date(2026, 10, 1)
    pools["month"].save(update_fields=["starts_on"])
    clock.set("2026-10-10T21:00")
    dealer.deal("Ac Kc Qc 5s 2d", {3: "Jc Tc", 4: "Ks Kd"})
    clock.set("2026-11-01T12:00")
    return jackpot_services.month_close(
        pool=pools["month"], month=date(2026, 10, 1), by=mia, source="by hand"
    )


def test_a_month_is_approved_by_another_manager_than_who_closed_it(october, mia, mats):
    """HM3: who closed the month is refused in words; a rejection needs a reason;
    another manager approves and the awards are booked."""
    assert october.status == Month.Status.PENDING
    action = f"/manager/months/{october.pk}"
    own = browser(mia)
    page = own.get("/manager/")
    assert "2026-10" in text(page)
    refused = own.post(action, form_of(page, action) | {"decision": "approve"})
    assert "HM3" in text(own.get(refused["Location"]))
    other = browser(mats)
    page = other.get("/manager/")
    refused = other.post(action, form_of(page, action) | {"decision": "reject"})
    assert "HM3: a rejection records why." in text(other.get(refused["Location"]))
    page = other.get("/manager/")
    other.post(action, form_of(page, action) | {"decision": "approve"})
    october.refresh_from_db()
    assert october.status == Month.Status.APPROVED
    assert set(october.awards.values_list("status", flat=True)) == {
        Award.Status.APPROVED
    }


def test_a_short_shift_is_signed_off_by_another_person(cage, make_staff, mats):
    """CA1: the over/short and the cashier's note are shown; the cashier can't sign
    off his own shift even as a manager; another manager closes it."""
    kalle = make_staff("kalle", Role.CASHIER, Role.MANAGER)
    shift = cage_services.shift_open(
        cage=cage, cashier=kalle, cash_cents=500_000, chips_cents=500_000
    )
    shift = cage_services.shift_close(
        shift=shift, cashier=kalle, cash_cents=497_000, chips_cents=500_000
    )
    assert shift.status == Shift.Status.PENDING_SIGN_OFF
    action = f"/manager/shifts/{shift.pk}/sign-off"
    own = browser(kalle)
    page = own.get("/manager/")
    assert "-€30.00" in text(page)
    refused = own.post(action, form_of(page, action))
    assert "CA1: a cashier can&#x27;t sign off his own shift" in text(
        own.get(refused["Location"])
    )
    other = browser(mats)
    other.post(action, form_of(other.get("/manager/"), action) | {"reason": "seen"})
    shift.refresh_from_db()
    assert (shift.status, shift.signed_off_by, shift.sign_off_note) == (
        Shift.Status.CLOSED,
        mats,
        "seen",
    )


def secret_on(page) -> str | None:
    found = re.search(r'<code class="secret">([^<]+)</code>', text(page))
    return found.group(1) if found else None


def test_a_terminal_key_is_shown_once_listed_and_revoked(table, mats):
    """API.md: the new key is on the page the form leads to and nowhere after;
    revoking it is confirmed first, final, and the terminal is refused from then
    on."""
    client = browser(mats)
    form = form_of(client.get("/manager/keys"), "/manager/keys")
    created = client.post("/manager/keys", form | {"table": "T01", "name": "tablet 1"})
    assert (created.status_code, created["Location"]) == (302, "/manager/keys")
    shown = client.get("/manager/keys")
    assert shown["Cache-Control"] == "no-store"
    key = secret_on(shown)
    row = TerminalKey.objects.get(name="tablet 1")
    assert key and key.startswith(row.prefix) and row.is_valid(key)
    listed = client.get("/manager/keys")
    assert row.prefix in text(listed) and "tablet 1" in text(listed)
    assert key not in text(listed) and secret_on(listed) is None
    terminal = Client(HTTP_AUTHORIZATION=f"Api-Key {key}")
    assert terminal.get("/api/v1/tables/T01/seats").status_code == 200

    # Revoking asks first: the list links to a confirmation, and a POST without
    # it only asks again.
    action = f"/manager/keys/{row.prefix}/revoke"
    assert f'href="{action}"' in text(listed)
    asked = client.post(action)
    assert asked.status_code == 200 and "Revoke the key" in text(asked)
    assert not TerminalKey.objects.get(pk=row.pk).revoked
    confirm = client.get(action)
    assert "tablet 1" in text(confirm) and 'value="revoke"' in text(confirm)
    assert terminal.get("/api/v1/tables/T01/seats").status_code == 200
    done = client.post(action, {"confirm": "revoke"})
    assert done["Location"] == "/manager/keys"
    assert TerminalKey.objects.get(pk=row.pk).revoked
    assert terminal.get("/api/v1/tables/T01/seats").status_code == 401
    again = client.post(action, {"confirm": "revoke"}, follow=True)
    assert "revoked already" in text(again)
    fresh = form_of(client.get("/manager/keys"), "/manager/keys")
    refused = client.post("/manager/keys", fresh | {"table": "X"}, follow=True)
    assert "Choose the table" in text(refused)


def test_a_new_key_sent_twice_or_reloaded_makes_one_key(table, mats):
    """A double submit or the browser sending the POST again makes one key, shown
    once; a reload of the page that showed it shows the list, and a form without
    its one-time key makes none."""
    client = browser(mats)
    before = TerminalKey.objects.count()
    form = form_of(client.get("/manager/keys"), "/manager/keys")
    body = form | {"table": "T01", "name": "tablet 2"}
    first = client.post("/manager/keys", body)
    second = client.post("/manager/keys", body)
    assert first["Location"] == second["Location"] == "/manager/keys"
    assert TerminalKey.objects.filter(name="tablet 2").count() == 1
    assert TerminalKey.objects.count() == before + 1
    page = client.get("/manager/keys")
    assert secret_on(page) is not None
    assert "This form was already sent: its key was made once" in text(page)
    reloaded = client.get("/manager/keys")
    assert secret_on(reloaded) is None
    no_key = client.post("/manager/keys", {"table": "T01"}, follow=True)
    assert "This form has expired" in text(no_key)
    assert TerminalKey.objects.count() == before + 1
