"""One money formatter and one strict parser (core.money, Babel's CLDR data) for
every screen, receipt, report and admin list (issue 33).

The cash cage read ``115,50`` on an English screen as €11,550 and the tournament
desk refused it; the admin showed raw cents and formatted with float division;
receipts and reports wrote ``24.00 EUR``. Now every door reads and writes money
the one way, and an amount that could be read two ways is refused with the
readings it could have, never guessed.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from accounting.models import Receipt
from cardroom.models import Game, Room
from core import money
from core.money import MoneyInputError, money_parse, stakes_format
from staff.cage.tournaments.forms import EntryForm
from tests.staff.test_cage_views import key_of, text

ROOT = Path(__file__).resolve().parents[2]


def test_the_examples_in_the_docstrings_hold():
    assert doctest.testmod(money).failed == 0


@pytest.mark.parametrize(
    ("typed", "language", "meant"),
    [
        ("115,50", "en", ("115.50", "11,550.00")),
        ("115,50", "ko", ("115.50", "11,550.00")),
        ("12,34", "en", ("12.34", "1,234.00")),
        ("1.150", "fi", ("1,15", "1\xa0150,00")),
        ("1.234,50", "fi", ("1\xa0234,50",)),
    ],
)
def test_an_amount_read_two_ways_is_refused_with_its_readings(typed, language, meant):
    with pytest.raises(MoneyInputError) as refused:
        money_parse(typed, "EUR", language)
    assert refused.value.reason == "ambiguous"
    assert refused.value.meant == meant


@pytest.mark.parametrize(
    ("typed", "language", "cents"),
    [
        ("115.50", "en", 11_550),
        ("1,150.50", "en", 115_050),
        ("115,50", "fi", 11_550),
        ("1 150,50", "fi", 115_050),
        ("12.50", "fi", 1_250),
        ("₩1,234", "ko", 1_234),
    ],
)
def test_an_amount_written_as_the_locale_writes_it_is_read(typed, language, cents):
    currency = "KRW" if typed.startswith("₩") else "EUR"
    assert money_parse(typed, currency, language) == cents


@pytest.mark.django_db
def test_the_cash_cage_refuses_115_50_on_an_english_screen(desk, opened, player):
    """Before: the cash cage sold €11,550 of chips for ``115,50``."""
    page = desk.get("/cage/players/P-1001")
    answer = desk.post(
        "/cage/players/P-1001/sell", {"once": key_of(page), "sell-amount": "115,50"}
    )
    shown = (
        text(answer)
        if answer.status_code == 200
        else text(desk.get(answer["Location"]))
    )
    assert not Receipt.objects.exists()
    assert "did you mean 115.50 or 11,550.00?" in shown


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "typed", "said"),
    [
        ("en", "115,50", "did you mean 115.50 or 11,550.00?"),
        ("fi", "1.150", "1,15"),
    ],
)
def test_the_desk_refuses_as_the_cash_cage_does(language, typed, said):
    with translation.override(language):
        form = EntryForm(
            data={"once": "k", "player": "P-1", "amount": typed},
            currency="EUR",
            price=11_550,
        )
        assert not form.is_valid()
        assert [e.code for e in form.errors.as_data()["amount"]] == ["ambiguous"]
        assert said in form.errors["amount"][0]


@pytest.mark.django_db
def test_admin_lists_show_money_not_raw_cents(award, fill, make_staff):
    """Payables showed 1722, fill slips 200000: cents, as stored."""
    manager: User = make_staff("mona")
    manager.is_superuser = True
    manager.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(manager)
    payables = text(client.get("/admin/accounting/payable/"))
    slips = text(client.get("/admin/accounting/tableslip/"))
    assert "€1,500.00" in payables and "150000" not in payables
    assert "€1,000.00" in slips and "100000" not in slips
    client = Client(HTTP_ACCEPT_LANGUAGE="fi")
    client.force_login(manager)
    assert "1\xa0000,00\xa0€" in text(client.get("/admin/accounting/tableslip/"))


def test_a_tournament_purchase_column_is_money():
    from tournaments.admin import PurchaseAdmin
    from tournaments.models import Entry, Event, Purchase

    purchase = Purchase(
        entry=Entry(event=Event(currency="EUR")),
        prize_pool_cents=5_000,
        fee_cents=1_500,
    )
    column = PurchaseAdmin.prize_pool
    with translation.override("en"):
        assert column(None, purchase) == "€50.00"
        assert PurchaseAdmin.fee(None, purchase) == "€15.00"
    assert "prize_pool" in PurchaseAdmin.list_display
    assert "prize_pool_cents" not in PurchaseAdmin.list_display


# --- No other formatter ------------------------------------------------------------

APPS = (
    "accounting",
    "cardroom",
    "core",
    "jackpots",
    "reports",
    "staff",
    "tournaments",
    "waitlist",
)
# Writing money by hand: cents divided by 100 (float division, divmod), a format
# spec with two places, Django's number_format, the accounting Money's text, a
# page's script writing a currency itself (Intl.NumberFormat's currency style).
HAND_MADE = re.compile(
    r"cents\w*\s*/\s*100\b|/\s*100\s*:|:,\.2f|divmod\([^)]*cents[^)]*,\s*100\)|"
    r"number_format\([^)]*(cents|amount)|str\(Money\(|\{Money\(|"
    r"style:\s*[\"']currency[\"']"
)
# Known, and not a second formatter: Money's own text is for errors.
KNOWN = {"accounting/domain/money.py"}


def hand_made_formatters() -> list[str]:
    found = []
    for app in APPS:
        for path in (ROOT / app).rglob("*"):
            if path.suffix not in {".py", ".html", ".js"} or "migrations" in path.parts:
                continue
            if ".min." in path.name:  # vendored libraries
                continue
            where = str(path.relative_to(ROOT))
            if where == "core/money.py" or where in KNOWN:
                continue
            for no, line in enumerate(path.read_text().splitlines(), 1):
                if HAND_MADE.search(line):
                    found.append(f"{where}:{no}: {line.strip()}")
    return found


def test_money_is_written_only_by_core_money():
    """A new screen, report or admin column that writes money by hand fails here:
    use core.money.money_format (or the ``money`` filters, core.money_admin)."""
    assert hand_made_formatters() == []


def test_the_check_catches_what_the_admin_did():
    assert HAND_MADE.search('return "" if cents is None else f"{cents / 100:,.2f}"')
    assert HAND_MADE.search("return str(Money(cents, currency))")
    assert HAND_MADE.search('f"{number_format(amount, 2, use_l10n=True)} {currency}"')


def test_the_check_catches_what_the_boards_and_the_stakes_did():
    """The public board and its tournament clocks wrote money in the browser; a
    game's stakes divided its blinds by 100 (issue 33)."""
    board = 'return new Intl.NumberFormat(LANG, {style: "currency", currency: currency,'
    assert HAND_MADE.search(board)
    assert HAND_MADE.search("} catch (e) { return (cents / 100).toFixed(2); }")
    assert HAND_MADE.search('return f"{self.code} {sb / 100:g}/{bb / 100:g}"')


