"""What PostgreSQL itself refuses in a tournament's books, whatever the code (TO1, TO7,
TO9)."""

from __future__ import annotations

import pytest
from django.db import (
    IntegrityError,
    InternalError,
    ProgrammingError,
    connection,
    transaction,
)

from accounting.models import Account, Transaction
from accounting.services import InsufficientFunds, Leg, transaction_post
from tournaments import chart
from tournaments.models import PayoutSheet

pytestmark = pytest.mark.django_db


def test_the_prize_pool_can_not_go_negative(event, manager):
    """TO7: the pool is held in trust: no posting takes out more than is in it."""
    pool = chart.prize_pool(event=event.code, currency="EUR")
    fees = chart.fee_revenue(currency="EUR")
    transaction_post(
        kind="test", legs=[Leg(fees, 500), Leg(pool, -500)], posted_by=manager
    )
    before = Transaction.objects.count()
    with pytest.raises(InsufficientFunds):
        transaction_post(
            kind="test", legs=[Leg(pool, 501), Leg(fees, -501)], posted_by=manager
        )
    pool.refresh_from_db()
    assert pool.balance_cents == 500
    assert Transaction.objects.count() == before
    # Even past the service: the account row's CHECK.
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(pk=pool.pk).update(balance_cents=-1)
    pool.refresh_from_db()
    assert pool.balance_cents == 500


def test_the_bounty_pool_can_not_go_negative(event, manager):
    """TO8: bounties are paid from their own pool, never beyond it."""
    bounty = chart.bounty_pool(event=event.code, currency="EUR")
    fees = chart.fee_revenue(currency="EUR")
    with pytest.raises(InsufficientFunds):
        transaction_post(
            kind="test", legs=[Leg(bounty, 1), Leg(fees, -1)], posted_by=manager
        )
    bounty.refresh_from_db()
    assert bounty.balance_cents == 0


def test_a_payout_sheet_is_approved_by_another_person(event, manager, cashier):
    """TO9: four-eyes in the database: the preparer can't approve his sheet."""
    sheet = PayoutSheet.objects.create(
        event=event, pool_cents=0, prepared_by=cashier, prepared_at=event.starts_at
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        PayoutSheet.objects.filter(pk=sheet.pk).update(approved_by=cashier)
    sheet.refresh_from_db()
    assert sheet.approved_by is None
    assert sheet.status == PayoutSheet.Status.PREPARED


def test_an_event_is_never_deleted(event):
    """Refused to the app role (no DELETE granted) and by the trigger to the owner."""
    with (
        pytest.raises((InternalError, ProgrammingError)),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM tournaments_event WHERE id = %s", [event.pk])
    assert type(event).objects.filter(pk=event.pk).exists()
