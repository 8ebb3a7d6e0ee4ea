"""The qualification sweep (BB1, HM1): hands booked since its cursor, in one
transaction, no broker message a hand."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import transaction

from config.celery import app as celery_app
from jackpots import services, tasks
from jackpots.models import Hit, QualifiedHand, SweepCursor
from jackpots.services import qualification

pytestmark = pytest.mark.django_db


def cursor() -> int:
    row = SweepCursor.objects.filter(name=services.SWEEP).first()
    return row.last_hand_id if row else 0


def test_booking_a_hand_sends_nothing_and_the_sweep_qualifies_it(
    pools, dealer, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        hand = dealer.bad_beat()
    assert queued == []
    assert not QualifiedHand.objects.filter(hand=hand).exists()
    assert tasks.qualify_new_task() == 1
    assert Hit.objects.get().hand == hand
    assert cursor() == hand.pk
    assert tasks.qualify_new_task() == 0
    assert Hit.objects.count() == 1


def test_the_sweep_works_in_batches_and_keeps_up(pools, dealer, monkeypatch):
    hands = [dealer.ordinary() for _ in range(3)] + [dealer.bad_beat()]
    assert services.hands_qualify_new(limit=2) == 2
    assert cursor() == hands[1].pk
    # The task sweeps again while a sweep comes back full.
    monkeypatch.setattr(services, "SWEEP_BATCH", 1)
    assert tasks.qualify_new_task() == 2
    assert QualifiedHand.objects.count() == 4
    assert Hit.objects.get().hand == hands[-1]


def test_a_sweep_that_fails_leaves_the_cursor_and_its_hands(pools, dealer):
    """The cursor moves in the qualification's transaction: a crash before the
    commit skips nothing."""
    before = cursor()
    dealer.bad_beat()
    with pytest.raises(OSError), transaction.atomic():
        assert services.hands_qualify_new() == 1
        raise OSError("worker killed before the commit")
    assert cursor() == before
    assert not QualifiedHand.objects.exists() and not Hit.objects.exists()
    assert tasks.qualify_new_task() == 1
    assert Hit.objects.count() == 1


def test_one_hand_that_fails_does_not_hold_back_the_others(pools, dealer, monkeypatch):
    """The sweep qualifies its hands as a batch; one whose record can't be read is
    left out of it, the others are qualified."""
    first, second = dealer.ordinary(), dealer.bad_beat()
    real = qualification.hand_runs_facts

    def fails_for_the_first(hand, seats):
        if hand.pk == first.pk:
            raise ValueError("a broken hand")
        return real(hand, seats)

    monkeypatch.setattr(qualification, "hand_runs_facts", fails_for_the_first)
    assert services.hands_qualify_new() == 2
    assert Hit.objects.get().hand == second
    assert list(QualifiedHand.objects.values_list("hand_id", flat=True)) == [second.pk]
    assert cursor() == second.pk
    # The five-minute sweep looks at it again, a minute after the hand (the hands
    # are dealt on the room's evening, whatever the machine's clock says).
    monkeypatch.undo()
    with time_machine.travel(first.ended_at + timedelta(minutes=1), tick=False):
        assert tasks.qualify_missed_task() == 1


def test_a_booking_that_commits_after_a_later_one_is_still_qualified(pools, dealer):
    """Ids are drawn at the insert, not the commit: the look-back finds it."""
    first, second = dealer.ordinary(), dealer.bad_beat()
    # As if the first hand's transaction had not committed at the last sweep.
    # The cursor's row is the migration's, unless a transactional test flushed it.
    SweepCursor.objects.update_or_create(
        name=services.SWEEP, defaults={"last_hand_id": second.pk}
    )
    QualifiedHand.objects.filter(hand=first).delete()
    QualifiedHand.objects.create(hand=second, qualified_at=second.ended_at)
    assert services.hands_qualify_new() == 1
    assert QualifiedHand.objects.filter(hand=first).exists()
    assert cursor() == second.pk


def test_beat_sends_the_sweep_every_two_seconds():
    celery_app.loader.import_default_modules()
    celery_app.finalize(auto=True)
    entry = celery_app.conf.beat_schedule[tasks.QUALIFY_NEW]
    assert entry["task"] == tasks.qualify_new_task.name
    assert entry["schedule"] == tasks.SWEEP_EVERY == 2.0
    assert entry["options"]["expire_seconds"] == tasks.SWEEP_EXPIRES
