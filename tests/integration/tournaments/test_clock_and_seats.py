"""The floor's side of an event: its clock logged and replayed (TO12), its seats
drawn, its tables broken and balanced (TO2, TO11)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import (
    IntegrityError,
    InternalError,
    ProgrammingError,
    connection,
    transaction,
)
from django.utils import timezone

from accounting.services import cage as cage_services
from core.errors import NotFound, Refusal
from tournaments import selectors, services
from tournaments.models import ClockChange, Entry, EventTable, SeatMove

pytestmark = pytest.mark.django_db


def enter(event, players, *, seated=False):
    """Live entries for the players, as the cage's registration leaves them."""
    entries = []
    for n, player in enumerate(players, start=1 + event.entries.count()):
        entries.append(
            Entry.objects.create(
                event=event,
                player=player,
                number=n,
                kind=Entry.Kind.ENTRY,
                entered_at=timezone.now(),
            )
        )
    return entries


class TestClock:
    def test_the_floor_runs_the_clock_and_every_change_is_logged(
        self, event, floor_person
    ):
        """TO12: start, pause, resume, add time, move: each logged with who and why."""
        t0 = timezone.now()
        services.clock_change(
            event_code=event.code, action="start", by=floor_person, now=t0
        )
        state = selectors.clock_of(event, now=t0 + timedelta(minutes=25)).state
        assert (state.level_number, state.seconds_left) == (2, 15 * 60)
        services.clock_change(
            event_code=event.code,
            action="pause",
            reason="dispute at TT2",
            by=floor_person,
            now=t0 + timedelta(minutes=25),
        )
        later = t0 + timedelta(hours=1)
        assert selectors.clock_of(event, now=later).state.seconds_left == 15 * 60
        services.clock_change(
            event_code=event.code, action="resume", by=floor_person, now=later
        )
        services.clock_change(
            event_code=event.code,
            action="add_time",
            seconds=120,
            by=floor_person,
            now=later,
        )
        clock = services.clock_change(
            event_code=event.code,
            action="move",
            level=5,
            seconds=600,
            by=floor_person,
            now=later + timedelta(minutes=1),
        )
        assert clock.level.number == 5 and clock.state.seconds_left == 600
        log = list(ClockChange.objects.filter(event=event).values_list("action", "by"))
        assert log == [
            ("start", floor_person.pk),
            ("pause", floor_person.pk),
            ("resume", floor_person.pk),
            ("add_time", floor_person.pk),
            ("move", floor_person.pk),
        ]
        assert ClockChange.objects.get(action="pause").reason == "dispute at TT2"

    def test_a_refused_change_is_not_logged(self, event, floor_person):
        """TO12: resuming a running clock is refused and nothing is written."""
        services.clock_change(event_code=event.code, action="start", by=floor_person)
        with pytest.raises(Refusal) as caught:
            services.clock_change(
                event_code=event.code, action="resume", by=floor_person
            )
        assert caught.value.rule == "TO12"
        with pytest.raises(Refusal) as caught:
            services.clock_change(
                event_code=event.code, action="move", level=99, by=floor_person
            )
        assert caught.value.code == "no_such_level"
        assert ClockChange.objects.filter(event=event).count() == 1

    def test_unknown_event(self, db, floor_person):
        with pytest.raises(NotFound):
            services.clock_change(event_code="nope", action="start", by=floor_person)

    def test_a_hand_plays_the_level_it_began_in(self, event, floor_person):
        """TO12: a new level starts with the next hand."""
        t0 = timezone.now()
        services.clock_change(
            event_code=event.code, action="start", by=floor_person, now=t0
        )
        just_before = t0 + timedelta(minutes=19, seconds=59)
        assert selectors.level_for_hand(event, started_at=just_before).big_blind == 200
        on_time = t0 + timedelta(minutes=20)
        assert selectors.level_for_hand(event, started_at=on_time).big_blind == 400

    def test_the_log_cannot_be_edited_or_deleted(self, event, floor_person):
        """TO12: the clock's log is append-only in the database: the app's role
        may not, and the trigger refuses."""
        services.clock_change(event_code=event.code, action="start", by=floor_person)
        change = ClockChange.objects.get()
        for sql in (
            "UPDATE tournaments_clockchange SET action = 'stop'",
            "DELETE FROM tournaments_clockchange",
        ):
            with (
                pytest.raises((InternalError, ProgrammingError)),
                transaction.atomic(),
                connection.cursor() as cursor,
            ):
                cursor.execute(sql)
        change.refresh_from_db()
        assert change.action == "start"

    def test_the_database_refuses_a_change_that_does_not_fit_its_action(self, event):
        """TO12: a pause with a level, time added of zero, are refused."""
        for bad in (
            {"action": "pause", "level": 2},
            {"action": "add_time", "seconds": 0},
            {"action": "move", "level": 2, "seconds": -5},
        ):
            with pytest.raises(IntegrityError), transaction.atomic():
                ClockChange.objects.create(event=event, at=timezone.now(), **bad)
        assert not ClockChange.objects.exists()

    def test_what_the_clock_shows(self, event, floor_person, players):
        """TO12: level, blinds, time left, next break, players left, average stack,
        pool and places paid."""
        event.payout_table = [
            {"min_entries": 1, "shares": [10_000]},
            {"min_entries": 8, "shares": [5_000, 3_000, 2_000]},
            {"min_entries": 12, "shares": [4_000, 3_000, 2_000, 1_000]},
        ]
        event.save()
        enter(event, players[:10])
        t0 = timezone.now()
        services.clock_change(
            event_code=event.code, action="start", by=floor_person, now=t0
        )
        shown = selectors.clock_shown(event, now=t0 + timedelta(minutes=5))
        assert shown["level"] == 1 and shown["big_blind"] == 200
        assert shown["seconds_left"] == 15 * 60
        assert shown["next_break_in"] == (15 + 20 + 20) * 60
        assert shown["next_level"]["big_blind"] == 400
        assert shown["players_left"] == 10 and shown["entries"] == 10
        assert shown["places_paid"] == 3


