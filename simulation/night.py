"""A night in the room, played through the back office as the room plays it.

:class:`Night` builds on the demo room (``demo_room`` and ``demo_jackpots``, run
for it when they haven't been) and then, with the clock as it is:

- a night cashier opens a shift with a float from the vault (CA1); trays short of
  chips get a fill, requested by the floor and issued by the cashier (CA3);
- each table gets a terminal key for the night, revoked when it ends;
- players arrive: a free seat with nobody waiting for the game, and the terminal
  seats him; otherwise he joins the game's list (WL1) and the floor calls him when
  a seat opens (WL2, WL4), he answers and is seated through the list (WL5);
- buy-ins are cash dropped at the table or chips bought at the cage first (CA2,
  CA3); a refusal is answered as a terminal would, with an amount the rule's
  ``allowed`` says (BI1, BI2, BI4–BI6, BI11);
- every hand is dealt by :mod:`simulation.dealer` and posted by the table's
  terminal over HTTP with an ``Idempotency-Key``, now and then twice (a terminal
  retrying after a timeout), and the stacks come from the settlement it gets back;
- players top up, go broke and buy again, move to another game through its list
  (BI5), and leave: the terminal lets them go with their stack and the cashier
  redeems their chips (CA2);
- one hand, dealt from a stacked deck at a Hold'em or Omaha table, is a bad beat
  (BB1, BB2): qualified, verified by the floor, approved by a manager (BB5) and its
  awards paid at the cage against the players' signatures (CA6);
- the room runs an hourly high hand and an aces-cracked bonus (PR1–PR3), started
  with the night when the room has none (:mod:`simulation.promotions`); one hand,
  dealt from a stacked deck at a Hold'em table, is pocket aces cracked by four of
  a kind. As the worker's beat does, the night sweeps the booked hands into
  qualification every two seconds and closes the high-hand periods that ended
  (``periods_close_due``, on the room's clock: an hour closes a minute after it
  ends, so a night that ends before it leaves it to the next night or the
  scheduler); each prize found is verified by the floor, approved by a manager
  (PR5) and paid at the cage (CA6);
- beside the cash games a small tournament is played from its first entry to its
  last payout, and the next one is left running with its clock on the board
  (:mod:`simulation.tournament`);
- at the end the night's hands are qualified (the sweep the worker runs), the
  periods due closed and the prizes decided, the tables' boxes counted if the
  gaming day's count isn't done (CA4), the cashier counts and closes his shift
  and a manager signs off its over/short (CA1).

The players still at the tables when the night ends stay seated, with the waiting
lists as they are: the next night goes on from there, and its hands continue the
tables' numbering.

Staff actions (lists, the cage, jackpots) go through the apps' services; what
terminals do goes over HTTP. Nothing fakes the clock: a night is a few minutes.
"""

from __future__ import annotations

import random
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.db.models import Max
from django.utils import timezone

from accounting import chart
from accounting.models import BoxCount, Cage, Player, Shift, TableSlip
from accounting.selectors import shift_report, trial_balance, vault_balances
from accounting.services.cage import (
    box_count_record,
    cage_vault_fund,
    chip_purchase,
    chip_redemption,
    gaming_day_of,
    payable_pay,
    shift_close,
    shift_open,
    shift_sign_off,
    slip_issue,
    slip_request,
)
from cardroom import services as cardroom_services
from cardroom.domain.settlement import settle_record
from cardroom.management.commands.demo_room import (
    TABLES,
    TRAY,
    demo_player,
    demo_table_open,
)
from cardroom.models import Hand, SeatSession, Table, TerminalKey
from core.errors import ApplicationError
from core.roles import Role
from jackpots import selectors as jackpot_selectors
from jackpots.models import (
    CategoryVersion,
    Hit,
    Pool,
    Promotion,
    PromotionPrize,
    PromotionVersion,
)
from jackpots.selectors import Versions
from jackpots.services import (
    SWEEP_BATCH,
    hand_qualify,
    hands_qualify_new,
    hit_approve,
    hit_verify,
    periods_close_due,
    prize_approve,
    prize_verify,
    promotion_create,
    promotion_publish,
)
from simulation.bad_beat import bad_beat_preset, is_bad_beat
from simulation.dealer import NIGHT_EXTRAS, Preset, deal_hand
from simulation.promotions import (
    NIGHT_PROMOTIONS,
    aces_cracked_preset,
    night_rules,
    promotions_pay,
)
from simulation.terminal import Answer, Terminal, serving
from simulation.tournament import Tourney, TourneySummary
from waitlist.models import ACTIVE, Entry
from waitlist.services import (
    entry_answer,
    entry_join,
    entry_remove,
    entry_seat,
    list_call,
    list_for_game,
)

CAGE = "MAIN"
NIGHT_CASHIER = "night-cashier"
FIRST_NAMES = (
    "Aino", "Eero", "Helmi", "Onni", "Ji-ho", "Min-seo", "Seo-jun", "Ha-eun",
    "Laura", "Ville", "Sanna", "Tuomas", "Olivia", "Jack", "Noora", "Do-yun",
)  # fmt: skip
LAST_NAMES = (
    "Virtanen", "Korhonen", "Kim", "Lee", "Park", "Nieminen", "Mäkinen", "Choi",
    "Hämäläinen", "Laine", "Smith", "Heikkinen", "Jung", "Koskinen", "Brown",
)  # fmt: skip
ARRIVED_BY = 0.6
"""Everyone has arrived by this part of the night."""
BAD_BEAT_AT = 0.6
"""The stacked hand is dealt from this part of the night on."""
PROMOTION_HAND_AT = 0.3
"""The stacked promotions' hand (aces cracked by four of a kind) is dealt from
this part of the night on."""
SWEEP_EVERY = 2.0
"""Seconds between two sweeps of the booked hands into qualification, as the
worker's beat sends them (``jackpots.tasks``)."""
CLOSE_EVERY = 60.0
"""Seconds between two closings of the high-hand periods due, as the beat's."""
RETRY = 0.03
"""The chance a terminal posts a hand a second time, as after a timeout."""
MOVE = 0.04
"""The chance, between two hands of a table, that one of its players lists for
another game."""


