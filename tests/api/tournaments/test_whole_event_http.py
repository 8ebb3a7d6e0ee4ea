"""One event run from nothing through the HTTP API alone, as a tournament
terminal's or a clock's vendor and the room's staff would run it (TO1–TO12, CA1).

Nothing here calls a service or writes a row. A manager adds the cage and the
room's two tables in the admin (the room's reference data) and issues the tables'
terminal keys; the director sets up the structure, the event, its tables and its
payout table; cashiers open their shifts, register the players and sell entries,
re-entries, rebuys and add-ons; the floor draws the seats, starts the clock (which
starts the event), balances the tables, colours up with a race, proposes the deal
and prepares the payout sheet; the tables' terminals, with their keys, read their
table's clock, post the busts and count their chips; managers approve the partial
refund, the deal, the sheet and the held prize's release; the cage pays. The
server's clock moves as time passes (the room's clock, ``room_clock``); no request
says what level it is.

Every prize is worked out here from the rules (the payout table, the deal's
chip-chop and ICM, a shared place, a partial refund's split), never read back from
the server. At the end the ledger's trial balance is zero, the event's pools are
empty, the chips reconcile from the tables' counts and the cashiers' shifts
reconcile with their tournament lines. The ORM is only read, for the ledger's
final checks.

The seats are drawn at random, so who sits where is read from the floor's map; the
chips are the dealers' business, kept here in ``Room.stacks`` (a pot won moves
chips from one player to another; the server sees only busts and counts).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from fractions import Fraction
from itertools import pairwise
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from accounting.models import Account
from accounting.selectors import trial_balance
from core.roles import Role
from tests.conftest import PASSWORD, ROOM_EVENING
from tournaments.domain import accounts

pytestmark = [pytest.mark.django_db, pytest.mark.room_evening]

API = "/api/v1"
EVENT = "e2e-sunday"
EV = f"{API}/tournaments/{EVENT}"
CAGE = "MAIN"
VAULT = 10_000_000
FLOAT = 1_000_000

# The event's money and chips (TO1, TO7, TO9).
BUY_IN, FEE, STAFF_FEE = 10_000, 1_000, 500
ENTRY_PRICE = BUY_IN + FEE + STAFF_FEE
STACK = 20_000
REBUY, REBUY_FEE, REBUY_CHIPS = 10_000, 500, 20_000
ADDON, ADDON_FEE, ADDON_CHIPS = 10_000, 500, 30_000
UNIT = 500  # prizes in whole €5 notes
GUARANTEE = 200_000
TAX_THRESHOLD = 50_000
PAYOUT_TABLE = [
    {"min_entries": 1, "shares": [10_000]},
    {"min_entries": 2, "shares": [6_500, 3_500]},
    {"min_entries": 10, "shares": [5_000, 3_000, 2_000]},
    {"min_entries": 16, "shares": [4_000, 2_500, 1_700, 1_100, 700]},
]
SHARES_17 = [4_000, 2_500, 1_700, 1_100, 700]
# Three levels of play, the add-on break that colours up the 100 chips, then more.
LEVELS = [
    {"small_blind": 100, "big_blind": 200, "ante": 200, "minutes": 20},
    {"small_blind": 200, "big_blind": 400, "ante": 400, "minutes": 20},
    {"small_blind": 300, "big_blind": 600, "ante": 600, "minutes": 20},
    {"break": True, "minutes": 15, "retire_denomination": 100},
    {"small_blind": 500, "big_blind": 1_000, "ante": 1_000, "minutes": 20},
    {"small_blind": 1_000, "big_blind": 2_000, "ante": 2_000, "minutes": 20},
    {"small_blind": 1_500, "big_blind": 3_000, "ante": 3_000, "minutes": 20},
    {"small_blind": 2_000, "big_blind": 4_000, "ante": 4_000, "minutes": 30},
]
for _level in LEVELS:
    if not _level.get("break"):
        _level["big_blind_ante"] = True
PLAYERS = [f"P-{2001 + n}" for n in range(14)]
# The three stacks the deal is made on (TO5); all the chips in play.
DEAL_STACKS = [340_500, 200_000, 120_000]
PARTIAL_REFUND = 2_345  # of one entry's 115.00, the event altered (TO10)


# --- The rules, worked out here independently of the server -----------------------


def largest_remainder(amount: int, weights: Sequence[int], unit: int = 1) -> list[int]:
    """``amount`` split by ``weights`` in whole ``unit``s, the units left one each to
    the largest remainders (ties to the earlier part), below a unit to the first of
    them."""
    units, below = divmod(amount, unit)
    total = sum(weights)
    exact = [Fraction(units * w, total) for w in weights]
    floors = [int(e) for e in exact]
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[: units - sum(floors)]:
        floors[i] += 1
    shares = [f * unit for f in floors]
    shares[order[0]] += below
    return shares


def place_prizes(pool: int, shares: Sequence[int], unit: int) -> list[int]:
    """TO7: each place its share of the pool rounded down to the unit; the whole
    units left one each from first place down; less than a unit to first place."""
    amounts = [pool * s // 10_000 // unit * unit for s in shares]
    units, below = divmod(pool - sum(amounts), unit)
    for i in range(units):
        amounts[i % len(amounts)] += unit
    amounts[0] += below
    return amounts


def chip_chop(stacks: Sequence[int], prizes: Sequence[int], unit: int) -> list[int]:
    """TO5: everyone the smallest prize left, the rest by chips (biggest stack
    first)."""
    saver = prizes[-1]
    rest = sum(prizes) - saver * len(prizes)
    return [saver + s for s in largest_remainder(rest, stacks, unit)]


def icm(stacks: Sequence[int], prizes: Sequence[int], unit: int) -> list[int]:
    """TO5: Malmuth–Harville equities, exact, then whole units by the largest
    remainder (ties to the bigger stack), below a unit to the biggest stack
    (biggest stack first)."""
    n = len(stacks)

    def equity(left: tuple[int, ...], place: int) -> list[Fraction]:
        result = [Fraction(0)] * n
        if place == len(prizes):
            return result
        chips = sum(stacks[i] for i in left)
        for i in left:
            chance = Fraction(stacks[i], chips)
            result[i] += chance * prizes[place]
            below = equity(tuple(j for j in left if j != i), place + 1)
            for j in left:
                if j != i:
                    result[j] += chance * below[j]
        return result

    exact = equity(tuple(range(n)), 0)
    units, below = divmod(sum(prizes), unit)
    floors = [int(e / unit) for e in exact]
    order = sorted(range(n), key=lambda i: (-(exact[i] / unit - floors[i]), i))
    for i in order[: units - sum(floors)]:
        floors[i] += 1
    amounts = [f * unit for f in floors]
    amounts[0] += below
    return amounts


# --- The HTTP side ------------------------------------------------------------------


def call(
    client: Any,
    method: str,
    path: str,
    body: Any = None,
    *,
    status: int,
    key: str | None = None,
) -> Any:
    """Send ``body`` as JSON and check the answer's status; return its JSON."""
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    if method == "get":
        answer = client.get(path, **headers)
    else:
        send = getattr(client, method)
        answer = send(path, {} if body is None else body, format="json", **headers)
    assert answer.status_code == status, (path, answer.status_code, answer.content)
    return answer.json() if answer.content else None


