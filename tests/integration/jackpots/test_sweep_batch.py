"""The sweep qualifies its hands as one batch (issue 16): a few statements a sweep
whatever its size, the rows of qualifying each hand on its own (BB1–BB4, HM1,
HM4, HS10), and one broken hand logged and left while the others go on."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from structlog.testing import capture_logs

from cardroom.models import Hand, HandException, Table
from cardroom.services import room_default
from core.roles import Role
from jackpots import services
from jackpots.domain.promotions import EXAMPLES
from jackpots.models import Award, Hit, MonthHand, Pool, PromotionEntry, QualifiedHand
from jackpots.services import qualification, sweep
from tests.api.floor.conftest import HELSINKI, POLICY, post_hand
from tests.api.jackpots.conftest import Dealer

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 10, 10, 22, 0, tzinfo=HELSINKI)
OCTOBER = date(2026, 10, 1)
CLOSE_OCTOBER = datetime(2026, 11, 1, 12, 0, tzinfo=HELSINKI)
# Aces against tens run twice: the aces hold on the first board; on the second,
# aces full of tens lose to four tens (a bad beat when every run counts, HS10).
FIRST, SECOND = "2c 7d 9h Js 3d", "Ac Th Td 5s 2h"


class Rollback(Exception):
    """Undo a run of the qualification to run it again another way."""


def plain(dealer: Dealer, n: int) -> Hand:
    """A showdown without a jackpot, won by seat 1 or seat 2 in turn (the stacks
    last)."""
    aces, kings = "Ah Ad", "Kh Kd"
    shown = {1: aces, 2: kings} if n % 2 else {1: kings, 2: aces}
    return dealer.deal("2c 7d 9h Js 3d", shown)


def sweep_statements() -> int:
    """Run one sweep; return how many statements it sent."""
    with CaptureQueriesContext(connection) as captured:
        services.hands_qualify_new()
    return len(captured.captured_queries)


def test_a_sweep_sends_as_many_statements_for_fifty_hands_as_for_five(pools, dealer):
    """Issue 16: the batch is read and written in a fixed number of statements."""
    services.hands_qualify_new()  # the cursor's row, once
    counts = []
    for n in (5, 50):
        hands = [plain(dealer, i) for i in range(n)]
        counts.append(sweep_statements())
        assert QualifiedHand.objects.filter(hand__in=hands).count() == n
        assert MonthHand.objects.filter(hand__in=hands).count() == 2 * n
    # The cursor locked, the ids, then the batch: the hands locked, the ones
    # qualified, the insert, the seats, the month pools, their closed months, the
    # categories, the rooms' promotions (none), the month entries; and the cursor
    # moved. Savepoints: four (the sweep's in the test's transaction, the
    # batch's). 50 and 455 hand by hand.
    assert counts == [16, 16]


def test_promotions_add_a_fixed_number_of_statements_to_a_sweep(
    pools, dealer, make_staff
):
    """PR2, issue 16: with an hourly high hand and an aces-cracked bonus, the batch
    still reads and writes in a fixed number of statements: their versions, the
    periods closed, and one insert of the high-hand entries, whatever the hands."""
    boss = make_staff("promoter", Role.MANAGER)
    for code, example in (("high-hand", "hourly-high-hand"), ("aces", "aces-cracked")):
        rules = {**EXAMPLES[example], "min_pot_big_blinds": 0, "min_dealt_in": 2}
        rules["min_hand"] = None
        rules["card_use"] = {}
        services.promotion_create(
            room=room_default(),
            code=code,
            name=code,
            rules=rules,
            by=boss,
            drop_ratio=1,
        )
    services.hands_qualify_new()
    counts = []
    for n in (5, 50):
        hands = [plain(dealer, i) for i in range(n)]
        counts.append(sweep_statements())
        assert PromotionEntry.objects.filter(hand__in=hands).count() == 2 * n
    assert counts == [19, 19]


@pytest.fixture
def every_run(clock, open_table, players, pools, make_staff) -> Dealer:
    """T01, where every run of a pot run twice counts for the jackpots (HS10), in
    October; the room's month pool counts from September and its October is closed
    already, a second month pool counts from October and is open (HM3)."""
    policy = {**POLICY, "jackpots_first_run_only": False}
    dealer = Dealer(open_table("T01", policy=policy)).sit_down()
    pools["month"].starts_on = date(2026, 9, 1)
    pools["month"].save(update_fields=["starts_on"])
    Table.objects.filter(code=dealer.table).update(gaming_day=date(2026, 9, 20))
    clock.set("2026-10-10T21:00")
    for month in (date(2026, 9, 1), OCTOBER):
        services.month_close(
            pool=pools["month"], month=month, now=CLOSE_OCTOBER, source="t"
        )
    pools["month2"] = services.pool_create(
        room=room_default(),
        code="month-2",
        name="Hand of the month 2",
        kind=Pool.Kind.HAND_OF_THE_MONTH,
        drop_ratio=1,
        by=make_staff("owner2", Role.MANAGER),
    )
    return dealer


def run_twice(dealer: Dealer) -> Hand:
    record = dealer.record(FIRST, {1: "As Ad", 2: "Ts Tc"})
    record["boards"] = [FIRST.split(), SECOND.split()]
    answer = post_hand(dealer.terminal, dealer.table, record)
    assert answer.status_code == 201, answer.content
    return Hand.objects.get(table__code=dealer.table, hand_no=dealer.hand_no)


def rows(hands: list[Hand]) -> dict[str, Any]:
    """What the qualification of ``hands`` wrote, without the rows' own ids."""
    ids = [h.pk for h in hands]

    def hit_key(pk: Any) -> Any:
        hit = Hit.objects.filter(pk=pk).first()
        return (hit.hand_id, hit.category_id) if hit else pk

    def listed(queryset: Any, *drop: str) -> list[dict[str, Any]]:
        found = [
            {k: v for k, v in row.items() if k not in ("id", *drop)}
            for row in queryset.values()
        ]
        return sorted(found, key=repr)

    exceptions = listed(
        HandException.objects.filter(hand__in=ids, kind="bad_beat_candidate"),
        "created_at",
    )
    for row in exceptions:
        row["details"]["hit"] = hit_key(row["details"]["hit"])
    awards = listed(Award.objects.filter(hand__in=ids))
    for row in awards:
        row["hit_id"] = hit_key(row["hit_id"])
    return {
        "qualified": listed(QualifiedHand.objects.filter(hand__in=ids)),
        "hits": listed(Hit.objects.filter(hand__in=ids)),
        "awards": awards,
        "exceptions": exceptions,
        "month hands": listed(MonthHand.objects.filter(hand__in=ids)),
    }


