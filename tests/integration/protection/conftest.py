"""A room where every door can be tried (PP2–PP6): a cage with a cashier's shift,
a cash table with its tray, a tournament, adult players; the ways a player is kept
out; and everything a refusal must leave as it was."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User

from accounting.models import Payable, Player, Receipt, Restriction, TableSlip
from accounting.services import cage as cage_services
from accounting.services.cage import protection_settings, restriction_set
from accounting.services.cage.protection import player_correct
from cardroom import services as floor
from cardroom.models import Absence, SeatSession, StackMovement, Table
from core.roles import Role
from tests.api.floor.conftest import GAMES, POLICY
from tests.integration.cage.helpers import book_award, snapshot
from tests.integration.tournaments.conftest import (  # noqa: F401 (fixtures)
    cage,
    cashier,
    event,
    floor_person,
    manager,
    room,
    shift,
    structure,
)
from tournaments import services as tournaments
from tournaments.models import ChipMovement, Event, Payout, Purchase
from tournaments.models import Entry as TournamentEntry
from tournaments.services import BustIn
from waitlist.models import Entry as ListEntry
from waitlist.models import Event as ListEvent
from waitlist.models import Lockup

ADULT = date(1985, 1, 1)
STAFF = "floor-desk"
"""Who acts in these tests: the floor's desk, named as a terminal or task is."""
KINDS = ("minor", "no_birth_date", "barred", "self_excluded")
"""The players every door keeps out: under age and without a date of birth (PP2),
barred (PP3), self-excluded (PP4)."""
REFUSED = {
    "minor": ("PP2", "under_age"),
    "no_birth_date": ("PP2", "under_age"),
    "barred": ("PP3", "player_barred"),
    "self_excluded": ("PP4", "player_self_excluded"),
}
"""The rule and the code of each one's refusal (API.md, "Player protection")."""
HELD = {
    "minor": ("PP2", "under_age"),
    "no_birth_date": ("PP2", "under_age"),
    "barred": ("PP6", "award_held"),
    "self_excluded": ("PP6", "award_held"),
}
"""What an award or a prize answers each one: held, not refused, for a restricted
player (PP6); refused for one under age (PP2)."""


@pytest.fixture
def second_manager(make_staff) -> User:
    return make_staff("max", Role.MANAGER)


@pytest.fixture
def adults(db) -> list[str]:
    """P-1 … P-8, registered with a verified identity and a date of birth."""
    codes = [f"P-{n}" for n in range(1, 9)]
    for code in codes:
        cage_services.player_register(
            code=code, name=f"Player {code}", id_verified=True, birth_date=ADULT
        )
    return codes


@pytest.fixture
def t01(room, cage, shift, cashier, floor_person, adults) -> Table:  # noqa: F811
    """Cash table T01 (NLHE 1/2, buy-in 100–400) open, its tray filled at the cage."""
    g = GAMES["NL12"]
    table = floor.table_open(
        code="T01",
        game_code=g["game"],
        small_blind=g["small_blind"],
        big_blind=g["big_blind"],
        min_buy_in=g["min_buy_in"],
        max_buy_in=g["max_buy_in"],
        seats=9,
        policy=POLICY,
        by=None,
    )
    slip = cage_services.slip_request(
        kind=TableSlip.Kind.FILL,
        cage=cage,
        table="T01",
        amount_cents=500_000,
        requested_by=floor_person,
    )
    cage_services.slip_issue(slip=slip, cashier=cashier)
    return table


def sit(player: str, seat: int, amount: int = 20_000) -> SeatSession:
    """Seat ``player`` at T01 with a cash buy-in."""
    return floor.seat_take(
        table_code="T01",
        seat=seat,
        player_code=player,
        amount=amount,
        method="cash",
        source="floor-desk",
    )


def minor_born() -> date:
    """A date of birth 17 years before today's gaming day: a minor (PP2)."""
    day = cage_services.gaming_day_of()
    return day.replace(year=day.year - 17)


