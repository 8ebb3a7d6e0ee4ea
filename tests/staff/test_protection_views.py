"""The player-protection screens with Django's test client (PP1–PP7): the cage's
look-up at a glance, the manager's bars, self-exclusions and corrections, who
sees a document's number, and every refusal said in the page's language."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from accounting.errors import TEXTS, Code
from accounting.models import (
    DocumentLookup,
    IdentityDocument,
    Player,
    PlayerChange,
    Restriction,
    RestrictionEnd,
)
from accounting.services import cage as services
from accounting.services.cage import gaming_day_of, protection
from core.roles import Role

pytestmark = pytest.mark.django_db

NUMBER = "FI7788123"


def text(page) -> str:
    return page.content.decode()


def key_of(page, kind: str = "") -> str:
    """The idempotency key of the page's first form, or of its ``kind`` of
    restriction form (``bar``, ``self``)."""
    body = text(page)
    if kind:
        body = body[: body.index(f'name="kind" value="{kind}"')]
        return re.findall(r'name="once" value="([^"]+)"', body)[-1]
    found = re.findall(r'name="once" value="([^"]+)"', body)
    assert found, "the form carries no idempotency key"
    return found[0]


def identity_key(page) -> str:
    """The key of the cage's form for a checked identity document (PP1)."""
    found = re.search(
        r'class="identity".*?name="once" value="([^"]+)"', text(page), re.S
    )
    assert found, "the document's form carries no idempotency key"
    return found.group(1)


def said(language: str, message: str, **params: object) -> str:
    """``message`` as the catalogue of ``language`` has it, filled in and escaped
    as a template shows it."""
    with translation.override(language):
        shown = translation.gettext(message) % params
    return shown.replace("'", "&#x27;").replace('"', "&quot;")


def born(years: int, days: int = 0) -> date:
    """The date of birth of a player ``years`` old on today's gaming day, ``days``
    before his birthday."""
    day = gaming_day_of() + timedelta(days=days)
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February, in a year without one
        return date(day.year - years, 3, 1) if days else date(day.year - years, 2, 28)


@pytest.fixture
def aino() -> Player:
    return services.player_register(
        code="P-2001", name="Aino Virtanen", birth_date=born(34)
    )


@pytest.fixture
def managers(make_staff):
    """Two managers' browsers, in English: mia and max."""
    clients = []
    for name in ("mia", "max"):
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(make_staff(name, Role.MANAGER))
        clients.append(client)
    return clients


