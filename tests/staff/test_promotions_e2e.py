"""An hourly high hand from the table to the cage and the books, in a real browser,
in English, Finnish and Korean (PR2, PR5, CA6, JD5).

Hands posted over the terminals' API qualify for three hours' periods; the
scheduler's close runs a minute after the last period ends; for each language a
floor person verifies one hour's prize on its page, a manager, another person,
approves it from his inbox after the confirm step, and the cashier pays the award
against the player's signature. The jackpot report of the gaming day then
reconciles the promotion's pool with the ledger. The screenshots of the inbox and
the prize's page go to docs/screens/manager/ (``prize-…-fi.png``,
``prize-…-ko.png``)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from accounting.models import Account, Cage, Payable
from accounting.selectors import trial_balance
from accounting.services import cage as cage_services
from cardroom.services import room_default
from core.roles import Role
from jackpots import services as jackpot_services
from jackpots.models import Award, Hit, PromotionPrize
from reports.document import rows_of
from reports.services import report_generate
from reports.totals import failed_checks
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
from tests.conftest import PASSWORD
from tests.staff.browser import (
    LANGUAGES,
    browser_in,
    chromium,
    euros,
    say,
    screenshot_name,
)

__all__ = [
    "browser_in",
    "chromium",
    "clock",
    "dealer",
    "manager",
    "open_table",
    "players",
    "pools",
    "stock_tray",
    "sweep",
]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "manager"
DAY = date(2026, 11, 29)
POOL = "jackpot:main.high-hand:pool"
RULES = {
    "kind": "high_hand",
    "games": ["NLHE"],
    "min_hand": ["As", "Ah", "Ad", "Ks", "Kh"],
    "card_use": {"hole_cards": 2, "quads_pocket_pair": True},
    "min_pot_big_blinds": 10,
    "min_dealt_in": 4,
    "period_minutes": 60,
    "carry_over": True,
    "prize": {"fixed": 10_000, "pool_percent": 50, "funding": "both"},
}


def shot(page, step: str, language: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / screenshot_name(step, language)), full_page=True)


def sign_in(page, url: str, username: str, home: str) -> None:
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}{home}")


def test_an_hourly_high_hand_is_verified_approved_paid_and_reconciled(
    live_server, browser_in, pools, dealer, clock, sweep, make_staff
):
    """PR2: the best hand of each hour wins it, an earlier lesser hand losing the
    lead; PR5: verified by the floor, approved by another person; CA6: paid at
    the cage; JD5: the pool's opening + in − out = closing, as the ledger has it."""
    open_page, expect = browser_in
    url = live_server.url
    make_staff("fred", Role.FLOOR)
    make_staff("mia", Role.MANAGER)
    kalle = make_staff("kalle", Role.CASHIER)
    clock.set("2026-11-29T21:00")
    jackpot_services.promotion_create(
        room=room_default(),
        code="high-hand",
        name="Hourly high hand",
        rules=RULES,
        by=make_staff("promoter", Role.MANAGER),
        drop_ratio=1,
    )
    # The hands, posted by T01's terminal over the API. At 21:05 aces full lead
    # the first hour; at 21:10 four tens beat aces full, a bad beat (a hit for
    # the inbox) and the hour's best hand; the next hours four nines (a pocket
    # pair) beat two pair. The scheduler closes each hour a minute after its end.
    clock.set("2026-11-29T21:05")
    dealer.deal("Ac Kc Kd 7s 3d", {1: "As Ad", 2: "Qh 4d"})
    clock.set("2026-11-29T21:10")
    dealer.bad_beat()
    prizes = []
    for hour, winner, loser in ((21, 3, 4), (22, 3, 4), (23, 5, 6)):
        clock.set(f"2026-11-29T{hour}:20")
        dealer.deal("9c 9d 2h Ks 3c", {winner: "9s 9h", loser: "As Kd"})
        sweep()
        clock.advance(minutes=40, seconds=30)
        assert jackpot_services.periods_close_due() == []  # the minute's grace
        clock.advance(seconds=30)
        prizes += jackpot_services.periods_close_due()
    assert [p.status for p in prizes] == ["pending"] * 3
    assert [[h["player"] for h in p.details["hands"]] for p in prizes] == [
        ["P-2"],
        ["P-3"],
        ["P-5"],
    ]
    assert [h["hand"] for h in prizes[0].details["hands"]] == ["four of a kind, tens"]
    (hit,) = Hit.objects.all()
    assert hit.status == Hit.Status.PENDING
    cage_services.shift_open(
        cage=Cage.objects.get(code="MAIN"),
        cashier=kalle,
        cash_cents=1_000_000,
        chips_cents=0,
    )

    for language, prize in zip(LANGUAGES, prizes, strict=True):
        verify(open_page(language), expect, url, language, prize)
        approve(open_page(language), expect, url, language, prize)
        pay(open_page(language), expect, url, language, prize)

    clock.set("2026-11-30T07:00")
    reconciled(clock)


