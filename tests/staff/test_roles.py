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
from django.urls import URLPattern, URLResolver, get_resolver

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
    ("POST", "/cage/count/totals"): CASHIER,
    ("GET", "/cage/boxes"): CASHIER,
    ("POST", "/cage/boxes/count"): CASHIER,
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
    ("GET", "/manager/hits/1"): ("floor", "manager"),
    ("POST", "/manager/hits/1/verify"): ("floor", "manager"),
    ("GET", "/manager/hits/1/approve"): MANAGER,
    ("POST", "/manager/hits/1/reject"): MANAGER,
    ("GET", "/manager/prizes/1"): ("floor", "manager"),
    ("POST", "/manager/prizes/1/verify"): ("floor", "manager"),
    ("GET", "/manager/prizes/1/approve"): MANAGER,
    ("POST", "/manager/prizes/1/reject"): MANAGER,
    ("GET", "/manager/keys"): MANAGER,
    ("POST", "/manager/keys/abc/revoke"): MANAGER,
    ("GET", "/manager/keys/abc/revoke"): MANAGER,
    # Player protection (PP1–PP7): an auditor reads a player's page, never a
    # document's number; only a manager writes.
    ("GET", "/manager/players"): ("manager", "auditor"),
    ("GET", "/manager/players/P-1001"): ("manager", "auditor"),
    ("POST", "/manager/players/P-1001/restrictions"): MANAGER,
    ("POST", "/manager/players/P-1001/correct"): MANAGER,
    ("GET", "/manager/restrictions/1/end"): MANAGER,
    ("POST", "/manager/restrictions/1/end"): MANAGER,
    ("GET", "/manager/restrictions/1/lapse"): MANAGER,
    ("POST", "/manager/restrictions/1/lapse"): MANAGER,
    ("POST", "/manager/documents/1/number"): MANAGER,
    # Held awards (PP6): an auditor reads them and the decisions, only a manager
    # decides; the exclusion list and the settings are a manager's (PP2–PP4).
    ("GET", "/manager/held-awards"): ("manager", "auditor"),
    ("GET", "/manager/held-awards/1/pay"): MANAGER,
    ("POST", "/manager/held-awards/1/pay"): MANAGER,
    ("GET", "/manager/held-awards/1/forfeit"): MANAGER,
    ("POST", "/manager/held-awards/1/forfeit"): MANAGER,
    ("GET", "/manager/exclusions"): MANAGER,
    ("GET", "/manager/protection-settings"): MANAGER,
    ("POST", "/manager/protection-settings"): MANAGER,
}


def staff_patterns() -> set[str]:
    """Every route of the staff screens, the included ones spelled out in full."""
    from staff import urls

    def walk(patterns: list, prefix: str) -> set[str]:
        found: set[str] = set()
        for p in patterns:
            if isinstance(p, URLResolver):
                found |= walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                found.add(prefix + str(p.pattern))
        return found

    return walk(urls.urlpatterns, "")


def test_the_table_names_every_page_of_the_cage_and_the_manager():
    """A new cage or manager screen must be added to the table above (or, for
    the tournament desk, to TOURNAMENT_CAGE_PAGES below)."""
    screens = {p for p in staff_patterns() if p.startswith(("cage/", "manager/"))}
    named = {path.strip("/").split("/")[0] for _method, path in PAGES}
    assert named == {"cage", "manager"}
    desk = {p for p in screens if p.startswith("cage/events/")}
    assert len(screens - desk) == len({path for _m, path in PAGES})
    assert len(desk) == len({path for _m, path in TOURNAMENT_CAGE_PAGES})
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
    ("POST", "/floor/lists/join"): FLOOR,
    ("POST", "/floor/fills"): FLOOR,
    # A list's whole screen and the floor's decisions, out of the admin (WL1–WL10).
    ("GET", "/floor/lists/1"): FLOOR,
    ("POST", "/floor/entries/1/decline"): FLOOR,
    ("POST", "/floor/entries/1/remove"): FLOOR,
    ("GET", "/floor/decisions"): FLOOR,
    ("POST", "/floor/lockups/1/release"): FLOOR,
    ("POST", "/floor/must-moves/1/end"): FLOOR,
    ("POST", "/floor/pairs"): FLOOR,
    ("POST", "/floor/pairs/1/end"): FLOOR,
    # A table's tablets: a manager pairs and unpairs them (the API's
    # terminal-pairings and terminal-keys are a manager's too).
    ("GET", "/floor/tables/T01/tablets"): MANAGER,
    ("GET", "/floor/tables/T01/tablets/abc/unpair"): MANAGER,
    # Refused hands on the floor's home: the floor marks them handled.
    ("GET", "/floor/refused-hands"): FLOOR,
    ("POST", "/floor/refused-hands/1/handle"): FLOOR,
}