def error_of(answer: Any, code: str, rule: str | None = None) -> dict[str, Any]:
    """The error of a refused request, with its code and rule checked."""
    assert set(answer) == {"error"}, answer
    error = answer["error"]
    assert error["code"] == code, error
    if rule is not None:
        assert error["rule"] == rule, error
    return error


class Room:
    """The staff's and the terminals' clients, and what the dealers know: each
    player's chips and entry number, what was sold and paid."""

    def __init__(self, login: Callable[..., APIClient], start: datetime) -> None:
        self.manager = login(Role.MANAGER, username="mia")
        self.second_manager = login(Role.MANAGER, username="max")
        self.director = login(Role.FLOOR, username="fred")
        self.cashier = login(Role.CASHIER, username="kalle")
        self.second_cashier = login(Role.CASHIER, username="kaisa")
        self.terminals: dict[str, APIClient] = {}
        self.start = start
        self.stacks: dict[str, int] = {}
        self.entry: dict[str, int] = {}
        self.shifts: dict[str, int] = {}
        # What the cage sold: the cashier, the kind, the player, the receipt.
        self.sold: list[tuple[str, str, str, str]] = []
        # Cash each cashier's drawer took in (+) and paid out (-) for the event.
        self.moved: dict[str, dict[str, int]] = {
            name: {"entries": 0, "refunds": 0, "prizes": 0}
            for name in ("kalle", "kaisa")
        }
        self.hand = 0
        self.raced = {"race": 0, "race_minimum": 0}
        self.refunded_to_pool = 0
        self.reentered: list[str] = []

    def till(self, name: str) -> APIClient:
        return self.cashier if name == "kalle" else self.second_cashier

    def clock(self) -> dict[str, Any]:
        return call(self.director, "get", f"{EV}/clock", status=200)

    def summary(self) -> dict[str, Any]:
        return call(self.director, "get", EV, status=200)

    def seating(self) -> dict[str, tuple[str, int]]:
        """Player → (table, seat), from the floor's map (TO11)."""
        tables = call(self.director, "get", f"{EV}/tables", status=200)
        return {
            s["player"]: (t["table"], s["seat"])
            for t in tables
            for s in t["seated"]
            if s["player"] is not None
        }

    def at_table(self, table: str) -> list[str]:
        """The players at ``table``, by seat."""
        seated = self.seating()
        return sorted(
            (p for p, (t, _seat) in seated.items() if t == table),
            key=lambda p: seated[p][1],
        )

    def pot(self, winner: str, loser: str, chips: int) -> None:
        """A pot the dealer pushes: ``chips`` from ``loser`` to ``winner``."""
        assert 0 < chips < self.stacks[loser]
        self.stacks[loser] -= chips
        self.stacks[winner] += chips

    def bust(self, table: str, busts: Sequence[tuple[str, str]]) -> list[Any]:
        """The table's terminal reports the players out in one hand, ``(loser,
        winner)``: each all in with his stack at the start of the hand, which goes
        to the winner."""
        self.hand += 1
        body = {
            "hand": str(self.hand),
            "busts": [
                {"player": loser, "stack": self.stacks[loser], "busted_by": [winner]}
                for loser, winner in busts
            ],
        }
        answer = call(
            self.terminals[table],
            "post",
            f"{EV}/tables/{table}/busts",
            body,
            status=201,
            key=f"bust-{table}-{self.hand}",
        )
        for loser, winner in busts:
            self.stacks[winner] += self.stacks.pop(loser)
        return answer

    def count_every_table(self) -> int:
        """Each open table's terminal posts its chips; return the room's total."""
        seated = self.seating()
        total = 0
        for table in sorted({t for t, _seat in seated.values()}):
            chips = sum(self.stacks[p] for p, (t, _s) in seated.items() if t == table)
            answer = call(
                self.terminals[table],
                "post",
                f"{EV}/tables/{table}/chip-counts",
                {"chips": chips},
                status=201,
            )
            assert (answer["table"], answer["chips"]) == (table, chips)
            total += chips
        return total

    def move_to(self, clock: Any, minutes: float) -> dict[str, Any]:
        """Let the time pass to ``minutes`` after the clock's start; the clock."""
        clock.move_to(self.start + timedelta(minutes=minutes))
        return self.clock()


def logins(make_staff: Callable[..., User]) -> Callable[..., APIClient]:
    """Staff of a role, logged in through the API with a bearer token."""

    def login(*roles: Role, username: str) -> APIClient:
        make_staff(username, *roles)
        client = APIClient()
        token = call(
            client,
            "post",
            f"{API}/auth/login",
            {"username": username, "password": PASSWORD},
            status=200,
        )["token"]
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        return client

    return login


