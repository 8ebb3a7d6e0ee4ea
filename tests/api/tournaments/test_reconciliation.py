"""Chips reconcile from what the tables count (TO3), read through the API: each
table's terminal posts its count, and the event's summary sums the latest count of
every table in play against the chips issued less the chips removed by cause.
"""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

BASE = "/api/v1/tournaments/sunday-100"
STACK = 20_000


def chips(client) -> dict:
    answer = client.get(BASE)
    assert answer.status_code == 200, answer.content
    return answer.json()["chips"]


def count(terminals, table: str, value: int) -> None:
    answer = terminals[table].post(
        f"{BASE}/tables/{table}/chip-counts", {"chips": value}, format="json"
    )
    assert answer.status_code == 201, answer.content


def at_table(event, table: str) -> int:
    """The chips the entries seated at ``table`` started with."""
    return STACK * Entry.objects.filter(event=event, table=table).count()


def test_the_tables_counts_are_summed_against_the_chips_in_play(
    running, terminals, floor_client, floor_person
):
    """TO3: no sum until every table in play is counted; then the latest counts of
    the tables, summed, balance the chips issued less removed, and a removal shows
    as a difference until the table is counted again."""
    start = chips(floor_client)
    assert start["issued_total"] == start["in_play"] == 8 * STACK
    assert (start["counted"], start["balanced"]) == (None, False)
    assert start["uncounted"] == ["TT1", "TT2"]

    count(terminals, "TT1", at_table(running, "TT1"))
    half = chips(floor_client)
    assert (half["counted"], half["uncounted"]) == (None, ["TT2"])
    assert [c["table"] for c in half["counts"]] == ["TT1"]

    count(terminals, "TT2", at_table(running, "TT2"))
    both = chips(floor_client)
    assert (both["counted"], both["difference"], both["balanced"]) == (
        8 * STACK,
        0,
        True,
    )
    assert [c["table"] for c in both["counts"]] == ["TT1", "TT2"]
    assert both["counted_at"] == both["counts"][0]["at"]

    # Hidden chips found at TT1 after an all-in leave play (TDA R64).
    services.chips_remove(
        event=running, cause="hidden", chips=500, by=floor_person, note="TT1 seat 3"
    )
    off = chips(floor_client)
    assert off["removed"]["hidden"] == 500 and off["removed_total"] == 500
    assert (off["in_play"], off["difference"], off["balanced"]) == (
        8 * STACK - 500,
        500,
        False,
    )
    count(terminals, "TT1", at_table(running, "TT1") - 500)
    assert chips(floor_client)["balanced"] is True


def test_a_broken_tables_count_is_not_read_and_a_moved_one_is_flagged(
    running, terminals, floor_client
):
    """TO3, TO11: when TT1 breaks its chips go with its players to TT2: TT1's count
    is no longer read, TT2's count from before the move is flagged and short until
    TT2 is counted again; a whole-field count newer than every table's is read."""
    count(terminals, "TT1", at_table(running, "TT1"))
    count(terminals, "TT2", at_table(running, "TT2"))
    before_break = at_table(running, "TT2")
    broke = floor_client.post(f"{BASE}/tables/rebalance", {}, format="json")
    assert broke.status_code == 200, broke.content
    assert broke.json()["broken"] == ["TT1"]

    moved = chips(floor_client)
    assert [c["table"] for c in moved["counts"]] == ["TT2"]
    assert moved["moved_since"] == ["TT2"]
    assert moved["counted"] == before_break
    assert moved["difference"] == before_break - 8 * STACK

    # The broken table's terminal may count no more.
    late = terminals["TT1"].post(
        f"{BASE}/tables/TT1/chip-counts", {"chips": 1}, format="json"
    )
    assert late.status_code == 403
    count(terminals, "TT2", 8 * STACK)
    recounted = chips(floor_client)
    assert (recounted["moved_since"], recounted["balanced"]) == ([], True)

    services.chip_count_record(event=running, chips=8 * STACK - 100)
    field = chips(floor_client)
    assert [c["table"] for c in field["counts"]] == [""]
    assert field["difference"] == -100
    count(terminals, "TT2", 8 * STACK)
    assert chips(floor_client)["balanced"] is True