class NightError(RuntimeError):
    """The night can't go on: the back office refused what it must accept."""


@dataclass
class NightOptions:
    """How big a night: tables, players, hands (or minutes), the dealer's seed."""

    tables: int = 3
    players: int = 30
    hands: int | None = 300
    minutes: float | None = None
    seed: int | None = None
    url: str | None = None


@dataclass
class HitResult:
    """A jackpot hit of the night and what became of it."""

    id: int
    category: str
    table: str
    hand_no: int
    status: str
    payout_cents: int
    paid_cents: int
    verified_by: str
    approved_by: str
    note: str = ""


@dataclass
class PrizeResult:
    """A promotion's prize decided during the night (PR5) and what was paid."""

    id: int
    promotion: str
    kind: str
    what: str
    status: str
    total_cents: int
    paid_cents: int
    verified_by: str
    approved_by: str
    note: str = ""


@dataclass
class Leader:
    """A running high hand's period as the night ends (PR2, PR6)."""

    promotion: str
    start: datetime
    end: datetime
    hand: str = ""
    players: list[str] = field(default_factory=list)


@dataclass
class Summary:
    """What the night did, for the command's report and the tests."""

    seed: int
    run: str
    started_at: datetime
    seconds: float = 0.0
    tables: list[str] = field(default_factory=list)
    players: int = 0
    hands_posted: int = 0
    hands_booked: int = 0
    replays: int = 0
    showdowns: int = 0
    rake_cents: int = 0
    drop_cents: int = 0
    buy_ins: int = 0
    top_ups: int = 0
    seated_from_lists: int = 0
    moves: int = 0
    listed: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    purchases: int = 0
    purchases_cents: int = 0
    fills: int = 0
    vault_funded_cents: int = 0
    cashed_out: list[str] = field(default_factory=list)
    cashed_out_cents: int = 0
    hits: dict[int, HitResult] = field(default_factory=dict)
    promotions: list[str] = field(default_factory=list)
    promotions_started: list[str] = field(default_factory=list)
    prizes: dict[int, PrizeResult] = field(default_factory=dict)
    periods_closed: int = 0
    leaders: list[Leader] = field(default_factory=list)
    box_counts: int = 0
    shift: int | None = None
    shift_status: str = ""
    over_short_cents: int = 0
    signed_off_by: str = ""
    still_seated: int = 0
    waiting: int = 0
    trial_balance_zero: bool = False
    cached_balances_agree: bool = False
    tournament: TourneySummary | None = None


@dataclass
class Guest:
    """A player of the night: where he sits and how many hands he has left in him."""

    code: str
    patience: int
    table: str | None = None
    seat: int | None = None
    gone: bool = False


@dataclass
class TableRun:
    """A table as its terminal knows it: who sits where with what, the button."""

    table: Table
    terminal: Terminal | None = None
    seats: dict[int, list[Any]] = field(default_factory=dict)
    hand_no: int = 0
    button: int | None = None

    @property
    def code(self) -> str:
        return self.table.code

    @property
    def free(self) -> list[int]:
        return [n for n in range(1, self.table.seats + 1) if n not in self.seats]

    def with_chips(self) -> int:
        return sum(1 for _p, stack in self.seats.values() if stack > 0)


Progress = Callable[[float, int, str], None]