def admin_add(admin: Client, model: str, form: Mapping[str, Any]) -> None:
    """Add a row of the room's reference data in the admin, as a manager does."""
    answer = admin.post(f"/admin/{model}/add/", form)
    errors = answer.context["errors"] if answer.status_code == 200 else None
    assert answer.status_code == 302, (model, errors)


# --- The steps ----------------------------------------------------------------------


def open_the_room(room: Room) -> None:
    """The cage and the tables in the admin; the vault funded, the terminals' keys
    issued and both cashiers' shifts opened through the API (CA1)."""
    admin = Client()
    signed_in = admin.post(
        "/admin/login/", {"username": "mia", "password": PASSWORD, "next": "/admin/"}
    )
    assert (signed_in.status_code, signed_in["Location"]) == (302, "/admin/")
    admin_add(
        admin,
        "accounting/cage",
        {
            "code": CAGE,
            "name": "Main cage",
            "currency": "EUR",
            "over_short_signoff_cents": 1_000,
            "identity_threshold_cents": 200_000,
        },
    )
    for code in ("TT1", "TT2"):
        admin_add(
            admin,
            "cardroom/table",
            {
                "code": code,
                "name": f"Tournament {code}",
                "seats": 9,
                # The open seats' inline, empty on a new table.
                "sessions-TOTAL_FORMS": 0,
                "sessions-INITIAL_FORMS": 0,
            },
        )
        new = call(
            room.manager,
            "post",
            f"{API}/terminal-keys",
            {"table": code, "name": f"{code} tournament terminal"},
            status=201,
        )
        terminal = APIClient()
        terminal.credentials(HTTP_AUTHORIZATION=f"Api-Key {new['key']}")
        room.terminals[code] = terminal
    call(
        room.manager,
        "post",
        f"{API}/cage/vault",
        {"cage": CAGE, "cash": VAULT, "chips": VAULT, "memo": "the night's money"},
        status=201,
    )
    for name in ("kalle", "kaisa"):
        shift = call(
            room.till(name),
            "post",
            f"{API}/cage/shifts",
            {"cage": CAGE, "cash": FLOAT, "chips": FLOAT},
            status=201,
            key=f"shift-{name}",
        )
        room.shifts[name] = shift["id"]


def register_the_players(room: Room) -> None:
    """Every player is registered, his identity checked, before his first purchase
    (BI10, CA2)."""
    for n, code in enumerate(PLAYERS):
        answer = call(
            room.cashier,
            "post",
            f"{API}/players",
            {
                "id": code,
                "name": f"Player {n + 1}",
                "birth_date": "1985-01-01",
                "id_verified": True,
                "id_document_type": "passport",
                "id_document_number": f"X{1_000_000 + n}",
            },
            status=201,
            key=f"player-{code}",
        )
        assert answer["id"] == code


def set_the_event_up(room: Room) -> None:
    """The director's set-up: the structure, the event with its settings and
    payout table (TO1, TO7, TO12). Its tables come once registration has begun."""
    structure = call(
        room.director,
        "post",
        f"{API}/tournaments/structures",
        {"code": "e2e-turbo", "name": "Turbo, 20 minutes", "levels": LEVELS},
        status=201,
        key="structure",
    )
    assert [level["number"] for level in structure["levels"]] == list(range(1, 9))
    event = call(
        room.director,
        "post",
        f"{API}/tournaments/events",
        {
            "code": EVENT,
            "name": "Sunday €100 re-entry",
            "structure": "e2e-turbo",
            "starts_at": (room.start).isoformat(),
            "buy_in": BUY_IN,
            "fee": FEE,
            "staff_fee": STAFF_FEE,
            "starting_stack": STACK,
            "late_registration_level": 3,
            "reentry_max": 1,
            "rebuy_max": 2,
            "rebuy_until_level": 3,
            "rebuy_stack_limit": STACK,
            "rebuy": REBUY,
            "rebuy_fee": REBUY_FEE,
            "rebuy_chips": REBUY_CHIPS,
            "addon_level": 4,
            "addon": ADDON,
            "addon_fee": ADDON_FEE,
            "addon_chips": ADDON_CHIPS,
            "guarantee": GUARANTEE,
            "payout_unit": UNIT,
            "payout_remainder": "top",
            "tax_document_threshold": TAX_THRESHOLD,
        },
        status=201,
        key="event",
    )
    assert (event["status"], event["entry_total"]) == ("scheduled", ENTRY_PRICE)
    table = call(
        room.director,
        "put",
        f"{EV}/payout-table",
        {"rows": PAYOUT_TABLE},
        status=200,
    )
    assert (table["rows"], table["default"]) == (PAYOUT_TABLE, False)


def enter(room: Room, player: str, level: int, *, till: str = "kalle") -> Any:
    """Sell ``player`` an entry (a re-entry if he busted) at the cage, the cashier
    believing the clock at ``level``."""
    answer = call(
        room.till(till),
        "post",
        f"{EV}/entries",
        {"cage": CAGE, "player": player, "level": level},
        status=201,
        key=f"entry-{player}-{len(room.sold)}",
    )
    assert answer["split"] == {
        "kind": "buy_in",
        "buy_in": BUY_IN,
        "fee": FEE,
        "staff_fee": STAFF_FEE,
        "bounty": 0,
        "total": ENTRY_PRICE,
        "chips": STACK,
    }
    assert answer["receipt"]["amount"] == ENTRY_PRICE
    room.entry[player] = answer["entry"]["number"]
    room.stacks[player] = STACK
    room.sold.append((till, "entry", player, answer["receipt"]["no"]))
    room.moved[till]["entries"] += ENTRY_PRICE
    return answer


