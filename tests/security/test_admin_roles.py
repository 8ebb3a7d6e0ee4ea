"""Who may open which admin page: every role against every page of the admin.

Like tests/security/test_roles.py for the API, the tables below are the access
policy written out, not read from the code: each role sees the records of its work
(the cage's for cashiers, the floor's for the floor, everything for auditors, read
only) and a manager, who runs the room, also sets up tables and games, manages the
terminals' keys and the staff accounts (API.md "Authentication", issue "Staff
access"). The Django machinery's own records (tokens, task schedules, login logs)
are the superuser's.

Callers: ``anonymous`` (sent to the login page), ``staff`` (a staff account with no
role) and the four roles. A refused page answers 403; an allowed one 200.
"""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from accounting.models import Player
from cardroom.models import TerminalKey
from core.roles import Role

pytestmark = pytest.mark.django_db

CALLERS = ("anonymous", "staff", "cashier", "floor", "manager", "auditor")
NOBODY: tuple[str, ...] = ()
CAGE = ("cashier", "manager", "auditor")
FLOOR_RECORDS = ("floor", "manager", "auditor")
FLOOR = ("floor", "manager")
EVERY_ROLE = ("cashier", "floor", "manager", "auditor")
MANAGER = ("manager",)
REPORT_READERS = ("manager", "auditor")

# The list page of every model registered in the admin.
LISTS: dict[str, tuple[str, ...]] = {
    # The ledger and the cage (CA1-CA6): the cage's people and the auditors.
    "accounting.account": CAGE,
    "accounting.transaction": CAGE,
    "accounting.cage": CAGE,
    "accounting.shift": CAGE,
    "accounting.receipt": CAGE,
    "accounting.boxcount": CAGE,
    "accounting.payable": CAGE,
    "accounting.cashtransaction": CAGE,
    # A floor person signs fills and credits (CA3) and seats registered players.
    "accounting.tableslip": EVERY_ROLE,
    "accounting.player": EVERY_ROLE,
    # Player protection's records (PP1-PP7): managers and auditors read them.
    "accounting.restriction": REPORT_READERS,
    "accounting.restrictionend": REPORT_READERS,
    "accounting.identitydocument": REPORT_READERS,
    "accounting.documentlookup": REPORT_READERS,
    "accounting.playerchange": REPORT_READERS,
    "accounting.protectionrules": REPORT_READERS,
    "accounting.awarddecision": REPORT_READERS,
    "accounting.doorrefusal": REPORT_READERS,
    # The floor's records; a cashier sees the tables he fills.
    "cardroom.room": FLOOR_RECORDS,
    "cardroom.game": FLOOR_RECORDS,
    "cardroom.table": EVERY_ROLE,
    "cardroom.seatsession": FLOOR_RECORDS,
    "cardroom.hand": FLOOR_RECORDS,
    "cardroom.handexception": FLOOR_RECORDS,
    "cardroom.correction": FLOOR_RECORDS,
    "cardroom.absence": FLOOR_RECORDS,
    # Stack reviews (HS6) and voids (RK8): the floor proposes and asks, a manager
    # approves, auditors read; the services write them.
    "cardroom.stackreview": FLOOR_RECORDS,
    "cardroom.handvoid": FLOOR_RECORDS,
    # Hands a terminal posted and the server refused: the floor handles them on
    # its home screen; here they are read.
    "cardroom.handrefusal": FLOOR_RECORDS,
    # Terminal keys: managers create, list and revoke them.
    "cardroom.terminalkey": MANAGER,
    # The one-time codes that paired tablets with tables (read only).
    "cardroom.terminalpairing": MANAGER,
    # Jackpots: the floor and managers decide, auditors read; a cashier pays awards.
    "jackpots.pool": FLOOR_RECORDS,
    "jackpots.category": FLOOR_RECORDS,
    "jackpots.hit": FLOOR_RECORDS,
    "jackpots.month": FLOOR_RECORDS,
    "jackpots.monthhand": FLOOR_RECORDS,
    "jackpots.transfer": FLOOR_RECORDS,
    "jackpots.promotion": FLOOR_RECORDS,
    "jackpots.promotionversion": FLOOR_RECORDS,
    "jackpots.promotionprize": FLOOR_RECORDS,
    "jackpots.award": EVERY_ROLE,
    "reports.report": ("manager", "auditor"),
    # Tournaments: every role reads them (cage entries and payouts, the floor's
    # busts and deals, the auditors); managers set up structures and events.
    "tournaments.structure": EVERY_ROLE,
    "tournaments.event": EVERY_ROLE,
    "tournaments.entry": EVERY_ROLE,
    "tournaments.purchase": EVERY_ROLE,
    "tournaments.chipmovement": EVERY_ROLE,
    "tournaments.bust": EVERY_ROLE,
    "tournaments.bountypayment": EVERY_ROLE,
    "tournaments.deal": EVERY_ROLE,
    "tournaments.payoutsheet": EVERY_ROLE,
    "tournaments.refundapproval": EVERY_ROLE,
    "tournaments.refund": EVERY_ROLE,
    "waitlist.waitinglist": FLOOR,
    "waitlist.entry": FLOOR,
    "waitlist.event": FLOOR,
    "waitlist.lockup": FLOOR,
    "waitlist.mustmove": FLOOR,
    "waitlist.keptapart": FLOOR,
    "waitlist.bar": FLOOR,
    "waitlist.tablebreak": FLOOR,
    "waitlist.timecollection": FLOOR,
    # Staff accounts and lockouts: a manager's (within the roles, core.admin).
    "auth.user": MANAGER,
    "auth.group": MANAGER,
    "axes.accessattempt": MANAGER,
    # The machinery's own records.
    "axes.accessfailurelog": NOBODY,
    "axes.accesslog": NOBODY,
    "knox.authtoken": NOBODY,
    "rest_framework_api_key.apikey": NOBODY,
    "django_celery_beat.periodictask": NOBODY,
    "django_celery_beat.intervalschedule": NOBODY,
    "django_celery_beat.crontabschedule": NOBODY,
    "django_celery_beat.solarschedule": NOBODY,
    "django_celery_beat.clockedschedule": NOBODY,
}

