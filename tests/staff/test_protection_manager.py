"""The manager's player-protection screens beside the player's page, with Django's
test client: the held awards and the decisions on them (PP6), the exclusion list
for the door staff (PP3, PP4), and the versioned settings (PP2, PP4). What each
decision books, each refusal said in the page's language, a double post booking
once."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from accounting import chart
from accounting.errors import TEXTS, Code
from accounting.models import (
    AwardDecision,
    Payable,
    ProtectionRules,
    Receipt,
    Restriction,
)
from accounting.selectors import trial_balance
from accounting.services import cage as services
from accounting.services.cage import (
    Settings,
    gaming_day_of,
    restriction_end,
    restriction_set,
    self_exclusion_lapse,
)
from accounting.services.cage import protection as protection_services
from core.errors import SharedCode
from core.roles import Role

pytestmark = pytest.mark.django_db


def text(page) -> str:
    return page.content.decode()


def key_of(page) -> str:
    found = re.findall(r'name="once" value="([^"]+)"', text(page))
    assert found, "the form carries no idempotency key"
    return found[0]


def said(language: str, message: str, **params: object) -> str:
    """``message`` as the catalogue of ``language`` has it, filled in and escaped
    as a template shows it."""
    with translation.override(language):
        shown = translation.gettext(message) % params
    return shown.replace("'", "&#x27;").replace('"', "&quot;")


def browser(make_staff, name: str, role: Role, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(make_staff(name, role))
    return client


@pytest.fixture
def boss(make_staff) -> Client:
    """The deciding manager's browser, in English."""
    return browser(make_staff, "boss", Role.MANAGER)


@pytest.fixture
def barred(player, make_staff) -> Restriction:
    """Aino (P-1001) barred from the room for good, by another manager (PP3)."""
    return restriction_set(
        player=player,
        kind="bar",
        scope="room",
        until=None,
        reason="collusion at T03, camera 4",
        by=make_staff("bar-manager", Role.MANAGER),
    )


def decide(client: Client, award: Payable, decision: str, reason: str):
    """Open the confirm step of ``decision`` and send it with ``reason``."""
    url = f"/manager/held-awards/{award.pk}/{decision}"
    page = client.get(url)
    assert page.status_code == 200
    return client.post(url, {"once": key_of(page), "reason": reason}, follow=True)


# Held awards (PP6) ------------------------------------------------------------------


def test_the_held_award_is_listed_with_the_restriction_holding_it(
    boss, award, barred, make_staff
):
    """The award's reference, the player linked to his page, the amount in the
    room's money and the bar that holds it; a manager is offered both decisions,
    an auditor reads the same list without them."""
    page = text(boss.get("/manager/held-awards"))
    held = page[page.index('id="held"') : page.index('id="decisions"')]
    row = held[held.index(f'data-award="{award.pk}"') :]
    assert "bad beat hit 12" in row
    assert '<a href="/manager/players/P-1001">Aino Virtanen</a>' in row
    assert "P-1001" in row and "€1,500.00" in row
    assert "Barred from the room for good" in row
    assert f'href="/manager/held-awards/{award.pk}/pay"' in row
    assert f'href="/manager/held-awards/{award.pk}/forfeit"' in row
    assert "No decision on a held award yet." in page
    assert 'href="/manager/held-awards"' in page  # in the manager's navigation

    auditor = browser(make_staff, "audrey", Role.AUDITOR)
    read = text(auditor.get("/manager/held-awards"))
    assert "bad beat hit 12" in read and "€1,500.00" in read
    assert (
        "/pay" not in read
        and "/forfeit" not in read
        and "<form" not in read[read.index("<main>") :]
    )
    assert 'href="/manager/held-awards"' in read  # in the auditor's navigation
    assert auditor.post(f"/manager/held-awards/{award.pk}/forfeit").status_code == 403


def test_nothing_held_says_so(boss, award):
    """An award of a player no restriction keeps out isn't held (PP6)."""
    page = text(boss.get("/manager/held-awards"))
    assert "No award is held now." in page and "bad beat hit 12" not in page


