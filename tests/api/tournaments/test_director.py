"""The director's doors (TO3, TO5, TO6, TO8, TO9): a deal offered, proposed,
signed by every player and approved by a second person, its bounties as it says;
a colour-up with its race; chips removed and a disqualification; held prizes
released or forfeited by two people. Exact amounts, every refusal with its rule,
strict input, idempotent retries, the books balanced and the pools empty."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounting.models import Transaction
from accounting.selectors import trial_balance
from core.errors import Refusal
from core.roles import Role
from tests.api.cage.conftest import post
from tests.conftest import PASSWORD
from tests.integration.tournaments.conftest import make_event
from tournaments import chart, selectors, services
from tournaments.domain.deals import icm
from tournaments.models import (
    BountyPayment,
    ChipMovement,
    ChipRace,
    Deal,
    Entry,
    Payout,
)
from tournaments.services import BustIn

pytestmark = pytest.mark.django_db

PAYOUT_TABLE = [
    {"min_entries": 1, "shares": [10_000]},
    {"min_entries": 4, "shares": [6_000, 3_000, 1_000]},
]


def client_for(user) -> APIClient:
    client = APIClient()
    answer = client.post(
        "/api/v1/auth/login",
        {"username": user.username, "password": PASSWORD},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {answer.json()['token']}")
    return client


def get(client: APIClient, path: str):
    return client.get(f"/api/v1/{path}")


def error(answer) -> tuple[int, str, str | None]:
    body = answer.json()["error"]
    return answer.status_code, body["code"], body.get("rule")


def books_balanced(event) -> None:
    assert trial_balance().balanced
    for account in (
        chart.prize_pool(event=event.code, currency="EUR"),
        chart.bounty_pool(event=event.code, currency="EUR"),
        chart.held_prizes(event=event.code, currency="EUR"),
    ):
        account.refresh_from_db()
        assert account.balance_cents == 0, account.code


@pytest.fixture
def people(manager, floor_person, make_staff):
    """The floor (fred), a manager (mia) and a second manager (max)."""
    second = make_staff("max", Role.MANAGER)
    return {
        "floor": client_for(floor_person),
        "mia": client_for(manager),
        "max": client_for(second),
        "users": {"floor": floor_person, "mia": manager, "max": second},
    }


@pytest.fixture
def final(room, structure, cage, shift, cashier, players, floor_person):
    """A bounty event of four entries (€100 + €10 + €5 + €20 bounty), started; entry
    4 busted by entry 1, who won his €20 bounty: three left, €60 on their heads."""
    event = make_event(
        room,
        structure,
        code="final",
        bounty_kind="standard",
        bounty_cents=2_000,
        payout_table=PAYOUT_TABLE,
    )
    entries = [
        services.entry_register(
            event=event, player=p.code, cage="MAIN", cashier=cashier
        )
        for p in players[:4]
    ]
    services.event_start(event=event)
    services.busts_record(
        event=event,
        hand="TT1#9",
        busts=[BustIn(entries[3], 20_000, (entries[0],))],
        by=floor_person,
    )
    event.refresh_from_db()
    return event


STACKS = {"1": 50_000, "2": 20_000, "3": 10_000}


def propose(client, body: dict[str, Any] | None = None, key: str | None = None):
    deal = {
        "method": "custom",
        "stacks": STACKS,
        "button_order": [2, 3, 1],
        "amounts": {"1": 20_000, "2": 12_000, "3": 8_000},
        "bounties": {"1": 3_000, "2": 3_000, "3": 0},
    }
    return post(client, "tournaments/final/deals", {**deal, **(body or {})}, key=key)


# --- TO5, TO8: deals ------------------------------------------------------------------


def test_the_deal_figures_side_by_side_by_entry_number(final, people):
    """TO5: chip chop (each the last prize, the rest by chips) and ICM, keyed by
    entry number, adding up to the prizes left; nothing written."""
    before = Transaction.objects.count(), Deal.objects.count()
    answer = post(
        people["floor"], "tournaments/final/deals/offers", {"stacks": STACKS}, key="o"
    )
    assert answer.status_code == 200, answer.content
    figures = answer.json()
    # €400 of buy-ins: 60/30/10 % = 240/120/40; chip chop: €40 each, then the €280
    # left as 5:2:1.
    assert figures["prizes"] == [24_000, 12_000, 4_000]
    assert figures["chip_chop"] == {"1": 21_500, "2": 11_000, "3": 7_500}
    entries = {e.number: e.pk for e in Entry.objects.filter(event=final)}
    exact = icm(
        {entries[int(k)]: v for k, v in STACKS.items()},
        [24_000, 12_000, 4_000],
        unit=500,
    )
    assert figures["icm"] == {str(n): exact[pk] for n, pk in entries.items() if n < 4}
    assert sum(figures["icm"].values()) == 40_000
    assert (Transaction.objects.count(), Deal.objects.count()) == before
    missing = post(
        people["floor"],
        "tournaments/final/deals/offers",
        {"stacks": {"1": 50_000, "2": 30_000}},
    )
    assert error(missing) == (422, "deal_incomplete", "TO5")
    assert missing.json()["error"]["allowed"] == {"entries": [1, 2, 3]}
    busted = post(
        people["floor"],
        "tournaments/final/deals/offers",
        {"stacks": {**STACKS, "4": 1}},
    )
    assert error(busted) == (422, "deal_incomplete", "TO5")
    # A key that is no entry number names no player left: the schema can't say
    # what keys may be, so it is refused by the rule, not as malformed.
    named = post(
        people["floor"],
        "tournaments/final/deals/offers",
        {"stacks": {"one": 1, "2": 2, "3": 3}},
    )
    assert error(named) == (422, "deal_incomplete", "TO5")
    assert named.json()["error"]["allowed"] == {"entries": [1, 2, 3]}
    for wrong in (
        {"stacks": {**STACKS, "1": "50000"}},
        {"stacks": {**STACKS, "1": 50_000.0}},
        {"stacks": STACKS, "prizes": [1]},
    ):
        answer = post(people["floor"], "tournaments/final/deals/offers", wrong)
        assert answer.status_code == 400, wrong
    assert (
        post(
            client_for(people["users"]["floor"]), "tournaments/final/deals/offers", {}
        ).status_code
        == 400
    )


def test_a_deal_signed_by_every_player_binds_only_once_a_second_person_approves(
    final, people, manager
):
    """TO5: every player left signs (witnessed by the floor), then a manager who
    didn't record it approves; only then the event ends, places by chips, and the
    bounties on the heads go as the deal says (TO8), not to the biggest stack."""
    proposed = propose(people["floor"], key="d-1")
    assert proposed.status_code == 201, proposed.content
    deal = proposed.json()
    assert deal["status"] == "proposed" and deal["to_sign"] == [1, 2, 3]
    assert deal["amounts"] == {"1": 20_000, "2": 12_000, "3": 8_000}
    assert deal["bounties"] == {"1": 3_000, "2": 3_000}
    assert deal["offers"]["chip_chop"] == {"1": 21_500, "2": 11_000, "3": 7_500}
    assert deal["button_order"] == [2, 3, 1] and deal["pool"] == 40_000
    again = propose(people["floor"], key="d-1")
    assert again.status_code == 201 and again.json() == deal
    assert Deal.objects.count() == 1
    assert get(people["floor"], f"tournaments/final/deals/{deal['id']}").json() == deal

    path = f"tournaments/final/deals/{deal['id']}"
    early = post(people["mia"], f"{path}/approve", key="a-0")
    assert error(early) == (422, "deal_not_signed", "TO5")
    signed = post(people["floor"], f"{path}/signatures", {"entry": 1}, key="s-1")
    assert signed.status_code == 201 and signed.json()["to_sign"] == [2, 3]
    replay = post(people["floor"], f"{path}/signatures", {"entry": 1}, key="s-1")
    assert replay.json() == signed.json()
    twice = post(people["floor"], f"{path}/signatures", {"entry": 1})
    assert error(twice) == (409, "already_signed", None)
    outsider = post(people["floor"], f"{path}/signatures", {"entry": 4})
    assert error(outsider) == (422, "not_in_deal", "TO5")
    assert (
        post(people["floor"], f"{path}/signatures", {"entry": "2"}).status_code == 400
    )
    assert post(people["floor"], f"{path}/signatures", {"entry": 99}).status_code == 404
    for number in (2, 3):
        answer = post(people["floor"], f"{path}/signatures", {"entry": number})
        assert answer.status_code == 201
    assert answer.json()["status"] == "signed"
    # Signed is not binding: nobody has finished, no bounty is paid, no sheet.
    assert Entry.objects.filter(event=final, status="active").count() == 3
    assert not BountyPayment.objects.filter(reason="deal").exists()
    assert post(people["floor"], f"{path}/approve").status_code == 403

    approved = post(people["mia"], f"{path}/approve", key="a-1")
    assert approved.status_code == 200, approved.content
    assert approved.json()["status"] == "approved"
    assert approved.json()["approved_by"] == manager.username
    assert post(people["mia"], f"{path}/approve", key="a-1").json() == approved.json()
    assert error(post(people["max"], f"{path}/approve")) == (409, "deal_approved", None)
    places = dict(Entry.objects.filter(event=final).values_list("number", "place"))
    assert places == {1: 1, 2: 2, 3: 3, 4: 4}
    # TO8: the €60 on the heads as agreed: €30 and €30, none to entry 3.
    paid = dict(
        BountyPayment.objects.filter(reason="deal").values_list(
            "winner__number", "amount_cents"
        )
    )
    assert paid == {1: 3_000, 2: 3_000}
    assert chart.bounty_pool(event="final", currency="EUR").balance_cents == 0

    sheet = services.payout_sheet_prepare(event=final, by=people["users"]["floor"])
    lines = dict(sheet.lines.values_list("entry__number", "amount_cents"))
    assert lines == {1: 20_000, 2: 12_000, 3: 8_000}
    services.payout_sheet_approve(sheet=sheet, by=people["users"]["max"])
    books_balanced(final)


@pytest.mark.parametrize(
    ("change", "code", "rule"),
    [
        (
            {"stacks": {"one": 50_000, "2": 20_000, "3": 10_000}},
            "deal_incomplete",
            "TO5",
        ),
        ({"stacks": {**STACKS, "01": 1}}, "deal_incomplete", "TO5"),
        ({"amounts": {"1": 20_000, "2": 12_000, "9": 8_000}}, "deal_incomplete", "TO5"),
        ({"amounts": {"1": 20_000, "2": 20_000}}, "deal_incomplete", "TO5"),
        ({"button_order": [2, 3, 9]}, "button_order", "TO5"),
        ({"button_order": [2, 3]}, "button_order", "TO5"),
        ({"button_order": [2, 3, 1, 1]}, "button_order", "TO5"),
        ({"bounties": {"x": 6_000}}, "deal_bounties", "TO8"),
    ],
)
def test_a_deal_naming_other_players_than_those_left_is_refused_by_its_rule(
    final, people, change, code, rule
):
    """TO5: the deal names every player left, and only them, in its stacks, its
    amounts and its order from the button; TO8: its bounties go to them. A key or
    a number the schema allows that names no player left was answered 400 (as
    malformed) or 400 for the order; it is the rule's refusal, with the entries
    left."""
    answer = propose(people["floor"], change)
    assert error(answer) == (422, code, rule), answer.content
    if rule == "TO5":
        assert answer.json()["error"]["allowed"] == {"entries": [1, 2, 3]}
    assert not Deal.objects.exists()


def test_a_deal_keeps_each_bounty_on_its_head_by_default_and_refuses_others(
    final, people
):
    """TO8: without a split each player's own bounty is his; a split must add up to
    the heads, name only the deal's players, and play going on leaves them on."""
    refused = propose(people["floor"], {"bounties": {"1": 3_000, "2": 2_000}})
    assert error(refused) == (422, "deal_bounties", "TO8")
    assert refused.json()["error"]["allowed"] == {"total": 6_000}
    playing_on = propose(
        people["floor"],
        {"amounts": {"1": 18_000, "2": 12_000, "3": 8_000}, "left_in_play": 2_000},
    )
    assert error(playing_on) == (422, "deal_bounties", "TO8")
    short = propose(people["floor"], {"amounts": {"1": 1, "2": 1, "3": 1}})
    assert error(short) == (422, "deal_does_not_add_up", "TO5")
    assert short.json()["error"]["allowed"] == {"total": 40_000}
    outsider = propose(people["floor"], {"bounties": {"4": 6_000}})
    assert error(outsider) == (422, "deal_bounties", "TO8")
    for wrong in ({"amounts": {"1": 20_000.0}}, {"deal": 1}, {"method": "split"}):
        assert propose(people["floor"], wrong).status_code == 400, wrong
    assert not Deal.objects.exists()

    deal = propose(people["mia"], {"bounties": None}, key="d").json()
    assert deal["bounties"] == {"1": 2_000, "2": 2_000, "3": 2_000}
    path = f"tournaments/final/deals/{deal['id']}"
    for number in (1, 2, 3):
        post(people["floor"], f"{path}/signatures", {"entry": number})
    # Four eyes (TO5): who recorded the deal doesn't approve it.
    assert error(post(people["mia"], f"{path}/approve")) == (422, "four_eyes", "TO5")
    assert Deal.objects.get().status == "signed"
    assert error(propose(people["floor"])) == (409, "deal_binding", None)
    # No payout sheet while the signed deal waits for its approval.
    with pytest.raises(Refusal) as waiting:
        services.payout_sheet_prepare(event=final, by=people["users"]["floor"])
    assert waiting.value.rule == "TO7"  # entries still play until it is approved
    assert post(people["max"], f"{path}/approve").status_code == 200
    paid = dict(
        BountyPayment.objects.filter(reason="deal").values_list(
            "winner__number", "amount_cents"
        )
    )
    assert paid == {1: 2_000, 2: 2_000, 3: 2_000}
    assert chart.bounty_pool(event="final", currency="EUR").balance_cents == 0