# Add pages: who creates what in the admin (records of play are the services').
ADDS: dict[str, tuple[str, ...]] = {
    "cardroom.terminalkey": MANAGER,
    # Pairing codes are made on the floor screen or over the API, never here.
    "cardroom.terminalpairing": NOBODY,
    "cardroom.handrefusal": NOBODY,
    "cardroom.table": MANAGER,
    "cardroom.game": MANAGER,
    "cardroom.room": MANAGER,
    "cardroom.hand": NOBODY,
    "cardroom.correction": NOBODY,
    "accounting.player": ("cashier", "manager"),
    "accounting.cage": MANAGER,
    "accounting.transaction": NOBODY,
    "jackpots.pool": MANAGER,
    "tournaments.structure": MANAGER,
    "tournaments.event": MANAGER,
    "tournaments.entry": NOBODY,
    "auth.user": MANAGER,
    "auth.group": NOBODY,
}


def _url(model: str, page: str) -> str:
    app, name = model.split(".")
    return f"/admin/{app}/{name}/{page}"


@pytest.fixture
def callers(make_staff) -> dict[str, Client]:
    clients = {"anonymous": Client()}
    for name in CALLERS[1:]:
        roles = [Role(name)] if name in {r.value for r in Role} else []
        client = Client()
        client.force_login(make_staff(f"admin-{name}", *roles))
        clients[name] = client
    return clients


def test_the_tables_name_every_model_of_the_admin_and_no_other():
    """A model registered in the admin fails here until its row says who sees it."""
    registered = {
        f"{m._meta.app_label}.{m._meta.model_name}" for m in admin.site._registry
    }
    assert sorted(registered - set(LISTS)) == [], "models without a row"
    assert sorted(set(LISTS) - registered) == [], "rows without a model"
    assert set(ADDS) <= registered


def _check(callers, url: str, allowed: tuple[str, ...]) -> list[tuple[str, int]]:
    wrong = []
    for name in CALLERS:
        answer = callers[name].get(url)
        if name == "anonymous":
            ok = answer.status_code == 302 and "/admin/login/" in answer["Location"]
        elif name in allowed:
            ok = answer.status_code == 200
        else:
            ok = answer.status_code == 403
        if not ok:
            wrong.append((name, answer.status_code))
    return wrong


