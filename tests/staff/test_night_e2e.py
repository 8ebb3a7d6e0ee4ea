"""A room's whole night and the morning after, through the screens a person uses, in
one browser (Chromium) against the live server; the tables' terminals only over HTTP.

The floor opens two new tables and asks the cage for their opening fills (CA3),
puts players on the list and seats them as they are called (WL1, WL2, WL4, BI1);
the terminals, with the keys a manager made on his screen, post hands (API.md);
a player leaves and comes back to his table with the stack he left with (BI5 a);
the floor breaks a table after its confirm page (WL3, BI7); a bad beat is seen on
the floor's home, verified by one manager and approved by another (BB5, four
eyes), and its awards are paid at the cage against the player's signature (CA6);
a mispaid pot's correction is asked on the floor and decided by a manager (HS7,
DC1, DC2); a misdeal is voided on the floor, and a correction of the voided hand
is refused (RK8). Three
cashiers, in English, Finnish and Korean, each open a shift with a count, work
and close it with a count that matches the drawer (CA1). The room's clock passes
the gaming day's cut-off, the room's own hour (BI8), and a hand of the next day is
dealt; in the morning the auditor produces the night's daily audit and its
jackpot report, whose every reconciliation check agrees and whose standings hold
only the night's hands.

What the people read is asserted as the catalogues say it (:func:`say`), with
money as ``core.money`` writes it, so a screen left in English fails in Finnish
and Korean. The screenshots of each step go to docs/screens/night/
(``<nn>-<step>-<lang>.png``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import requests
from django.utils import translation

from accounting.models import Account, BoxCount, Cage, Payable, Shift
from accounting.services import cage as cage_services
from cardroom.models import Correction, Game, Hand, HandVoid, Room, SeatSession, Table
from cardroom.services import policy_publish
from core.money import units_format
from core.roles import Role
from jackpots import services as jackpot_services
from jackpots import tasks as jackpot_tasks
from jackpots.models import Award, Hit, Pool
from reports.models import Report
from staff.cage.forms import denominations
from tests.api.floor.conftest import POLICY
from tests.conftest import PASSWORD
from tests.staff.browser import browser_in, chromium, euros, say, say_count

__all__ = ["browser_in", "chromium"]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.room_evening,
]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "night"
HELSINKI = ZoneInfo("Europe/Helsinki")
NIGHT = date(2026, 11, 29)  # the gaming day of the night (ROOM_EVENING)
CUTOFF = 7  # the room's gaming day ends at 07:00 room time, not the default 06:00
SEED = 500_000  # the house's seed of the bad-beat pool
BUY_IN = 20_000
TRAY = 200_000  # each new table's opening fill
FLOAT_CASH, FLOAT_CHIPS = 500_000, 1_000_000  # the English cashier's float
PLAYERS = [
    ("P-101", "Aino Virtanen"),
    ("P-102", "Ji-woo Kim"),
    ("P-103", "Mikko Korhonen"),
    ("P-104", "Seo-yeon Park"),
    ("P-105", "Emma Nieminen"),
    ("P-106", "Min-jun Lee"),
    ("P-107", "Juha Mäkinen"),
    ("P-108", "Hana Choi"),
]
NAMES = dict(PLAYERS)
STAFF = {
    "fred": Role.FLOOR,
    "mia": Role.MANAGER,
    "mats": Role.MANAGER,
    "kalle": Role.CASHIER,
    "kaisa": Role.CASHIER,
    "minji": Role.CASHIER,
    "audrey": Role.AUDITOR,
}


class Shots:
    """Numbered screenshots of the night: ``07-fills-issued-en.png``."""

    def __init__(self) -> None:
        self.n = 0
        SCREENS.mkdir(parents=True, exist_ok=True)

    def __call__(self, page: Any, step: str, language: str) -> None:
        self.n += 1
        path = SCREENS / f"{self.n:02d}-{step}-{language}.png"
        page.screenshot(path=str(path), full_page=True)


@dataclass
class Terminal:
    """A table's terminal: its key typed in from the manager's screen, it seats
    nobody and reads the seats the server holds before each hand (HS6), posts
    hands and lets players leave (API.md "Table terminal")."""

    url: str
    table: str
    key: str
    hand_no: int = 0
    http: requests.Session = field(default_factory=requests.Session)

    def __post_init__(self) -> None:
        self.http.headers["Authorization"] = f"Api-Key {self.key}"
        self.base = f"{self.url}/api/v1/tables/{self.table}"

    def seats(self) -> dict[int, tuple[str, int]]:
        answer = self.http.get(f"{self.base}/seats", timeout=30)
        assert answer.status_code == 200, answer.text
        return {s["seat"]: (s["player"], s["stack"]) for s in answer.json()["seats"]}

    def seat_of(self, player: str) -> int:
        return next(n for n, (p, _) in self.seats().items() if p == player)

    def deal(
        self,
        board: str,
        shown: dict[int, str],
        *,
        put_in: int = 1_000,
        awarded: dict[int, int] | None = None,
    ) -> dict[str, Any]:
        """Post the next hand: the seats in ``shown`` put in ``put_in`` each and
        table their cards, the others fold without putting anything in."""
        self.hand_no += 1
        seats = []
        for n, (player, stack) in sorted(self.seats().items()):
            row: dict[str, Any] = {
                "seat": n,
                "player": player,
                "stack": stack,
                "present": True,
                "put_in": put_in if n in shown else 0,
                "folded": n not in shown,
            }
            if n in shown:
                row["cards"] = shown[n].split()
            seats.append(row)
        record: dict[str, Any] = {
            "table": self.table,
            "hand_no": self.hand_no,
            "game": "NLHE",
            "button": seats[0]["seat"],
            "streets": 4,
            "board": board.split(),
            "seats": seats,
        }
        if awarded is not None:
            record["awarded"] = [{"seat": s, "amount": a} for s, a in awarded.items()]
        answer = self.http.post(
            f"{self.base}/hands",
            json=record,
            headers={"Idempotency-Key": f"{self.table}-{self.hand_no}"},
            timeout=30,
        )
        assert answer.status_code == 201, answer.text
        return answer.json()

    def misdeal(self) -> dict[str, Any]:
        """Post the next hand as the deal left it: the blinds posted after the
        button (the first seat), everyone else folded in turn, no flop."""
        self.hand_no += 1
        seats = sorted(self.seats().items())
        blinds = {seats[1][0]: 100, seats[2][0]: 200}
        record = {
            "table": self.table,
            "hand_no": self.hand_no,
            "game": "NLHE",
            "button": seats[0][0],
            "streets": 1,
            "board": [],
            "seats": [
                {
                    "seat": n,
                    "player": player,
                    "stack": stack,
                    "present": True,
                    "put_in": blinds.get(n, 0),
                    "folded": n != seats[2][0],
                }
                for n, (player, stack) in seats
            ],
        }
        answer = self.http.post(f"{self.base}/hands", json=record, timeout=30)
        assert answer.status_code == 201, answer.text
        return answer.json()

    def leave(self, seat: int) -> dict[str, Any]:
        stack = self.seats()[seat][1]
        answer = self.http.post(
            f"{self.base}/seats/{seat}/leave", json={"stack": stack}, timeout=30
        )
        assert answer.status_code == 200, answer.text
        return answer.json()


# Setting up what the admin holds: the room, its cage, its game and policy, its pools,
# its players and staff. Everything the night does after this goes through a screen
# or a terminal.


def room_set_up(make_staff) -> None:
    """The room (its gaming day ending at 07:00, BI8), its cage with a funded
    vault, its game NLHE €1/€2 and the game's policy, its bad-beat pool seeded
    by the house and its hand-of-the-month pool, its players and its staff."""
    room = Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
        language="fi",
        gaming_day_cutoff_hour=CUTOFF,
    )
    for username, role in STAFF.items():
        make_staff(username, role)
    owner = make_staff("owner", Role.MANAGER)
    cage = Cage.objects.create(code="MAIN", name="Main cage", currency="EUR")
    cage_services.cage_vault_fund(
        cage=cage, cash_cents=5_000_000, chips_cents=5_000_000, by=owner
    )
    game = Game.objects.create(
        room=room,
        code="NLHE",
        small_blind_cents=100,
        big_blind_cents=200,
        min_buy_in_cents=10_000,
        max_buy_in_cents=40_000,
    )
    policy_publish(game=game, document=POLICY, by=owner)
    for code, name, kind, ratio, seed in (
        ("bad-beat", "Bad beat jackpot", Pool.Kind.BAD_BEAT, 3, SEED),
        ("hotm", "Hand of the month", Pool.Kind.HAND_OF_THE_MONTH, 1, 0),
    ):
        jackpot_services.pool_create(
            room=room,
            code=code,
            name=name,
            kind=kind,
            drop_ratio=ratio,
            seed_cents=seed,
            by=owner,
        )
    for code, name in PLAYERS:
        cage_services.player_register(
            code=code, name=name, id_verified=True, birth_date=date(1985, 1, 1)
        )


def sign_in(open_page, url: str, username: str, language: str, home: str) -> Any:
    page = open_page(language)
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}{home}")
    return page


def said(page: Any, expect: Any, text: str) -> None:
    """The page's messages say ``text``, and no error."""
    expect(page.locator(".messages")).to_contain_text(text)
    expect(page.locator(".messages .error")).to_have_count(0)


