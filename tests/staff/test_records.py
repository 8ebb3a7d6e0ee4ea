"""The database keeps the cage screens' counts as recorded (CA1)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, InternalError, ProgrammingError, transaction
from django.utils import timezone

from staff.models import ShiftCount

pytestmark = pytest.mark.django_db

REFUSED = (IntegrityError, InternalError, ProgrammingError)


def count(shift, **values) -> ShiftCount:
    fields = {
        "shift": shift,
        "moment": "close",
        "notes": {"50000": 10},
        "chips": {},
        "cash_cents": 500_000,
        "chips_cents": 0,
        "counted_by": shift.cashier,
        "counted_at": timezone.now(),
        **values,
    }
    return ShiftCount.objects.create(**fields)


def test_an_over_short_without_a_note_is_refused_by_the_database(opened):
    """CA1: the constraint stands behind the screen's check."""
    with pytest.raises(IntegrityError), transaction.atomic():
        count(opened, over_short_cash_cents=-3_000)
    assert count(opened, over_short_cash_cents=-3_000, note="change given twice")


def test_a_count_is_never_changed_nor_deleted(opened):
    recorded = count(opened)
    with pytest.raises(REFUSED), transaction.atomic():
        ShiftCount.objects.filter(pk=recorded.pk).update(cash_cents=1)
    with pytest.raises(REFUSED), transaction.atomic():
        ShiftCount.objects.filter(pk=recorded.pk).delete()
    with pytest.raises(IntegrityError), transaction.atomic():
        count(opened)  # one count per moment of a shift