# --- TO6: colour-up and race ----------------------------------------------------------


def test_a_race_drawn_by_cards_and_nobody_raced_out(final, people):
    """TO6: the 25s coloured up to 100 at TT1: 175 in odd chips buy one 100, won by
    the ace; seat 6 had only a 25 and lost: he gets a 100 all the same (TDA R26-A),
    and the chips that adds are recorded as a cause of their own (TO3)."""
    body = {
        "table": "TT1",
        "denomination": 25,
        "new_denomination": 100,
        "seats": [
            {"seat": 1, "stack": 40_075, "retired": 3},
            {"seat": 4, "stack": 19_975, "retired": 3},
            {"seat": 6, "stack": 25, "retired": 1},
        ],
        "cards": {"1": "Kd", "4": "As", "6": "Ks"},
    }
    answer = post(people["floor"], "tournaments/final/races", body, key="r-1")
    assert answer.status_code == 201, answer.content
    race = answer.json()
    seats = {s["seat"]: s for s in race["seats"]}
    assert race["order"] == [4, 6, 1]
    assert (seats[4]["after"], seats[4]["won"]) == (20_000, True)
    assert (seats[6]["after"], seats[6]["won"], seats[6]["given"]) == (100, False, True)
    assert (seats[1]["after"], seats[1]["won"]) == (40_000, False)
    assert (race["removed"], race["added"]) == (0, 25)
    assert seats[6]["card"] == "Ks"
    replay = post(people["floor"], "tournaments/final/races", body, key="r-1")
    assert replay.json() == race and ChipRace.objects.count() == 1
    moved = ChipMovement.objects.get(cause="race_minimum")
    assert moved.chips == 25
    report = selectors.chip_reconciliation(event=final, counted=80_025).reconciliation
    assert report.issued["race_minimum"] == 25 and report.balanced

    seeded = {**body, "table": "TT2", "cards": None}
    seeded.pop("cards")
    drawn = post(people["floor"], "tournaments/final/races", {**seeded, "seed": 7})
    assert drawn.status_code == 201
    assert drawn.json()["seed"] == 7
    assert all(s["card"] for s in drawn.json()["seats"])


