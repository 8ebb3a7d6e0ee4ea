"""A promotion's prize on the staff screens beside the bad-beat hits, with Django's
test client (PR2, PR3, PR5, CA6, PP6): the floor finds it on its home screen and
verifies it on its page, the winning hands drawn as cards; a manager, another
person, approves it after a confirm step or rejects it with a reason, each form
booking once and each refusal said in words; the cage pays the award named in the
cashier's language and holds a barred player's."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from django.test import Client
from django.utils import translation

from accounting.models import Cage, Payable
from accounting.selectors import trial_balance
from accounting.services import cage as cage_services
from accounting.services.cage import restriction_set
from cardroom.models import Hand
from cardroom.services import room_default
from core.roles import Role
from jackpots import services as jackpot_services
from jackpots.models import Award, Promotion, PromotionPrize
from staff.manager.prizes import period_words
from tests.api.floor.conftest import HELSINKI
from tests.api.jackpots.conftest import (
    clock,
    dealer,
    manager,
    open_table,
    players,
    pools,
    stock_tray,
    sweep,
)

__all__ = [
    "clock",
    "dealer",
    "manager",
    "open_table",
    "players",
    "pools",
    "stock_tray",
    "sweep",
]

pytestmark = pytest.mark.django_db

HOUSE = 10_000  # €100 from the house each period
PERCENT = 50  # and half of what the pool holds free


def text(page) -> str:
    return page.content.decode()


def key_of(page, action: str) -> dict[str, str]:
    """The one-time key of the form posting to ``action`` on ``page``."""
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


def messages_of(answer) -> list[str]:
    return [str(m) for m in answer.context["messages"]]


def euros(cents: int) -> str:
    return f"€{cents // 100:,}.{cents % 100:02d}"


@pytest.fixture
def boss(make_staff):
    return make_staff("promoter", Role.MANAGER)


@pytest.fixture
def fred(make_staff):
    return make_staff("fred", Role.FLOOR)


@pytest.fixture
def mia(make_staff):
    return make_staff("mia", Role.MANAGER)


@pytest.fixture
def mats(make_staff):
    return make_staff("mats", Role.MANAGER)


@pytest.fixture
def high_hand(pools, clock, boss) -> Promotion:
    """An hourly high hand from 21:00, room time: €100 from the house and half the
    pool, which takes one part of each drop (PR1, PR2)."""
    clock.set("2026-11-29T21:00")
    return jackpot_services.promotion_create(
        room=room_default(),
        code="high-hand",
        name="Hourly high hand",
        rules={
            "kind": "high_hand",
            "games": ["NLHE"],
            "min_hand": ["As", "Ah", "Ad", "Ks", "Kh"],
            "card_use": {"hole_cards": 2, "quads_pocket_pair": True},
            "min_dealt_in": 4,
            "period_minutes": 60,
            "carry_over": True,
            "prize": {"fixed": HOUSE, "pool_percent": PERCENT, "funding": "both"},
        },
        by=boss,
        drop_ratio=1,
    )


@pytest.fixture
def period(high_hand, dealer, clock, sweep) -> PromotionPrize:
    """21:00–22:00: aces full at 21:05, then four nines at 21:20 and again at 21:30
    (seats 1 and 3): the two equal best hands share the period (PR2); closed at
    22:01, pending."""
    clock.set("2026-11-29T21:05")
    dealer.deal("Ac Kc Kd 7s 3d", {1: "As Ad", 2: "Qh 4d"})
    clock.set("2026-11-29T21:20")
    dealer.deal("9c 9d 2h Ks 3c", {1: "9s 9h", 2: "As Kd"})
    clock.set("2026-11-29T21:30")
    dealer.deal("9c 9d 2h Ks 3c", {3: "9s 9h", 4: "As Kd"})
    sweep()
    clock.set("2026-11-29T22:01")
    (prize,) = jackpot_services.periods_close_due()
    assert prize.status == PromotionPrize.Status.PENDING
    assert prize.house_cents == HOUSE and prize.pool_cents > 0
    return prize


def test_the_floor_verifies_a_prize_on_its_page_and_another_manager_approves(
    period, fred, mia
):
    """PR5: the floor's home lists the prize; its page draws both winning hands as
    cards with their boards, says the period in room time and each award with
    where its money comes from; the floor verifies it once and can't approve;
    another manager approves after a confirm step and the awards are payable."""
    floor = browser(fred)
    page_url = f"/manager/prizes/{period.pk}"
    verify_url = f"{page_url}/verify"
    home = text(floor.get("/floor/"))
    assert f'href="{page_url}"' in home and "Promotion prizes to verify" in home
    assert f"Prize {period.pk} of Hourly high hand" in home

    page = floor.get(page_url)
    shown = text(page)
    assert f"Prize {period.pk} of Hourly high hand" in shown
    assert "high hand" in shown and "waiting for verification" in shown
    assert "Nov 29, 2026, 9:00\u2009–\u200910:00\u202fPM" in shown
    assert '<span class="playing-card black" title="9s">9♠</span>' in shown
    assert '<span class="playing-card red" title="9h">9♥</span>' in shown
    assert '<span class="playing-card red" title="9d">9♦</span>' in shown  # board
    assert shown.count("four of a kind, nines") == 2
    assert "T01#2" in shown and "T01#3" in shown and "tabled 9:20\u202fPM" in shown
    assert "'cards'" not in shown and '"hole"' not in shown
    awards = list(period.awards.select_related("player").order_by("position"))
    assert [a.player.code for a in awards] == ["P-1", "P-3"]
    total = period.house_cents + period.pool_cents
    assert sum(a.amount_cents for a in awards) == total
    for award in awards:
        assert euros(award.amount_cents) in shown
    assert euros(HOUSE) in shown and euros(period.pool_cents) in shown
    assert "the house and the pool" in shown and "shared by 2" in shown
    assert "Verify the prize" in shown
    assert f"{page_url}/approve" not in shown
    assert 'href="/manager/"' not in shown  # the floor's navigation

    form = {**key_of(page, verify_url), "note": "cards and camera 3 checked"}
    answer = floor.post(verify_url, form)
    assert (answer.status_code, answer["Location"]) == (302, page_url)
    after = floor.get(page_url)
    assert messages_of(after) == [
        f"Prize {period.pk} verified; a manager, another person, approves it."
    ]
    assert "Verify the prize" not in text(after)
    assert "Verified by fred: cards and camera 3 checked" in text(after)
    period.refresh_from_db()
    assert (period.status, period.verified_by, period.verification_note) == (
        PromotionPrize.Status.VERIFIED,
        fred,
        "cards and camera 3 checked",
    )
    again = floor.post(verify_url, form, follow=True)
    assert messages_of(again) == ["This form was already sent; it was decided once."]
    fresh = floor.post(verify_url, {"once": "fresh-1", "note": "x"}, follow=True)
    (said,) = messages_of(fresh)
    assert said.startswith("PR5:"), said
    assert floor.get(f"{page_url}/approve").status_code == 403
    assert floor.post(f"{page_url}/reject", {"once": "r"}).status_code == 403

    # The inbox lists it beside the hits; a manager approves after a confirm step.
    boss = browser(mia)
    inbox = text(boss.get("/manager/"))
    row = inbox[inbox.index(f'data-prize="{period.pk}"') :]
    assert "Hourly high hand" in row and euros(total) in row
    assert "verified by fred" in row and f'href="{page_url}"' in row
    assert "Nothing is waiting for your approval." not in inbox
    confirm_url = f"{page_url}/approve"
    confirm = boss.get(confirm_url)
    assert f"Approve prize {period.pk} and make {euros(total)} payable?" in text(
        confirm
    )
    assert PromotionPrize.objects.get(pk=period.pk).status == "verified"
    form = key_of(confirm, confirm_url)
    done = boss.post(confirm_url, form, follow=True)
    assert messages_of(done) == [
        f"Prize {period.pk} approved: its awards are payable at the cage."
    ]
    boss.post(confirm_url, form)  # a double click books once
    period.refresh_from_db()
    assert period.status == PromotionPrize.Status.APPROVED
    assert period.approved_by == mia
    assert set(period.awards.values_list("status", flat=True)) == {"approved"}
    assert Payable.objects.filter(jackpot_award__prize=period).count() == 2
    assert trial_balance().balanced
    shown = text(boss.get(page_url))
    assert "Approved by mia." in shown and "approved and booked" in shown
    assert f'data-prize="{period.pk}"' not in text(boss.get("/manager/"))
    assert boss.get(confirm_url)["Location"] == page_url  # decided: shown as is


def test_the_manager_who_verified_is_refused_the_approval_in_words(
    period, mia, mats, make_staff
):
    """PR5, four eyes: the verifier is offered no approval and refused if he
    asks; a cashier gets no page; an unknown prize is 404."""
    own = browser(mia)
    page_url = f"/manager/prizes/{period.pk}"
    own.post(f"{page_url}/verify", key_of(own.get(page_url), f"{page_url}/verify"))
    shown = text(own.get(page_url))
    assert "PR5: you verified this prize; another manager approves it." in shown
    assert f'href="{page_url}/approve"' not in shown
    confirm_url = f"{page_url}/approve"
    refused = own.post(confirm_url, key_of(own.get(confirm_url), confirm_url))
    assert refused["Location"] == page_url
    assert "PR5: the manager approving a prize is not the one who verified it." in text(
        own.get(page_url)
    )
    assert PromotionPrize.objects.get(pk=period.pk).status == "verified"

    cashier = browser(make_staff("kalle", Role.CASHIER))
    assert cashier.get(page_url).status_code == 403
    assert cashier.post(f"{page_url}/verify", {"once": "k"}).status_code == 403
    assert Client().get(page_url).status_code == 302  # to the sign-in
    assert browser(mats).get(f"{page_url}/verify").status_code == 405
    assert browser(mats).get("/manager/prizes/999999").status_code == 404


def test_a_prize_is_rejected_only_with_a_reason(period, fred, mats):
    """PR5: a rejection records why; without one it is refused and nothing is
    booked. The page and the inbox in Finnish and Korean, money and the period
    their way (CLDR)."""
    page_url = f"/manager/prizes/{period.pk}"
    floor = browser(fred)
    floor.post(f"{page_url}/verify", key_of(floor.get(page_url), f"{page_url}/verify"))
    first = period.awards.order_by("position").first()
    whole, cents = divmod(first.amount_cents, 100)
    fi = text(browser(mats, "fi").get(page_url))
    assert f"{whole},{cents:02d}\xa0€" in fi
    assert "29.11.2026 21.00–22.00" in fi and "Hyväksy…" in fi
    ko = text(browser(mats, "ko").get("/manager/"))
    assert "2026. 11. 29. 오후 9:00~10:00" in ko and "확인됨, 승인 대기" in ko
    with translation.override("ko"):
        assert period_words(period) == "2026. 11. 29. 오후 9:00~10:00"

    client = browser(mats)
    url = f"{page_url}/reject"
    refused = client.post(url, key_of(client.get(page_url), url) | {"reason": " "})
    assert "PR5: a rejected prize records why." in text(client.get(refused["Location"]))
    assert PromotionPrize.objects.get(pk=period.pk).status == "verified"
    reason = {"reason": "hand 3 was dealt twice"}
    client.post(url, key_of(client.get(page_url), url) | reason)
    period.refresh_from_db()
    assert (period.status, period.rejection_reason) == (
        PromotionPrize.Status.REJECTED,
        "hand 3 was dealt twice",
    )
    assert set(period.awards.values_list("status", flat=True)) == {"rejected"}
    assert not Payable.objects.filter(jackpot_award__prize=period).exists()
    shown = text(client.get(page_url))
    assert "Rejected by mats: hand 3 was dealt twice" in shown
    assert "Verify the prize" not in shown and "Approve…" not in shown


@pytest.fixture
def aces_cracked(pools, clock, boss, dealer, sweep) -> PromotionPrize:
    """Aces cracked pays the loser €50 from the house (PR3): seat 1's aces lose to
    seat 2's set of kings at 21:10."""
    clock.set("2026-11-29T21:00")
    jackpot_services.promotion_create(
        room=room_default(),
        code="aces-cracked",
        name="Aces cracked",
        rules={
            "kind": "aces_cracked",
            "games": ["NLHE"],
            "min_dealt_in": 4,
            "prize": {"fixed": 5_000, "funding": "house"},
        },
        by=boss,
    )
    clock.set("2026-11-29T21:10")
    dealer.deal("Kc 7d 9h Js 3d", {1: "Ah Ad", 2: "Kh Kd"})
    sweep()
    return PromotionPrize.objects.get(kind=PromotionPrize.Kind.BONUS)


