"""A small tournament beside the cash games, run through the back office.

:class:`Tourney` plays one event from its first entry to its last payout with the
night's cashier and floor, and opens the next event, left running with its clock
for the board:

- entries at the cage, each seat drawn at random (TO1, TO2, TO11); the event
  starts and the floor starts its clock (TO12);
- a rebuy in the rebuy period and an add-on at its level (TO1);
- players go out at the tables' terminals over HTTP, with their stacks at the
  start of the hand (TO4), once two in the same hand; the floor breaks and
  balances the tables as they shrink (TO11);
- on the bubble the floor plays hand-for-hand, and two players out in the same
  hand at different tables share the places of that hand (TDA RP-8-A);
- at the final table the players left take an ICM deal, signed by each (TO5);
- the floor prepares the payout sheet, a manager approves it (TO9), and the
  cashier pays every prize at the cage (CA6).

The chips are a toy model: stacks move between players in all-ins, so the
counts balance by construction, as they must (TO3).
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from accounting.services.cage import payable_pay
from cardroom.management.commands.demo_room import demo_player
from cardroom.models import Room, Table, TerminalKey
from simulation.terminal import Terminal
from tournaments import selectors, services
from tournaments.models import (
    BountyPayment,
    Entry,
    Event,
    EventTable,
    Level,
    Payout,
    Structure,
)

CAGE = "MAIN"
STRUCTURE = "night-turbo"
LEVELS = (
    (50, 100, 0),
    (100, 200, 0),
    (150, 300, 300),
    None,
    (200, 400, 400),
    (300, 600, 600),
    (500, 1000, 1000),
    (1000, 2000, 2000),
)
TABLES = ("TT1", "TT2")
PLAYERS = 12
SEATS = 6  # six-handed tables: two of them hold the field
STACK = 10_000
PAYOUT_TABLE = [
    {"min_entries": 1, "shares": [10_000]},
    {"min_entries": 6, "shares": [6_000, 4_000]},
    {"min_entries": 10, "shares": [3_500, 2_200, 1_500, 1_100, 800, 500, 400]},
]


@dataclass
class TourneySummary:
    """What the tournament did, for the night's report and the tests."""

    event: str = ""
    entries: int = 0
    rebuys: int = 0
    addons: int = 0
    busts: int = 0
    same_hand: int = 0
    hand_for_hand: int = 0
    broken: list[str] = field(default_factory=list)
    deal_players: int = 0
    pool_cents: int = 0
    paid_cents: int = 0
    payouts: int = 0
    chips_balanced: bool = False
    running: str = ""