def test_a_forfeit_asks_once_more_and_books_the_award_out(boss, award, barred):
    """The confirm step names the award, its amount and the bar; without why
    nothing is booked; with it, the award leaves awards payable for forfeited
    awards, the payable is ``forfeited``, and the decision is listed. Sent
    twice, it books once."""
    url = f"/manager/held-awards/{award.pk}/forfeit"
    confirm = boss.get(url)
    page = text(confirm)
    assert "Forfeit award bad beat hit 12 of Aino Virtanen?" in page
    assert "€1,500.00" in page and "Barred from the room for good" in page
    assert "collusion at T03, camera 4" in page
    assert "Yes, forfeit it" in page
    payable_before = chart.awards_payable().balance_cents

    empty = boss.post(url, {"once": key_of(confirm), "reason": " "})
    assert empty.status_code == 422
    assert not AwardDecision.objects.exists()

    form = {"once": key_of(confirm), "reason": "Excluded players receive no winnings"}
    done = boss.post(url, form, follow=True)
    assert done.redirect_chain[-1][0] == "/manager/held-awards"
    assert (
        "Award bad beat hit 12 of €1,500.00 to Aino Virtanen is forfeited (PP6)."
        in text(done)
    )
    award.refresh_from_db()
    assert award.status == Payable.Status.FORFEITED
    decision = AwardDecision.objects.get()
    assert (decision.decision, decision.held_by, decision.by.username) == (
        "forfeit",
        barred,
        "boss",
    )
    moved = {e.account.code: e.amount_cents for e in decision.booking.entries.all()}
    assert moved == {
        "liability:awards_payable": 150_000,
        "liability:awards_forfeited": -150_000,
    }
    assert abs(chart.awards_payable().balance_cents) == abs(payable_before) - 150_000
    assert trial_balance().balanced

    again = boss.post(url, form, follow=True)
    assert "This form was already sent; it was recorded once." in text(again)
    assert AwardDecision.objects.count() == 1
    assert decision.booking.entries.count() == 2

    listed = text(again)
    held = listed[listed.index('id="held"') : listed.index('id="decisions"')]
    assert "No award is held now." in held
    row = listed[listed.index(f'data-decision="{decision.pk}"') :]
    assert "Forfeited" in row and "Excluded players receive no winnings" in row
    assert "boss" in row and "€1,500.00" in row


def test_a_pay_decision_lets_the_cage_pay(
    boss, award, barred, desk, opened, cashier_user
):
    """Before the decision the cage is refused the award (PP6, held); after the
    manager decides to pay, it pays it against the player's signature (CA6),
    and the decision says it was paid."""
    pay_page = desk.get(f"/cage/awards/{award.pk}/pay")
    refused = desk.post(
        f"/cage/awards/{award.pk}/pay", {"once": key_of(pay_page), "signed": "on"}
    )
    assert "PP6: P-1001 is restricted (PP3)" in text(refused)
    assert not Receipt.objects.exists()

    done = decide(boss, award, "pay", "Won before the bar")
    assert (
        "Award bad beat hit 12 of €1,500.00 is to be paid to Aino Virtanen: the cage "
        "pays it against his identity document and signature (CA6)." in text(done)
    )
    decision = AwardDecision.objects.get()
    assert (decision.decision, decision.booking) == ("pay", None)
    award.refresh_from_db()
    assert award.status == Payable.Status.OPEN
    row = text(done)[text(done).index(f'data-decision="{decision.pk}"') :]
    assert "To be paid to the player" in row

    pay_page = desk.get(f"/cage/awards/{award.pk}/pay")
    desk.post(
        f"/cage/awards/{award.pk}/pay", {"once": key_of(pay_page), "signed": "on"}
    )
    receipt = Receipt.objects.get()
    assert (receipt.kind, receipt.amount_cents) == (
        Receipt.Kind.AWARD_PAYOUT,
        150_000,
    )
    award.refresh_from_db()
    assert award.status == Payable.Status.PAID
    listed = text(boss.get("/manager/held-awards"))
    row = listed[listed.index(f'data-decision="{decision.pk}"') :]
    assert "Paid to the player" in row and "To be paid" not in row


@pytest.mark.parametrize("language", ["en", "fi", "ko"])
def test_an_award_no_longer_held_is_refused_in_the_pages_language(
    make_staff, award, barred, language
):
    """409 not_held (PP6): the bar ended by a second manager, the award is no
    longer held; its confirm step and its decision are refused with the
    service's words in the page's language, and nothing is booked."""
    client = browser(make_staff, "boss", Role.MANAGER, language)
    confirm = client.get(f"/manager/held-awards/{award.pk}/forfeit")
    restriction_end(
        restriction=barred,
        reason="Reviewed: no collusion",
        by=make_staff("second", Role.MANAGER),
    )
    refusal = said(language, TEXTS[SharedCode.NOT_HELD], ref="bad beat hit 12")
    posted = client.post(
        f"/manager/held-awards/{award.pk}/forfeit",
        {"once": key_of(confirm), "reason": "too late"},
        follow=True,
    )
    assert posted.redirect_chain[-1][0] == "/manager/held-awards"
    assert refusal in text(posted)
    opened = client.get(f"/manager/held-awards/{award.pk}/pay", follow=True)
    assert refusal in text(opened)
    assert not AwardDecision.objects.exists()
    award.refresh_from_db()
    assert award.status == Payable.Status.OPEN