def test_a_bonus_shows_its_hand_and_what_it_pays_for(aces_cracked, mats):
    """PR3: a bonus is found in one hand: its board, the loser's aces drawn, what
    it pays for, from the house alone."""
    prize = aces_cracked
    shown = text(browser(mats).get(f"/manager/prizes/{prize.pk}"))
    hand = Hand.objects.get(pk=prize.hand_id)
    assert f"The hand: {hand}" in shown and "T01#1" in shown
    assert '<span class="playing-card red" title="Ah">A♥</span>' in shown
    assert '<span class="playing-card black" title="Kc">K♣</span>' in shown  # board
    assert "aces cracked" in shown and "Aces cracked" in shown
    assert "Period (room time)" not in shown
    assert euros(5_000) in shown and "the house" in shown
    assert "the house and the pool" not in shown
    (award,) = prize.awards.select_related("player")
    assert (award.player.code, award.role) == ("P-1", Award.Role.ACES_CRACKED)
    inbox = text(browser(mats).get("/manager/"))
    row = inbox[inbox.index(f'data-prize="{prize.pk}"') :]
    assert "T01#1" in row and euros(5_000) in row


def approved(prize: PromotionPrize, make_staff) -> list[Award]:
    with translation.override("en"):
        jackpot_services.prize_verify(prize=prize, by=make_staff("ferd", Role.FLOOR))
        jackpot_services.prize_approve(prize=prize, by=make_staff("maj", Role.MANAGER))
    return list(prize.awards.select_related("payable", "player", "pool"))


