"""The chips counted in play, from the tables' counts (TO3), as a pure rule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain.chips import TableCount, counted_in_play

T0 = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)
TABLES = ["TT1", "TT2", "TT3", ""]

counts = st.lists(
    st.builds(
        TableCount,
        st.sampled_from(TABLES),
        st.integers(0, 10**6),
        st.integers(0, 10_000).map(lambda s: T0 + timedelta(seconds=s)),
    ),
    max_size=15,
    unique_by=lambda c: c.at,  # counts are taken one after another
)


@given(counts=counts, open_tables=st.sets(st.sampled_from(TABLES[:3])), data=st.data())
def test_the_latest_count_of_every_open_table_or_a_newer_field_count(
    counts, open_tables, data
):
    """TO3: the latest count of each open table, summed, in whatever order the
    counts come; a broken table's never; the whole field's when newer than all."""
    tables = sorted(open_tables)
    shuffled = data.draw(st.permutations(counts))
    found = counted_in_play(shuffled, tables)
    assert found == counted_in_play(counts, tables)
    latest = {}
    for c in sorted(counts, key=lambda c: c.at):
        latest[c.table] = c
    field = latest.get("")
    read = [latest[t] for t in tables if t in latest]
    if field is not None and all(field.at > c.at for c in read):
        assert (found.chips, found.whole_field) == (field.chips, True)
    elif read and len(read) == len(tables):
        assert found.chips == sum(c.chips for c in read)
        assert found.as_of == min(c.at for c in read)
    else:
        assert found.chips is None
        assert set(found.uncounted) == {t for t in tables if t not in latest}
    assert all(c.table in (*tables, "") for c in found.counts)