def test_a_decided_award_is_not_decided_again(boss, make_staff, award, barred):
    """Two managers on the same award: the second decision is refused (409
    not_held) and the first stands."""
    other = browser(make_staff, "other", Role.MANAGER)
    url = f"/manager/held-awards/{award.pk}/pay"
    mine, theirs = boss.get(url), other.get(f"/manager/held-awards/{award.pk}/forfeit")
    boss.post(url, {"once": key_of(mine), "reason": "Won before the bar"})
    late = other.post(
        f"/manager/held-awards/{award.pk}/forfeit",
        {"once": key_of(theirs), "reason": "forfeit it"},
        follow=True,
    )
    assert "PP6: award bad beat hit 12 isn&#x27;t held" in text(late)
    assert AwardDecision.objects.get().decision == "pay"


# The exclusion list (PP3, PP4) ------------------------------------------------------


def test_the_exclusion_list_names_who_is_kept_out_now(boss, player, make_staff):
    """A bar in force and a self-exclusion past its period (still in force until
    its lapse, PP4) are listed by name with date of birth, scope, since and
    until; an ended bar and a lapsing self-exclusion's cooled-off lapse aren't.
    The list says neither which kind keeps him out nor why."""
    mia = make_staff("mia", Role.MANAGER)
    until = gaming_day_of() + timedelta(days=200)
    restriction_set(
        player=player,
        kind="bar",
        scope="cash",
        until=until,
        reason="abuse of a dealer",
        by=mia,
    )
    kim = services.player_register(
        code="P-1002", name="Kim Min-jun", birth_date=date(1980, 5, 17)
    )
    restriction_set(
        player=kim,
        kind="self_exclusion",
        scope="room",
        until=None,
        reason="asked at the desk",
        by=mia,
    )
    ended = services.player_register(
        code="P-1003", name="Ville Vailla", birth_date=date(1990, 2, 3)
    )
    bar = restriction_set(
        player=ended, kind="bar", scope="room", until=None, reason="x", by=mia
    )
    restriction_end(
        restriction=bar, reason="reviewed", by=make_staff("max", Role.MANAGER)
    )

    page = text(boss.get("/manager/exclusions"))
    table = page[page.index("<tbody>") : page.index("</tbody>")]
    rows = re.findall(r"<tr data-restriction.*?</tr>", table, re.S)
    assert len(rows) == 2
    aino, kim_row = rows  # by name
    assert "Aino Virtanen" in aino and "P-1001" in aino and "1985-01-01" in aino
    assert "Cash games" in aino and until.isoformat() in aino
    assert "Kim Min-jun" in kim_row and "The room" in kim_row
    assert "For good" in kim_row
    assert "Ville Vailla" not in page
    assert "abuse of a dealer" not in page and "asked at the desk" not in page
    assert "Barred" not in table and "Self-excluded" not in table
    assert 'href="/api/v1/restrictions/exclusions.csv"' in page
    assert "window.print()" in page


def test_the_csv_link_downloads_with_the_managers_session(boss, barred):
    """The page's "Download CSV" is the API's CSV, which the manager's signed-in
    browser opens without a token."""
    answer = boss.get("/api/v1/restrictions/exclusions.csv")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[1][:3] == ["P-1001", "Aino Virtanen", "1985-01-01"]


def test_nobody_kept_out_says_so(boss, player):
    """With no bar and no self-exclusion in force, the list says so."""
    page = text(boss.get("/manager/exclusions"))
    assert "Nobody is kept out now." in page


@pytest.mark.room_evening
def test_a_lapsed_self_exclusion_leaves_the_list(boss, player, make_staff, room_clock):
    """PP4: past its period it stays on the list until the player asks and the
    cooling-off time has passed; then it leaves it."""
    mia = make_staff("mia", Role.MANAGER)
    days = protection_services.protection_settings().min_self_exclusion_days
    row = restriction_set(
        player=player,
        kind="self_exclusion",
        scope="room",
        until=gaming_day_of() + timedelta(days=days),
        reason="asked at the desk",
        by=mia,
    )
    room_clock.shift(timedelta(days=days + 1))
    boss.force_login(User.objects.get(username="boss"))  # his session expired
    assert "Aino Virtanen" in text(boss.get("/manager/exclusions"))
    self_exclusion_lapse(restriction=row, reason="he asked", by=mia)
    assert "Aino Virtanen" in text(boss.get("/manager/exclusions"))
    hours = protection_services.protection_settings().cooling_off_hours
    room_clock.shift(timedelta(hours=hours, minutes=1))
    assert "Nobody is kept out now." in text(boss.get("/manager/exclusions"))