def count_in(cents: int, values: list[int]) -> tuple[dict[int, int], int]:
    """``cents`` counted in ``values`` (largest first) and what is left over."""
    counted: dict[int, int] = {}
    for value in values:
        counted[value], cents = divmod(cents, value)
    return {v: n for v, n in counted.items() if n}, cents


def count_fill(page: Any, language: str, cash: int, chips: int) -> None:
    """Type a drawer's count by denomination: notes and coins, chips."""
    notes, chip_values = denominations()
    for name in [f"note_{v}" for v in notes] + [f"chip_{v}" for v in chip_values]:
        page.fill(f'input[name="{name}"]', "")
    in_notes, coins = count_in(cash, notes)
    in_chips, rest = count_in(chips, chip_values)
    assert rest == 0, "chips come in whole chips"
    for value, n in in_notes.items():
        page.fill(f'input[name="note_{value}"]', str(n))
    for value, n in in_chips.items():
        page.fill(f'input[name="chip_{value}"]', str(n))
    page.fill(
        'input[name="coins"]', units_format(coins, "EUR", language) if coins else ""
    )


# The night, step by step: each step works on the night's shared state ------------


@dataclass
class Night:
    """What the night's steps share: the browser, who is signed in where, the
    tables' terminals and the bad beat's awards."""

    url: str
    open_page: Any
    expect: Any
    clock: Any  # the room's clock (tests.conftest.room_clock): the server's too
    shot: Shots = field(default_factory=Shots)
    pages: dict[str, Any] = field(default_factory=dict)
    terminals: dict[str, Terminal] = field(default_factory=dict)
    awards: list[Award] = field(default_factory=list)
    roles: dict[str, str] = field(default_factory=dict)  # loser, winner: player
    payout: int = 0

    def page(self, who: str, home: str, language: str = "en") -> Any:
        """``who``'s page, signed in on first use."""
        if who not in self.pages:
            self.pages[who] = sign_in(self.open_page, self.url, who, language, home)
        return self.pages[who]

    def floor(self) -> Any:
        """The floor's home, loaded, its live parts too."""
        fred = self.page("fred", "/floor/")
        fred.goto(f"{self.url}/floor/")
        self.expect(fred.locator("#tournaments")).not_to_contain_text(
            say("en", "Loading…")
        )
        return fred

    def close(self, who: str) -> None:
        self.pages.pop(who).context.close()

    def at(self, hour: int, minute: int = 0) -> None:
        """Move the room's clock to ``hour:minute`` of the night: the evening of 29
        November, or the small hours of the 30th, the same gaming day until the
        room's cut-off (BI8)."""
        day = NIGHT.day if hour >= 12 else NIGHT.day + 1
        moment = datetime(2026, 11, day, hour, minute, tzinfo=HELSINKI)
        self.clock.move_to(moment)

    def snap(self, page: Any, step: str, language: str = "en") -> None:
        """A screenshot once the page's live parts have loaded."""
        events = page.locator("#tournaments")
        if events.count():
            loading = say(language, "Loading…")
            self.expect(events).not_to_contain_text(loading)
        self.shot(page, step, language)