def cashier_at(make_staff, name: str):
    cashier = make_staff(name, Role.CASHIER)
    cage_services.shift_open(
        cage=Cage.objects.get(code="MAIN"),
        cashier=cashier,
        cash_cents=1_000_000,
        chips_cents=0,
    )
    return cashier


@pytest.mark.parametrize("language", ["en", "fi", "ko"])
def test_the_cage_pays_a_promotion_award_named_in_its_language(
    language, aces_cracked, make_staff
):
    """CA6: the award is named by its promotion's pool and its role in the
    cashier's language, as a hit's is, never by the payable's English reference;
    paid once against the player's signature."""
    (award,) = approved(aces_cracked, make_staff)
    desk = browser(cashier_at(make_staff, f"cashier-{language}"), language)
    with translation.override(language):
        named = f"Aces cracked: {award.get_role_display()}"
    reference = award.payable.reference
    assert reference == f"promotion aces-cracked #{aces_cracked.pk}"
    for url in ("/cage/awards", f"/cage/players/{award.player.code}"):
        shown = text(desk.get(url))
        assert named in shown and "T01#1" in shown, url
        assert reference not in shown, url
    url = f"/cage/awards/{award.payable.pk}/pay"
    page = desk.get(url)
    assert named in text(page) and reference not in text(page)
    key = re.findall(r'name="once" value="([^"]+)"', text(page))[0]
    paid = desk.post(url, {"once": key, "signed": "on"}, follow=True)
    [message] = messages_of(paid)
    assert named in message and reference not in message
    assert Payable.objects.get(pk=award.payable.pk).status == Payable.Status.PAID
    assert trial_balance().balanced