# The settings (PP2, PP4) -------------------------------------------------------------


def settings_form(page, **values: object) -> dict[str, object]:
    version = re.search(r'name="version" value="(\d+)"', text(page))
    assert version, "the form says which version it was read against"
    form: dict[str, object] = {
        "once": key_of(page),
        "version": version.group(1),
        "min_age": 18,
        "min_self_exclusion_days": 365,
        "cooling_off_hours": 48,
        "note": "Licence conditions 2027",
    }
    form.update(values)
    return form


def test_a_new_version_of_the_settings_is_recorded_with_who_and_why(boss, settings):
    """The project's defaults are version 0; a manager records version 1 with
    why, in force at once, listed with who and when. Sent twice, it records
    once."""
    settings.CARDROOM_MIN_AGE = 18
    page = boss.get("/manager/protection-settings")
    shown = text(page)
    assert "In force: version 0" in shown
    assert "The project's defaults: no version is recorded yet." in shown
    assert re.search(r'data-figure="min-age">18<', shown)

    form = settings_form(page, min_age=21)
    done = boss.post("/manager/protection-settings", form, follow=True)
    assert "Version 1 of the protection settings is in force." in text(done)
    row = ProtectionRules.objects.get()
    assert (
        row.version,
        row.min_age,
        row.min_self_exclusion_days,
        row.cooling_off_hours,
        row.note,
        row.created_by.username,
    ) == (1, 21, 365, 48, "Licence conditions 2027", "boss")
    assert protection_services.protection_settings() == Settings(1, 21, 365, 48)
    shown = text(done)
    assert "In force: version 1" in shown and re.search(
        r'data-figure="min-age">21<', shown
    )
    version_row = shown[shown.index('data-version="1"') :]
    assert "Licence conditions 2027" in version_row and "boss" in version_row

    again = boss.post("/manager/protection-settings", form, follow=True)
    assert "This form was already sent; it was recorded once." in text(again)
    assert ProtectionRules.objects.count() == 1


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("min_age", 15),
        ("min_age", 26),
        ("min_self_exclusion_days", 0),
        ("cooling_off_hours", 0),
        ("note", ""),
    ],
)
def test_settings_out_of_bounds_are_refused_and_record_nothing(boss, field, value):
    """The API's bounds: a minimum age from 16 to 25, a self-exclusion of a day
    at least, a cooling-off time of an hour at least, and why."""
    page = boss.get("/manager/protection-settings")
    answer = boss.post(
        "/manager/protection-settings", settings_form(page, **{field: value})
    )
    assert answer.status_code == 422
    assert 'class="error"' in text(answer)
    assert not ProtectionRules.objects.exists()


@pytest.mark.parametrize("language", ["en", "fi", "ko"])
def test_a_version_recorded_meanwhile_is_said_and_nothing_overwritten(
    make_staff, language
):
    """409 settings_changed: another manager records a version after this form
    was read; the form is refused with the service's words in the page's
    language and the new version is shown. Sent again, it is recorded on top."""
    client = browser(make_staff, "boss", Role.MANAGER, language)
    page = client.get("/manager/protection-settings")
    protection_services.protection_settings_change(
        min_age=20,
        min_self_exclusion_days=200,
        cooling_off_hours=24,
        note="the other manager's",
        by=make_staff("other", Role.MANAGER),
    )
    answer = client.post("/manager/protection-settings", settings_form(page))
    assert answer.status_code == 409
    assert said(language, TEXTS[Code.SETTINGS_CHANGED], version=1) in text(answer)
    assert ProtectionRules.objects.count() == 1
    assert re.search(r'data-figure="min-age">20<', text(answer))
    resent = client.post("/manager/protection-settings", settings_form(answer))
    assert resent.status_code == 302
    assert protection_services.protection_settings().version == 2


def test_two_versions_at_once_the_second_is_told(boss, make_staff, monkeypatch):
    """The service's own 409: two managers recording at once read the same
    version; the database takes the first and the second is told, not a 500."""
    stale = protection_services.protection_settings()
    protection_services.protection_settings_change(
        min_age=20,
        min_self_exclusion_days=200,
        cooling_off_hours=24,
        note="first",
        by=make_staff("other", Role.MANAGER),
    )
    # The second request read the settings before the first committed.
    page = boss.get("/manager/protection-settings")
    monkeypatch.setattr(protection_services, "protection_settings", lambda: stale)
    answer = boss.post("/manager/protection-settings", settings_form(page))
    assert answer.status_code == 409
    assert (
        "Version 1 of the protection settings was just recorded by someone else"
        in text(answer)
    )
    assert list(ProtectionRules.objects.values_list("note", flat=True)) == ["first"]
