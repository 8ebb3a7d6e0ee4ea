"""Receipts print on the cage's 80 mm roll, in the language the room sets for
receipts, with their dates on the room's clock as that language writes them
(issue 33).

Before: ``@page { size: 80mm auto }`` is not valid CSS (a page has no automatic
height), so Chromium dropped the rule and printed the slip on a Letter page
(612 × 792 pt); and the dates were Django's per-language formats, US in English
(``12/04/2026 5:30 p.m.``) and ``2026-12-4`` in Korean.

Receipts print in ``CARDROOM_RECEIPT_LANGUAGE`` when it is set, in the room's
language otherwise, whatever the cashier's screen is in.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pypdfium2
import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.utils import translation

from accounting.models import Cage, Payable, Player, Receipt
from accounting.services import cage as services
from cardroom.models import Room
from jackpots.models import Award, Pool
from staff.common.selectors import RoomFacts
from tests.e2e.conftest import browser_page

__all__ = ["browser_page"]

pytestmark = pytest.mark.django_db

# 17:30 in Helsinki on 4 December 2026: the room's clock, not the machine's.
ISSUED = datetime(2026, 12, 4, 15, 30, tzinfo=UTC)
POINTS_PER_MM = 72 / 25.4


def room(language: str) -> Room:
    return Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
        language=language,
    )


def sold(opened) -> Receipt:
    return services.chip_purchase(
        cage="MAIN",
        cashier=opened.cashier,
        player="P-1001",
        amount_cents=123_450,
        at=ISSUED,
    )


def printed(user, receipt: Receipt, screen: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=screen)
    client.force_login(user)
    return client.get(f"/cage/receipts/{receipt.no}").content.decode()


@pytest.mark.parametrize(
    ("language", "screen", "date", "amount", "signature"),
    [
        ("en", "fi", "Dec 4, 2026, 5:30\u202fPM", "€1,234.50", "Player's signature"),
        (
            "fi",
            "en",
            "4.12.2026 17.30",
            "1\xa0234,50\xa0€",
            "Pelaajan allekirjoitus",
        ),
        ("ko", "fi", "2026. 12. 4. 오후 5:30", "€1,234.50", "플레이어 서명"),
    ],
)
def test_a_receipt_prints_in_the_rooms_language_on_its_clock(
    opened, player, cashier_user, language, screen, date, amount, signature
):
    room(language)
    receipt = sold(opened)
    page = printed(cashier_user, receipt, screen)
    slip = page[page.index('<article class="receipt"') :]
    assert f'lang="{language}"' in slip[:80]
    assert date in slip and amount in slip
    assert signature in slip
    assert "12/04/2026" not in slip and "2026-12-4" not in slip


@override_settings(CARDROOM_RECEIPT_LANGUAGE="fi")
def test_the_setting_chooses_the_receipts_language_over_the_rooms(
    opened, player, cashier_user
):
    room("en")
    page = printed(cashier_user, sold(opened), "ko")
    slip = page[page.index('<article class="receipt"') :]
    assert 'lang="fi"' in slip[:80] and "4.12.2026 17.30" in slip


def test_the_receipt_prints_on_an_80_mm_page(
    live_server, browser_page, opened, player, cashier_user
):
    """Printed by Chromium as the cashier's Print button does (the page's CSS page
    size), the slip is one page 80 mm wide."""
    page, _expect = browser_page
    room("fi")
    receipt = sold(opened)
    client = Client()
    client.force_login(cashier_user)
    session = client.cookies["sessionid"].value
    page.context.add_cookies(
        [{"name": "sessionid", "value": session, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/cage/receipts/{receipt.no}")
    page.emulate_media(media="print")
    pdf = pypdfium2.PdfDocument(
        io.BytesIO(page.pdf(prefer_css_page_size=True, print_background=True))
    )
    width, height = pdf[0].get_size()
    assert width == pytest.approx(80 * POINTS_PER_MM, abs=0.5)  # 226.77 pt
    assert height == pytest.approx(200 * POINTS_PER_MM, abs=0.5)
    assert len(pdf) == 1
    text = pdf[0].get_textpage().get_text_range()
    assert receipt.no in text and "1 234,50" in text.replace("\xa0", " ")


@pytest.mark.parametrize(
    ("language", "award"),
    [
        ("en", "Bad beat: losing hand"),
        ("fi", "Bad beat: hävinnyt käsi"),
        ("ko", "Bad beat: 진 핸드"),
    ],
)
def test_an_award_is_named_in_the_receipts_language(language, award):
    """Before: the payable's reference, ``bad beat hit 12``, in English on every
    receipt. The award's pool and role are named in the receipt's language."""
    payable = Payable(reference="bad beat hit 12", amount_cents=150_000)
    payable.jackpot_award = Award(pool=Pool(name="Bad beat"), role=Award.Role.LOSER)
    receipt = Receipt(
        cage=Cage(code="MAIN", name="Main cage", currency="EUR"),
        number=12,
        kind=Receipt.Kind.AWARD_PAYOUT,
        player=Player(code="P-1001", name="Aino Virtanen"),
        payable=payable,
        player_signed=True,
        issued_by=User(username="kalle"),
        issued_at=ISSUED,
        amount_cents=150_000,
    )
    facts = RoomFacts(
        name="Casino", currency="EUR", language=language, time_zone="Europe/Helsinki"
    )
    with translation.override(facts.receipt_language):
        slip = render_to_string(
            "staff/cage/_receipt.html",
            {"receipt": receipt, "room": facts, "currency": "EUR"},
        )
    assert award in slip and "bad beat hit 12" not in slip