def test_a_rooms_night_and_the_morning_after(
    live_server, browser_in, make_staff, room_clock
):
    open_page, expect = browser_in
    room_set_up(make_staff)
    night = Night(live_server.url, open_page, expect, room_clock)

    # 21:00 on a Sunday: the English cashier opens his shift with a count.
    kalle = night.page("kalle", "/cage/")
    cashier_open(night, kalle, "en", FLOAT_CASH, FLOAT_CHIPS)
    tables_opened_and_filled(night)
    eight_seated_from_the_list(night)
    terminals_keyed(night)
    night.at(22, 30)
    a_player_leaves_and_returns(night)
    night.at(23, 40)
    a_table_broken(night)
    night.at(0, 30)  # a new calendar day, the same gaming day (BI8)
    a_bad_beat_verified_and_approved(night)
    night.at(1, 15)
    a_pot_corrected(night)
    a_misdeal_voided(night)
    a_foul_deck_voided_by_a_manager(night)
    night.at(4, 30)
    the_cage_pays_and_closes(night)
    the_cut_off_passes(night)
    the_auditors_morning(night)


def tables_opened_and_filled(night: Night) -> None:
    """The floor opens two new tables; their trays are empty, so it asks the cage
    for each opening fill (CA3), and the cashier issues them from his queue."""
    url, expect, fred = night.url, night.expect, night.floor()
    for code in ("T01", "T02"):
        fred.fill('input[name="code"]', code)
        fred.fill('input[name="seats"]', "9")
        fred.click(f"button:has-text('{say('en', 'Open the table')}')")
        said(fred, expect, say("en", "Table %(t)s is open.", t=code))
        fred.select_option('#fills select[name="table"]', code)
        fred.fill('#fills input[name="amount"]', "2000")
        fred.click(f"#fills button:has-text('{say('en', 'Ask for the fill')}')")
        asked = "Fill of %(amount)s for %(t)s asked of the cage; a cashier issues it."
        said(fred, expect, say("en", asked, amount=euros(TRAY, "en"), t=code))
    expect(fred.locator("#fills li")).to_have_count(2)
    night.snap(fred, "tables-opened-fills-asked", "en")

    kalle = night.page("kalle", "/cage/")
    kalle.goto(f"{url}/cage/")
    for code in ("T01", "T02"):
        row = kalle.locator("#queue tr", has_text=code)
        expect(row).to_contain_text(euros(TRAY, "en"))
        if code == "T01":
            night.snap(kalle, "queue-of-fills", "en")
        row.get_by_role("button", name=say("en", "Issue the fill")).click()
        issued = "Fill of %(amount)s issued to table %(table)s."
        said(kalle, expect, say("en", issued, amount=euros(TRAY, "en"), table=code))
    expect(kalle.locator("#queue")).to_contain_text(say("en", "Nothing is waiting."))