def test_each_role_opens_the_floor_pages_the_table_gives_it(make_staff):
    floor = {p for p in staff_patterns() if p.startswith("floor/")}
    events = {p for p in floor if p.startswith("floor/events/")}
    assert len(floor - events) == len(FLOOR_PAGES)
    assert len(events) == len({path for _m, path in TOURNAMENT_FLOOR_PAGES})
    assert wrong_answers(signed_in(make_staff), FLOOR_PAGES) == []


# The tournament desk (TO1–TO12): the cage's part is the cashiers' (a manager
# approves refunds and the payout sheet there); the director's and the floor's
# part is the floor's and the managers' (a manager approves deals and sheets and
# decides held prizes). An event that doesn't exist still answers 403 to a caller
# the table refuses, before it is looked up.
CAGE_DESK = ("cashier", "manager")
TOURNAMENT_CAGE_PAGES: dict[tuple[str, str], tuple[str, ...]] = {
    ("GET", "/cage/events/"): CAGE_DESK,
    ("GET", "/cage/events/EV1"): CAGE_DESK,
    ("POST", "/cage/events/EV1/entries"): CASHIER,
    ("POST", "/cage/events/EV1/entries/1/rebuy"): CASHIER,
    ("POST", "/cage/events/EV1/entries/1/addon"): CASHIER,
    ("POST", "/cage/events/EV1/refunds/MAIN-000001/approve"): MANAGER,
    ("POST", "/cage/events/EV1/refunds/MAIN-000001/pay"): CASHIER,
    ("POST", "/cage/events/EV1/prizes/1/pay"): CASHIER,
    ("POST", "/cage/events/EV1/sheet/approve"): MANAGER,
    ("GET", "/cage/events/EV1/receipts/MAIN-000001"): CAGE_DESK,
}
TOURNAMENT_FLOOR_PAGES: dict[tuple[str, str], tuple[str, ...]] = {
    ("GET", "/floor/events/"): FLOOR,
    ("GET", "/floor/events/tonight"): FLOOR,
    ("GET", "/floor/events/new"): FLOOR,
    ("GET", "/floor/events/structures/new"): FLOOR,
    ("GET", "/floor/events/structures/S1"): FLOOR,
    ("GET", "/floor/events/EV1/"): FLOOR,
    ("GET", "/floor/events/EV1/setup"): FLOOR,
    ("POST", "/floor/events/EV1/tables"): FLOOR,
    ("POST", "/floor/events/EV1/payout-table"): FLOOR,
    ("GET", "/floor/events/EV1/clock"): FLOOR,
    ("POST", "/floor/events/EV1/clock/change"): FLOOR,
    ("POST", "/floor/events/EV1/seats/draw"): FLOOR,
    ("POST", "/floor/events/EV1/tables/balance"): FLOOR,
    ("POST", "/floor/events/EV1/busts"): FLOOR,
    ("POST", "/floor/events/EV1/counts"): FLOOR,
    ("POST", "/floor/events/EV1/disqualify"): FLOOR,
    ("POST", "/floor/events/EV1/chips/remove"): FLOOR,
    ("GET", "/floor/events/EV1/race"): FLOOR,
    ("POST", "/floor/events/EV1/race/record"): FLOOR,
    ("GET", "/floor/events/EV1/races/1"): FLOOR,
    ("GET", "/floor/events/EV1/deal"): FLOOR,
    ("POST", "/floor/events/EV1/deal/propose"): FLOOR,
    ("GET", "/floor/events/EV1/deals/1"): FLOOR,
    ("POST", "/floor/events/EV1/deals/1/sign"): FLOOR,
    ("POST", "/floor/events/EV1/deals/1/approve"): MANAGER,
    ("GET", "/floor/events/EV1/payouts"): FLOOR,
    ("POST", "/floor/events/EV1/payouts/prepare"): FLOOR,
    ("POST", "/floor/events/EV1/payouts/approve"): MANAGER,
    ("POST", "/floor/events/EV1/payouts/1/release"): MANAGER,
    ("POST", "/floor/events/EV1/payouts/1/forfeit"): MANAGER,
}


def test_each_role_opens_the_tournament_pages_the_table_gives_it(make_staff):
    pages = {**TOURNAMENT_CAGE_PAGES, **TOURNAMENT_FLOOR_PAGES}
    assert wrong_answers(signed_in(make_staff), pages) == []


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
    # The proofs of a figure and the days' digest files (docs/digest.md).
    ("GET", "/auditor/proof"): AUDITOR,
    ("GET", "/auditor/proof.json"): AUDITOR,
    ("GET", "/auditor/digests/2026-11-27.json"): AUDITOR,
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