def browser(make_staff, name: str, role: Role, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(make_staff(name, role))
    return client


def bar_form(page, **values: str) -> dict[str, str]:
    form = {
        "kind": "bar",
        "once": key_of(page, "bar"),
        "bar-scope": "room",
        "bar-until": "",
        "bar-reason": "collusion at T03, camera 4",
    }
    form.update({f"bar-{k}": v for k, v in values.items()})
    return form


# The cage's look-up ---------------------------------------------------------------


def test_the_cage_sees_age_restriction_and_document_never_its_number(
    desk, cashier_user, aino, make_staff
):
    """PP1–PP4 at a glance: his age on the gaming day, his bar with its scope and
    end, his valid passport with who checked it; the number isn't on the page
    and a cashier is offered no look-up."""
    protection.document_record(
        player=aino,
        kind="passport",
        number=NUMBER,
        expires=gaming_day_of() + timedelta(days=900),
        by=cashier_user,
    )
    until = gaming_day_of() + timedelta(days=30)
    protection.restriction_set(
        player=aino,
        kind="bar",
        scope="cash",
        until=until,
        reason="abuse of a dealer",
        by=make_staff("mia", Role.MANAGER),
    )
    page = text(desk.get("/cage/players/P-2001"))
    glance = page[page.index('id="protection"') :]
    assert re.search(r'data-figure="age">\s*<span class="tag ok">34</span>', glance)
    assert f"Barred from cash games until {until.isoformat()}" in glance
    assert "Passport</span>" in glance and "checked by kalle" in glance
    assert NUMBER not in page
    assert "Show number" not in page
    found = text(desk.get("/cage/players?q=virtanen"))
    assert "Barred" in found and NUMBER not in found


def test_no_date_of_birth_is_a_refusal_at_a_glance(desk):
    """PP2: a player without a date of birth is flagged as refused at every
    door, in the search too."""
    services.player_register(code="P-2000", name="Ville Vailla")
    page = text(desk.get("/cage/players/P-2000"))
    assert "No date of birth" in page
    assert "Refused at every door until one is recorded" in page
    assert "No date of birth" in text(desk.get("/cage/players?q=P-2000"))


def test_a_minor_is_shown_his_age_and_the_rooms_minimum(desk):
    """PP2: one day before his 18th birthday (the gaming day decides)."""
    services.player_register(code="P-2017", name="Teemu Nuori", birth_date=born(18, 1))
    page = text(desk.get("/cage/players/P-2017"))
    assert "17: under age" in page
    assert f"the room's minimum age is {settings.CARDROOM_MIN_AGE}" in page


def test_the_cashier_records_a_checked_document_with_its_expiry(
    desk, cashier_user, aino
):
    """PP1: the document, its expiry and who checked it; an expired one is
    refused with its rule and nothing is recorded."""
    past = gaming_day_of() - timedelta(days=1)
    answer = desk.post(
        "/cage/players/P-2001/identity",
        {
            "once": identity_key(desk.get("/cage/players/P-2001")),
            "document_type": "id_card",
            "document_number": "X123",
            "expires": past.isoformat(),
        },
    )
    assert "PP1: this document expired on" in text(answer)
    assert not IdentityDocument.objects.exists()
    expires = gaming_day_of() + timedelta(days=400)
    desk.post(
        "/cage/players/P-2001/identity",
        {
            "once": identity_key(answer),
            "document_type": "id_card",
            "document_number": "X123",
            "expires": expires.isoformat(),
        },
    )
    document = IdentityDocument.objects.get()
    assert (document.kind, document.expires, document.checked_by) == (
        "id_card",
        expires,
        cashier_user,
    )
    page = text(desk.get("/cage/players/P-2001"))
    assert f"valid until {expires.isoformat()}" in page and "X123" not in page


def test_a_checked_document_sent_twice_is_recorded_once(desk, cashier_user, aino):
    """PP1, PP7: a double click on "Record the document" records one check; the
    second post of the same form is told so and records nothing. A form without
    its key is refused, and records nothing either."""
    form = {
        "once": identity_key(desk.get("/cage/players/P-2001")),
        "document_type": "passport",
        "document_number": "FI5566778",
        "expires": (gaming_day_of() + timedelta(days=700)).isoformat(),
    }
    first = desk.post("/cage/players/P-2001/identity", form, follow=True)
    assert "Identity document recorded for Aino Virtanen." in text(first)
    again = desk.post("/cage/players/P-2001/identity", form, follow=True)
    assert again.redirect_chain[-1][0] == "/cage/players/P-2001"
    assert "This form was already sent; it was booked once." in text(again)
    assert "Identity document recorded" not in text(again)
    assert IdentityDocument.objects.filter(player=aino).count() == 1
    keyless = {k: v for k, v in form.items() if k != "once"}
    refused = desk.post("/cage/players/P-2001/identity", keyless)
    assert "This form has expired" in text(refused)
    assert IdentityDocument.objects.filter(player=aino).count() == 1


# Who sees a number ----------------------------------------------------------------


def test_a_manager_sees_a_number_and_his_look_up_is_recorded(
    managers, aino, cashier_user
):
    """PP7: the number is shown to a manager who asks, once asked, and the
    look-up is recorded with why; the page lists who looked."""
    document = protection.document_record(
        player=aino, kind="passport", number=NUMBER, expires=None, by=cashier_user
    )
    mia = managers[0]
    page = text(mia.get("/manager/players/P-2001"))
    assert NUMBER not in page and "Show number" in page
    answer = mia.post(
        f"/manager/documents/{document.pk}/number",
        {"purpose": "police request 2211"},
        HTTP_HX_REQUEST="true",
    )
    assert NUMBER in text(answer) and "<html" not in text(answer)
    assert answer["Cache-Control"] == "no-store"
    lookup = DocumentLookup.objects.get()
    assert (lookup.document, lookup.by.username, lookup.purpose) == (
        document,
        "mia",
        "police request 2211",
    )
    page = text(mia.get("/manager/players/P-2001"))
    assert NUMBER not in page and "police request 2211" in page
    full = text(mia.post(f"/manager/documents/{document.pk}/number"))
    assert NUMBER in full and "<html" in full
    assert DocumentLookup.objects.count() == 2


def test_an_auditor_reads_the_page_but_never_a_number(make_staff, aino, cashier_user):
    """PP7: an auditor sees the restrictions and documents without a look-up
    button, and asking for the number is refused (403) and records nothing."""
    document = protection.document_record(
        player=aino, kind="passport", number=NUMBER, expires=None, by=cashier_user
    )
    auditor = browser(make_staff, "aada", Role.AUDITOR)
    page = auditor.get("/manager/players/P-2001")
    assert page.status_code == 200
    assert NUMBER not in text(page) and "Show number" not in text(page)
    assert "Bar the player" not in text(page)
    answer = auditor.post(f"/manager/documents/{document.pk}/number")
    assert answer.status_code == 403 and NUMBER not in text(answer)
    assert not DocumentLookup.objects.exists()


def test_a_cashier_who_is_a_manager_too_may_look_at_the_cage(cage, make_staff, aino):
    """The cage offers the look-up to a manager (PP7), not to a cashier alone."""
    both = Client(HTTP_ACCEPT_LANGUAGE="en")
    user = make_staff("kim", Role.CASHIER, Role.MANAGER)
    both.force_login(user)
    protection.document_record(
        player=aino, kind="passport", number=NUMBER, expires=None, by=user
    )
    page = text(both.get("/cage/players/P-2001"))
    assert "Show number" in page and NUMBER not in page


# Bars (PP3) -----------------------------------------------------------------------


def test_a_cashier_can_not_bar_a_player(desk, aino):
    """PP3: a bar is a manager's; the cashier is refused (403) and nothing is set."""
    answer = desk.post(
        "/manager/players/P-2001/restrictions",
        {
            "kind": "bar",
            "once": "k1",
            "bar-scope": "room",
            "bar-for_good": "on",
            "bar-reason": "x",
        },
    )
    assert answer.status_code == 403
    assert desk.get("/manager/players/P-2001").status_code == 403
    assert not Restriction.objects.exists()


def test_a_bar_is_set_and_ended_early_only_by_a_second_manager(managers, aino):
    """PP3: mia bars the player for good from the room; her own end is refused
    with the rule and nothing ends; max ends it after a confirm step, with why."""
    mia, max_ = managers
    page = mia.get("/manager/players/P-2001")
    answer = mia.post(
        "/manager/players/P-2001/restrictions", bar_form(page, for_good="on")
    )
    assert answer.status_code == 302
    bar = Restriction.objects.get()
    assert (bar.kind, bar.scope, bar.until, bar.set_by.username) == (
        "bar",
        "room",
        None,
        "mia",
    )
    page = text(mia.get("/manager/players/P-2001"))
    assert "Barred from the room for good" in page and "in force" in page

    confirm = mia.get(f"/manager/restrictions/{bar.pk}/end")
    assert "End the bar on Aino Virtanen early?" in text(confirm)
    refused = mia.post(
        f"/manager/restrictions/{bar.pk}/end",
        {"once": key_of(confirm), "reason": "apologised"},
        follow=True,
    )
    assert said("en", TEXTS[Code.SECOND_MANAGER]) in text(refused)
    assert not RestrictionEnd.objects.exists()

    confirm = max_.get(f"/manager/restrictions/{bar.pk}/end")
    answer = max_.post(
        f"/manager/restrictions/{bar.pk}/end",
        {"once": key_of(confirm), "reason": "apologised in writing"},
        follow=True,
    )
    assert "The bar on Aino Virtanen is ended." in text(answer)
    end = RestrictionEnd.objects.get()
    assert (end.by.username, end.reason) == ("max", "apologised in writing")
    assert "ended early" in text(answer) and "End early…" not in text(answer)


def test_a_bar_needs_an_end_or_for_good_and_a_reason(managers, aino):
    """Neither a day nor "for good", or both, is asked again; nothing is set."""
    mia = managers[0]
    page = mia.get("/manager/players/P-2001")
    answer = mia.post("/manager/players/P-2001/restrictions", bar_form(page))
    assert answer.status_code == 422
    assert "Give the day it ends, or tick “For good”." in text(answer)
    tomorrow = (gaming_day_of() + timedelta(days=1)).isoformat()
    answer = mia.post(
        "/manager/players/P-2001/restrictions",
        bar_form(page, until=tomorrow, for_good="on"),
    )
    assert "Either a day it ends or “For good”, not both." in text(answer)
    assert not Restriction.objects.exists()


def test_a_bar_ending_today_is_refused_in_finnish(make_staff, aino):
    """PP3: a bar ends on a gaming day to come; the refusal is in the page's
    language, with the earliest day allowed."""
    mia = browser(make_staff, "mia", Role.MANAGER, "fi")
    page = mia.get("/manager/players/P-2001")
    today = gaming_day_of()
    answer = mia.post(
        "/manager/players/P-2001/restrictions", bar_form(page, until=today.isoformat())
    )
    assert answer.status_code == 422
    tomorrow = (today + timedelta(days=1)).isoformat()
    assert said("fi", TEXTS[Code.UNTIL_PASSED], min=tomorrow) in text(answer)
    assert not Restriction.objects.exists()


def test_a_double_click_bars_once(managers, aino):
    mia = managers[0]
    page = mia.get("/manager/players/P-2001")
    form = bar_form(page, for_good="on")
    mia.post("/manager/players/P-2001/restrictions", form)
    again = mia.post("/manager/players/P-2001/restrictions", form, follow=True)
    assert "This form was already sent; it was recorded once." in text(again)
    assert Restriction.objects.count() == 1


# Self-exclusions (PP4) ------------------------------------------------------------


def self_form(page, **values: str) -> dict[str, str]:
    form = {
        "kind": "self",
        "once": key_of(page, "self"),
        "self-scope": "room",
        "self-reason": "asked at the desk, signed the form",
    }
    form.update({f"self-{k}": v for k, v in values.items()})
    return form


@pytest.mark.parametrize("language", ["en", "fi", "ko"])
def test_a_self_exclusion_shorter_than_the_minimum_is_refused(
    make_staff, aino, language
):
    """PP4: the service's minimum, said in the page's language with the earliest
    end; nothing is recorded."""
    manager = browser(make_staff, "mia", Role.MANAGER, language)
    page = manager.get("/manager/players/P-2001")
    days = protection.protection_settings().min_self_exclusion_days
    earliest = gaming_day_of() + timedelta(days=days)
    answer = manager.post(
        "/manager/players/P-2001/restrictions",
        self_form(page, until=(earliest - timedelta(days=1)).isoformat()),
    )
    assert answer.status_code == 422
    expected = said(
        language,
        TEXTS[Code.SELF_EXCLUSION_TOO_SHORT],
        days=days,
        min=earliest.isoformat(),
    )
    assert expected in text(answer)
    assert not Restriction.objects.exists()


@pytest.mark.room_evening
def test_a_self_exclusion_has_no_end_and_lapses_at_the_players_request(
    managers, aino, room_clock
):
    """PP4: no end button while it runs, and ending it by hand is refused; once
    its period is over the player asks for it to lapse, which holds until the
    cooling-off time has passed."""
    mia = managers[0]
    page = mia.get("/manager/players/P-2001")
    days = protection.protection_settings().min_self_exclusion_days
    until = gaming_day_of() + timedelta(days=days)
    mia.post(
        "/manager/players/P-2001/restrictions",
        self_form(page, until=until.isoformat()),
    )
    exclusion = Restriction.objects.get()
    assert exclusion.kind == "self_exclusion"
    page = text(mia.get("/manager/players/P-2001"))
    assert f"Self-excluded from the room until {until.isoformat()}" in page
    assert "End early…" not in page and "Player asks to lapse…" not in page
    confirm = mia.get(f"/manager/restrictions/{exclusion.pk}/end")
    answer = mia.post(
        f"/manager/restrictions/{exclusion.pk}/end",
        {"once": key_of(confirm), "reason": "he asks"},
        follow=True,
    )
    assert said("en", TEXTS[Code.SELF_EXCLUSION_FINAL]) in text(answer)
    assert not RestrictionEnd.objects.exists()

    zone = ZoneInfo(settings.TIME_ZONE)
    room_clock.move_to(datetime.combine(until, time(21, 0), tzinfo=zone))
    mia.force_login(exclusion.set_by)  # half a year on, her session has expired
    page = text(mia.get("/manager/players/P-2001"))
    assert "period over, in force until he asks" in page
    assert "Player asks to lapse…" in page
    confirm = mia.get(f"/manager/restrictions/{exclusion.pk}/lapse")
    answer = mia.post(
        f"/manager/restrictions/{exclusion.pk}/lapse",
        {"once": key_of(confirm), "reason": "asked in person, ID checked"},
        follow=True,
    )
    assert "it lapses after the cooling-off time" in text(answer)
    end = RestrictionEnd.objects.get()
    assert end.kind == RestrictionEnd.Kind.LAPSE
    assert "lapsing" in text(answer)


# Corrections (PP7) ----------------------------------------------------------------


def test_a_correction_is_recorded_with_the_old_value_and_why(managers, aino):
    mia = managers[0]
    page = mia.get("/manager/players/P-2001")
    key = re.findall(r'name="once" value="([^"]+)"', text(page))[-1]
    old = aino.birth_date
    new = old - timedelta(days=365)
    form = {
        "once": key,
        "correct-name": "Aino Virtanen-Laine",
        "correct-birth_date": new.isoformat(),
        "correct-reason": "passport checked, typo at registration",
    }
    answer = mia.post("/manager/players/P-2001/correct", form, follow=True)
    assert "The data of P-2001 is corrected." in text(answer)
    changes = {c.field: (c.old, c.new) for c in PlayerChange.objects.all()}
    assert changes == {
        "name": ("Aino Virtanen", "Aino Virtanen-Laine"),
        "birth_date": (old.isoformat(), new.isoformat()),
    }
    assert "passport checked, typo at registration" in text(answer)
    page = mia.get("/manager/players/P-2001")
    key = re.findall(r'name="once" value="([^"]+)"', text(page))[-1]
    answer = mia.post(
        "/manager/players/P-2001/correct",
        {**form, "once": key, "correct-reason": "again"},
    )
    assert said("en", TEXTS[Code.NOTHING_CHANGED]) in text(answer)
    assert PlayerChange.objects.count() == 2
