"""Who may call what: every caller against every operation of the schema.

The table below is the access policy written out from the rule book, not read
from the code: API.md ("Authentication", "Floor set-up", "Table terminal", "The
rest of the REST surface"), RULES.md (BB5 a floor person verifies and a manager
approves, CA1 a supervisor signs off, CA3 a floor person signs fills and credits
that a cashier issues, CA6 a cashier pays approved awards, HM3 a manager approves
the month, JD5 a manager moves jackpot money) and DESIGN.md ("every endpoint needs
a role; a terminal key can post only for its own table; a cashier can't approve
jackpots"). A manager runs the floor, so he may do what floor staff do.

Callers: ``anonymous`` (no credentials), ``staff`` (a staff account with no role),
the four roles, ``terminal`` (the key of table T01, the table in the URL) and
``other_terminal`` (the key of table T02 calling T01's URLs).

A refused call answers 401 (no credentials) or 403 (a role or a table it lacks) in
the error shape; an allowed call is not refused, whatever else it answers (400 for
the empty body sent here, 404 for the made-up ids, and so on).
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from cardroom.models import TerminalKey
from core.roles import Role
from tests.endpoints import concrete, endpoints

pytestmark = pytest.mark.django_db

CALLERS = (
    "anonymous",
    "staff",
    "cashier",
    "floor",
    "manager",
    "auditor",
    "terminal",
    "other_terminal",
)
EVERYONE = CALLERS
ANY_STAFF = ("staff", "cashier", "floor", "manager", "auditor")
# Table terminal endpoints (API.md "Table terminal"): the table's own key, or the
# floor acting for it.
TABLE = ("terminal", "floor", "manager")
FLOOR = ("floor", "manager")
MANAGER = ("manager",)
CASHIER = ("cashier",)
# What the cage records is read by its cashiers, their managers and the auditors.
CAGE_READERS = ("cashier", "manager", "auditor")
# Jackpot funds, hits and months: the floor and managers decide, auditors read.
JACKPOT_READERS = ("floor", "manager", "auditor")
# Reports are the auditors' (read-only, API.md) and the managers'.
REPORT_READERS = ("manager", "auditor")
# A tournament's money and chips: the cage, the floor, managers and auditors.
TOURNAMENT_READERS = ("cashier", "floor", "manager", "auditor")

# A tournament's clock (TO12) is read by its tables' terminals and the staff who
# work the event; the floor runs it, draws seats and balances the tables (TO11).
CLOCK_READERS = ("cashier", "floor", "manager", "auditor")

ALLOWED: dict[tuple[str, str], tuple[str, ...]] = {
    # Public by design: the login, the health check, the board and its jackpots.
    ("post", "/api/v1/auth/login"): EVERYONE,
    ("get", "/healthz"): EVERYONE,
    ("get", "/api/v1/board"): EVERYONE,
    ("get", "/api/v1/board/tournaments"): EVERYONE,
    ("get", "/api/v1/jackpots/summary"): EVERYONE,
    # A staff member ends his own session, whatever his role; a terminal has none.
    ("post", "/api/v1/auth/logout"): ANY_STAFF,
    # Floor set-up: the floor opens and closes tables; setting the room up is a
    # manager's (RK7): the view refuses the floor a game, stakes or policy it lacks.
    ("post", "/api/v1/tables"): FLOOR,
    # API.md "Authentication": a manager creates, lists and revokes terminal keys.
    ("get", "/api/v1/terminal-keys"): MANAGER,
    ("post", "/api/v1/terminal-keys"): MANAGER,
    ("post", "/api/v1/terminal-keys/{prefix}/revoke"): MANAGER,
    # Pairing a tablet (issue 37): a manager makes the one-time code; the tablet,
    # which holds no credentials yet, redeems it (throttled by address).
    ("post", "/api/v1/terminal-pairings"): MANAGER,
    ("post", "/api/v1/terminal/pair"): EVERYONE,
    ("post", "/api/v1/tables/{table}/close"): FLOOR,
    ("get", "/api/v1/tables/{table}"): TABLE,
    # The table terminal (API.md), for its own table only.
    ("post", "/api/v1/tables/{table}/seats"): TABLE,
    ("post", "/api/v1/tables/{table}/seats/{seat}/top-ups"): TABLE,
    ("post", "/api/v1/tables/{table}/seats/{seat}/leave"): TABLE,
    ("post", "/api/v1/tables/{table}/seats/{seat}/away"): TABLE,
    ("post", "/api/v1/tables/{table}/seats/{seat}/back"): TABLE,
    ("post", "/api/v1/tables/{table}/hands"): TABLE,
    ("post", "/api/v1/tables/{table}/hands/batch"): TABLE,
    # What the terminal deals from, and the settlement it shows before posting.
    ("get", "/api/v1/tables/{table}/state"): TABLE,
    ("post", "/api/v1/tables/{table}/hands/preview"): TABLE,
    # Hands a terminal posted and the server refused: the floor handles them,
    # auditors read them.
    ("get", "/api/v1/hand-refusals"): (*FLOOR, "auditor"),
    ("post", "/api/v1/hand-refusals/{id}/handle"): FLOOR,
    # What the server knows of the seats (HS6): the terminal, the floor, auditors.
    ("get", "/api/v1/tables/{table}/seats"): (*TABLE, "auditor"),
    # RK8: a floor person voids, never the key alone; a manager approves a raked
    # hand's void (four-eyes).
    ("post", "/api/v1/tables/{table}/hands/{hand_no}/void"): FLOOR,
    ("post", "/api/v1/voids/{id}/approve"): MANAGER,
    ("post", "/api/v1/voids/{id}/reject"): MANAGER,
    # HS6 stack reviews: the floor proposes, a manager approves, auditors read.
    ("get", "/api/v1/stack-reviews"): (*FLOOR, "auditor"),
    ("post", "/api/v1/stack-reviews/{id}/propose"): FLOOR,
    ("post", "/api/v1/stack-reviews/{id}/approve"): MANAGER,
    # A booked hand as PHH: the table, the floor, and the auditors who replay it.
    ("get", "/api/v1/tables/{table}/hands/{hand_no}.phh"): (*TABLE, "auditor"),
    ("post", "/api/v1/tables/{table}/time"): TABLE,
    ("post", "/api/v1/tables/{table}/calls/{id}/seat"): TABLE,
    # Tournament terminals and clocks (TO3, TO4, TO11, TO12): a table's terminal
    # posts busts and chip counts and reads the clock for its own table (the view
    # checks the table plays in the event); the floor runs the rest.
    ("get", "/api/v1/tournaments/{event}/clock"): CLOCK_READERS,
    ("get", "/api/v1/tournaments/{event}/tables/{table}/clock"): (
        "terminal",
        *CLOCK_READERS,
    ),
    ("post", "/api/v1/tournaments/{event}/clock"): FLOOR,
    ("get", "/api/v1/tournaments/{event}/tables"): FLOOR,
    ("post", "/api/v1/tournaments/{event}/tables/rebalance"): FLOOR,
    ("post", "/api/v1/tournaments/{event}/seats/draw"): FLOOR,
    ("post", "/api/v1/tournaments/{event}/busts"): FLOOR,
    ("post", "/api/v1/tournaments/{event}/tables/{table}/busts"): TABLE,
    ("post", "/api/v1/tournaments/{event}/tables/{table}/chip-counts"): TABLE,
    # BI9: after 30 minutes away the floor picks up the chips and gives them back.
    ("post", "/api/v1/tables/{table}/seats/{seat}/pick-up"): FLOOR,
    ("post", "/api/v1/custody/{player}/return"): FLOOR,
    # Pot corrections and held pots (API.md: floor and manager; DC2).
    ("post", "/api/v1/corrections"): FLOOR,
    ("post", "/api/v1/corrections/{id}/approve"): FLOOR,
    ("post", "/api/v1/corrections/{id}/reject"): FLOOR,
    # Players (BI10, CA2, CA5): registered and identified by a manager or at the
    # cage; every role looks a player up.
    ("post", "/api/v1/players"): ("cashier", "manager"),
    ("post", "/api/v1/players/{code}/identity"): ("cashier", "manager"),
    ("get", "/api/v1/players/{code}"): ("cashier", "floor", "manager", "auditor"),
    # Player protection (API.md, PP1-PP7): a manager corrects a player's identity,
    # bars him and records his self-exclusion; a second manager ends a bar (the
    # view refuses the first); the cage records identity documents too. The
    # number of a document goes to the roles that need it (PP7: the cage's
    # identity and tax records, a manager), never to the floor or the auditors,
    # who read what was checked and by whom. The settings are read by all staff.
    ("patch", "/api/v1/players/{code}"): MANAGER,
    ("post", "/api/v1/players/{code}/documents"): ("cashier", "manager"),
    ("get", "/api/v1/players/{code}/documents"): CAGE_READERS,
    ("get", "/api/v1/documents/{id}/number"): ("cashier", "manager"),
    ("post", "/api/v1/players/{code}/restrictions"): MANAGER,
    ("get", "/api/v1/players/{code}/restrictions"): REPORT_READERS,
    ("post", "/api/v1/restrictions/{id}/end"): MANAGER,  # PP3: a second manager
    ("post", "/api/v1/restrictions/{id}/lapse"): MANAGER,  # PP4: the player asks
    ("get", "/api/v1/restrictions/exclusions"): MANAGER,  # for the door staff
    ("get", "/api/v1/restrictions/exclusions.csv"): MANAGER,
    ("get", "/api/v1/protection/settings"): ("cashier", "floor", "manager", "auditor"),
    ("post", "/api/v1/protection/settings"): MANAGER,  # PP2, PP4
    # PP6: the awards held for restricted players, decided by a manager.
    ("get", "/api/v1/held-awards"): REPORT_READERS,
    ("post", "/api/v1/held-awards/{id}/decide"): MANAGER,
    # The cage (API.md, CA1–CA6): the cashier's work.
    ("post", "/api/v1/cage/shifts"): CASHIER,
    ("post", "/api/v1/cage/shifts/{shift_id}/close"): CASHIER,
    ("get", "/api/v1/cage/shifts/{shift_id}"): CAGE_READERS,
    ("post", "/api/v1/cage/shifts/{shift_id}/sign-off"): MANAGER,  # CA1
    ("post", "/api/v1/cage/purchases"): CASHIER,
    ("post", "/api/v1/cage/redemptions"): CASHIER,
    ("post", "/api/v1/cage/fills"): FLOOR,  # CA3: the floor signs the request
    ("post", "/api/v1/cage/credits"): FLOOR,
    ("post", "/api/v1/cage/fills/{slip_id}/issue"): CASHIER,  # CA3: the cage issues
    ("post", "/api/v1/cage/credits/{slip_id}/issue"): CASHIER,
    ("post", "/api/v1/cage/fills/{slip_id}/cancel"): FLOOR,  # CA3: who signed it
    ("post", "/api/v1/cage/credits/{slip_id}/cancel"): FLOOR,
    ("post", "/api/v1/cage/counts"): CASHIER,  # CA4
    ("get", "/api/v1/cage/counts"): CAGE_READERS,
    ("get", "/api/v1/cage/payables"): CAGE_READERS,
    ("post", "/api/v1/cage/payables/{payable_id}/pay"): CASHIER,  # CA6
    ("get", "/api/v1/cage/receipts/{no}"): CAGE_READERS,
    ("post", "/api/v1/cage/vault"): MANAGER,  # house money into the cage
    ("post", "/api/v1/cage/vault/withdrawals"): MANAGER,  # and out, to the bank
    # Jackpots (BB2, BB5, HM3, HM4, JD5, JD6): a cashier approves none of it.
    ("get", "/api/v1/jackpots/pools"): JACKPOT_READERS,
    ("post", "/api/v1/jackpots/pools"): MANAGER,
    ("get", "/api/v1/jackpots/pools/{pool_id}"): JACKPOT_READERS,
    ("patch", "/api/v1/jackpots/pools/{pool_id}"): MANAGER,
    ("post", "/api/v1/jackpots/pools/{pool_id}/seed"): MANAGER,
    ("post", "/api/v1/jackpots/pools/{pool_id}/retire"): MANAGER,
    ("get", "/api/v1/jackpots/pools/{pool_id}/history"): JACKPOT_READERS,
    ("get", "/api/v1/jackpots/pools/{pool_id}/standings"): JACKPOT_READERS,
    ("post", "/api/v1/jackpots/drops/allocate"): MANAGER,
    ("get", "/api/v1/jackpots/transfers"): JACKPOT_READERS,
    ("get", "/api/v1/jackpots/categories"): JACKPOT_READERS,
    ("get", "/api/v1/jackpots/categories/{code}"): JACKPOT_READERS,
    ("post", "/api/v1/jackpots/categories/{code}/versions"): MANAGER,
    ("get", "/api/v1/jackpots/hits"): JACKPOT_READERS,
    ("get", "/api/v1/jackpots/hits/{hit_id}"): JACKPOT_READERS,
    ("post", "/api/v1/jackpots/hits/{hit_id}/verify"): FLOOR,  # BB5
    ("post", "/api/v1/jackpots/hits/{hit_id}/reject"): FLOOR,  # BB5
    ("post", "/api/v1/jackpots/hits/{hit_id}/approve"): MANAGER,  # BB5
    ("get", "/api/v1/jackpots/months"): JACKPOT_READERS,
    ("get", "/api/v1/jackpots/months/{month_id}"): JACKPOT_READERS,
    ("post", "/api/v1/jackpots/months/{month_id}/approve"): MANAGER,  # HM3
    ("post", "/api/v1/jackpots/months/{month_id}/reject"): MANAGER,  # HM3
    ("get", "/api/v1/jackpots/promotions"): JACKPOT_READERS,
    ("post", "/api/v1/jackpots/promotions"): MANAGER,  # PR1
    ("get", "/api/v1/jackpots/promotions/{promotion_id}"): JACKPOT_READERS,
    ("post", "/api/v1/jackpots/promotions/{promotion_id}/versions"): MANAGER,
    ("post", "/api/v1/jackpots/promotions/{promotion_id}/end"): MANAGER,
    ("get", "/api/v1/jackpots/promotions/{promotion_id}/standings"): JACKPOT_READERS,
    ("post", "/api/v1/jackpots/promotions/{promotion_id}/periods/close"): MANAGER,
    ("get", "/api/v1/jackpots/prizes"): JACKPOT_READERS,
    ("get", "/api/v1/jackpots/prizes/{prize_id}"): JACKPOT_READERS,
    ("post", "/api/v1/jackpots/prizes/{prize_id}/verify"): FLOOR,  # PR5
    ("post", "/api/v1/jackpots/prizes/{prize_id}/reject"): FLOOR,  # PR5
    ("post", "/api/v1/jackpots/prizes/{prize_id}/approve"): MANAGER,  # PR5
    # The cashier sees the awards he pays (CA6).
    ("get", "/api/v1/jackpots/awards"): ("cashier", "floor", "manager", "auditor"),
    # Reports (API.md: auditors, read-only).
    ("get", "/api/v1/reports/"): REPORT_READERS,
    ("post", "/api/v1/reports/"): REPORT_READERS,
    ("get", "/api/v1/reports/{report_id}"): REPORT_READERS,
    ("get", "/api/v1/reports/{report_id}/{fmt}"): REPORT_READERS,
    ("get", "/api/v1/reports/tournaments/{event}/{fmt}"): REPORT_READERS,
    # The day's signed digest and the proofs of a single figure (docs/digest.md).
    ("get", "/api/v1/reports/digests/{day}"): REPORT_READERS,
    ("get", "/api/v1/reports/digests/{day}/file"): REPORT_READERS,
    ("get", "/api/v1/reports/proofs/hands/{table}/{hand_no}"): REPORT_READERS,
    ("get", "/api/v1/reports/proofs/receipts/{number}"): REPORT_READERS,
    ("get", "/api/v1/reports/proofs/awards/{award_id}"): REPORT_READERS,
    # Tournaments at the cage (TO1, TO7, TO9): cashiers sell entries and pay prizes,
    # the floor or a manager prepares the payout sheet, a manager approves it.
    ("get", "/api/v1/tournaments/{event}"): TOURNAMENT_READERS,
    ("post", "/api/v1/tournaments/{event}/entries"): CASHIER,
    ("post", "/api/v1/tournaments/{event}/entries/{number}/rebuys"): CASHIER,
    ("post", "/api/v1/tournaments/{event}/entries/{number}/addons"): CASHIER,
    ("get", "/api/v1/tournaments/{event}/payout-sheet"): TOURNAMENT_READERS,
    ("post", "/api/v1/tournaments/{event}/payout-sheet"): FLOOR,  # TO9
    ("post", "/api/v1/tournaments/{event}/payout-sheet/approve"): MANAGER,  # TO9
    ("post", "/api/v1/tournaments/{event}/payouts/{payout_id}/pay"): CASHIER,  # TO9
    # Refunds (TO10): a manager cancels and approves, a cashier pays (four-eyes).
    ("post", "/api/v1/tournaments/{event}/cancel"): MANAGER,
    ("post", "/api/v1/tournaments/{event}/refunds/{receipt}/approve"): MANAGER,
    ("post", "/api/v1/tournaments/{event}/refunds/{receipt}"): CASHIER,
    # The director's acts (TO3, TO5, TO6): the floor records, a manager approves
    # deals (TO5), releases or forfeits held prizes (TO9) and approves refunds of
    # an amount (TO10).
    ("post", "/api/v1/tournaments/{event}/deals/offers"): FLOOR,
    ("post", "/api/v1/tournaments/{event}/deals"): FLOOR,
    ("get", "/api/v1/tournaments/{event}/deals/{deal_id}"): TOURNAMENT_READERS,
    ("post", "/api/v1/tournaments/{event}/deals/{deal_id}/signatures"): FLOOR,
    ("post", "/api/v1/tournaments/{event}/deals/{deal_id}/approve"): MANAGER,
    ("post", "/api/v1/tournaments/{event}/races"): FLOOR,
    ("post", "/api/v1/tournaments/{event}/chips/removals"): FLOOR,
    ("post", "/api/v1/tournaments/{event}/entries/{number}/disqualify"): FLOOR,
    ("post", "/api/v1/tournaments/{event}/payouts/{payout_id}/release"): MANAGER,
    ("post", "/api/v1/tournaments/{event}/payouts/{payout_id}/forfeit"): MANAGER,
    (
        "post",
        "/api/v1/tournaments/{event}/refunds/{receipt}/partial-approve",
    ): MANAGER,
    # Setting an event up: the director (floor or manager) writes; the event's
    # staff read (TO1, TO7, TO11, TO12).
    ("get", "/api/v1/tournaments/structures"): TOURNAMENT_READERS,
    ("post", "/api/v1/tournaments/structures"): FLOOR,
    ("get", "/api/v1/tournaments/structures/{code}"): TOURNAMENT_READERS,
    ("put", "/api/v1/tournaments/structures/{code}"): FLOOR,
    ("get", "/api/v1/tournaments/events"): TOURNAMENT_READERS,
    ("post", "/api/v1/tournaments/events"): FLOOR,
    ("get", "/api/v1/tournaments/{event}/settings"): TOURNAMENT_READERS,
    ("patch", "/api/v1/tournaments/{event}/settings"): FLOOR,
    ("get", "/api/v1/tournaments/{event}/event-tables"): TOURNAMENT_READERS,
    ("post", "/api/v1/tournaments/{event}/event-tables"): FLOOR,
    ("get", "/api/v1/tournaments/{event}/payout-table"): TOURNAMENT_READERS,
    ("put", "/api/v1/tournaments/{event}/payout-table"): FLOOR,
    ("get", "/api/v1/tournaments/{event}/payout-table/preview"): TOURNAMENT_READERS,
    # Waiting lists and seating (API.md: floor and manager; WL1–WL10).
    ("get", "/api/v1/waitlist/lists"): FLOOR,
    ("get", "/api/v1/waitlist/lists/{key}"): FLOOR,
    ("post", "/api/v1/waitlist/lists/{key}/join"): FLOOR,
    ("post", "/api/v1/waitlist/lists/{key}/call"): FLOOR,
    ("get", "/api/v1/waitlist/entries/{id}"): FLOOR,
    ("post", "/api/v1/waitlist/entries/{id}/answer"): FLOOR,
    ("post", "/api/v1/waitlist/entries/{id}/seat"): FLOOR,
    ("post", "/api/v1/waitlist/entries/{id}/remove"): FLOOR,
    ("post", "/api/v1/waitlist/seat-changes"): FLOOR,
    ("post", "/api/v1/waitlist/tables/{table}/break"): FLOOR,
    ("post", "/api/v1/waitlist/tables/{table}/balance"): FLOOR,  # BI7
    ("get", "/api/v1/waitlist/must-moves"): FLOOR,
    ("post", "/api/v1/waitlist/must-moves"): FLOOR,
    ("post", "/api/v1/waitlist/must-moves/{id}/end"): FLOOR,
    ("get", "/api/v1/waitlist/lockups"): FLOOR,
    ("post", "/api/v1/waitlist/lockups"): FLOOR,
    ("post", "/api/v1/waitlist/lockups/{id}/release"): FLOOR,
    ("get", "/api/v1/waitlist/kept-apart"): FLOOR,
    ("post", "/api/v1/waitlist/kept-apart"): FLOOR,
    ("post", "/api/v1/waitlist/kept-apart/{id}/end"): FLOOR,
    ("get", "/api/v1/waitlist/events"): FLOOR,
    # Receivables (DC3): the cashier collects; the floor that books them reads them.
    ("get", "/api/v1/cage/receivables"): ("cashier", "floor", "manager", "auditor"),
    ("post", "/api/v1/cage/receivables/collections"): CASHIER,
}


def test_the_table_names_every_operation_of_the_schema_and_no_other():
    """A new endpoint fails here until its row says who may call it."""
    schema = set(endpoints())
    assert sorted(schema - set(ALLOWED)) == [], "operations without a row"
    assert sorted(set(ALLOWED) - schema) == [], "rows without an operation"
    for row, callers in ALLOWED.items():
        assert set(callers) <= set(CALLERS), row


@pytest.fixture
def callers(staff_client, table, other_table) -> dict[str, APIClient]:
    """An API client for each caller of the table."""
    clients = {
        "anonymous": APIClient(),
        "staff": staff_client(),
        "cashier": staff_client(Role.CASHIER),
        "floor": staff_client(Role.FLOOR),
        "manager": staff_client(Role.MANAGER),
        "auditor": staff_client(Role.AUDITOR),
    }
    for name, of in (("terminal", table), ("other_terminal", other_table)):
        _, key = TerminalKey.objects.create_key(name=f"{of.code} terminal", table=of)
        clients[name] = APIClient()
        clients[name].credentials(HTTP_AUTHORIZATION=f"Api-Key {key}")
    return clients


@pytest.mark.parametrize(("method", "path"), sorted(ALLOWED))
def test_each_caller_is_let_in_or_refused_as_the_table_says(method, path, callers):
    """Refused callers get 401 (no credentials) or 403 in the error shape; the
    others are not refused."""
    url = concrete(path, table="T01")
    wrong = []
    for name in CALLERS:
        answer = getattr(callers[name], method)(url, {}, format="json")
        if name in ALLOWED[(method, path)]:
            if answer.status_code in (401, 403):
                wrong.append((name, "refused", answer.status_code))
            continue
        expected = (
            (401, "not_authenticated")
            if name == "anonymous"
            else (403, "permission_denied")
        )
        body = answer.json() if answer["Content-Type"] == "application/json" else {}
        error = body.get("error") or {}
        got = (answer.status_code, error.get("code"))
        if got != expected or set(body) != {"error"} or not error.get("detail"):
            wrong.append((name, "let in" if got[0] < 400 else got, answer.status_code))
        elif not {"code", "rule", "detail", "allowed"} <= set(error):
            wrong.append((name, "error shape", error))
    assert wrong == [], f"{method.upper()} {path}"
