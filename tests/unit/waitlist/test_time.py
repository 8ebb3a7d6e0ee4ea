"""Time collection as pure decisions: the policy, the period, who pays (RK6)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitlist.domain.time import (
    Exempt,
    SeatFacts,
    TimePolicy,
    TimeRefused,
    blind_seats,
    time_charges,
    time_policy,
)

HELSINKI = ZoneInfo("Europe/Helsinki")
RAKE = {"scheme": "time"}


class TestPolicy:
    def test_the_time_section_gives_period_and_amount(self):
        policy = time_policy(
            {"rake": RAKE, "time": {"period_minutes": 30, "amount": 600}}
        )
        assert policy == TimePolicy(30, 600)

    @pytest.mark.parametrize(
        ("document", "code"),
        [
            ({"rake": {"scheme": "pot_order"}}, "not_time_collection"),
            ({"rake": None}, "not_time_collection"),
            ({"rake": RAKE}, "invalid_time_policy"),
            (
                {"rake": RAKE, "time": {"period_minutes": 0, "amount": 600}},
                "invalid_time_policy",
            ),
            (
                {"rake": RAKE, "time": {"period_minutes": 30, "amount": "6"}},
                "invalid_time_policy",
            ),
            (
                {"rake": RAKE, "time": {"period_minutes": True, "amount": 600}},
                "invalid_time_policy",
            ),
            (
                {"rake": RAKE, "time": {"period_minutes": 1441, "amount": 600}},
                "invalid_time_policy",
            ),
        ],
    )
    def test_what_isnt_a_time_collection_is_refused(self, document, code):
        with pytest.raises(TimeRefused) as refused:
            time_policy(document)
        assert (refused.value.code, refused.value.rule) == (code, "RK6")


class TestPeriod:
    def test_periods_follow_the_clock_from_midnight(self):
        policy = TimePolicy(30, 600)
        local = datetime(2026, 11, 29, 21, 44, 59, tzinfo=HELSINKI)
        start, end = policy.period(local)
        assert (start.hour, start.minute, end.hour, end.minute) == (21, 30, 22, 0)

    @given(
        st.integers(1, 240),
        st.sampled_from([(2026, 11, 29), (2027, 3, 28), (2027, 10, 31)]),
        st.integers(0, 25 * 3600 - 1),
    )
    def test_a_moment_lies_in_a_period_of_its_length(self, minutes, day, second):
        """Any moment of an ordinary day or of a night the clocks change lies in
        a period that lasts exactly its minutes of real time."""
        midnight = datetime(*day, tzinfo=HELSINKI).astimezone(UTC)
        local = (midnight + timedelta(seconds=second)).astimezone(HELSINKI)
        start, end = (t.astimezone(UTC) for t in TimePolicy(minutes, 100).period(local))
        # In UTC: Python compares two times of one zone by their wall clocks.
        assert start <= local.astimezone(UTC) < end
        assert end - start == timedelta(minutes=minutes)

    def test_the_hour_the_clocks_repeat_holds_two_periods_of_each_half_hour(self):
        """2027-10-31, the clocks go back at 04:00: 03:30 happens twice, and the
        second time is a period of its own, not the first one again (RK6)."""
        policy = TimePolicy(30, 600)
        first = datetime(2027, 10, 31, 3, 40, tzinfo=HELSINKI)  # EEST
        second = first.replace(fold=1)  # EET, an hour later
        (a, a_end), (b, b_end) = policy.period(first), policy.period(second)
        assert a.astimezone(UTC) == datetime(2027, 10, 31, 0, 30, tzinfo=UTC)
        assert b.astimezone(UTC) == datetime(2027, 10, 31, 1, 30, tzinfo=UTC)
        assert (a.hour, a.minute, b.hour, b.minute) == (3, 30, 3, 30)
        assert a_end.astimezone(UTC) - a.astimezone(UTC) == timedelta(minutes=30)
        assert b_end.astimezone(UTC) - b.astimezone(UTC) == timedelta(minutes=30)

    def test_the_hour_the_clocks_skip_holds_no_period(self):
        """2027-03-28, the clocks jump from 03:00 to 04:00: at 04:10 the period is
        04:00–04:30, half an hour after the one from 02:30 (RK6)."""
        policy = TimePolicy(30, 600)
        start, end = policy.period(datetime(2027, 3, 28, 4, 10, tzinfo=HELSINKI))
        assert (start.hour, start.minute, end.hour, end.minute) == (4, 0, 4, 30)
        before, _ = policy.period(datetime(2027, 3, 28, 2, 50, tzinfo=HELSINKI))
        assert start.astimezone(UTC) - before.astimezone(UTC) == timedelta(minutes=30)


class TestBlinds:
    @pytest.mark.parametrize(
        ("button", "dealt", "blinds"),
        [
            (1, [1, 2, 3, 4], {2, 3}),
            (3, [1, 2, 3, 4], {4, 1}),
            (4, [1, 2, 3, 4], {1, 2}),
            (5, [1, 2, 3, 7], {7, 1}),  # a dead button: the next seats dealt in
            (2, [2, 6], {2, 6}),  # heads up: the button is the small blind
            (None, [1, 2, 3], set()),
            (1, [1], set()),
        ],
    )
    def test_the_two_seats_after_the_button(self, button, dealt, blinds):
        assert blind_seats(button, dealt) == blinds


def facts(seat: int, stack: int = 10_000, *, new: bool = False, blind: bool = False):
    return SeatFacts(seat, f"P-{seat}", stack, new=new, reached_blind=blind)


class TestWhoPays:
    def test_with_fewer_than_two_waiting_a_new_player_skips_until_his_blind(self):
        """RK6."""
        seats = [facts(1), facts(2, new=True), facts(3, new=True, blind=True)]
        for waiting in (0, 1):
            decided = time_charges(seats, waiting=waiting, amount=600)
            assert decided.charges == {1: 600, 3: 600}
            assert decided.exempt == {2: Exempt.NEW_PLAYER}
            assert not decided.everyone_pays

    def test_with_two_or_more_waiting_everyone_pays(self):
        """RK6."""
        seats = [facts(1), facts(2, new=True)]
        for waiting in (2, 7):
            decided = time_charges(seats, waiting=waiting, amount=600)
            assert decided.charges == {1: 600, 2: 600} and decided.everyone_pays

    def test_a_short_stack_pays_what_it_has_an_empty_one_nothing(self):
        decided = time_charges([facts(1, 250), facts(2, 0)], waiting=3, amount=600)
        assert decided.charges == {1: 250}
        assert decided.exempt == {2: Exempt.NO_CHIPS}

    @given(
        st.lists(
            st.tuples(st.integers(0, 50_000), st.booleans(), st.booleans()), max_size=12
        ),
        st.integers(0, 5),
        st.integers(1, 5_000),
    )
    def test_no_seat_pays_more_than_the_amount_or_its_stack(
        self, rows, waiting, amount
    ):
        seats = [
            facts(n, st_, new=new, blind=b) for n, (st_, new, b) in enumerate(rows, 1)
        ]
        decided = time_charges(seats, waiting=waiting, amount=amount)
        assert set(decided.charges) | set(decided.exempt) == {s.seat for s in seats}
        assert not set(decided.charges) & set(decided.exempt)
        for s in seats:
            paid = decided.charges.get(s.seat, 0)
            assert 0 <= paid <= min(amount, s.stack)