def keep_out(
    code: str, kind: str, *, by: User, scope: str = "room"
) -> Restriction | None:
    """Make the adult ``code`` one the doors keep out, as ``kind`` says.

    ``minor``: his date of birth corrected to a minor's (PP7 records it);
    ``no_birth_date``: none on file, as for a player registered before the room
    recorded them; ``barred`` from ``scope`` for good (PP3); ``self_excluded``
    from ``scope`` for the room's shortest period (PP4). Returns the restriction.
    """
    player = Player.objects.get(code=code)
    if kind == "minor":
        player_correct(
            player=player,
            by=by,
            reason="The document says otherwise",
            birth_date=minor_born(),
        )
        return None
    if kind == "no_birth_date":
        Player.objects.filter(pk=player.pk).update(birth_date=None)
        return None
    if kind == "barred":
        return restriction_set(
            player=player,
            kind=Restriction.Kind.BAR,
            scope=scope,
            until=None,
            reason="Collusion seen on camera",
            by=by,
        )
    days = protection_settings().min_self_exclusion_days
    return restriction_set(
        player=player,
        kind=Restriction.Kind.SELF_EXCLUSION,
        scope=scope,
        until=cage_services.gaming_day_of() + timedelta(days=days),
        reason="At his own request",
        by=by,
    )


def written() -> dict[str, Any]:
    """Everything a door's refusal must leave as it was: the ledger and the cage
    (balances, receipts and their numbers), the seats and their chips, the waiting
    lists, held seats, tournament entries and purchases, awards and prizes."""
    return {
        **snapshot(),
        "seats": list(
            SeatSession.objects.order_by("pk").values_list(
                "pk", "stack_cents", "ended_at"
            )
        ),
        "stack_movements": StackMovement.objects.count(),
        "absences": list(Absence.objects.order_by("pk").values_list("pk", "ended_at")),
        "list_entries": list(
            ListEntry.objects.order_by("pk").values_list(
                "pk", "status", "answered_at", "call_table"
            )
        ),
        "list_events": ListEvent.objects.count(),
        "lockups": Lockup.objects.count(),
        "tournament_entries": list(
            TournamentEntry.objects.order_by("pk").values_list("pk", "status")
        ),
        "purchases": Purchase.objects.count(),
        "chip_movements": ChipMovement.objects.count(),
        "payouts": list(Payout.objects.order_by("pk").values_list("pk", "status")),
        "payables": list(Payable.objects.order_by("pk").values_list("pk", "status")),
    }


def award_for(player: str, *, approver: User, maker: User) -> Payable:
    """A jackpot share of 1,500.00 booked and approved for ``player`` (CA6)."""
    booking = book_award(player, 150_000)
    return cage_services.payable_create(
        player=Player.objects.get(code=player),
        amount_cents=150_000,
        reference=f"bad beat share {player}",
        approved_by=approver,
        created_by=maker,
        booking=booking,
    )


# --- Tournaments ----------------------------------------------------------------


def enter(tournament: Event, player: str, seller: User) -> TournamentEntry:
    """Register ``player`` in ``tournament`` at the cage MAIN (TO1)."""
    return tournaments.entry_register(
        event=tournament, player=player, cage="MAIN", cashier=seller
    )


def clock_at(tournament: Event, level: int, by: User) -> None:
    """Start the event and its clock, then move the clock to ``level`` (TO12)."""
    tournaments.event_start(event=tournament)
    tournaments.clock_change(event_code=tournament.code, action="start", by=by)
    if level != 1:
        tournaments.clock_change(
            event_code=tournament.code, action="move", level=level, by=by
        )


def prize_of(
    tournament: Event, winner: str, *, seller: User, preparer: User, approver: User
) -> Payout:
    """Three entries, two busts, the sheet prepared and approved: the winner's
    prize is payable at the cage (TO7, TO9)."""
    entries = [enter(tournament, code, seller) for code in (winner, "P-1", "P-2")]
    tournaments.event_start(event=tournament)
    for hand, entry in (("h1", entries[2]), ("h2", entries[1])):
        tournaments.busts_record(
            event=tournament, hand=hand, busts=[BustIn(entry, 20_000)], by=preparer
        )
    sheet = tournaments.payout_sheet_prepare(event=tournament, by=preparer)
    tournaments.payout_sheet_approve(sheet=sheet, by=approver)
    return Payout.objects.get(entry=entries[0], status=Payout.Status.PAYABLE)


def pay_prize(payout: Payout, player: str, seller: User) -> Receipt:
    """Pay ``payout`` at the cage MAIN to ``player``, signed, with a tax document."""
    return tournaments.payout_pay(
        payout=payout,
        cage="MAIN",
        cashier=seller,
        player=player,
        player_signed=True,
        tax_document="FI-2026-1",
    )