class Night:
    """One simulated night; :meth:`run` plays it and returns its :class:`Summary`."""

    def __init__(
        self,
        options: NightOptions,
        *,
        say: Callable[[str], None] | None = None,
        setup_out: Any = None,
    ) -> None:
        self.options = options
        seed = options.seed if options.seed is not None else random.randrange(10**6)
        self.rng = random.Random(seed)
        self.say = say or (lambda _m: None)
        self.setup_out = setup_out
        self.summary = Summary(
            seed=seed, run=uuid.uuid4().hex[:8], started_at=timezone.now()
        )
        self.tables: list[TableRun] = []
        self.guests: dict[str, Guest] = {}
        self.arriving: list[Guest] = []
        self.keys: list[TerminalKey] = []
        self.bad_beat_done = False
        self.promotion_hand_done = False
        self.t0 = time.monotonic()
        self.last_sweep = self.last_close = float("-inf")

    # -- the night ---------------------------------------------------------------

    def run(self, progress: Progress | None = None) -> Summary:
        """Play the night; raise :class:`NightError` if the back office refuses
        what a well-run room must get through."""
        self.progress = progress or (lambda _f, _n, _s: None)
        self._prepare()
        try:
            with serving(self.options.url) as base:
                for t in self.tables:
                    t.terminal = Terminal(base, table=t.code, key=self._key(t))
                self._seat_first_players()
                self._play_night()
                self.progress(1.0, self.summary.hands_posted, "tournament")
                self.summary.tournament = Tourney(
                    base_url=base,
                    run=self.summary.run,
                    rng=self.rng,
                    cashier=self.cashier,
                    floor=self.floor,
                    manager=self.manager,
                    keys=self.keys,
                ).play()
        finally:
            for t in self.tables:
                if t.terminal is not None:
                    t.terminal.close()
            TerminalKey.objects.filter(pk__in=[k.pk for k in self.keys]).update(
                revoked=True
            )
        self._close_night()
        return self.summary

    def _fraction(self) -> float:
        done = 0.0
        if self.options.hands:
            done = self.summary.hands_posted / self.options.hands
        if self.options.minutes:
            elapsed = (time.monotonic() - self.t0) / 60
            done = max(done, elapsed / self.options.minutes)
        return min(done, 1.0)

    def _over(self) -> bool:
        return self._fraction() >= 1.0

    def _play_night(self) -> None:
        while not self._over():
            dealt = 0
            self._arrivals()
            for t in self.tables:
                if self._over():
                    break
                self._between_hands(t)
                if t.with_chips() >= 2:
                    self._hand(t)
                    dealt += 1
            if not dealt and not self.arriving:
                self.say("Nobody left to deal to; the night ends early.")
                break

    # -- setting up --------------------------------------------------------------

    def _prepare(self) -> None:
        user_model = get_user_model()
        demo_staff = {f"demo-{r.value}" for r in (Role.FLOOR, Role.MANAGER)}
        have = set(
            user_model.objects.filter(username__in=demo_staff).values_list(
                "username", flat=True
            )
        )
        if not Cage.objects.filter(code=CAGE).exists() or have != demo_staff:
            call_command("demo_room", stdout=self.setup_out)
        room = cardroom_services.room_default()
        if not Pool.objects.filter(
            room=room, kind=Pool.Kind.BAD_BEAT, active=True
        ).exists():
            call_command("demo_jackpots", stdout=self.setup_out)
        self.floor = user_model.objects.get(username="demo-floor")
        self.manager = user_model.objects.get(username="demo-manager")
        self.promotions = self._promotions_ensure(room)
        self.cashier = self._night_cashier()
        self.cage = Cage.objects.get(code=CAGE)
        self.shift = self._open_shift()
        self.summary.shift = self.shift.pk
        for n in range(self.options.tables):
            self.tables.append(TableRun(self._table(n)))
        self.summary.tables = [t.code for t in self.tables]
        self.lists = {
            t.table.game_id: list_for_game(t.table.game)
            for t in self.tables
            if t.table.game is not None
        }
        for t in self.tables:
            self._stock_tray(t, TRAY // 2)
            last = Hand.objects.filter(table=t.table).aggregate(n=Max("hand_no"))["n"]
            t.hand_no = last or 0
            for s in SeatSession.objects.filter(
                table=t.table, ended_at__isnull=True
            ).select_related("player"):
                t.seats[s.seat] = [s.player.code, s.stack_cents]
                self.guests[s.player.code] = Guest(
                    s.player.code, self._patience(), table=t.code, seat=s.seat
                )
        self._register_players()

    def _night_cashier(self) -> User:
        user, created = get_user_model().objects.get_or_create(
            username=NIGHT_CASHIER, defaults={"is_staff": True}
        )
        if created:
            user.set_unusable_password()
            user.save()
        user.groups.add(Group.objects.get(name=Role.CASHIER.value))
        return user

    def _open_shift(self) -> Shift:
        """Open the night cashier's shift (CA1), the vault topped up if it is short."""
        open_shift = Shift.objects.filter(
            cage=self.cage, cashier=self.cashier, status=Shift.Status.OPEN
        ).first()
        if open_shift is not None:
            return open_shift
        hands = self.options.hands or 600
        want = 2_000_000 + 5_000 * hands
        cash, chips = vault_balances(cage=self.cage)
        more_cash, more_chips = max(0, want - cash), max(0, want - chips)
        if more_cash or more_chips:
            cage_vault_fund(
                cage=self.cage,
                cash_cents=more_cash,
                chips_cents=more_chips,
                by=self.manager,
                memo="the night's float",
            )
            self.summary.vault_funded_cents += more_cash + more_chips
        return shift_open(
            cage=self.cage, cashier=self.cashier, cash_cents=want, chips_cents=want
        )

    def _table(self, n: int) -> Table:
        """The demo room's table ``n`` (extra tables deal its games again)."""
        spec = TABLES[n % len(TABLES)]
        code = spec[0] if n < len(TABLES) else f"T{n + 1:02d}"
        table = Table.objects.filter(code=code).first()
        if table is None or table.status != Table.Status.OPEN:
            table = demo_table_open(spec, by=self.manager, code=code)
        return Table.objects.select_related("game", "room").get(pk=table.pk)

    def _key(self, t: TableRun) -> str:
        key_row, key = TerminalKey.objects.create_key(
            name=f"simulated night {self.summary.run} {t.code}", table=t.table
        )
        assert isinstance(key_row, TerminalKey)
        self.keys.append(key_row)
        return str(key)

    def _patience(self) -> int:
        return self.rng.randint(12, 70)

    def _register_players(self) -> None:
        """Register the night's players (BI10); those not at a table will arrive."""
        codes = list(
            # Every door refuses a player without a date of birth (PP2).
            Player.objects.filter(code__startswith="P-10", birth_date__isnull=False)
            .order_by("code")
            .values_list("code", flat=True)[: self.options.players]
        )
        n = 0
        while len(codes) < self.options.players:
            n += 1
            code = f"P-{2000 + n}"
            if code in codes:
                continue
            first = FIRST_NAMES[n % len(FIRST_NAMES)]
            last = LAST_NAMES[(n * 7) % len(LAST_NAMES)]
            demo_player(
                code=code,
                name=f"{first} {last}",
                nickname=f"{first}{n}",
                by=self.manager,
            )
            codes.append(code)
        self.summary.players = len(codes)
        busy = set(
            SeatSession.objects.filter(ended_at__isnull=True).values_list(
                "player__code", flat=True
            )
        ) | set(
            Entry.objects.filter(status__in=ACTIVE).values_list(
                "player__code", flat=True
            )
        )
        for code in codes:
            if code not in self.guests and code not in busy:
                guest = Guest(code, self._patience())
                self.guests[code] = guest
                self.arriving.append(guest)
        self.rng.shuffle(self.arriving)

    # -- seats -------------------------------------------------------------------

    def _seat_first_players(self) -> None:
        """Open the night: half the players are there; each sits down at the
        terminal of the game he came for, or at another table while it is full."""
        for _n in range(len(self.arriving) // 2):
            guest = self.arriving.pop()
            t = self._favourite()
            if not t.free:
                t = max(self.tables, key=lambda o: len(o.free))
            if t.free:
                self._sit(t, t.free[0], guest)
            else:
                self._list(guest, self._favourite())

    def _favourite(self) -> TableRun:
        """The game a player comes for: the first table's the most often."""
        weights = [(len(self.tables) - n) ** 2 for n in range(len(self.tables))]
        return self.rng.choices(self.tables, weights=weights)[0]

    def _arrivals(self) -> None:
        left = ARRIVED_BY - self._fraction()
        if not self.arriving:
            return
        rounds = max(1.0, left * (self.options.hands or 300) / len(self.tables))
        for guest in list(self.arriving):
            if left > 0 and self.rng.random() > 1 / rounds:
                continue
            self.arriving.remove(guest)
            t = self._favourite()
            if t.free and not self._waiting(t):
                self._sit(t, t.free[0], guest)
            else:
                self._list(guest, t)

    def _list(self, guest: Guest, t: TableRun) -> bool:
        """Put a player on the list of ``t``'s game (WL1)."""
        try:
            entry_join(
                waiting_list=self.lists[t.table.game_id],
                player_code=guest.code,
                by=self.floor,
            )
        except ApplicationError as error:
            self._refused(error.rule or error.code)
            return False
        self.summary.listed += 1
        return True

    def _buy_in(self, t: TableRun) -> int:
        game = t.table.game
        assert game is not None
        low, high = (
            game.min_buy_in_cents,
            game.max_buy_in_cents or 2 * (game.min_buy_in_cents),
        )
        return self.rng.choice([low, (low + high) // 2 // 100 * 100, high])

    def _pay_for(
        self, t: TableRun, guest: Guest, amount: int, method: str, bringing: int = 0
    ) -> str:
        """Get the chips of a buy-in ready: chips bought at the cage (CA2), or the
        tray stocked for a cash buy-in (CA3). ``bringing`` is the stack a moving
        player brings from his table. Return the method that can pay."""
        if method == "chips":
            held = chart.player_chips(player=guest.code).balance_cents + bringing
            if held < amount:
                try:
                    chip_purchase(
                        cage=CAGE,
                        cashier=self.cashier,
                        player=guest.code,
                        amount_cents=amount - held,
                    )
                except ApplicationError as error:
                    self._refused(error.rule or error.code)
                    method = "cash"
                else:
                    self.summary.purchases += 1
                    self.summary.purchases_cents += amount - held
        if method == "cash":
            self._stock_tray(t, amount)
        return method

    def _sit(self, t: TableRun, seat: int, guest: Guest) -> bool:
        """Seat a player with a buy-in through the terminal (API.md ``POST seats``);
        a refusal is answered once with an amount the rule allows (BI11)."""
        assert t.terminal is not None
        amount = self._buy_in(t)
        held = chart.player_chips(player=guest.code).balance_cents
        method = "chips" if held or self.rng.random() < 0.5 else "cash"
        if held:
            amount = held
        for _attempt in range(2):
            method = self._pay_for(t, guest, amount, method)
            answer = t.terminal.post(
                "seats",
                {
                    "seat": seat,
                    "player": guest.code,
                    "amount": amount,
                    "method": method,
                },
            )
            if answer.ok:
                t.seats[seat] = [guest.code, answer.body["stack"]]
                guest.table, guest.seat = t.code, seat
                self.summary.buy_ins += 1
                return True
            allowed = self._allowed(answer, amount)
            if allowed is None:
                break
            amount = allowed
        self._go_home(guest)
        return False

    def _allowed(self, answer: Answer, amount: int) -> int | None:
        """The amount to try after a refusal, None when there is none (BI11)."""
        error = answer.error
        self._refused(error.get("rule") or error.get("code") or str(answer.status))
        allowed = error.get("allowed") or {}
        if "min" not in allowed:
            return None
        low = allowed["min"]
        high = allowed.get("max") or max(low, amount)
        better = min(max(amount, low), high)
        return better if better != amount and low <= high else None

    def _refused(self, why: str) -> None:
        self.summary.refusals[why] += 1

    def _top_up(self, t: TableRun, seat: int, amount: int) -> None:
        """Add chips between hands (BI2): cash or chips bought at the cage."""
        assert t.terminal is not None
        guest = self.guests[t.seats[seat][0]]
        method = "chips" if self.rng.random() < 0.5 else "cash"
        for _attempt in range(2):
            method = self._pay_for(t, guest, amount, method)
            answer = t.terminal.post(
                f"seats/{seat}/top-ups", {"amount": amount, "method": method}
            )
            if answer.ok:
                t.seats[seat][1] = answer.body["stack"]
                self.summary.top_ups += 1
                return
            better = self._allowed(answer, amount)
            if better is None:
                return
            amount = better

    def _leave(self, t: TableRun, seat: int) -> None:
        """The player leaves with his stack (API.md ``leave``) and cashes out."""
        assert t.terminal is not None
        code, stack = t.seats[seat]
        answer = t.terminal.post(f"seats/{seat}/leave", {"stack": stack})
        if not answer.ok:
            raise NightError(f"{t.code} seat {seat} could not leave: {answer.body}")
        del t.seats[seat]
        self._go_home(self.guests[code])

    def _go_home(self, guest: Guest) -> None:
        """He is done for the night: off the lists, his chips redeemed (CA2)."""
        guest.table = guest.seat = None
        guest.gone = True
        for entry in Entry.objects.filter(
            player__code=guest.code, status__in=ACTIVE
        ).order_by("pk"):
            entry_remove(entry_id=entry.pk, reason="went home", by=self.floor)
        chips = chart.player_chips(player=guest.code).balance_cents
        if chips:
            chip_redemption(
                cage=CAGE, cashier=self.cashier, player=guest.code, amount_cents=chips
            )
            self.summary.cashed_out.append(guest.code)
            self.summary.cashed_out_cents += chips

    def _stock_tray(self, t: TableRun, amount: int) -> None:
        """Fill the tray before it runs short (CA3: the floor asks, the cashier
        issues)."""
        tray = chart.table_tray(table=t.code).balance_cents
        if tray >= amount:
            return
        slip = slip_request(
            kind=TableSlip.Kind.FILL,
            cage=self.cage,
            table=t.code,
            amount_cents=max(TRAY, amount) - tray,
            requested_by=self.floor,
        )
        slip_issue(slip=slip, cashier=self.cashier)
        self.summary.fills += 1

    def _between_hands(self, t: TableRun) -> None:
        """Leave, go broke, buy again, top up, list elsewhere; then fill the seats."""
        assert t.table.game is not None
        game = t.table.game
        for seat, (code, stack) in sorted(t.seats.items()):
            guest = self.guests.setdefault(
                code, Guest(code, self._patience(), table=t.code, seat=seat)
            )
            if stack == 0 and (guest.patience < 10 or self.rng.random() < 0.4):
                self._leave(t, seat)
            elif stack == 0:
                self._top_up(t, seat, self._buy_in(t))
            elif guest.patience <= 0:
                self._leave(t, seat)
            elif (
                stack < game.min_buy_in_cents // 3
                and stack >= game.big_blind_cents
                and self.rng.random() < 0.3
            ):
                high = game.max_buy_in_cents or game.min_buy_in_cents
                if high > stack:
                    self._top_up(t, seat, (high - stack) // 100 * 100 or high - stack)
        if t.seats and len(self.tables) > 1 and self.rng.random() < MOVE:
            seat = self.rng.choice(sorted(t.seats))
            code, stack = t.seats[seat]
            other = self._favourite()
            if stack and other.table.game_id != t.table.game_id:
                self._list(self.guests[code], other)
        self._call_list(t)

    def _waiting(self, t: TableRun) -> bool:
        """Whether anyone is on the list of ``t``'s game."""
        return Entry.objects.filter(
            waiting_list=self.lists[t.table.game_id], status__in=ACTIVE
        ).exists()

    def _call_list(self, t: TableRun) -> None:
        """The floor calls the game's list for each open seat (WL2, WL4) and seats
        whoever answers, through the list (WL5): a player seated elsewhere moves with
        his stack under BI5, a new one buys in."""
        while t.free and self._waiting(t):
            try:
                call = list_call(
                    waiting_list=self.lists[t.table.game_id],
                    table_code=t.code,
                    by=self.floor,
                )
            except ApplicationError:
                return  # every open seat is held by a call or a lockup
            if call.entry is None:
                return
            entry = call.entry
            guest = self.guests.setdefault(
                entry.player.code, Guest(entry.player.code, self._patience())
            )
            entry_answer(entry_id=entry.pk, accept=True, by=self.floor)
            self._seat_from_list(t, entry.pk, guest)

    def _seat_from_list(self, t: TableRun, entry_id: int, guest: Guest) -> None:
        """Seat a called player through the list (WL5); if the buy-in rules refuse
        even the amount they allow, he leaves the list (and goes home, if he had
        no seat)."""
        origin = next((o for o in self.tables if o.code == guest.table), None)
        moving = origin is not None and guest.seat in origin.seats
        bringing = (
            origin.seats[guest.seat][1]
            if moving and origin and guest.seat is not None
            else 0
        )
        amount: int | None = None if moving else self._buy_in(t)
        method = "chips" if self.rng.random() < 0.5 else "cash"
        for _attempt in range(2):
            if amount is not None:
                method = self._pay_for(t, guest, amount, method, bringing)
            try:
                _entry, session = entry_seat(
                    entry_id=entry_id,
                    amount=amount,
                    method=method if amount is not None else None,
                    by=self.floor,
                )
            except ApplicationError as error:
                self._refused(error.rule or error.code)
                allowed = error.allowed or {}
                if "min" not in allowed or amount == allowed["min"]:
                    break
                # The rule names the least he may sit down with (BI5, BI6): he
                # brings that in chips.
                amount, method = allowed["min"], "chips"
                continue
            if moving and origin is not None and guest.seat is not None:
                origin.seats.pop(guest.seat, None)
                self.summary.moves += 1
            t.seats[session.seat] = [guest.code, session.stack_cents]
            guest.table, guest.seat = t.code, session.seat
            self.summary.seated_from_lists += 1
            if not moving:
                self.summary.buy_ins += 1
            return
        entry_remove(entry_id=entry_id, reason="could not buy in", by=self.floor)
        if not moving:
            self._go_home(guest)

    # -- hands -------------------------------------------------------------------

    def _next_button(self, t: TableRun) -> int:
        live = sorted(n for n, (_p, stack) in t.seats.items() if stack > 0)
        after = [n for n in live if t.button is None or n > t.button]
        return after[0] if after else live[0]

    def _hand(self, t: TableRun) -> None:
        """Deal a hand and post it as the terminal does; follow the stacks it gets
        back. Raises :class:`NightError` if a legal hand is refused."""
        assert t.terminal is not None
        t.button = self._next_button(t)
        seats = {n: (p, stack) for n, (p, stack) in t.seats.items()}
        started = timezone.localtime()
        record = None
        if not self.bad_beat_done and self._fraction() >= BAD_BEAT_AT:
            record = self._bad_beat(t, seats)
        stacked = record is not None
        promoted = False
        if (
            record is None
            and not self.promotion_hand_done
            and self._fraction() >= PROMOTION_HAND_AT
        ):
            record = self._promotion_hand(t, seats)
            promoted = record is not None
        if record is None:
            record = self._deal(t, seats)
        record["started_at"] = started.isoformat()
        record["ended_at"] = timezone.localtime().isoformat()
        key = f"night-{self.summary.run}-{t.code}-{record['hand_no']}"
        answer = t.terminal.post("hands", record, key=key)
        if answer.status != 201:
            raise NightError(f"{t.code} hand {record['hand_no']}: {answer.body}")
        t.hand_no = record["hand_no"]
        if self.rng.random() < RETRY:
            again = t.terminal.post("hands", record, key=key)
            if not (again.replayed and again.body == answer.body):
                raise NightError(f"{t.code} hand {t.hand_no} was not replayed.")
            self.summary.replays += 1
        settlement = answer.body
        for row in settlement["seats"]:
            t.seats[row["seat"]][1] = row["final_stack"]
            self.guests[row["player"]].patience -= 1
        self.summary.hands_posted += 1
        self.summary.rake_cents += settlement["rake"]
        self.summary.drop_cents += settlement["jackpot_drop"]
        if sum(1 for s in record["seats"] if not s["folded"]) > 1:
            self.summary.showdowns += 1
        if stacked:
            self._jackpot(t)
        self._beat(force=promoted)
        self.progress(
            self._fraction(),
            self.summary.hands_posted,
            f"{t.code} hand {t.hand_no}",
        )

    def _deal(
        self,
        t: TableRun,
        seats: dict[int, tuple[str, int]],
        preset: Preset | None = None,
    ) -> dict[str, Any]:
        """Deal the table's next hand with the button where it is."""
        assert t.table.game is not None
        return deal_hand(
            self.rng,
            table=t.code,
            hand_no=t.hand_no + 1,
            game=t.table.game.code,
            seats=seats,
            button=t.button,
            small_blind=t.table.game.small_blind_cents,
            big_blind=t.table.game.big_blind_cents,
            preset=preset,
            extras=NIGHT_EXTRAS,
        )

    def _bad_beat(
        self, t: TableRun, seats: dict[int, tuple[str, int]]
    ) -> dict[str, Any] | None:
        """Deal the night's bad beat here if a category covers the game and enough
        players are dealt in (BB2); the hand is checked against the category's own
        rules before it is posted."""
        assert t.table.game is not None
        game = t.table.game
        config = self._category(game.code)
        dealt = [n for n, (_p, stack) in seats.items() if stack > 0]
        if config is None or len(dealt) < max(4, int(config["min_participants"])):
            return None
        policy = game.current_policy().document
        for _attempt in range(20):
            loser, winner = self.rng.sample(dealt, 2)
            preset = bad_beat_preset(
                self.rng, game=game.code, loser=loser, winner=winner
            )
            record = self._deal(t, seats, preset)
            pots = sum(p["amount"] for p in settle_record(record, policy)["pots"])
            if is_bad_beat(record, config, pots):
                self.bad_beat_done = True
                self.say(f"{t.code} hand {record['hand_no']}: a bad beat is dealt.")
                return record
        return None

    def _category(self, game: str) -> dict[str, Any] | None:
        """The rules of the bad-beat category in force for ``game`` whose pool is
        open in the room, None when no category covers it."""
        latest = (
            CategoryVersion.objects.select_related("category")
            .order_by("category_id", "-version")
            .distinct("category_id")
        )
        pools = set(
            Pool.objects.filter(active=True, kind=Pool.Kind.BAD_BEAT).values_list(
                "code", flat=True
            )
        )
        for version in latest:
            if version.active and game in version.games and version.pool_code in pools:
                return version.config()
        return None

    def _jackpot(self, t: TableRun) -> None:
        """Qualify the bad beat's hand now, as the worker does right after the
        booking (BB1), and decide the hits of the night."""
        hand = Hand.objects.get(table=t.table, hand_no=t.hand_no)
        hand_qualify(hand_id=hand.pk)
        self._decide_hits()

    def _decide_hits(self) -> None:
        """Each pending hit of the night: the floor verifies it, a manager approves
        it (BB5, two people), the cashier pays each award (CA6)."""
        pending = (
            Hit.objects.filter(
                hand__table__code__in=self.summary.tables,
                hand__created_at__gte=self.summary.started_at,
                status__in=[Hit.Status.PENDING, Hit.Status.VERIFIED],
            )
            .select_related("category", "hand__table")
            .order_by("hand_ended_at", "pk")
        )
        for hit in pending:
            note = ""
            try:
                if hit.status == Hit.Status.PENDING:
                    hit = hit_verify(
                        hit=hit, by=self.floor, note="cards and camera checked"
                    )
                hit = hit_approve(hit=hit, by=self.manager)
            except ApplicationError as error:
                note = str(error.detail)
            paid = self._pay_awards(hit.awards.all())
            self.summary.hits[hit.pk] = HitResult(
                id=hit.pk,
                category=hit.category.name,
                table=hit.hand.table.code,
                hand_no=hit.hand.hand_no,
                status=hit.status,
                payout_cents=hit.payout_cents,
                paid_cents=paid,
                verified_by=getattr(hit.verified_by, "username", ""),
                approved_by=getattr(hit.approved_by, "username", ""),
                note=note,
            )

    # -- promotions (PR1-PR6) ----------------------------------------------------

    def _promotions_ensure(self, room: Any) -> list[Promotion]:
        """The room's running promotions of the night's kinds: each one the room
        lacks is started (``promotion_create``), or started again when it had
        ended (a new version, active)."""
        running = []
        for code, name, example, ratio in NIGHT_PROMOTIONS:
            rules = night_rules(example)
            found = self._running(room, rules["kind"])
            if found is None:
                found = Promotion.objects.filter(room=room, code=code).first()
                if found is not None and not found.pool.active:
                    # Its pool was retired (JD5): the night starts another.
                    code, found = f"{code}-{self.summary.run}", None
                if found is None:
                    found = promotion_create(
                        room=room,
                        code=code,
                        name=name,
                        rules=rules,
                        by=self.manager,
                        drop_ratio=ratio,
                        note="the simulated night's promotion",
                    )
                else:
                    promotion_publish(
                        promotion=found,
                        rules=rules,
                        by=self.manager,
                        note="started again for the simulated night",
                    )
                self.summary.promotions_started.append(found.name)
            running.append(found)
        self.summary.promotions = [p.name for p in running]
        return running

    @staticmethod
    def _running(room: Any, kind: str) -> Promotion | None:
        """The room's first promotion of ``kind`` whose latest version is active
        and whose pool takes drops (a retired pool ends its promotion)."""
        running = Promotion.objects.filter(room=room, kind=kind, pool__active=True)
        for promotion in running.order_by("pk"):
            latest = promotion.versions.order_by("-version").first()
            if latest is not None and latest.active:
                return promotion
        return None

    def _rules_now(self) -> list[dict[str, Any]]:
        """The rules in force of the night's promotions."""
        rules = []
        for promotion in self.promotions:
            version = PromotionVersion.objects.filter(promotion=promotion).order_by(
                "-version"
            )[0]
            rules.append(dict(version.rules))
        return rules

    def _promotion_hand(
        self, t: TableRun, seats: dict[int, tuple[str, int]]
    ) -> dict[str, Any] | None:
        """Deal the night's promotions' hand here if every promotion of the night
        covers the game and enough players are dealt in: pocket aces cracked by
        four of a kind, checked against the promotions' own rules (PR2, PR3)
        before it is posted."""
        assert t.table.game is not None
        game = t.table.game
        rules = self._rules_now()
        if any(game.code not in r["games"] for r in rules):
            return None
        dealt = [n for n, (_p, stack) in seats.items() if stack > 0]
        least = max(int(r.get("min_dealt_in", 2)) for r in rules)
        if len(dealt) < max(4, least):
            return None
        policy = game.current_policy().document
        for _attempt in range(20):
            loser, winner = self.rng.sample(dealt, 2)
            preset = aces_cracked_preset(self.rng, loser=loser, winner=winner)
            record = self._deal(t, seats, preset)
            pots = sum(p["amount"] for p in settle_record(record, policy)["pots"])
            if promotions_pay(
                record, rules, big_blind=game.big_blind_cents, pot_cents=pots
            ):
                self.promotion_hand_done = True
                self.say(
                    f"{t.code} hand {record['hand_no']}: pocket aces are cracked"
                    " by four of a kind."
                )
                return record
        return None

    def _beat(self, *, force: bool = False, close: bool = False) -> None:
        """What the worker's beat does, on the room's clock: sweep the hands
        booked since the last sweep into qualification (bad beats, the hand of
        the month, the promotions, in one pass), every :data:`SWEEP_EVERY`
        seconds; close the high-hand periods that ended, every
        :data:`CLOSE_EVERY` seconds; then the floor and a manager decide the
        prizes found."""
        now = time.monotonic()
        if not force and now - self.last_sweep < SWEEP_EVERY:
            return
        self.last_sweep = now
        while hands_qualify_new() == SWEEP_BATCH:
            pass
        if close or now - self.last_close >= CLOSE_EVERY:
            self.last_close = now
            closed = periods_close_due(now=timezone.now(), source="simulate_night")
            self.summary.periods_closed += len(closed)
        self._decide_prizes()

    def _decide_prizes(self) -> None:
        """Each prize waiting in the room: the floor verifies it, a manager, another
        person, approves it (PR5), the cashier pays each award (CA6)."""
        waiting = (
            PromotionPrize.objects.filter(
                promotion__in=self.promotions,
                status__in=[
                    PromotionPrize.Status.PENDING,
                    PromotionPrize.Status.VERIFIED,
                ],
            )
            .select_related("promotion", "hand__table")
            .order_by("found_at", "pk")
        )
        for prize in waiting:
            note = ""
            try:
                if prize.status == PromotionPrize.Status.PENDING:
                    prize = prize_verify(
                        prize=prize, by=self.floor, note="cards and camera checked"
                    )
                prize = prize_approve(prize=prize, by=self.manager)
            except ApplicationError as error:
                note = str(error.detail)
            paid = self._pay_awards(prize.awards.all())
            if prize.hand is not None:
                what = f"{prize.hand.table.code} hand {prize.hand.hand_no}"
            else:
                assert prize.period_start is not None and prize.period_end is not None
                what = (
                    f"{timezone.localtime(prize.period_start):%H:%M}–"
                    f"{timezone.localtime(prize.period_end):%H:%M}"
                )
            self.summary.prizes[prize.pk] = PrizeResult(
                id=prize.pk,
                promotion=prize.promotion.name,
                kind=prize.kind,
                what=what,
                status=prize.status,
                total_cents=prize.house_cents + prize.pool_cents,
                paid_cents=paid,
                verified_by=getattr(prize.verified_by, "username", ""),
                approved_by=getattr(prize.approved_by, "username", ""),
                note=note,
            )

    def _pay_awards(self, awards: Any) -> int:
        """The cashier pays each approved award not paid yet, against the
        player's signature (CA6); return what was paid."""
        paid = 0
        for award in (
            awards.filter(payable__isnull=False)
            .exclude(payable__status="paid")
            .select_related("payable", "player")
        ):
            payable_pay(
                payable=award.payable,
                cage=CAGE,
                cashier=self.cashier,
                player=award.player.code,
                player_signed=True,
            )
            paid += award.payable.amount_cents
        return paid

    def _leaders(self) -> None:
        """Each running high hand's period as the night ends: its leading hand."""
        now = timezone.now()
        for promotion in self.promotions:
            if promotion.kind != Promotion.Kind.HIGH_HAND:
                continue
            found = Versions(list(promotion.versions.all())).for_period(promotion, now)
            if found is None:
                continue
            _version, (start, end) = found
            leaders = jackpot_selectors.period_leaders(promotion=promotion, start=start)
            self.summary.leaders.append(
                Leader(
                    promotion=promotion.name,
                    start=start,
                    end=end,
                    hand=leaders[0].description if leaders else "",
                    players=[e.player.code for e in leaders],
                )
            )

    # -- closing -----------------------------------------------------------------

    def _close_night(self) -> None:
        """Sweep the last hands into qualification, close the periods due and
        decide the prizes and hits found, count the boxes, close the shift,
        check the books."""
        self._beat(force=True, close=True)
        self._leaders()
        self._decide_hits()
        self._count_boxes()
        self._close_shift()
        s = self.summary
        night = Hand.objects.filter(
            table__code__in=s.tables, created_at__gte=s.started_at
        )
        s.hands_booked = night.count()
        s.still_seated = SeatSession.objects.filter(
            table__code__in=s.tables, ended_at__isnull=True
        ).count()
        s.waiting = Entry.objects.filter(
            waiting_list__in=self.lists.values(), status__in=ACTIVE
        ).count()
        tb = trial_balance()
        s.trial_balance_zero = tb.balanced
        s.cached_balances_agree = tb.cached_balances_agree
        s.seconds = time.monotonic() - self.t0

    def _count_boxes(self) -> None:
        """Count the tables' boxes for the gaming day, unless counted already (CA4)."""
        day = gaming_day_of()
        done = set(
            BoxCount.objects.filter(
                gaming_day=day, table__in=self.summary.tables
            ).values_list("table", "box")
        )
        for t in self.tables:
            for box, account in (
                (BoxCount.Box.DROP, chart.table_drop_box(table=t.code)),
                (BoxCount.Box.RAKE, chart.table_rake_box(table=t.code)),
            ):
                if (t.code, box) in done:
                    continue
                box_count_record(
                    cage=CAGE,
                    cashier=self.cashier,
                    table=t.code,
                    box=box,
                    gaming_day=day,
                    counted_cents=account.balance_cents,
                )
                self.summary.box_counts += 1

    def _close_shift(self) -> None:
        """The cashier counts his drawer, a little short, and closes; a manager
        signs the over/short off (CA1)."""
        report = shift_report(shift=self.shift)
        threshold = self.cage.over_short_signoff_cents
        short = threshold + 50 * self.rng.randint(1, 20)
        shift = shift_close(
            shift=self.shift,
            cashier=self.cashier,
            cash_cents=max(0, report.cash.expected - short),
            chips_cents=report.chips.expected,
        )
        if shift.status == Shift.Status.PENDING_SIGN_OFF:
            shift = shift_sign_off(
                shift=shift,
                supervisor=self.manager,
                note="counted twice; the drawer is short",
            )
            self.summary.signed_off_by = self.manager.get_username()
        self.summary.shift_status = shift.status
        self.summary.over_short_cents = (shift.over_short_cash_cents or 0) + (
            shift.over_short_chips_cents or 0
        )