def test_a_barred_players_promotion_award_is_held(aces_cracked, make_staff):
    """PP6: the cage doesn't pay a barred player's promotion award; it stays owed
    and waits on the manager's held awards, as a hit's award does."""
    (award,) = approved(aces_cracked, make_staff)
    restriction_set(
        player=award.player,
        kind="bar",
        scope="room",
        until=None,
        reason="collusion at T03, camera 4",
        by=make_staff("bar-manager", Role.MANAGER),
    )
    desk = browser(cashier_at(make_staff, "kalle"))
    url = f"/cage/awards/{award.payable.pk}/pay"
    key = re.findall(r'name="once" value="([^"]+)"', text(desk.get(url)))[0]
    refused = desk.post(url, {"once": key, "signed": "on"}, follow=True)
    (said,) = messages_of(refused)
    assert said.startswith("PP6"), said
    assert Payable.objects.get(pk=award.payable.pk).status == Payable.Status.OPEN
    held = text(
        browser(make_staff("held-boss", Role.MANAGER)).get("/manager/held-awards")
    )
    assert f'data-award="{award.payable.pk}"' in held


def test_the_period_is_said_with_both_dates_over_midnight(period):
    """A period over midnight (a day's, from the cut-off) says both dates."""
    period.period_start = datetime(2026, 11, 29, 6, 0, tzinfo=HELSINKI)
    period.period_end = datetime(2026, 11, 30, 6, 0, tzinfo=HELSINKI)
    with translation.override("fi"):
        assert period_words(period) == "29.11.2026 6.00–30.11.2026 6.00"
    with translation.override("en"):
        assert (
            period_words(period)
            == "Nov 29, 2026, 6:00\u202fAM\u2009–\u2009Nov 30, 2026, 6:00\u202fAM"
        )