class TestSeats:
    def test_the_draw_seats_every_entrant_and_records_its_seed(
        self, event, floor_person, players
    ):
        """TO2/TO11: a random seat each, tables balanced, the seed kept to replay."""
        entries = enter(event, players[:11])
        moves = services.seats_draw(event_code=event.code, by=floor_person)
        assert len(moves) == 11
        seats = {(e.table, e.seat) for e in Entry.objects.filter(event=event)}
        assert len(seats) == 11
        counts = sorted(
            Entry.objects.filter(event=event, table=t).count() for t in ("TT1", "TT2")
        )
        assert counts == [5, 6]
        assert len({m.seed for m in moves}) == 1 and moves[0].seed
        # The draw again from the record: the same seats.
        from tournaments.domain.tables import TableSeats, draw_seats

        replay = draw_seats(
            [str(e.pk) for e in entries],
            [TableSeats("TT1", 9, {}), TableSeats("TT2", 9, {})],
            order=["TT1", "TT2"],
            seed=moves[0].seed,
        )
        assert [(m.to_table, m.to_seat) for m in replay] == [
            (m.to_table, m.to_seat) for m in moves
        ]

    def test_a_late_entrant_gets_a_seat_at_the_short_table(
        self, event, floor_person, players
    ):
        """TO2: late entrants and re-entries draw a random seat like the others."""
        enter(event, players[:5])
        services.seats_draw(event_code=event.code, by=floor_person, seed="s")
        (late,) = enter(event, players[5:6])
        short = min(("TT1", "TT2"), key=lambda t: Entry.objects.filter(table=t).count())
        (move,) = services.seats_draw(
            event_code=event.code, entries=[late.pk], by=floor_person
        )
        assert move.to_table == short and move.entry == late

    def test_a_table_breaks_and_the_rest_are_balanced(
        self, event, floor_person, players
    ):
        """TO11: when TT1's players fit at TT2, TT1 breaks (the first in the order)
        and its players draw seats there, with their entries moved."""
        enter(event, players[:8])
        services.seats_draw(event_code=event.code, by=floor_person)
        done = services.tables_rebalance(event_code=event.code, by=floor_person)
        assert done.broken == ("TT1",)
        assert EventTable.objects.get(event=event, table="TT1").status == "broken"
        assert set(Entry.objects.values_list("table", flat=True)) == {"TT2"}
        moved = SeatMove.objects.filter(reason="break")
        assert moved.count() == 4
        assert all(m.from_table == "TT1" for m in moved)

    def test_balancing_moves_the_next_big_blind(self, event, floor_person, players):
        """TDA R12: the player to be big blind next at the long table moves to the
        worst position at the short one."""
        EventTable.objects.create(event=event, table="TT3", seats=9, break_order=3)
        more = [
            cage_services.player_register(
                code=f"P-{200 + n}",
                name=f"Extra {n}",
                id_verified=True,
                birth_date=date(1985, 1, 1),
            )
            for n in range(9)
        ]
        entries = enter(event, [*players, *more])
        layout = (
            [("TT1", s) for s in range(1, 10)]
            + [("TT2", s) for s in range(1, 8)]
            + [("TT3", s) for s in (1, 2, 4, 5, 7)]
        )
        for entry, (table, seat) in zip(entries, layout, strict=True):
            entry.table, entry.seat = table, seat
            entry.save()
        done = services.tables_rebalance(
            event_code=event.code, big_blinds={"TT1": 3, "TT3": 2}, by=floor_person
        )
        assert done.broken == ()
        first = done.moves[0]
        assert (first.from_table, first.from_seat) == ("TT1", 4)
        assert (first.to_table, first.to_seat) == ("TT3", 3)
        counts = sorted(
            Entry.objects.filter(table=t).count() for t in ("TT1", "TT2", "TT3")
        )
        assert counts == [7, 7, 7]
        assert [(m.from_table, m.to_table) for m in done.moves] == [
            ("TT1", "TT3"),
            ("TT1", "TT3"),
        ]

    def test_no_open_table(self, event, floor_person):
        EventTable.objects.filter(event=event).update(status="broken")
        with pytest.raises(Refusal) as caught:
            services.seats_draw(event_code=event.code, by=floor_person)
        assert caught.value.rule == "TO11"