def test_a_race_the_rule_refuses_is_answered_with_the_rule(final, people):
    """TO6: every seat with odd chips races once; TO3: at a table of the event;
    the order is given one way only; strict numbers."""
    base = {
        "table": "TT1",
        "denomination": 25,
        "new_denomination": 100,
        "seats": [
            {"seat": 1, "stack": 40_075, "retired": 3},
            {"seat": 4, "stack": 20_050, "retired": 2},
        ],
    }
    before = ChipRace.objects.count(), ChipMovement.objects.count()
    missing = post(
        people["floor"], "tournaments/final/races", {**base, "race_order": [1]}
    )
    assert error(missing) == (422, "race_refused", "TO6")
    elsewhere = {**base, "table": "T99", "race_order": [1, 4]}
    answer = post(people["floor"], "tournaments/final/races", elsewhere)
    assert error(answer) == (422, "not_an_event_table", "TO3")
    both = {**base, "race_order": [1, 4], "seed": 3}
    assert error(post(people["floor"], "tournaments/final/races", both))[0] == 400
    same = {**base, "cards": {"1": "Ah", "4": "Ah"}}
    assert error(post(people["floor"], "tournaments/final/races", same))[:2] == (
        422,
        "race_refused",
    )
    # A seat listed twice, or a card drawn by a seat not listed: fields that
    # don't go together, which the schema can't state (TO6, 422).
    twice = {**base, "race_order": [1, 4], "seats": [base["seats"][0]] * 2}
    answer = post(people["floor"], "tournaments/final/races", twice)
    assert error(answer) == (422, "race_seats", "TO6")
    assert answer.json()["error"]["allowed"] == {"seats": [1, 1]}
    for cards in (
        {"1": "Ah", "5": "Kd"},
        {"1": "Ah", "one": "Kd"},
        {"1": "Ah"} | {"01": "Kd"},
    ):
        answer = post(
            people["floor"], "tournaments/final/races", {**base, "cards": cards}
        )
        assert error(answer) == (422, "race_seats", "TO6"), cards
    for wrong in (
        {**base, "race_order": [1, 4], "denomination": "25"},
        {**base, "race_order": [1, 4], "colour": "red"},
        {**base, "race_order": [1, 4], "seats": [{**base["seats"][0], "x": 1}]},
        {**base, "cards": {"1": "1h", "4": "Ah"}},
    ):
        assert (
            post(people["floor"], "tournaments/final/races", wrong).status_code == 400
        )
    assert (ChipRace.objects.count(), ChipMovement.objects.count()) == before
    assert post(people["mia"], "tournaments/final/races", {}).status_code == 400


