"""A bad-beat hit verified on its page by the floor, not in the admin's lists (BB5):
the floor finds it on its home screen, verifies it with a note on a form that books
once, and a manager, another person, approves it. The verifier is offered no
approval; a cashier gets no page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from core.roles import Role
from jackpots import services as jackpot_services
from jackpots.models import Hit
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
from tests.staff.browser import browser_in, chromium, say

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
]


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


@pytest.fixture
def hit(pools, dealer) -> Hit:
    """A bad beat at T01 (aces full lose to four tens), not verified yet."""
    [found] = jackpot_services.hand_qualify(hand_id=dealer.bad_beat().pk)
    assert found.status == Hit.Status.PENDING
    return found


@pytest.mark.django_db
def test_the_floor_verifies_a_hit_on_its_page_and_another_manager_approves(
    hit, make_staff
):
    fred = browser(make_staff("fred", Role.FLOOR))
    mia = make_staff("mia", Role.MANAGER)
    page_url, verify_url = f"/manager/hits/{hit.pk}", f"/manager/hits/{hit.pk}/verify"

    # The floor's home lists the hit waiting for its verification.
    home = text(fred.get("/floor/"))
    assert f'href="{page_url}"' in home and "Bad beats to verify" in home

    page = fred.get(page_url)
    assert page.status_code == 200
    shown = text(page)
    assert "Verify the hit" in shown
    assert f"/manager/hits/{hit.pk}/approve" not in shown
    assert 'href="/manager/"' not in shown  # the floor's navigation, not the inbox's
    form = {**key_of(page, verify_url), "note": "cards and camera 3 checked"}
    answer = fred.post(verify_url, form)
    assert (answer.status_code, answer["Location"]) == (302, page_url)
    after = fred.get(page_url)
    assert messages_of(after) == [
        f"Hit {hit.pk} verified; a manager, another person, approves it."
    ]
    assert "Verify the hit" not in text(after)
    hit.refresh_from_db()
    assert (hit.status, hit.verified_by.username, hit.verification_note) == (
        Hit.Status.VERIFIED,
        "fred",
        "cards and camera 3 checked",
    )
    at = hit.verified_at

    # The same form again books nothing; a fresh one is refused with the rule.
    again = fred.post(verify_url, form, follow=True)
    assert messages_of(again) == ["This form was already sent; it was decided once."]
    fresh = fred.post(verify_url, {"once": "fresh-1", "note": "x"}, follow=True)
    (said,) = messages_of(fresh)
    assert said.startswith("BB5:"), said
    hit.refresh_from_db()
    assert (hit.verified_at, hit.verification_note) == (
        at,
        "cards and camera 3 checked",
    )

    # The floor can't approve; a manager, another person, does.
    assert fred.get(f"/manager/hits/{hit.pk}/approve").status_code == 403
    manager = browser(mia)
    shown = text(manager.get(page_url))
    assert f"/manager/hits/{hit.pk}/approve" in shown
    confirm = manager.get(f"/manager/hits/{hit.pk}/approve")
    manager.post(
        f"/manager/hits/{hit.pk}/approve",
        key_of(confirm, f"/manager/hits/{hit.pk}/approve"),
    )
    hit.refresh_from_db()
    assert hit.status == Hit.Status.APPROVED and hit.approved_by == mia


@pytest.mark.django_db
def test_a_manager_who_verified_is_offered_no_approval_and_others_get_no_page(
    hit, make_staff
):
    mia = browser(make_staff("mia", Role.MANAGER))
    page_url, verify_url = f"/manager/hits/{hit.pk}", f"/manager/hits/{hit.pk}/verify"
    # A form without its key books nothing.
    refused = mia.post(verify_url, {"note": "camera"}, follow=True)
    assert len(messages_of(refused)) == 1
    assert Hit.objects.get(pk=hit.pk).status == Hit.Status.PENDING

    mia.post(verify_url, key_of(mia.get(page_url), verify_url))
    shown = text(mia.get(page_url))
    assert "BB5: you verified this hit; another manager approves it." in shown
    assert f'href="/manager/hits/{hit.pk}/approve"' not in shown
    assert Hit.objects.get(pk=hit.pk).verified_by.username == "mia"

    cashier = browser(make_staff("kalle", Role.CASHIER))
    assert cashier.get(page_url).status_code == 403
    assert cashier.post(verify_url, {"once": "k"}).status_code == 403
    assert Client().get(page_url).status_code == 302  # to the sign-in
    assert browser(make_staff("fred", Role.FLOOR)).get(verify_url).status_code == 405
    assert mia.get("/manager/hits/999999").status_code == 404


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_the_floor_verifies_a_hit_in_the_browser(
    live_server, browser_in, hit, make_staff
):
    """From the floor's home to the hit's page and its verify button, in Chromium."""
    open_page, expect = browser_in
    make_staff("fred", Role.FLOOR)
    page = open_page("en")
    url = live_server.url
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', "fred")
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}/floor/")
    page.locator("#hits").get_by_role("link").first.click()
    page.wait_for_url(f"{url}/manager/hits/{hit.pk}")
    expect(page.locator(".playing-card.red").first).to_be_visible()
    page.get_by_label(say("en", "What was checked")).fill("cards, camera 3")
    page.get_by_role("button", name=say("en", "Verify the hit")).click()
    page.wait_for_url(f"{url}/manager/hits/{hit.pk}")
    expect(page.locator(".messages")).to_contain_text(
        say(
            "en",
            "Hit %(id)d verified; a manager, another person, approves it.",
            id=hit.pk,
        )
    )
    verified = Hit.objects.get(pk=hit.pk)
    assert verified.status == Hit.Status.VERIFIED
    assert verified.verified_by.username == "fred"