def eight_seated_from_the_list(night: Night) -> None:
    """The floor puts eight players on the list (one typed by name) and seats each
    as he is called: the calls fill the two tables in turn (WL1, WL2, WL4), a €200
    cash buy-in each, its chips from the tray the cage filled (BI1, CA3)."""
    expect, fred = night.expect, night.floor()
    expect(fred.locator("#fills li")).to_have_count(0)
    join = fred.locator("form.join")
    for code, name in PLAYERS:
        join.locator('input[name="player"]').fill(name if code == "P-101" else code)
        join.get_by_role("button", name=say("en", "Add to the list")).click()
        said(fred, expect, say("en", "%(p)s is on the list.", p=name))
    night.snap(fred, "list-of-eight", "en")
    for code, name in PLAYERS:
        fred.get_by_role("button", name=say("en", "Call the next player")).click()
        expect(fred.locator(".messages .success")).to_contain_text(f"{name} ")
        row = fred.locator(f'#lists tr[data-player="{code}"]')
        row.locator('input[name="amount"]').fill("200")
        row.get_by_role("button", name=say("en", "Seat the player")).click()
        expect(fred.locator(".messages .success")).to_contain_text(
            re.compile(re.escape(name) + r" .*T0[12]")
        )
    tables = SeatSession.objects.filter(ended_at=None).values_list("table__code")
    assert sorted(t for (t,) in tables) == ["T01"] * 4 + ["T02"] * 4
    one, many = "%(n)s of %(seats)s seat taken", "%(n)s of %(seats)s seats taken"
    for code in ("T01", "T02"):
        card = fred.locator(f'[data-table="{code}"]')
        expect(card).to_contain_text(say_count("en", one, many, 4, seats=9))
        expect(card.locator("tfoot")).to_contain_text(euros(4 * BUY_IN, "en"))
    night.snap(fred, "eight-seated", "en")


def terminals_keyed(night: Night) -> None:
    """A manager gives each table's terminal its key on his screen; the key is
    read off the page, as the dealer types it into the tablet."""
    mia = night.page("mia", "/manager/")
    for code in ("T01", "T02"):
        mia.goto(f"{night.url}/manager/keys")
        mia.select_option('select[name="table"]', code)
        mia.get_by_label(say("en", "What it is for")).fill(f"{code} dealer tablet")
        mia.get_by_role("button", name=say("en", "Create the key")).click()
        secret = mia.locator(".secret")
        night.expect(secret).to_be_visible()
        key = (secret.text_content() or "").strip()
        night.terminals[code] = Terminal(night.url, code, key)


def a_player_leaves_and_returns(night: Night) -> None:
    """A hand at each table, four-handed: rake, no drop (JD1 asks six). The
    winner at T01 leaves with his chips; back more than an hour later, the floor
    lists him and he is called to T01 again (the fewest players, WL4): BI5 (a)
    asks for the stack he left with, so less is refused in money, and he sits
    with it in chips."""
    expect, t01, t02 = night.expect, night.terminals["T01"], night.terminals["T02"]
    first = t02.seats()
    t02.deal("2c 7d 9h Js 3d", {min(first): "Ah Ad", max(first): "Kh Kd"})
    seats = t01.seats()
    leaving = min(seats)
    leaver = seats[leaving][0]
    settled = t01.deal("2c 7d 9h Js 3d", {leaving: "Ah Ad", max(seats): "Kh Kd"})
    left_with = next(s for s in settled["seats"] if s["seat"] == leaving)
    assert left_with["final_stack"] == BUY_IN + 1_000 - 100  # won €10, €1 rake
    assert t01.leave(leaving)["left_with"] == left_with["final_stack"]
    stack = left_with["final_stack"]

    night.at(23, 35)  # more than an hour later: BI5's night, past BI6's hour
    fred = night.floor()
    join = fred.locator("form.join")
    join.locator('input[name="player"]').fill(leaver)
    join.get_by_role("button", name=say("en", "Add to the list")).click()
    said(fred, expect, say("en", "%(p)s is on the list.", p=NAMES[leaver]))
    fred.get_by_role("button", name=say("en", "Call the next player")).click()
    expect(fred.locator(".messages .success")).to_contain_text("T01")
    row = fred.locator(f'#lists tr[data-player="{leaver}"]')
    row.locator('input[name="amount"]').fill("100")
    row.locator('select[name="method"]').select_option("chips")
    row.get_by_role("button", name=say("en", "Seat the player")).click()
    refusal = fred.locator(".messages .error")
    expect(refusal).to_contain_text("BI5")
    expect(refusal).to_contain_text(euros(stack, "en"))
    night.snap(fred, "return-refused-bi5", "en")
    row.locator('input[name="amount"]').fill(units_format(stack, "EUR", "en"))
    row.locator('select[name="method"]').select_option("chips")
    row.get_by_role("button", name=say("en", "Seat the player")).click()
    expect(fred.locator(".messages .success")).to_contain_text(NAMES[leaver])
    back = SeatSession.objects.get(player__code=leaver, ended_at=None)
    assert (back.table.code, back.kind, back.stack_cents) == (
        "T01",
        SeatSession.Kind.RETURN,
        stack,
    )
    seat = fred.locator(f'[data-table="T01"] tr[data-seat="{back.seat}"]')
    expect(seat).to_contain_text(euros(stack, "en"))
    night.snap(fred, "returned-with-his-stack", "en")


def a_table_broken(night: Night) -> None:
    """The floor breaks T02: the confirm page shows where each player goes (WL3,
    BI7); confirmed, they move with their stacks and the table closes."""
    expect, fred = night.expect, night.floor()
    moving = night.terminals["T02"].seats()
    breaking = say("en", "Break the table")
    fred.click(f'[data-table="T02"] >> text={breaking}')
    plan = fred.locator('[data-figure="plan"] tbody tr')
    expect(plan).to_have_count(4)
    for n in range(4):
        expect(plan.nth(n)).to_have_attribute("data-to", re.compile(r"^T01/\d$"))
    night.snap(fred, "break-confirm", "en")
    fred.get_by_role("button", name=breaking).click()
    broken = (
        "Table %(t)s is broken: %(moved)d moved, %(waiting)d wait at the head of "
        "the list."
    )
    said(fred, expect, say("en", broken, t="T02", moved=4, waiting=0))
    assert Table.objects.get(code="T02").status == Table.Status.CLOSED
    after = dict(night.terminals["T01"].seats().values())
    assert all(after[p] == s for p, s in moving.values()), "BI7: stacks kept"
    night.snap(fred, "t02-broken", "en")