# --- TO3: removals and disqualification -----------------------------------------------


def test_chips_removed_for_a_cause_and_a_disqualification(final, people):
    """TO3: hidden chips need a note; an unknown cause is refused; a disqualified
    player's stack leaves play for that cause; a second time is a conflict."""
    path = "tournaments/final/chips/removals"
    no_note = post(people["floor"], path, {"cause": "hidden", "chips": 500})
    assert error(no_note) == (422, "note_required", "TO3")
    assert post(people["floor"], path, {"cause": "lost", "chips": 5}).status_code == 400
    assert post(people["floor"], path, {"cause": "race", "chips": 5}).status_code == 400
    assert (
        post(people["floor"], path, {"cause": "penalty", "chips": "5"}).status_code
        == 400
    )
    body = {
        "cause": "hidden",
        "chips": 500,
        "note": "kept behind his cards",
        "entry": 2,
    }
    removed = post(people["floor"], path, body, key="rm")
    assert removed.status_code == 201, removed.content
    assert removed.json()["chips"] == 500 and removed.json()["entry"] == 2
    assert post(people["floor"], path, body, key="rm").json() == removed.json()
    assert ChipMovement.objects.filter(cause="hidden").count() == 1

    dq = "tournaments/final/entries/3/disqualify"
    assert post(people["floor"], dq, {"reason": " "}).status_code == 400
    answer = post(
        people["floor"], dq, {"reason": "collusion", "stack": 10_000}, key="q"
    )
    assert answer.status_code == 200, answer.content
    assert answer.json() == {
        "entry": 3,
        "player": Entry.objects.get(event=final, number=3).player.code,
        "status": "disqualified",
        "place": None,
    }
    again = post(people["floor"], dq, {"reason": "collusion", "stack": 10_000}, key="q")
    assert again.json() == answer.json()
    assert error(post(people["floor"], dq, {"reason": "twice"})) == (
        409,
        "entry_closed",
        None,
    )
    assert ChipMovement.objects.get(cause="disqualification").chips == -10_000
    count = 80_000 - 500 - 10_000
    assert selectors.chip_reconciliation(
        event=final, counted=count
    ).reconciliation.balanced


