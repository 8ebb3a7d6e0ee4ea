"""Who may open which staff screen: every role against every page of the cage,
the manager's approvals and the floor.

Like tests/security/test_admin_roles.py for the admin, the table is the access
policy written out: the cage's screens are a cashier's (the API's IsCashier);
the approvals and terminal keys a manager's (the API's IsManager); anyone else
signed in is refused (403) and an anonymous caller is sent to sign in.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import get_resolver

from core.roles import Role

pytestmark = pytest.mark.django_db

CASHIER = ("cashier",)
MANAGER = ("manager",)
ROLES = ("staff", "cashier", "floor", "manager", "auditor")

# Every page of the cage, as (method, path): who opens it.
PAGES: dict[tuple[str, str], tuple[str, ...]] = {
    ("GET", "/cage/"): CASHIER,
    ("GET", "/cage/shift/open"): CASHIER,
    ("POST", "/cage/shift/open"): CASHIER,
    ("GET", "/cage/shift/close"): CASHIER,
    ("POST", "/cage/shift/close"): CASHIER,
    ("POST", "/cage/shift/close/over-short"): CASHIER,
    ("GET", "/cage/shifts/1"): CASHIER,
    ("GET", "/cage/players"): CASHIER,
    ("GET", "/cage/players/P-1001"): CASHIER,
    ("POST", "/cage/players/P-1001/sell"): CASHIER,
    ("POST", "/cage/players/P-1001/redeem"): CASHIER,
    ("POST", "/cage/players/P-1001/identity"): CASHIER,
    ("GET", "/cage/queue"): CASHIER,
    ("POST", "/cage/slips/1/issue"): CASHIER,
    ("GET", "/cage/awards"): CASHIER,
    ("GET", "/cage/awards/1/pay"): CASHIER,
    ("GET", "/cage/receipts/MAIN-000001"): CASHIER,
    ("GET", "/manager/"): MANAGER,
    ("POST", "/manager/corrections/1"): MANAGER,
    ("POST", "/manager/voids/1"): MANAGER,
    ("POST", "/manager/stack-reviews/1"): MANAGER,
    ("POST", "/manager/shifts/1/sign-off"): MANAGER,
    ("POST", "/manager/months/1"): MANAGER,
    ("GET", "/manager/hits/1"): MANAGER,
    ("GET", "/manager/hits/1/approve"): MANAGER,
    ("POST", "/manager/hits/1/reject"): MANAGER,
    ("GET", "/manager/keys"): MANAGER,
    ("POST", "/manager/keys/abc/revoke"): MANAGER,
    ("GET", "/manager/keys/abc/revoke"): MANAGER,
}


def test_the_table_names_every_page_of_the_cage_and_the_manager():
    """A new cage or manager screen must be added to the table above."""
    from staff import urls

    screens = {
        str(p.pattern)
        for p in urls.urlpatterns
        if str(p.pattern).startswith(("cage/", "manager/"))
    }
    named = {path.strip("/").split("/")[0] for _method, path in PAGES}
    assert named == {"cage", "manager"}
    assert len(screens) == len({path for _m, path in PAGES})
    assert get_resolver().resolve("/cage/").url_name == "cage-home"


def signed_in(make_staff) -> dict[str, Client]:
    """A browser for each role, and one signed in as nobody."""
    clients = {"anonymous": Client()}
    for role in ROLES:
        clients[role] = Client()
        roles = [] if role == "staff" else [Role(role)]
        clients[role].force_login(make_staff(f"u-{role}", *roles))
    return clients


def wrong_answers(
    clients: dict[str, Client], pages: dict[tuple[str, str], tuple[str, ...]]
) -> list[tuple[str, str, str, int]]:
    """The pages that let in a caller the table refuses, or refuse one it lets in."""
    wrong = []
    for (method, path), allowed in pages.items():
        for caller, client in clients.items():
            answer = getattr(client, method.lower())(path)
            if caller == "anonymous":
                ok = answer.status_code == 302 and "/login" in answer["Location"]
            else:
                ok = (answer.status_code != 403) == (caller in allowed)
            if not ok:
                wrong.append((method, path, caller, answer.status_code))
    return wrong


def test_each_role_opens_the_cage_pages_the_table_gives_it(make_staff, cage, player):
    assert wrong_answers(signed_in(make_staff), PAGES) == []


# Every page of the floor: the floor's and the managers' (the admin's FloorAdmin).
FLOOR = ("floor", "manager")
FLOOR_PAGES: dict[tuple[str, str], tuple[str, ...]] = {
    ("GET", "/floor/"): FLOOR,
    ("GET", "/floor/map"): FLOOR,
    ("GET", "/floor/lists"): FLOOR,
    ("POST", "/floor/tables/open"): FLOOR,
    ("POST", "/floor/tables/T01/close"): FLOOR,
    ("GET", "/floor/tables/T01/break"): FLOOR,
    ("GET", "/floor/tables/T01/move"): FLOOR,
    ("GET", "/floor/tables/T01/correction"): FLOOR,
    ("GET", "/floor/tables/T01/void"): FLOOR,
    ("POST", "/floor/lists/1/call"): FLOOR,
    ("POST", "/floor/entries/1/seat"): FLOOR,
}


def test_each_role_opens_the_floor_pages_the_table_gives_it(make_staff):
    from staff import urls

    floor = {
        str(p.pattern) for p in urls.urlpatterns if str(p.pattern).startswith("floor/")
    }
    assert len(floor) == len(FLOOR_PAGES)
    assert wrong_answers(signed_in(make_staff), FLOOR_PAGES) == []


# Every page of the auditor's reports: the auditors' and the managers' (the API's
# IsAuditor).
AUDITOR = ("auditor", "manager")
AUDITOR_PAGES: dict[tuple[str, str], tuple[str, ...]] = {
    ("GET", "/auditor/"): AUDITOR,
    ("POST", "/auditor/produce"): AUDITOR,
    ("GET", "/auditor/reports/1"): AUDITOR,
    ("GET", "/auditor/reports/1/pdf"): AUDITOR,
    ("GET", "/auditor/today"): AUDITOR,
    ("GET", "/auditor/today/pdf"): AUDITOR,
}


def test_each_role_opens_the_auditor_pages_the_table_gives_it(make_staff):
    from staff import urls

    pages = {
        str(p.pattern)
        for p in urls.urlpatterns
        if str(p.pattern).startswith("auditor/")
    }
    assert len(pages) == len(AUDITOR_PAGES)
    assert wrong_answers(signed_in(make_staff), AUDITOR_PAGES) == []