def a_bad_beat_verified_and_approved(night: Night) -> None:
    """T01 deals eight-handed: a €1 drop each hand (JD1), three parts of four to
    the bad beat (JD4). Hand 3 is a bad beat: aces full of tens lose to four tens
    (BB1, BB2's category 1). The floor sees it to verify; one manager verifies it
    and may not approve it, another approves it (BB5, four eyes): category 1 pays
    90 % of the pool at the hand (BB2, BB4), in eight shares (BB6)."""
    expect, t01 = night.expect, night.terminals["T01"]
    seats = t01.seats()
    order = sorted(seats)
    t01.deal("2c 7d 9h Js 3d", {order[1]: "Ah Ad", order[2]: "Kh Kd"})
    beat = t01.deal("Ac Th Td 5s 2c", {order[3]: "As Ad", order[4]: "Ts Tc"})
    assert beat["jackpot_drop"] == 100
    night.roles = {"loser": seats[order[3]][0], "winner": seats[order[4]][0]}

    # The scheduler's sweep qualifies the hands booked since the last one (every
    # two seconds in the room): run now.
    jackpot_tasks.qualify_new_task()
    hit = Hit.objects.get()
    fred = night.floor()
    expect(fred.locator("#hits")).to_contain_text("T01#3")
    night.snap(fred, "bad-beat-to-verify", "en")

    mats = night.page("mats", "/manager/")
    mats.goto(f"{night.url}/manager/hits/{hit.pk}")
    mats.get_by_label(say("en", "What was checked")).fill("cards tabled, camera 3")
    mats.get_by_role("button", name=say("en", "Verify the hit")).click()
    verified = "Hit %(id)d verified; a manager, another person, approves it."
    said(mats, expect, say("en", verified, id=hit.pk))
    expect(mats.locator("#four-eyes")).to_contain_text(
        say("en", "BB5: you verified this hit; another manager approves it.")
    )
    night.snap(mats, "hit-verified-four-eyes", "en")

    mia = night.page("mia", "/manager/")
    mia.goto(f"{night.url}/manager/")
    mia.locator("#hits").get_by_role("link", name=say("en", "Look at the hit")).click()
    mia.get_by_role("link", name=say("en", "Approve…")).click()
    # The pool at the hand: the seed and three parts of four of the two drops
    # (JD4, BB4); category 1 pays 90 % of it (BB2).
    night.payout = (SEED + 75 + 75) * 90 // 100
    expect(mia.locator("h1")).to_contain_text(euros(night.payout, "en"))
    night.snap(mia, "hit-approve-confirm", "en")
    mia.get_by_role("button", name=say("en", "Yes, approve and book")).click()
    approved = "Hit %(id)d approved: its awards are payable at the cage."
    said(mia, expect, say("en", approved, id=hit.pk))
    night.awards = list(hit.awards.select_related("player", "payable", "pool"))
    assert len(night.awards) == 8  # the loser, the winner, six table shares
    assert sum(a.amount_cents for a in night.awards) == night.payout


def a_pot_corrected(night: Night) -> None:
    """Hand 4: the dealer pushes the pot to the wrong player (HS7). The floor asks
    for the pot correction before the next hand (DC1); a manager approves it
    (DC2) and the chips move."""
    expect, t01 = night.expect, night.terminals["T01"]
    seats = t01.seats()
    right, wrong = sorted(seats)[5:7]
    mispaid = t01.deal(
        "2c 7d 9h Js 3d", {right: "Ah Ad", wrong: "Kh Kd"}, awarded={wrong: 1_800}
    )
    assert any(e["code"] == "mispaid_pot" for e in mispaid["exceptions"])
    fred = night.floor()
    fred.locator('[data-table="T01"]').get_by_role(
        "link", name=say("en", "Ask for a correction")
    ).click()
    correction_fill(
        fred, 4, seats[wrong][0], seats[right][0], "dealer pushed the pot to seat 7"
    )
    fred.get_by_role("button", name=say("en", "Ask for the correction")).click()
    asked = "Correction of %(amount)s asked for at %(t)s; it waits for a manager."
    said(fred, expect, say("en", asked, amount=euros(1_800, "en"), t="T01"))
    correction = Correction.objects.get()

    mia = night.page("mia", "/manager/")
    mia.goto(f"{night.url}/manager/")
    corrections = mia.locator("#corrections")
    expect(corrections).to_contain_text(euros(1_800, "en"))
    night.snap(mia, "correction-to-decide", "en")
    corrections.get_by_role("button", name=say("en", "Approve")).click()
    booked = "Correction %(id)d approved and booked."
    said(mia, expect, say("en", booked, id=correction.pk))
    stacks = t01.seats()
    # Each put in €10; the pot, less €1 rake and €1 drop, is the right one's.
    assert stacks[right][1] == seats[right][1] - 1_000 + 1_800
    assert stacks[wrong][1] == seats[wrong][1] - 1_000