def verify(page, expect, url, language, prize) -> None:
    """The floor person opens the prize from his home and verifies it."""
    sign_in(page, url, "fred", "/floor/")
    name = say(
        language,
        "Prize %(id)s of %(promotion)s",
        id=prize.pk,
        promotion="Hourly high hand",
    )
    page.locator("#prizes").get_by_role("link", name=name).click()
    page.wait_for_url(f"{url}/manager/prizes/{prize.pk}")
    expect(page.locator("#hands .playing-card.red").first).to_be_visible()
    page.get_by_label(say(language, "What was checked")).fill("cards, camera 3")
    page.get_by_role("button", name=say(language, "Verify the prize")).click()
    expect(page.locator(".messages")).to_contain_text(
        say(
            language,
            "Prize %(id)d verified; a manager, another person, approves it.",
            id=prize.pk,
        )
    )
    prize.refresh_from_db()
    assert prize.status == PromotionPrize.Status.VERIFIED
    assert prize.verified_by.username == "fred"
    page.context.close()


def approve(page, expect, url, language, prize) -> None:
    """The manager finds it in his inbox beside the hits and approves it."""
    sign_in(page, url, "mia", "/manager/")
    total = prize.house_cents + prize.pool_cents
    row = page.locator(f'#prizes tr[data-prize="{prize.pk}"]')
    expect(row).to_contain_text(euros(total, language))
    expect(row).to_contain_text("fred")
    expect(page.locator("#hits")).to_be_visible()  # the bad beat, beside
    shot(page, "prize-1-inbox", language)
    row.get_by_role("link", name=say(language, "Look at the prize")).click()
    page.wait_for_url(f"{url}/manager/prizes/{prize.pk}")
    expect(page.locator("#hands .playing-card.red").first).to_be_visible()
    expect(page.locator("#prize")).to_contain_text(euros(total, language))
    shot(page, "prize-2-page", language)
    page.get_by_role("link", name=say(language, "Approve…")).click()
    book = page.get_by_role("button", name=say(language, "Yes, approve and book"))
    expect(book).to_be_visible()
    assert PromotionPrize.objects.get(pk=prize.pk).status == "verified"
    book.click()
    page.wait_for_url(f"{url}/manager/")
    expect(page.locator(".messages")).to_contain_text(
        say(
            language,
            "Prize %(id)d approved: its awards are payable at the cage.",
            id=prize.pk,
        )
    )
    prize.refresh_from_db()
    assert (prize.status, prize.approved_by.username) == ("approved", "mia")
    page.context.close()


def pay(page, expect, url, language, prize) -> None:
    """The cashier pays the award against the player's signature."""
    (award,) = Award.objects.filter(prize=prize).select_related("payable", "player")
    sign_in(page, url, "kalle", "/cage/")
    page.goto(f"{url}/cage/awards")
    row = page.locator("tr", has_text=award.player.name)
    expect(row).to_contain_text("Hourly high hand")
    row.get_by_role("link", name=say(language, "Pay")).click()
    page.wait_for_url(f"{url}/cage/awards/{award.payable.pk}/pay")
    page.check('input[name="signed"]')
    amount = euros(award.amount_cents, language)
    page.get_by_role(
        "button", name=say(language, "Pay %(amount)s", amount=amount)
    ).click()
    expect(page.locator(".receipt")).to_be_visible()
    assert Payable.objects.get(pk=award.payable.pk).status == Payable.Status.PAID
    page.context.close()


def reconciled(clock) -> None:
    """The jackpot report of the gaming day: the promotion's pool is
    reconciled (opening + in − out = closing) and agrees with the ledger."""
    pool = Account.objects.get(code=POOL)
    report = report_generate(
        kind="jackpot", first=DAY, source="command", now=clock.now
    ).report
    data = report.data
    assert report.checks_failed == 0, failed_checks(data)
    funds = {r["account"]: r for r in rows_of(data, "jackpot_funds")}
    row = funds[POOL]
    assert row["opening"] == 0
    assert (
        row["opening"] + row["drops"] + row["other_in"] - row["awards"]
        == row["closing"]
        == row["ledger_closing"]
        == pool.balance_cents
    )
    assert row["drops"] > 0 and row["awards"] > 0
    paid = sum(
        p.pool_cents for p in PromotionPrize.objects.filter(promotion__code="high-hand")
    )
    assert row["awards"] == paid
    assert trial_balance().balanced
