"""The database keeps the new promises even when the services are bypassed (TO5,
TO9, TO3): a deal approved by who recorded it, a deal approved without its
approver, a forfeited prize without its reason or posting, chips given by a race
with the wrong sign are all refused by PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, transaction
from django.utils import timezone

from core.errors import Refusal
from tournaments import selectors, services
from tournaments.models import ChipMovement, Deal, Entry, Payout
from tournaments.services import BustIn
from tournaments.services.deals import deal_approve
from tournaments.services.payouts import payout_forfeit

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(event, cage, shift, cashier, players):
    for p in players[:3]:
        services.entry_register(
            event=event, player=p.code, cage="MAIN", cashier=cashier
        )
    services.event_start(event=event)
    event.refresh_from_db()
    return event


def _refused(write) -> None:
    with pytest.raises(DatabaseError), transaction.atomic():
        write()


def test_a_deal_is_approved_by_another_person_and_completely(
    running, floor_person, manager
):
    entries = list(Entry.objects.filter(event=running).order_by("pk"))
    stacks = {e.pk: 20_000 for e in entries}
    offers = selectors.deal_offers(event=running, stacks=stacks)
    deal = services.deal_propose(
        event=running,
        method="chip_chop",
        stacks=stacks,
        button_order=list(stacks),
        amounts=offers["chip_chop"],
        by=floor_person,
    )
    for entry in entries:
        deal = services.deal_sign(deal=deal, entry=entry, witnessed_by=floor_person)
    now = timezone.now()
    signed = Deal.objects.filter(pk=deal.pk)
    _refused(
        lambda: signed.update(
            status="approved", approved_by=floor_person, approved_at=now
        )
    )
    _refused(lambda: signed.update(status="approved", approved_at=now))
    _refused(lambda: signed.update(approved_by=manager, approved_at=now))
    deal = deal_approve(deal=deal, by=manager, at=now)
    assert deal.status == "approved" and deal.approved_by == manager
    assert not Entry.objects.filter(event=running, status="active").exists()


def test_a_forfeited_prize_says_why_where_and_by_whom(running, floor_person, manager):
    entries = list(Entry.objects.filter(event=running).order_by("number"))
    services.busts_record(
        event=running,
        hand="h1",
        busts=[BustIn(e, 1_000) for e in entries[1:]],
        by=floor_person,
    )
    sheet = services.payout_sheet_prepare(
        event=running, by=floor_person, holds={entries[0].pk: "absent"}
    )
    services.payout_sheet_approve(sheet=sheet, by=manager)
    held = Payout.objects.filter(status="held")
    _refused(lambda: held.update(status="forfeited"))
    _refused(
        lambda: held.update(
            status="forfeited",
            forfeit_reason="x",
            forfeit_destination="house",
            forfeited_by=manager,
            forfeited_at=timezone.now(),
        )
    )
    with pytest.raises(Refusal) as same:
        payout_forfeit(
            payout=held.get(), by=floor_person, reason="x", destination="house"
        )
    assert same.value.rule == "TO9"
    line = payout_forfeit(
        payout=held.get(), by=manager, reason="unclaimed", destination="house"
    )
    assert line.status == "forfeited" and line.forfeit_transaction is not None
    _refused(lambda: Payout.objects.filter(pk=line.pk).update(status="payable"))


def test_chips_given_by_a_race_come_into_play_only(running, floor_person):
    _refused(
        lambda: ChipMovement.objects.create(
            event=running,
            cause="race_minimum",
            chips=-25,
            recorded_by=floor_person,
            at=timezone.now(),
        )
    )