def a_misdeal_voided(night: Night) -> None:
    """Hand 5: a misdeal, a card exposed on the deal: the blinds are in, nobody
    acted. The floor voids it; it took no rake and no drop, so the floor's
    decision books it at once (RK8) and the blinds go back. A correction of the
    voided hand is then refused (RK8)."""
    expect, t01 = night.expect, night.terminals["T01"]
    before = t01.seats()
    t01.misdeal()
    fred = night.floor()
    fred.locator('[data-table="T01"]').get_by_role(
        "link", name=say("en", "Void a hand")
    ).click()
    expect(fred.locator('input[name="hand_no"]')).to_have_value("5")
    fred.locator('select[name="reason"]').select_option("misdeal")
    night.snap(fred, "void-a-misdeal", "en")
    fred.get_by_role("button", name=say("en", "Void the hand")).click()
    said(fred, expect, say("en", "Hand %(n)s is void and booked back.", n=5))
    assert HandVoid.objects.get().status == HandVoid.Status.BOOKED
    assert t01.seats() == before  # every contribution back

    fred.goto(f"{night.url}/floor/tables/T01/correction")
    seats = sorted(before)
    source, target = before[seats[2]][0], before[seats[1]][0]
    correction_fill(fred, 5, source, target, "blinds pushed to the big blind")
    fred.get_by_role("button", name=say("en", "Ask for the correction")).click()
    expect(fred.locator(".messages .error")).to_contain_text("RK8")
    night.snap(fred, "no-correction-of-a-void", "en")
    assert Correction.objects.count() == 1


def a_foul_deck_voided_by_a_manager(night: Night) -> None:
    """Hand 6 went to the showdown and paid rake and drop; then a duplicate card is
    found in the deck. A foul deck voids the hand however far it went (RK8, TDA
    R37-E); it took rake and drop, so the floor's request waits for a manager, who
    approves it on the approvals screen (four eyes, DC2), and every contribution
    goes back, rake and drop included."""
    expect, t01 = night.expect, night.terminals["T01"]
    before = t01.seats()
    first, second = sorted(before)[:2]
    played = t01.deal("4c 8d Th Qs 2h", {first: "Ac Kc", second: "9s 9c"})
    assert (played["rake"], played["jackpot_drop"]) == (100, 100)
    fred = night.floor()
    fred.locator('[data-table="T01"]').get_by_role(
        "link", name=say("en", "Void a hand")
    ).click()
    expect(fred.locator('input[name="hand_no"]')).to_have_value("6")
    fred.locator('select[name="reason"]').select_option("duplicate_card")
    fred.get_by_role("button", name=say("en", "Void the hand")).click()
    said(
        fred,
        expect,
        say("en", "Void of hand %(n)s asked for; it waits for a manager.", n=6),
    )
    void = HandVoid.objects.get(hand__hand_no=6, hand__table__code="T01")
    assert void.status == HandVoid.Status.PENDING

    mia = night.page("mia", "/manager/")
    mia.goto(f"{night.url}/manager/")
    voids = mia.locator("#voids")
    expect(voids).to_contain_text(say("en", "duplicate card"))
    expect(voids).to_contain_text(euros(100, "en"))
    night.snap(mia, "void-to-decide", "en")
    voids.get_by_role("button", name=say("en", "Approve")).click()
    done = "The void of hand %(hand)s is approved and booked."
    said(mia, expect, say("en", done, hand=str(void.hand)))
    void.refresh_from_db()
    assert void.status == HandVoid.Status.BOOKED
    assert t01.seats() == before  # every contribution back, rake and drop too


def the_cage_pays_and_closes(night: Night) -> None:
    """The cage pays the bad beat against each player's signature (CA6): the
    English cashier the loser's award, a Finnish and a Korean cashier the others,
    each in a shift of his own opened and closed with a count; every count
    matches the drawer (CA1)."""
    by_player = {a.player.code: a for a in night.awards}
    loser, winner = by_player[night.roles["loser"]], by_player[night.roles["winner"]]
    others = [a for a in night.awards if a not in (loser, winner)]
    kalle = night.page("kalle", "/cage/")
    paid = cashier_pays(night, kalle, "en", [loser])
    cashier_close(
        night, kalle, "kalle", "en", FLOAT_CASH - paid, FLOAT_CHIPS - 2 * TRAY
    )
    shifts = {
        "fi": ("kaisa", 300_000, [winner, *others[:3]]),
        "ko": ("minji", 200_000, others[3:]),
    }
    for language, (who, cash, awards) in shifts.items():
        page = night.page(who, "/cage/", language)
        cashier_open(night, page, language, cash, 100_000)
        paid = cashier_pays(night, page, language, awards)
        cashier_close(night, page, who, language, cash - paid, 100_000)
        night.close(who)
    assert not Payable.objects.exclude(status=Payable.Status.PAID).exists()
    assert [
        (s.status, s.over_short_cash_cents, s.over_short_chips_cents)
        for s in Shift.objects.all()
    ] == [(Shift.Status.CLOSED, 0, 0)] * 3