# --- TO9: held prizes released or forfeited -------------------------------------------


@pytest.fixture
def held(final, people):
    """Entries 2 and 3 out in one hand; entry 1 wins. The sheet, prepared by the
    manager max, holds the prizes of entries 1 and 2; mia approves it."""
    entries = {e.number: e for e in Entry.objects.filter(event=final)}
    services.busts_record(
        event=final,
        hand="TT1#40",
        busts=[
            BustIn(entries[2], 20_000, (entries[1],)),
            BustIn(entries[3], 10_000, (entries[1],)),
        ],
        by=people["users"]["floor"],
    )
    sheet = services.payout_sheet_prepare(
        event=final,
        by=people["users"]["max"],
        holds={entries[1].pk: "absent at the end", entries[2].pk: "no ID"},
    )
    services.payout_sheet_approve(sheet=sheet, by=people["users"]["mia"])
    return {line.entry.number: line for line in Payout.objects.select_related("entry")}


def test_a_held_prize_forfeited_to_the_house_by_a_second_person(final, people, held):
    """TO9: forfeited by a manager who didn't prepare the sheet, saying why, one
    posting out of the held account into the house's revenue; released likewise;
    the held account and the pools end empty."""
    first, second = held[1], held[2]
    assert (first.amount_cents, second.amount_cents) == (24_000, 12_000)
    path = f"tournaments/final/payouts/{first.pk}/forfeit"
    body = {"reason": "not claimed within 30 days", "destination": "house"}
    assert post(people["floor"], path, body).status_code == 403
    assert error(post(people["max"], path, body)) == (422, "four_eyes", "TO9")
    assert post(people["mia"], path, {**body, "reason": ""}).status_code == 400
    assert (
        post(people["mia"], path, {**body, "destination": "charity"}).status_code == 400
    )
    assert post(people["mia"], path, {**body, "pool": "bad-beat"}).status_code == 400
    assert (
        post(people["mia"], path, {**body, "destination": "jackpot"}).status_code == 400
    )
    nowhere = post(people["mia"], path, {**body, "destination": "jackpot", "pool": "x"})
    assert error(nowhere) == (422, "no_such_pool", "TO9")
    assert Payout.objects.get(pk=first.pk).status == "held"

    revenue = chart.fee_revenue(currency="EUR").balance_cents
    forfeited = post(people["mia"], path, body, key="f-1")
    assert forfeited.status_code == 200, forfeited.content
    assert forfeited.json()["status"] == "forfeited"
    assert forfeited.json()["forfeit_destination"] == "house"
    assert post(people["mia"], path, body, key="f-1").json() == forfeited.json()
    assert error(post(people["mia"], path, body)) == (409, "not_held", None)
    line = Payout.objects.get(pk=first.pk)
    assert line.forfeit_transaction.kind == "tournament_forfeit"
    assert line.forfeited_by.username == "mia"
    assert chart.fee_revenue(currency="EUR").balance_cents == revenue + 24_000
    assert chart.held_prizes(event="final", currency="EUR").balance_cents == 12_000

    release = f"tournaments/final/payouts/{second.pk}/release"
    assert error(post(people["max"], release, {"reason": "back"})) == (
        422,
        "four_eyes",
        "TO9",
    )
    released = post(people["mia"], release, {"reason": "came back with ID"}, key="r")
    assert released.status_code == 200 and released.json()["status"] == "payable"
    assert error(
        post(people["mia"], f"tournaments/final/payouts/{second.pk}/forfeit", body)
    ) == (409, "not_held", None)
    books_balanced(final)


def test_a_held_prize_forfeited_to_a_jackpot_pool(final, people, held, room):
    """TO9, JD5: forfeited into the room's jackpot pool, held in trust for players."""
    from jackpots.services.pools import pool_create

    pool = pool_create(
        room=room, code="bad-beat", name="Bad beat", kind="bad_beat", by=None
    )
    path = f"tournaments/final/payouts/{held[2].pk}/forfeit"
    body = {"reason": "house rule 12", "destination": "jackpot", "pool": "bad-beat"}
    answer = post(people["mia"], path, body, key="j")
    assert answer.status_code == 200, answer.content
    assert (answer.json()["forfeit_destination"], answer.json()["forfeit_pool"]) == (
        "jackpot",
        "bad-beat",
    )
    pool.account.refresh_from_db()
    assert pool.account.balance_cents == 12_000
    assert trial_balance().balanced