class Tourney:
    """One event played through, and the next one left running."""

    def __init__(
        self,
        *,
        base_url: str,
        run: str,
        rng: random.Random,
        cashier: User,
        floor: User,
        manager: User,
        keys: list[TerminalKey],
    ) -> None:
        self.base_url = base_url
        self.run = run
        self.rng = rng
        self.cashier, self.floor, self.manager = cashier, floor, manager
        self.keys = keys
        self.summary = TourneySummary()
        self.stacks: dict[int, int] = {}
        self.hand = 0

    # -- set-up ------------------------------------------------------------------

    def _structure(self) -> Structure:
        structure, created = Structure.objects.get_or_create(
            code=STRUCTURE, defaults={"name": "Night turbo"}
        )
        if created:
            for number, blinds in enumerate(LEVELS, start=1):
                if blinds is None:
                    Level.objects.create(
                        structure=structure, number=number, minutes=10, is_break=True
                    )
                    continue
                Level.objects.create(
                    structure=structure,
                    number=number,
                    small_blind=blinds[0],
                    big_blind=blinds[1],
                    ante=blinds[2],
                    big_blind_ante=bool(blinds[2]),
                    minutes=15,
                )
        return structure

    def _event(self, code: str, name: str, **settings: Any) -> Event:
        values: dict[str, Any] = {
            "room": Room.objects.order_by("pk").first(),
            "code": code,
            "name": name,
            "currency": "EUR",
            "structure": self._structure(),
            "starts_at": timezone.now(),
            "buy_in_cents": 5_000,
            "fee_cents": 500,
            "starting_stack": STACK,
            "late_registration_level": 3,
            "rebuy_max": 1,
            "rebuy_until_level": 2,
            "rebuy_stack_limit": STACK,
            "rebuy_cents": 5_000,
            "rebuy_fee_cents": 500,
            "rebuy_chips": STACK,
            "addon_level": 4,
            "addon_cents": 5_000,
            "addon_fee_cents": 500,
            "addon_chips": 15_000,
            "guarantee_cents": 100_000,
            "payout_unit_cents": 500,
            "payout_table": PAYOUT_TABLE,
            "created_by": self.manager,
        }
        values.update(settings)
        event = Event.objects.create(**values)
        for n, table in enumerate(TABLES, start=1):
            EventTable.objects.create(
                event=event, table=table, seats=SEATS, break_order=n
            )
        return event

    def _players(self, prefix: str, n: int) -> list[str]:
        codes = []
        for i in range(1, n + 1):
            code = f"{prefix}-{i:02d}"
            demo_player(
                code=code,
                name=f"Tourney Player {prefix} {i}",
                nickname=f"Shark{i}",
                by=self.manager,
            )
            codes.append(code)
        return codes

    def _terminal(self, table: str) -> Terminal:
        row, _ = Table.objects.get_or_create(
            code=table, defaults={"name": f"Tournament {table}", "seats": 9}
        )
        key_row, key = TerminalKey.objects.create_key(
            name=f"simulated tournament {self.run} {table}", table=row
        )
        assert isinstance(key_row, TerminalKey)
        self.keys.append(key_row)
        return Terminal(self.base_url, table=table, key=str(key))

    def _level(self, event: Event) -> int:
        """The structure's level number on the clock (breaks are numbered too)."""
        return selectors.clock_of(event).level.number

    def _move_clock(self, event: Event, level: int) -> None:
        """The floor moves the clock on: the night's tournament is a few seconds."""
        services.clock_change(
            event_code=event.code,
            action="move",
            level=level,
            reason="simulated night: the clock runs fast",
            by=self.floor,
        )

    # -- the event ---------------------------------------------------------------

    def play(self) -> TourneySummary:
        """Run the night's tournament to its payouts; open the next one."""
        s = self.summary
        event = self._event(
            f"night-{self.run}",
            f"Night turbo {self.run}",
            starts_at=timezone.now() - timedelta(minutes=5),
        )
        s.event = event.code
        self.terminals = {t: self._terminal(t) for t in TABLES}
        try:
            s.entries = self._register(event, self._players("TN", PLAYERS), 1)
            services.event_start(event=event)
            services.clock_change(event_code=event.code, action="start", by=self.floor)
            self._early_play(event)
            self._to_the_bubble(event)
            self._bubble(event)
            self._final_table(event)
            self._payouts(event)
        finally:
            for terminal in self.terminals.values():
                terminal.close()
        s.running = self._open_next()
        return s

    def _register(self, event: Event, codes: list[str], level: int) -> int:
        for code in codes:
            entry = services.entry_register(
                event=event, player=code, cage=CAGE, cashier=self.cashier
            )
            self.stacks[entry.pk] = int(event.starting_stack)
        return len(codes)

    def _live(self, event: Event) -> list[Entry]:
        return list(
            Entry.objects.select_related("player")
            .filter(event=event, status=Entry.Status.ACTIVE)
            .order_by("table", "seat")
        )

    def _early_play(self, event: Event) -> None:
        """Level 2: a short stack rebuys; level 4: two players take the add-on."""
        self._move_clock(event, 2)
        live = self._live(event)
        short = live[0]
        self.stacks[short.pk] //= 4
        # His chips went to the next player at his table in an all-in he lost.
        self.stacks[live[1].pk] += STACK - self.stacks[short.pk]
        services.rebuy_buy(
            entry=short,
            cage=CAGE,
            cashier=self.cashier,
            level=self._level(event),
            stack=self.stacks[short.pk],
        )
        self.stacks[short.pk] += int(event.rebuy_chips)
        self.summary.rebuys += 1
        self._move_clock(event, 4)
        for entry in live[2:4]:
            services.addon_buy(
                entry=entry, cage=CAGE, cashier=self.cashier, level=self._level(event)
            )
            self.stacks[entry.pk] += int(event.addon_chips)
            self.summary.addons += 1
        self._move_clock(event, 5)

    def _bust(
        self,
        event: Event,
        table: str,
        losers: list[Entry],
        winner: Entry,
    ) -> list[dict[str, Any]]:
        """A hand at ``table`` where ``winner`` takes all of ``losers``' chips."""
        self.hand += 1
        body = {
            "hand": str(self.hand),
            "busts": [
                {"player": e.player.code, "stack": self.stacks[e.pk]} for e in losers
            ],
        }
        answer = self.terminals[table].post_to(
            f"tournaments/{event.code}/tables/{table}/busts", body
        )
        if not answer.ok:
            raise RuntimeError(f"bust at {table} refused: {answer.body}")
        for e in losers:
            self.stacks[winner.pk] += self.stacks.pop(e.pk)
        self.summary.busts += len(losers)
        return list(answer.body)

    def _rebalance(self, event: Event) -> None:
        done = services.tables_rebalance(event_code=event.code, by=self.floor)
        self.summary.broken += list(done.broken)

    def _places_paid(self, event: Event) -> int:
        return int(selectors.clock_shown(event)["places_paid"])

    def _to_the_bubble(self, event: Event) -> None:
        """Busts at the tables until one player more than the places paid is left;
        once, two players out in the same hand."""
        paid = self._places_paid(event)
        twice = False
        while len(live := self._live(event)) > paid + 1:
            by_table: dict[str, list[Entry]] = {}
            for e in live:
                by_table.setdefault(e.table, []).append(e)
            table = max(by_table, key=lambda t: len(by_table[t]))
            players = by_table[table]
            self.rng.shuffle(players)
            if not twice and len(players) >= 3 and len(live) - 2 > paid:
                # Two all-ins called by a bigger stack: two out in one hand (TO4).
                players.sort(key=lambda e: self.stacks[e.pk])
                self._bust(event, table, players[:2], players[-1])
                self.summary.same_hand += 1
                twice = True
            else:
                self._bust(event, table, [players[0]], players[1])
            self._rebalance(event)

    def _bubble(self, event: Event) -> None:
        """Hand-for-hand on the bubble: two players out in the same hand at two
        tables share the places of that hand (TDA RP-8-A)."""
        live = self._live(event)
        tables: dict[str, list[Entry]] = {}
        for e in live:
            tables.setdefault(e.table, []).append(e)
        if len(tables) < 2:
            return
        losers = [
            min(group, key=lambda e: self.stacks[e.pk]) for group in tables.values()
        ]
        winners = [
            max(group, key=lambda e: self.stacks[e.pk]) for group in tables.values()
        ]
        self.hand += 1
        answer = services.busts_report(
            event_code=event.code,
            hand=f"h4h-{self.hand}",
            hand_for_hand=True,
            busts=[
                services.BustReport(e.player.code, self.stacks[e.pk])
                for e in losers[:2]
            ],
            by=self.floor,
        )
        for loser, winner in zip(losers[:2], winners[:2], strict=True):
            self.stacks[winner.pk] += self.stacks.pop(loser.pk)
        self.summary.hand_for_hand += len(answer[0])
        self.summary.busts += len(answer[0])
        self._rebalance(event)

    def _final_table(self, event: Event) -> None:
        """The players left agree an ICM deal, each signs it, a manager approves
        it (TO5)."""
        self._move_clock(event, 7)
        live = self._live(event)
        while len(live) > 3:
            table = live[0].table
            self._bust(event, table, [live[0]], live[1])
            live = self._live(event)
        stacks = {e.pk: self.stacks[e.pk] for e in live}
        services.chip_count_record(
            event=event, chips=sum(stacks.values()), by=self.floor
        )
        offers = selectors.deal_offers(event=event, stacks=stacks)
        deal = services.deal_propose(
            event=event,
            method="icm",
            stacks=stacks,
            button_order=[e.pk for e in live],
            amounts=offers["icm"],
            by=self.floor,
        )
        for entry in live:
            deal = services.deal_sign(deal=deal, entry=entry, witnessed_by=self.floor)
        # A second person approves it; then it binds and ends the event (TO5).
        services.deal_approve(deal=deal, by=self.manager)
        self.summary.deal_players = len(live)
        report = selectors.chip_reconciliation(event=event).reconciliation
        self.summary.chips_balanced = bool(report.balanced)

    def _payouts(self, event: Event) -> None:
        """The floor prepares the sheet, a manager approves it, the cage pays (TO9)."""
        sheet = services.payout_sheet_prepare(event=event, by=self.floor)
        sheet = services.payout_sheet_approve(sheet=sheet, by=self.manager)
        self.summary.pool_cents = int(sheet.pool_cents)
        for line in Payout.objects.filter(sheet=sheet).select_related("entry__player"):
            code = line.entry.player.code
            tax = ""
            if line.amount_cents >= event.tax_document_threshold_cents:
                tax = f"TAX-{self.run}-{code}"
            services.payout_pay(
                payout=line,
                cage=CAGE,
                cashier=self.cashier,
                player=code,
                player_signed=True,
                tax_document=tax,
            )
            self.summary.paid_cents += int(line.amount_cents)
            self.summary.payouts += 1
        for bounty in BountyPayment.objects.filter(event=event, payable__isnull=False):
            assert bounty.payable is not None
            payable_pay(
                payable=bounty.payable,
                cage=CAGE,
                cashier=self.cashier,
                player=bounty.winner.player.code,
                player_signed=True,
            )

    def _open_next(self) -> str:
        """The next event: registered, seated and running, its clock on the board."""
        if Event.objects.filter(status=Event.Status.RUNNING).exists():
            return ""
        code = f"late-{self.run}"
        event = self._event(code, "Late deepstack €55")
        self._register(event, self._players("TL", 11), 1)
        services.event_start(event=event)
        services.clock_change(event_code=code, action="start", by=self.floor)
        return code


def run_id() -> str:
    return uuid.uuid4().hex[:8]