@pytest.mark.parametrize("model", sorted(LISTS))
def test_each_role_opens_the_list_pages_the_table_gives_it(callers, model):
    assert _check(callers, _url(model, ""), LISTS[model]) == []


@pytest.mark.parametrize("model", sorted(ADDS))
def test_each_role_opens_the_add_pages_the_table_gives_it(callers, model):
    assert _check(callers, _url(model, "add/"), ADDS[model]) == []


def test_every_staff_account_opens_the_admin_index(callers):
    assert _check(callers, "/admin/", ("staff", *EVERY_ROLE)) == []


def test_the_player_page_shows_no_document_number(callers):
    """PP7: a document's number is shown only by its recorded look-up (the
    player's protection page, the API); the admin shows it to no role."""
    player = Player.objects.create(
        code="P-1001",
        name="Aino",
        id_verified=True,
        id_document_type="passport",
        id_document_number="XP9182736",
    )
    for name in EVERY_ROLE:
        page = callers[name].get(_url("accounting.player", f"{player.pk}/change/"))
        assert page.status_code == 200, name
        html = page.content.decode()
        assert "XP9182736" not in html and "id_document_number" not in html, name
        assert "Aino" in html


def test_a_manager_creates_a_terminal_key_in_the_admin_sees_it_once_and_revokes_it(
    callers, table
):
    boss = callers["manager"]
    answer = boss.post(
        _url("cardroom.terminalkey", "add/"),
        {
            "name": "T01 tablet",
            "table": table.pk,
            "expiry_date_0": "",
            "expiry_date_1": "",
        },
        follow=True,
    )
    assert answer.status_code == 200
    key = TerminalKey.objects.get(name="T01 tablet")
    # The key is its prefix, a dot and 32 letters and digits.
    shown = re.findall(
        rf"{re.escape(key.prefix)}\.[A-Za-z0-9]{{32}}\b", answer.content.decode()
    )
    assert len(shown) == 1  # in the message, once
    terminal = APIClient()
    terminal.credentials(HTTP_AUTHORIZATION=f"Api-Key {shown[0]}")
    assert terminal.get("/api/v1/tables/T01").status_code == 200
    again = boss.get(_url("cardroom.terminalkey", f"{key.pk}/change/"))
    assert shown[0] not in again.content.decode()  # never shown again

    revoked = boss.post(
        _url("cardroom.terminalkey", f"{key.pk}/change/"),
        {
            "name": "T01 tablet",
            "table": table.pk,
            "revoked": "on",
            "expiry_date_0": "",
            "expiry_date_1": "",
        },
    )
    assert revoked.status_code == 302, revoked.content
    assert terminal.get("/api/v1/tables/T01").status_code == 401


def test_a_manager_keeps_staff_accounts_but_cant_raise_anyone_above_the_roles(
    callers, make_staff
):
    boss = callers["manager"]
    clerk = make_staff("clerk", Role.CASHIER)
    root = User.objects.create_superuser("root", password="x" * 20)
    page = boss.get(_url("auth.user", f"{clerk.pk}/change/")).content.decode()
    assert 'name="groups"' in page
    assert 'name="is_superuser"' not in page and 'name="user_permissions"' not in page
    changed = boss.post(
        _url("auth.user", f"{clerk.pk}/change/"),
        {
            "username": "clerk",
            "is_active": "on",
            "is_staff": "on",
            "is_superuser": "on",
            "groups": [g.pk for g in clerk.groups.all()],
            "date_joined_0": "2026-11-29",
            "date_joined_1": "20:00:00",
        },
    )
    assert changed.status_code == 302, changed.content
    clerk.refresh_from_db()
    assert not clerk.is_superuser and not clerk.user_permissions.exists()
    # A superuser's account, and its password, are not a manager's to change.
    assert boss.get(_url("auth.user", f"{root.pk}/password/")).status_code == 403
    assert boss.post(_url("auth.user", f"{root.pk}/delete/")).status_code == 403
    root.refresh_from_db()
    assert root.is_superuser and root.is_active