def rebuy(room: Room, player: str, level: int, *, till: str = "kalle") -> Any:
    """Sell ``player`` a rebuy (TO1), his stack at or below the limit."""
    receipt = call(
        room.till(till),
        "post",
        f"{EV}/entries/{room.entry[player]}/rebuys",
        {"cage": CAGE, "level": level, "stack": room.stacks[player]},
        status=201,
        key=f"rebuy-{player}-{len(room.sold)}",
    )
    assert receipt["amount"] == REBUY + REBUY_FEE
    room.stacks[player] += REBUY_CHIPS
    room.sold.append((till, "rebuy", player, receipt["no"]))
    room.moved[till]["entries"] += REBUY + REBUY_FEE
    return receipt


def addon(room: Room, player: str, level: int, *, till: str = "kalle") -> Any:
    """Sell ``player`` the add-on at its level (TO1)."""
    receipt = call(
        room.till(till),
        "post",
        f"{EV}/entries/{room.entry[player]}/addons",
        {"cage": CAGE, "level": level},
        status=201,
        key=f"addon-{player}",
    )
    assert receipt["amount"] == ADDON + ADDON_FEE
    room.stacks[player] += ADDON_CHIPS
    room.sold.append((till, "addon", player, receipt["no"]))
    room.moved[till]["entries"] += ADDON + ADDON_FEE
    return receipt


def register_seat_and_start(room: Room, clock: Any) -> None:
    """Ten players register before the start, with no table yet (alternates); the
    director adds the tables, the floor draws their seats and starts the clock,
    which starts the event (TO2, TO11, TO12). Four more register in level 1 and
    draw their seats at the cage; the server refuses a cashier who believes
    another level (409) and a level sent as a string (400)."""
    room.move_to(clock, -30)
    early = PLAYERS[:10]
    for n, player in enumerate(early):
        answer = enter(room, player, 0, till="kalle" if n % 2 else "kaisa")
        assert answer["draw"] is None and answer["entry"]["seat"] is None
    for order, code in enumerate(("TT1", "TT2"), start=1):
        table = call(
            room.director,
            "post",
            f"{EV}/event-tables",
            {"table": code, "seats": 9, "break_order": order},
            status=201,
            key=f"table-{code}",
        )
        assert table == {
            "table": code,
            "seats": 9,
            "break_order": order,
            "status": "open",
        }
    drawn = call(room.director, "post", f"{EV}/seats/draw", {}, status=201, key="draw")
    assert sorted(m["player"] for m in drawn) == sorted(early)
    assert {m["to_table"] for m in drawn} == {"TT1", "TT2"}
    assert len({(m["to_table"], m["to_seat"]) for m in drawn}) == 10
    assert {len(room.at_table("TT1")), len(room.at_table("TT2"))} == {5}

    room.move_to(clock, 0)
    started = call(
        room.director,
        "post",
        f"{EV}/clock",
        {"action": "start", "reason": "shuffle up and deal"},
        status=200,
        key="clock-start",
    )
    assert (started["status"], started["level"], started["structure_level"]) == (
        "running",
        1,
        1,
    )
    assert room.summary()["status"] == "running"

    room.move_to(clock, 3)
    before = room.summary()["entries"]
    wrong = call(
        room.cashier,
        "post",
        f"{EV}/entries",
        {"cage": CAGE, "player": PLAYERS[10], "level": 2},
        status=409,
    )
    assert error_of(wrong, "level_mismatch", "TO12")["allowed"]["level"] == 1
    as_text = call(
        room.cashier,
        "post",
        f"{EV}/entries",
        {"cage": CAGE, "player": PLAYERS[10], "level": "1"},
        status=400,
    )
    assert set(as_text) == {"error"}
    assert room.summary()["entries"] == before == 10
    for n, player in enumerate(PLAYERS[10:]):
        answer = enter(room, player, 1, till="kalle" if n % 2 else "kaisa")
        assert answer["draw"]["table"] == answer["entry"]["table"]
        assert answer["entry"]["kind"] == "entry"
    assert sorted(room.seating()) == sorted(PLAYERS)

    for table, terminal in room.terminals.items():
        shown = call(terminal, "get", f"{EV}/tables/{table}/clock", status=200)
        assert (shown["level"], shown["big_blind"], shown["ante"]) == (1, 200, 200)
        assert shown["big_blind_ante"] is True
        assert shown["players_left"] == 14


def play_the_rebuy_period(room: Room, clock: Any) -> list[str]:
    """Level 1: three players bust, posted by their tables' terminals (TO4).
    Level 2: they re-enter (17 entries); four players rebuy (TO1). Returns the
    re-entered players."""
    room.move_to(clock, 10)
    out = []
    for table in ("TT1", "TT2", "TT1"):
        loser, winner = room.at_table(table)[:2]
        (bust,) = room.bust(table, [(loser, winner)])
        assert (bust["player"], bust["hand"]) == (loser, f"{table}:{room.hand}")
        out.append(loser)
    assert room.summary()["left"] == 11

    shown = room.move_to(clock, 25)
    assert (shown["level"], shown["structure_level"]) == (2, 2)
    for n, player in enumerate(out):
        answer = enter(room, player, 2, till="kaisa" if n else "kalle")
        assert answer["entry"]["kind"] == "reentry"
    room.reentered = out
    summary = room.summary()
    assert (summary["entries"], summary["left"]) == (17, 14)
    # The rebuy period: four players still on their starting stacks rebuy.
    even = sorted(p for p, chips in room.stacks.items() if chips == STACK)
    for n, player in enumerate(even[:4]):
        rebuy(room, player, 2, till="kaisa" if n % 2 else "kalle")
    return out


