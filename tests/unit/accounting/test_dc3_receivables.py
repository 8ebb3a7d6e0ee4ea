"""Receivables as pure arithmetic (RULES.md DC3): booked, paid back, open, due."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from accounting.domain.receivables import Movement, standing

T0 = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def test_collections_pay_the_oldest_amount_first():
    """Two amounts booked, one part paid: the older one is paid first."""
    s = standing(
        [Movement(at(0), 5_000), Movement(at(1), 3_000), Movement(at(2), -6_000)],
        now=at(3),
    )
    assert (s.booked, s.collected, s.open, s.due) == (8_000, 6_000, 2_000, 2_000)
    (part,) = s.parts
    assert (part.booked.at, part.open) == (at(1), 2_000)


def test_without_terms_an_amount_is_due_when_booked():
    """DC3 gives no time to pay: due the moment it is booked (house default)."""
    s = standing([Movement(at(0), 1_000)], now=at(0))
    assert s.due == 1_000 and s.oldest_due_at == at(0)


def test_terms_delay_what_is_due_not_what_is_open():
    """With a week's terms, a receivable is open at once and due after a week."""
    moves = [Movement(at(0), 1_000), Movement(at(24 * 3), 500)]
    week = timedelta(days=7)
    early = standing(moves, now=at(24 * 6), terms=week)
    assert (early.open, early.due) == (1_500, 0)
    late = standing(moves, now=at(24 * 8), terms=week)
    assert (late.open, late.due) == (1_500, 1_000)


def test_paid_back_in_full_nothing_is_open():
    s = standing([Movement(at(0), 1_000), Movement(at(1), -1_000)], now=at(2))
    assert (s.open, s.due, s.parts, s.oldest_due_at) == (0, 0, (), None)


ledgers = st.lists(
    st.tuples(st.integers(0, 1_000), st.integers(1, 100_000), st.booleans()),
    max_size=12,
).map(
    # A ledger never goes below zero: a collection pays at most what is open.
    lambda rows: _valid(sorted(rows))
)


def _valid(rows: list[tuple[int, int, bool]]) -> list[Movement]:
    balance, out = 0, []
    for hour, amount, is_collection in rows:
        if is_collection:
            amount = min(amount, balance)
            if amount == 0:
                continue
            balance -= amount
            out.append(Movement(at(hour), -amount))
        else:
            balance += amount
            out.append(Movement(at(hour), amount))
    return out


@given(ledgers, st.integers(0, 1_200), st.integers(0, 30))
def test_open_is_the_balance_and_due_never_more(moves, now_hour, days):
    """Open is what was booked less what was paid back, the account's balance;
    what is due is part of it; each open part is at most what was booked."""
    s = standing(moves, now=at(now_hour), terms=timedelta(days=days))
    assert s.open == sum(m.amount for m in moves) == s.booked - s.collected
    assert 0 <= s.due <= s.open
    assert sum(p.open for p in s.parts) == s.open
    for p in s.parts:
        assert 0 < p.open <= p.booked.amount
        assert p.due_at == p.booked.at + timedelta(days=days)


@given(ledgers, st.integers(0, 1_200))
def test_the_order_given_changes_nothing(moves, now_hour):
    """The ledger's entries may come in any order; the answer is the same."""
    assert standing(moves, now=at(now_hour)) == standing(
        list(reversed(moves)), now=at(now_hour)
    )


@given(ledgers, st.integers(0, 1_200), st.integers(1, 100_000))
def test_a_payment_never_makes_more_due(moves, now_hour, amount):
    """Paying back lowers (or keeps) what is open and what is due."""
    before = standing(moves, now=at(now_hour))
    pay = min(amount, before.open)
    if pay == 0:
        return
    after = standing([*moves, Movement(at(now_hour), -pay)], now=at(now_hour))
    assert after.open == before.open - pay
    assert after.due <= before.due