def the_cut_off_passes(night: Night) -> None:
    """At 06:30 on the room's clock the night is still today's gaming day, open
    until the room's cut-off at 07:00 (BI8): the auditor may look at it, as it
    stands and provisional, but not produce it. At 07:10 the night has ended;
    T01 plays on, and its next hand, a straight flush, belongs to the next day."""
    for who in list(night.pages):
        night.close(who)
    night.at(6, 30)
    audrey = night.page("audrey", "/auditor/")
    expect = night.expect
    expect(audrey.locator("#produce-day")).to_contain_text(
        say("en", HINT, day="2026-11-28", today="2026-11-29")
    )
    form = audrey.locator("#produce-day")
    form.locator('input[name="day"]').fill(NIGHT.isoformat())
    form.locator("button[type=submit]").click()
    expect(audrey.locator("#provisional")).to_be_visible()
    night.snap(audrey, "before-the-cut-off-provisional", "en")
    assert not Report.objects.exists()

    night.at(7, 5)
    the_boxes_counted(night)
    night.at(7, 10)
    t01 = night.terminals["T01"]
    late = t01.seats()
    dealt = t01.deal("5h 6h 7h Kc 2d", {min(late): "8h 9h", max(late): "Ah Ad"})
    assert dealt["jackpot_drop"] == 100
    jackpot_tasks.qualify_new_task()
    next_day = Hand.objects.get(table__code="T01", hand_no=t01.hand_no)
    assert next_day.gaming_day == date(2026, 11, 30)


def the_boxes_counted(night: Night) -> None:
    """07:05, the night over: the morning cashier opens his shift and counts every
    table's drop, rake and jackpot box of the night on the box counts screen, blind
    (CA4). Each box holds what its ledger account says, so no box is over or
    short."""
    kalle = night.page("kalle", "/cage/")
    kalle.goto(f"{night.url}/cage/")
    cashier_open(night, kalle, "en", FLOAT_CASH, FLOAT_CHIPS)
    kalle.get_by_role("link", name=say("en", "Box counts")).click()
    expect = night.expect
    expect(kalle.locator('#box-day input[name="day"]')).to_have_value(NIGHT.isoformat())
    held = dict(
        Account.objects.filter(
            code__regex=r"^table:[^:]+:(drop|rake|jackpot)_box$"
        ).values_list("code", "balance_cents")
    )
    counted = 0
    for table in ("T01", "T02"):
        for box in ("drop", "rake", "jackpot"):
            inside = held.get(f"table:{table}:{box}_box", 0)
            row = kalle.locator(f'tr[data-box="{table}-{box}"]')
            if inside:
                expect(row).not_to_contain_text(euros(inside, "en"))
            row.locator("input.money").fill(units_format(inside, "EUR", "en"))
            row.get_by_role("button", name=say("en", "Record the count")).click()
            expect(kalle.locator(f'tr[data-box="{table}-{box}"] td.even')).to_have_text(
                euros(0, "en")
            )
            counted += 1
    expect(kalle.locator("#boxes-left strong").first).to_have_text("0")
    night.snap(kalle, "boxes-counted", "en")
    assert BoxCount.objects.filter(gaming_day=NIGHT).count() == counted
    assert not BoxCount.objects.exclude(variance_cents=0).exists()
    night.close("kalle")


def the_auditors_morning(night: Night) -> None:
    """The night's daily audit and its jackpot report, produced in the morning:
    every reconciliation check agrees, the pools at the night's end are the
    ledger's less what the next day added, and the month's standings hold the
    night's hands only (HM1, BI8)."""
    expect, audrey = night.expect, night.page("audrey", "/auditor/")
    audrey.goto(f"{night.url}/auditor/")
    expect(audrey.locator("#produce-day")).to_contain_text(
        say("en", HINT, day="2026-11-29", today="2026-11-30")
    )
    audit = produce(night, audrey, "daily_audit")
    figures = totals_of(audrey)
    assert figures[say("en", "hands dealt")] == "7"
    assert figures[say("en", "hands voided")] == "2"
    assert figures[say("en", "rake")] == euros(500, "en")
    assert figures[say("en", "jackpot drops")] == euros(300, "en")
    assert figures[say("en", "drop (cash buy-ins)")] == euros(8 * BUY_IN, "en")
    assert figures[say("en", "fills")] == euros(2 * TRAY, "en")
    assert figures[say("en", "cashier shifts")] == "3"
    assert figures[say("en", "cage over/short, cash")] == euros(0, "en")
    assert figures[say("en", "checks that disagree")] == "0"
    night.snap(audrey, "daily-audit", "en")

    jackpot = produce(night, audrey, "jackpot")
    figures = totals_of(audrey)
    assert figures[say("en", "jackpot drops")] == euros(300, "en")
    awarded = figures[say("en", "awards of the hits and months")]
    assert awarded == euros(night.payout, "en")
    ledger = sum(
        Account.objects.filter(code__startswith="jackpot:").values_list(
            "balance_cents", flat=True
        )
    )
    # The next day's drop, T01's last hand.
    since = Hand.objects.filter(table__code="T01").latest("hand_no").jackpot_drop_cents
    assert figures[say("en", "pools at the end")] == euros(ledger - since, "en")
    assert figures[say("en", "checks that disagree")] == "0"
    night.snap(audrey, "jackpot-report", "en")
    assert (audit.checks_failed, jackpot.checks_failed) == (0, 0)
    standings = next(s for s in jackpot.data["sections"] if s["key"] == "hm_standings")
    columns = [c["key"] for c in standings["columns"]]
    hands = [
        (row[columns.index("table")], row[columns.index("hand_no")])
        for row in standings["rows"]
    ]
    last = Hand.objects.filter(table__code="T01").latest("hand_no").hand_no
    assert ("T01", 3) in hands and ("T01", last) not in hands, standings["rows"]

    audrey.goto(f"{night.url}/auditor/")
    expect(audrey.locator("#reports tbody tr")).to_have_count(2)
    expect(audrey.locator("#reports .tag.ok")).to_have_count(2)
    night.snap(audrey, "stored-reports", "en")