def hands_of_level_three(room: Room, clock: Any) -> str:
    """Level 3: pots change hands at both tables (seven players each), so that
    stacks differ and hold odd 100 chips for the colour-up, the same whoever the
    draw seated where: by seat, the players keep 300, 200, 400, 100, 0 and 300 in
    odd hundreds, and the last seat what is left (a table's chips are whole 500s).
    One player at TT1, its first seat, is left with three 100 chips. Returns him."""
    room.move_to(clock, 45)
    for table in ("TT1", "TT2"):
        players = room.at_table(table)
        assert len(players) == 7
        for n, (winner, loser) in enumerate(pairwise(players)):
            room.pot(winner, loser, 1_200 + 700 * n)
        *others, last = players
        for player, odd in zip(others, ODD_HUNDREDS, strict=True):
            change = odd - room.stacks[player] % 500
            if change > 0:
                room.pot(player, last, change)
            elif change < 0:
                room.pot(last, player, -change)
    short, *others = room.at_table("TT1")
    leader = max(others, key=lambda p: (room.stacks[p], p))
    room.pot(leader, short, room.stacks[short] - 300)
    return short


# By seat at each table, the odd hundreds of the players' stacks at the break.
ODD_HUNDREDS = [300, 200, 400, 100, 0, 300]


# The cards the race's players draw, in seat order, highest first (TDA R26).
RACE_CARDS = ["As", "Kh", "Qd", "Jc", "Ts", "9h", "8d", "7c", "6s", "5h", "4d"]