def hits_by_hand(found: dict[int, list[Hit]]) -> dict[int, list[Any]]:
    return {
        hand: [(h.hand_id, h.category_id, h.payout_cents) for h in hits]
        for hand, hits in found.items()
    }


def test_the_batch_writes_what_qualifying_each_hand_alone_writes(every_run, pools):
    """A plain hand, a bad beat, four tens for the month, a hand without a
    showdown, a bad beat on a second run, a voided hand and one qualified already:
    the sweep's batch and ``hand_qualify`` hand by hand give the same rows."""
    dealer = every_run
    qualified_before = dealer.bad_beat()
    services.hand_qualify(hand_id=qualified_before.pk, now=NOW)
    voided = dealer.ordinary()
    hands = [
        dealer.ordinary(),
        dealer.bad_beat(),
        dealer.deal("Ac Th Td 5s 2c", {1: "As Kd", 2: "Ts Tc"}),
        dealer.no_showdown(),
        run_twice(dealer),
        voided,
        qualified_before,
    ]
    Hand.objects.filter(pk=voided.pk).update(status=Hand.Status.VOIDED)
    ids = sorted(h.pk for h in hands)

    with pytest.raises(Rollback), transaction.atomic():
        assert services.hands_qualify_new(now=NOW) == len(ids) - 1
        batched = rows(hands)
        raise Rollback
    with pytest.raises(Rollback), transaction.atomic():
        returned = services.hands_qualify_batch(hand_ids=ids, now=NOW)
        raise Rollback
    alone = {i: services.hand_qualify(hand_id=i, now=NOW) for i in ids}

    assert batched == rows(hands)
    assert hits_by_hand(returned) == hits_by_hand(alone)
    # What the mix is there for: two hits, months closed and open, the void.
    assert {h.hand_id for h in Hit.objects.all()} == {
        qualified_before.pk,
        hands[1].pk,
        hands[4].pk,
    }
    months = set(MonthHand.objects.values_list("pool__code", "hand_id"))
    assert {pool for pool, _hand in months} == {"month-2"}
    assert {hand for _pool, hand in months} == {
        h.pk for h in hands if h not in (hands[3], voided)
    }
    assert QualifiedHand.objects.filter(hand=voided).exists()


def test_a_hand_that_fails_in_the_batch_is_logged_and_the_others_qualified(
    pools, dealer, monkeypatch
):
    """A bad beat whose record breaks after its hit is written leaves nothing
    behind; the hands before and after it are qualified in the same sweep, and the
    broken one is left for the sweep of missed hands (BB1)."""
    before, broken, after = dealer.ordinary(), dealer.bad_beat(), dealer.bad_beat()
    real = qualification._bad_beat_record

    def breaks_after_writing(hand, *args):
        found = real(hand, *args)
        if hand.pk == broken.pk:
            raise ValueError("a broken hand")
        return found

    monkeypatch.setattr(qualification, "_bad_beat_record", breaks_after_writing)
    with capture_logs() as logs:
        assert services.hands_qualify_new() == 3
    failed = [e for e in logs if e["event"] == "jackpots.sweep.hand_failed"]
    assert [e["hand"] for e in failed] == [broken.pk]
    assert set(QualifiedHand.objects.values_list("hand_id", flat=True)) == {
        before.pk,
        after.pk,
    }
    assert Hit.objects.get().hand == after
    assert not HandException.objects.filter(
        hand=broken, kind="bad_beat_candidate"
    ).exists()
    assert not MonthHand.objects.filter(hand=broken).exists()
    monkeypatch.undo()
    assert services.hands_qualify_missed(since=broken.ended_at) == 1
    assert Hit.objects.filter(hand=broken).exists()


def test_a_batch_that_fails_as_a_whole_qualifies_hand_by_hand(
    pools, dealer, monkeypatch
):
    """A failure that is no one hand's (here the batch itself) makes the sweep
    qualify its hands one at a time, as before the batches: none is lost."""
    hands = [dealer.ordinary(), dealer.bad_beat()]

    def fails(**kwargs):
        raise RuntimeError("the batch broke")

    monkeypatch.setattr(sweep, "hands_qualify_batch", fails)
    with capture_logs() as logs:
        assert services.hands_qualify_new() == 2
    assert [e["event"] for e in logs if e["log_level"] == "error"] == [
        "jackpots.sweep.batch_failed"
    ]
    assert QualifiedHand.objects.filter(hand__in=hands).count() == 2
    assert Hit.objects.get().hand == hands[1]