HINT = (
    "Any gaming day up to %(day)s. Today's, %(today)s, is still open: it is "
    "shown as it stands, provisional, and not stored."
)


# The people's hands on the screens ---------------------------------------------


def correction_fill(
    page: Any, hand_no: int, source: str, target: str, why: str
) -> None:
    """Ask for a €18 pot correction of ``hand_no`` from ``source`` to ``target``."""
    page.locator('select[name="kind"]').select_option("pot_correction")
    page.fill('input[name="hand_no"]', str(hand_no))
    page.fill('input[name="from_player"]', source)
    page.fill('input[name="to_player"]', target)
    page.fill('input[name="amount"]', "18")
    page.fill('textarea[name="reason"]', why)


def cashier_open(night: Night, page: Any, language: str, cash: int, chips: int) -> None:
    """Open the cashier's shift with a float counted by denomination (CA1)."""
    page.click("a[href='/cage/shift/open']")
    count_fill(page, language, cash, chips)
    night.expect(page.locator('output[data-total="note"]')).to_have_text(
        euros(cash, language)
    )
    night.snap(page, "shift-open-count", language)
    page.click("form.count button[type=submit]")
    opened = "Shift opened with %(cash)s in cash and %(chips)s in chips."
    money = {"cash": euros(cash, language), "chips": euros(chips, language)}
    said(page, night.expect, say(language, opened, **money))


def award_named(award: Award, language: str) -> str:
    """The award as the cage names it: its pool and its role (CA6)."""
    with translation.override(language):
        return f"{award.pool.name}: {award.get_role_display()}"


def cashier_pays(night: Night, page: Any, language: str, awards: list[Award]) -> int:
    """Pay each award against the player's signature (CA6); return the sum."""
    expect, paid = night.expect, 0
    for n, award in enumerate(awards):
        page.goto(f"{night.url}/cage/awards")
        row = page.locator("tr", has_text=award.player.name)
        expect(row).to_contain_text(award_named(award, language))
        expect(row).not_to_contain_text(award.payable.reference)
        expect(row).to_contain_text(euros(award.amount_cents, language))
        if n == 0:
            night.snap(page, "awards-to-pay", language)
        row.get_by_role("link", name=say(language, "Pay")).click()
        page.get_by_label(say(language, "The player has signed the receipt")).check()
        amount = euros(award.amount_cents, language)
        pay = say(language, "Pay %(amount)s", amount=amount)
        page.get_by_role("button", name=pay).click()
        expect(page.locator(".receipt")).to_be_visible()
        done = "Award %(ref)s paid: %(amount)s to %(who)s."
        ref = award_named(award, language)
        said(
            page,
            expect,
            say(language, done, ref=ref, amount=amount, who=award.player.name),
        )
        if n == 0:
            night.snap(page, "award-paid-receipt", language)
        assert Payable.objects.get(pk=award.payable.pk).status == Payable.Status.PAID
        paid += award.amount_cents
    return paid


def cashier_close(
    night: Night, page: Any, who: str, language: str, cash: int, chips: int
) -> None:
    """Close the shift with a count that matches the drawer's ledger (CA1)."""
    expect = night.expect
    page.goto(f"{night.url}/cage/")
    page.get_by_role("link", name=say(language, "Count and close the shift")).click()
    expected = page.locator('[data-line="expected"] td')
    expect(expected.nth(0)).to_have_text(euros(cash, language))
    expect(expected.nth(1)).to_have_text(euros(chips, language))
    expect(page.locator('[data-side="cash"] [data-line="payouts"] th')).to_contain_text(
        say(language, "Award payouts")
    )
    expect(page.locator("[data-reconciled]")).to_have_attribute(
        "data-reconciled", "true"
    )
    count_fill(page, language, cash, chips)
    expect(page.locator("#over-short")).to_contain_text(
        say(language, "The count matches the drawer.")
    )
    night.snap(page, "shift-close-count", language)
    shift = Shift.objects.get(status=Shift.Status.OPEN, cashier__username=who)
    page.get_by_role("button", name=say(language, "Close the shift")).click()
    expect(page.locator("h1")).to_contain_text(
        say(language, "Shift %(id)s closed", id=shift.pk)
    )
    expect(page.locator("body")).to_contain_text(
        say(language, "The drawer went back to the vault.")
    )
    night.snap(page, "shift-closed", language)


def produce(night: Night, page: Any, kind: str) -> Report:
    """Produce the night's report of ``kind`` from the auditor's home (BI8)."""
    page.goto(f"{night.url}/auditor/")
    form = page.locator("#produce-day")
    form.locator('select[name="kind"]').select_option(kind)
    form.locator('input[name="day"]').fill(NIGHT.isoformat())
    form.locator("button[type=submit]").click()
    page.wait_for_url(f"{night.url}/auditor/reports/*")
    night.expect(page.locator("#download")).to_contain_text(
        say("en", "Every reconciliation check agrees.")
    )
    return Report.objects.get(kind=kind, period_start=NIGHT)


def totals_of(page: Any) -> dict[str, str]:
    """The preview's totals as a person reads them: label → figure."""
    rows = page.locator("#totals tr")
    found = {}
    for n in range(rows.count()):
        label = (rows.nth(n).locator("th").text_content() or "").strip()
        value = (rows.nth(n).locator("td").text_content() or "").strip()
        found[label.lower()] = value
    return found