def colour_up(room: Room, short: str) -> dict[str, int]:
    """The break colours up the 100 chips into 500s at each table, with a race
    (TO6). Each player's 100 chips are his stack's odd hundreds, and ten more for
    the bigger stacks; the racing players draw cards in seat order, the short
    stack the lowest. Worked out here: whole 500s exchanged, the odd chips raced
    for one 500 each, the rest removed, and the short stack, who held nothing
    else, not raced out (TDA R26-A). Returns the chips removed (``race``) and
    given (``race_minimum``)."""
    removed = added = 0
    seated = room.seating()
    for table in ("TT1", "TT2"):
        players = room.at_table(table)
        retired = {
            p: room.stacks[p] % 500 // 100 + (10 if room.stacks[p] >= 5_000 else 0)
            for p in players
        }
        odd = {p: retired[p] * 100 % 500 for p in players}
        racing = [p for p in players if odd[p]]
        cards = {p: "2c" if p == short else RACE_CARDS[n] for n, p in enumerate(racing)}
        order = [p for p in racing if p != short] + [p for p in racing if p == short]
        chips = min(sum(odd.values()) // 500, len(racing))
        assert (sum(odd.values()), len(racing), chips) == (1_500, 6, 3)
        winners = order[:chips]
        given = [p for p in order[chips:] if room.stacks[p] == odd[p]]
        net = sum(odd.values()) - 500 * (len(winners) + len(given))
        after = {
            p: room.stacks[p] - odd[p] + (500 if p in winners + given else 0)
            for p in players
        }
        race = call(
            room.director,
            "post",
            f"{EV}/races",
            {
                "table": table,
                "denomination": 100,
                "new_denomination": 500,
                "seats": [
                    {
                        "seat": seated[p][1],
                        "stack": room.stacks[p],
                        "retired": retired[p],
                    }
                    for p in players
                ],
                "cards": {str(seated[p][1]): cards[p] for p in racing},
            },
            status=201,
            key=f"race-{table}",
        )
        by_seat = {s["seat"]: s for s in race["seats"]}
        for p in players:
            shown = by_seat[seated[p][1]]
            assert (shown["before"], shown["odd"], shown["after"]) == (
                room.stacks[p],
                odd[p],
                after[p],
            ), p
            assert (shown["won"], shown["given"]) == (p in winners, p in given), p
        assert race["order"] == [seated[p][1] for p in order]
        assert (race["removed"], race["added"]) == (max(net, 0), max(-net, 0))
        removed += max(net, 0)
        added += max(-net, 0)
        room.stacks.update(after)
    # Three 100s and nothing else: he lost the race and keeps a 500 (TDA R26-A).
    assert room.stacks[short] == 500
    assert (removed, added) == (0, 500)
    return {"race": removed, "race_minimum": added}


def partial_refund(room: Room) -> None:
    """The house refunds part of an entry whose player was told the wrong
    structure at the desk (TO10): a manager approves 23.45 of a receipt kalle
    sold, split pro rata over its prize pool, fee and staff fee by the largest
    remainder; kaisa pays it. The player plays on: no chips leave play."""
    latest = {p: (till, no) for till, kind, p, no in room.sold if kind == "entry"}
    player, receipt = next(
        (p, no) for p, (till, no) in sorted(latest.items()) if till == "kalle"
    )
    # A busted entry's purchase isn't refunded while the event runs: his chips
    # still play for its pool (TO10, unless the event's setting allows it).
    busted = next(no for _t, kind, p, no in room.sold if p == room.reentered[0])
    after_bust = call(
        room.manager,
        "post",
        f"{EV}/refunds/{busted}/partial-approve",
        {"reason": "Asked for his money back", "amount": PARTIAL_REFUND},
        status=422,
    )
    error = error_of(after_bust, "refund_after_bust", "TO10")
    assert error["allowed"] == {"setting": "refund_after_bust"}
    parts = dict(
        zip(
            ("prize_pool", "fee", "staff_fee", "bounty"),
            largest_remainder(PARTIAL_REFUND, [BUY_IN, FEE, STAFF_FEE, 0]),
            strict=True,
        )
    )
    assert parts == {"prize_pool": 2_039, "fee": 204, "staff_fee": 102, "bounty": 0}
    url = f"{EV}/refunds/{receipt}"
    body = {"reason": "Told the wrong structure at the desk", "amount": PARTIAL_REFUND}
    by_cashier = call(room.cashier, "post", f"{url}/partial-approve", body, status=403)
    assert set(by_cashier) == {"error"}
    approved = call(
        room.manager,
        "post",
        f"{url}/partial-approve",
        body,
        status=201,
        key=f"refund-approve-{receipt}",
    )
    assert approved["split"] == parts
    assert (approved["amount"], approved["left_after"]) == (
        PARTIAL_REFUND,
        ENTRY_PRICE - PARTIAL_REFUND,
    )
    paid = call(
        room.second_cashier,
        "post",
        url,
        {"cage": CAGE},
        status=201,
        key=f"refund-{receipt}",
    )
    assert (paid["kind"], paid["amount"], paid["player"]) == (
        "entry_refund",
        PARTIAL_REFUND,
        player,
    )
    room.moved["kaisa"]["refunds"] += PARTIAL_REFUND
    room.refunded_to_pool += parts["prize_pool"]


def the_break(room: Room, clock: Any, short: str) -> None:
    """The add-on break (structure level 4): a rebuy now is refused (TO1), eight
    players take the add-on, the 100 chips are coloured up with a race, part of an
    entry is refunded, and every table counts its chips: they reconcile (TO3)."""
    shown = room.move_to(clock, 62)
    assert (shown["on_break"], shown["structure_level"]) == (True, 4)
    assert (shown["rebuys_open"], shown["addon_open"]) == (False, True)
    late = call(
        room.cashier,
        "post",
        f"{EV}/entries/{room.entry[short]}/rebuys",
        {"cage": CAGE, "level": 4, "stack": room.stacks[short]},
        status=422,
    )
    assert error_of(late, "rebuy_period_over", "TO1")["allowed"] == {"until_level": 3}
    buyers = [p for p in sorted(room.stacks) if p != short][:8]
    for n, player in enumerate(buyers):
        addon(room, player, 4, till="kaisa" if n % 2 else "kalle")
    room.raced = colour_up(room, short)
    partial_refund(room)
    reconciled(room)


def reconciled(room: Room) -> None:
    """Every open table's terminal counts its chips; the event's reconciliation,
    from the latest count of each table, balances (TO3): the chips the entries,
    rebuys and add-ons issued (and the race gave), less those the race removed,
    are on the tables."""
    counted = room.count_every_table()
    tables = sorted({table for table, _seat in room.seating().values()})
    sold = [kind for _till, kind, _player, _no in room.sold]
    issued = {
        "entry": sold.count("entry") * STACK,
        "rebuy": sold.count("rebuy") * REBUY_CHIPS,
        "addon": sold.count("addon") * ADDON_CHIPS,
        "race_minimum": room.raced["race_minimum"],
    }
    removed = {"race": room.raced["race"]}
    chips = room.summary()["chips"]
    assert counted == sum(room.stacks.values())
    assert chips["issued"] == {**dict.fromkeys(chips["issued"], 0), **issued}
    assert chips["removed"] == {**dict.fromkeys(chips["removed"], 0), **removed}
    assert chips["in_play"] == sum(issued.values()) - sum(removed.values())
    assert [c["table"] for c in chips["counts"]] == tables
    assert (chips["uncounted"], chips["moved_since"]) == ([], [])
    assert (chips["counted"], chips["difference"], chips["balanced"]) == (
        counted,
        0,
        True,
    )


def rebalance(room: Room) -> dict[str, Any]:
    """The floor balances the tables, breaking what can break (TO11)."""
    before = room.seating()
    done = call(
        room.director,
        "post",
        f"{EV}/tables/rebalance",
        {},
        status=200,
        key=f"rebalance-{room.hand}",
    )
    after = room.seating()
    assert sorted(after) == sorted(before)  # nobody lost or added
    for move in done["moves"]:
        assert after[move["player"]] == (move["to_table"], move["to_seat"])
    counts = [len(room.at_table(t)) for t in sorted({t for t, _s in after.values()})]
    assert max(counts) - min(counts) <= 1
    return done


def bust_one(room: Room) -> dict[str, Any]:
    """At the table with the most players, the shortest stack loses it all to the
    biggest; the terminal reports it; the floor rebalances."""
    seated = room.seating()
    tables = sorted({t for t, _s in seated.values()})
    table = max(tables, key=lambda t: (len(room.at_table(t)), t))
    players = room.at_table(table)
    loser = min(players, key=lambda p: (room.stacks[p], p))
    winner = max(players, key=lambda p: (room.stacks[p], p))
    left = len(room.stacks)
    (bust,) = room.bust(table, [(loser, winner)])
    assert (bust["place_high"], bust["place_low"]) == (left, left)
    return rebalance(room)


def down_to_three(room: Room, clock: Any) -> dict[str, int]:
    """Levels 5 to 8: the players bust one by one, the first table breaks at nine
    left, two go out in one hand (the bigger stack finishes higher), two with equal
    stacks in another (they share places 4 and 5, TO4). Returns the finishing
    players' entry numbers by place shared."""
    shown = room.move_to(clock, 80)
    assert (shown["level"], shown["big_blind"], shown["on_break"]) == (4, 1_000, False)
    broken = []
    while len(room.stacks) > 9:
        broken += bust_one(room)["broken"]
    assert broken == ["TT1"]
    assert set(room.at_table("TT2")) == set(room.stacks)
    # Nine left at one table: two all in against the chip leader in one hand.
    room.move_to(clock, 100)
    players = sorted(room.at_table("TT2"), key=lambda p: (room.stacks[p], p))
    short, shorter = players[1], players[0]
    leader = players[-1]
    if room.stacks[short] == room.stacks[shorter]:
        room.pot(short, leader, 500)
    busts = room.bust("TT2", [(shorter, leader), (short, leader)])
    places = {b["player"]: (b["place_high"], b["place_low"]) for b in busts}
    assert places == {shorter: (9, 9), short: (8, 8)}
    bust_one(room)  # 7th
    room.move_to(clock, 120)
    bust_one(room)  # 6th: the bubble
    # Five left: two equal stacks all in against the leader share 4th and 5th.
    players = sorted(room.stacks, key=lambda p: (room.stacks[p], p))
    a, b, leader = players[0], players[1], players[-1]
    if room.stacks[b] > room.stacks[a]:
        room.pot(leader, b, room.stacks[b] - room.stacks[a])
    busts = room.bust("TT2", [(a, leader), (b, leader)])
    assert {(x["place_high"], x["place_low"]) for x in busts} == {(4, 5)}
    return {a: room.entry[a], b: room.entry[b]}


def the_deal(room: Room, prizes: Sequence[int]) -> dict[str, int]:
    """Three left: the final table counts its chips (they reconcile), the floor
    asks for the figures, the players choose ICM, each signs, a manager who didn't
    record it approves (TO5): the event ends, places by chips. The chip-chop and
    ICM figures are worked out here. Returns each player's deal."""
    players = room.at_table("TT2")
    assert sorted(players) == sorted(room.stacks)
    assert sum(room.stacks.values()) == sum(DEAL_STACKS)
    # The hands before the deal leave the stacks at 340,500, 200,000 and 120,000.
    leader, *others = sorted(players, key=lambda p: (-room.stacks[p], p))
    for player, target in zip(others, DEAL_STACKS[1:], strict=True):
        if room.stacks[player] < target:
            room.pot(player, leader, target - room.stacks[player])
        elif room.stacks[player] > target:
            room.pot(leader, player, room.stacks[player] - target)
    assert sorted(room.stacks.values(), reverse=True) == DEAL_STACKS
    reconciled(room)
    by_chips = sorted(players, key=lambda p: -room.stacks[p])
    stacks = [room.stacks[p] for p in by_chips]
    chop = dict(zip(by_chips, chip_chop(stacks, prizes[:3], UNIT), strict=True))
    fair = dict(zip(by_chips, icm(stacks, prizes[:3], UNIT), strict=True))
    assert sum(chop.values()) == sum(fair.values()) == sum(prizes[:3])
    # docs/api.md's worked event: these are its figures.
    assert [chop[p] for p in by_chips] == [95_000, 76_000, 65_461]
    assert [fair[p] for p in by_chips] == [91_461, 78_000, 67_000]
    numbers = {p: str(room.entry[p]) for p in players}
    chips = {numbers[p]: room.stacks[p] for p in players}
    offers = call(
        room.director,
        "post",
        f"{EV}/deals/offers",
        {"stacks": chips},
        status=200,
    )
    assert offers["prizes"] == list(prizes[:3])
    assert offers["chip_chop"] == {numbers[p]: v for p, v in chop.items()}
    assert offers["icm"] == {numbers[p]: v for p, v in fair.items()}
    missing = call(
        room.director,
        "post",
        f"{EV}/deals/offers",
        {"stacks": {numbers[p]: room.stacks[p] for p in players[:2]}},
        status=422,
    )
    assert error_of(missing, "deal_incomplete", "TO5")["allowed"] == {
        "entries": sorted(int(n) for n in numbers.values())
    }
    deal = call(
        room.director,
        "post",
        f"{EV}/deals",
        {
            "method": "icm",
            "stacks": chips,
            "button_order": [room.entry[p] for p in players],
            "amounts": {numbers[p]: v for p, v in fair.items()},
        },
        status=201,
        key="deal",
    )
    assert (deal["status"], deal["pool"], deal["left_in_play"]) == (
        "proposed",
        sum(prizes[:3]),
        0,
    )
    url = f"{EV}/deals/{deal['id']}"
    for n, player in enumerate(players):
        signed = call(
            room.director,
            "post",
            f"{url}/signatures",
            {"entry": room.entry[player]},
            status=201,
            key=f"sign-{player}",
        )
        assert len(signed["signed"]) == n + 1
        if n < 2:
            early = call(room.manager, "post", f"{url}/approve", status=422)
            error_of(early, "deal_not_signed", "TO5")
    assert signed["status"] == "signed"
    approved = call(room.manager, "post", f"{url}/approve", status=200, key="ok")
    assert (approved["status"], approved["approved_by"]) == ("approved", "mia")
    assert room.summary()["left"] == 0
    stopped = call(
        room.director,
        "post",
        f"{EV}/clock",
        {"action": "stop", "reason": "deal"},
        status=200,
    )
    assert stopped["status"] == "stopped"
    return fair


def the_payouts(
    room: Room,
    prizes: Sequence[int],
    dealt: Mapping[str, int],
    shared: Sequence[str],
) -> None:
    """The floor prepares the payout sheet, the prize of one of the two players who
    share 4th and 5th held (he left before the prize-giving, TDA RP-23); a manager
    approves it (TO7, TO9). The cage pays every prize to its identified player,
    with a tax document from 500.00 (refused without it); a second manager releases
    the held prize and the other cashier pays it."""
    first, second = sorted(shared, key=lambda p: room.entry[p])
    split = largest_remainder(prizes[3] + prizes[4], [1, 1], UNIT)
    assert split == [26_000, 25_500]
    expected = {first: split[0], second: split[1], **dealt}
    places = {first: (4, 5), second: (4, 5)}
    for place, player in enumerate(sorted(dealt, key=lambda p: -room.stacks[p]), 1):
        places[player] = (place, place)
    assert sum(expected.values()) == sum(prizes)
    held = str(room.entry[second])
    sheet = call(
        room.director,
        "post",
        f"{EV}/payout-sheet",
        {"holds": {held: "Left before the prize-giving (TDA RP-23)"}},
        status=201,
        key="sheet",
    )
    assert (sheet["status"], sheet["pool"], sheet["overlay"]) == (
        "prepared",
        sum(prizes),
        0,
    )
    lines = {line["player"]: line for line in sheet["lines"]}
    assert {p: line["amount"] for p, line in lines.items()} == expected
    assert {
        p: (line["place_high"], line["place_low"]) for p, line in lines.items()
    } == places
    four_eyes = call(room.director, "post", f"{EV}/payout-sheet/approve", status=403)
    assert set(four_eyes) == {"error"}
    approved = call(
        room.manager, "post", f"{EV}/payout-sheet/approve", status=200, key="sheet-ok"
    )
    assert (approved["status"], approved["approved_by"]) == ("approved", "mia")
    status = {line["player"]: line["status"] for line in approved["lines"]}
    assert status == {p: "held" if p == second else "payable" for p in expected}

    biggest = max(dealt, key=lambda p: dealt[p])
    assert dealt[biggest] >= TAX_THRESHOLD
    undocumented = call(
        room.cashier,
        "post",
        f"{EV}/payouts/{lines[biggest]['id']}/pay",
        {"cage": CAGE, "player": biggest, "player_signed": True},
        status=422,
    )
    error = error_of(undocumented, "tax_document_required", "TO9")
    assert error["allowed"] == {"threshold_cents": TAX_THRESHOLD}
    for player in sorted(expected, key=lambda p: -expected[p]):
        if player == second:
            continue
        body = {"cage": CAGE, "player": player, "player_signed": True}
        if expected[player] >= TAX_THRESHOLD:
            body["tax_document"] = f"TAX-{player}"
        paid = call(
            room.cashier,
            "post",
            f"{EV}/payouts/{lines[player]['id']}/pay",
            body,
            status=201,
            key=f"pay-{player}",
        )
        assert (paid["kind"], paid["amount"], paid["player"]) == (
            "award_payout",
            expected[player],
            player,
        )
        room.moved["kalle"]["prizes"] += expected[player]

    url = f"{EV}/payouts/{lines[second]['id']}"
    not_yet = call(
        room.second_cashier,
        "post",
        f"{url}/pay",
        {"cage": CAGE, "player": second, "player_signed": True},
        status=422,
    )
    error_of(not_yet, "prize_not_payable", "TO9")
    released = call(
        room.second_manager,
        "post",
        f"{url}/release",
        {"reason": "Came back with his passport"},
        status=200,
        key="release",
    )
    assert (released["status"], released["amount"]) == ("payable", expected[second])
    paid = call(
        room.second_cashier,
        "post",
        f"{url}/pay",
        {"cage": CAGE, "player": second, "player_signed": True},
        status=201,
        key=f"pay-{second}",
    )
    assert (paid["amount"], paid["player"]) == (expected[second], second)
    room.moved["kaisa"]["prizes"] += expected[second]
    final = call(room.director, "get", f"{EV}/payout-sheet", status=200)
    assert {line["status"] for line in final["lines"]} == {"paid"}


def the_books(room: Room) -> None:
    """The ledger's trial balance is zero; the event's prize pool, bounty pool and
    held prizes are empty; each cashier's shift report shows the tournament's lines
    as sold and paid here, reconciles, and closes on its count without over or
    short (CA1)."""
    summary = room.summary()
    assert (summary["status"], summary["prize_pool"], summary["left"]) == (
        "finished",
        0,
        0,
    )
    # Won by the deal: the final reckoning reads the count of the last table (TO3).
    chips = summary["chips"]
    assert chips["counted"] == chips["in_play"] and chips["uncounted"] == []
    assert (chips["difference"], chips["balanced"]) == (0, True)
    # The ORM only reads: the ledger's own checks.
    balance = trial_balance()
    assert balance.balanced and balance.cached_balances_agree
    pools = {
        a.code: a.balance_cents
        for a in Account.objects.filter(code__startswith=f"tournament:{EVENT}:")
    }
    assert set(pools) >= {
        accounts.prize_pool(event=EVENT),
        accounts.held_prizes(event=EVENT),
    }
    assert set(pools.values()) == {0}, pools
    for name, moved in room.moved.items():
        report = call(
            room.till(name), "get", f"{API}/cage/shifts/{room.shifts[name]}", status=200
        )
        cash = report["cash"]
        assert (
            cash["tournament_entries"],
            cash["tournament_refunds"],
            cash["tournament_prizes"],
            cash["tournament_bounties"],
        ) == (moved["entries"], moved["refunds"], moved["prizes"], 0), name
        expected = FLOAT + moved["entries"] - moved["refunds"] - moved["prizes"]
        assert (cash["expected"], cash["from_movements"]) == (expected, expected)
        assert report["reconciled"] is True
        closed = call(
            room.till(name),
            "post",
            f"{API}/cage/shifts/{room.shifts[name]}/close",
            {"cash": expected, "chips": FLOAT},
            status=200,
            key=f"close-{name}",
        )
        assert (closed["status"], closed["cash"]["over_short"]) == ("closed", 0)


def test_an_event_from_nothing_to_the_last_payout(make_staff, room_clock):
    """TO1–TO12, CA1: the whole event through the API; every prize to the cent as
    the payout table and the deal say, the ledger balanced, the pools empty, the
    chips reconciled from the tables' counts."""
    start = ROOM_EVENING + timedelta(hours=1)
    room_clock.move_to(start - timedelta(hours=1))
    room = Room(logins(make_staff), start)
    open_the_room(room)
    register_the_players(room)
    set_the_event_up(room)
    register_seat_and_start(room, room_clock)
    play_the_rebuy_period(room, room_clock)
    short = hands_of_level_three(room, room_clock)
    the_break(room, room_clock, short)
    shared = down_to_three(room, room_clock)
    # The pool: every buy-in, rebuy and add-on, less the refund's part (TO7).
    sold = [kind for _till, kind, _player, _no in room.sold]
    buy_ins = len(sold) * BUY_IN - room.refunded_to_pool
    assert (sold.count("entry"), sold.count("rebuy"), sold.count("addon")) == (17, 4, 8)
    assert buy_ins == 287_961 > GUARANTEE
    prizes = place_prizes(buy_ins, SHARES_17, UNIT)
    assert prizes == [115_961, 72_000, 48_500, 31_500, 20_000]
    assert room.summary()["places_paid"] == prizes
    dealt = the_deal(room, prizes)
    the_payouts(room, prizes, dealt, list(shared))
    the_books(room)