@pytest.mark.parametrize(
    ("small", "big", "currency", "language", "label"),
    [
        (100, 200, "EUR", "en", "NLHE 1/2"),
        (50, 100, "EUR", "en", "NLHE 0.50/1"),
        (50, 100, "EUR", "fi", "NLHE 0,50/1"),
        (500_000, 1_000_000, "EUR", "fi", "NLHE 5\xa0000/10\xa0000"),
        (50, 100, "EUR", "ko", "NLHE 0.50/1"),
        # Won have no cents (CLDR): 1,000 won is 1000 of the minor unit.
        (1_000, 2_000, "KRW", "ko", "NLHE 1,000/2,000"),
    ],
)
def test_a_games_stakes_are_written_by_core_money(
    small, big, currency, language, label
):
    """A game's text carries its blinds in units of the room's currency, as the
    language writes them (core.money.stakes_format): a won room's 1,000/2,000 game
    read "NLHE 10/20", its blinds divided by 100 as if won had cents."""
    game = Game(
        room=Room(currency=currency),
        code="NLHE",
        small_blind_cents=small,
        big_blind_cents=big,
    )
    with translation.override(language):
        assert str(game) == label
    assert game.blinds_label(language) == label.removeprefix("NLHE ")
    assert stakes_format(small, big, currency, language) == label.removeprefix("NLHE ")
