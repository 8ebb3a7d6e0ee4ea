"""Every leaf PostgreSQL writes is the canonical JSON the format defines
(reports.domain.digest.leaf_record and canonical, docs/digest.md "A leaf"), read
independently here through the ORM: a played night's hands, voids, receipts,
award bookings and payouts, and texts with quotes, backslashes, control
characters and every script."""

from __future__ import annotations

from datetime import UTC, timedelta
from typing import Any

import pytest
from django.db.models import Q

from accounting.models import AccountType, Receipt, Transaction
from accounting.services import Leg, account_get_or_open, transaction_post
from cardroom.models import Hand
from cardroom.services import room_default
from jackpots.models import Award
from reports.domain.digest import canonical, leaf_record
from reports.leaves import day_leaves, transaction_leaf
from reports.selectors import Period
from tests.integration.reports.conftest import (
    DAY,
    build,
    clock,
    floor,
    manager,
    open_table,
    played_day,
    players,
    stock_tray,
)

__all__ = [
    "build",
    "clock",
    "floor",
    "manager",
    "open_table",
    "played_day",
    "players",
    "stock_tray",
]

pytestmark = pytest.mark.django_db

HARD = 'a "quote", a \\ backslash,\n\ttabs\r\b\f, \x01\x1f\x7f, Pää 한국어 ☃ 🂡'


def hand_of(t: Transaction) -> dict[str, Any] | None:
    hand = Hand.objects.select_related("table").filter(ledger_transaction=t).first()
    if hand is None:
        return None
    return {
        "table": hand.table.code,
        "hand_no": hand.hand_no,
        "gaming_day": hand.gaming_day.isoformat(),
        "record_hash": hand.record_hash,
        "pot_cents": hand.pot_cents,
        "rake_cents": hand.rake_cents,
        "jackpot_drop_cents": hand.jackpot_drop_cents,
    }


def receipt_of(t: Transaction) -> dict[str, Any] | None:
    receipt = Receipt.objects.select_related("cage", "player").filter(transaction=t)
    found = receipt.first()
    if found is None:
        return None
    paid = Award.objects.filter(payable_id=found.payable_id).first()
    return {
        "no": found.no,
        "kind": found.kind,
        "player": found.player.code,
        "amount_cents": found.amount_cents,
        "award": paid.pk if found.payable_id and paid else None,
    }


def awards_of(t: Transaction) -> list[dict[str, Any]]:
    booked = Award.objects.filter(
        Q(hit__booking=t) | Q(month__booking=t) | Q(prize__booking=t)
    ).select_related("player", "hand__table")
    return [
        {
            "id": a.pk,
            "player": a.player.code,
            "role": a.role,
            "amount_cents": a.amount_cents,
            "hand": str(a.hand),
        }
        for a in booked.order_by("pk")
    ]


def reference_leaf(pk: int) -> bytes:
    """The leaf of transaction ``pk`` as the format defines it, from the ORM."""
    t = Transaction.objects.get(pk=pk)
    return canonical(
        leaf_record(
            transaction={
                "id": t.pk,
                "kind": t.kind,
                "reference": t.reference,
                "external_id": t.external_id,
                "memo": t.memo,
                "source": t.source,
                "posted_at": t.posted_at.astimezone(UTC).strftime(
                    "%Y-%m-%dT%H:%M:%S.%fZ"
                ),
                "posted_by": t.posted_by_id,
                "approved_by": t.approved_by_id,
                "reverses": t.reverses_id,
            },
            entries=[
                (e.account.code, e.amount_cents, e.currency)
                for e in t.entries.select_related("account").order_by("pk")
            ],
            hand=hand_of(t),
            receipt=receipt_of(t),
            awards=awards_of(t),
        )
    )


def test_every_leaf_of_a_played_night_is_the_formats_canonical_json(played_day):
    cash = account_get_or_open(
        code=f"test:{HARD[:20]}", name="hard", type=AccountType.ASSET, currency="EUR"
    )
    other = account_get_or_open(
        code="test:other", name="other", type=AccountType.EQUITY, currency="EUR"
    )
    period = Period.of(room_default(), DAY)
    hard = transaction_post(
        kind="test",
        legs=[Leg(cash, 1), Leg(other, -1)],
        source=HARD[:60],
        reference=HARD[:100],
        memo=HARD,
        posted_at=period.start + timedelta(hours=1, microseconds=7),
    )
    leaves = day_leaves(
        after=period.start, after_horizon=2**62, until=period.end, horizon=2**62
    )
    kinds = set()
    for leaf in leaves:
        assert leaf.data == reference_leaf(leaf.transaction), leaf.transaction
        kinds.add(Transaction.objects.get(pk=leaf.transaction).kind)
    assert hard.pk in {leaf.transaction for leaf in leaves}
    assert transaction_leaf(hard.pk).data == reference_leaf(hard.pk)
    # The night's every kind of booking was compared: hands, their void, buy-ins,
    # the cage's receipts, a bad beat's awards and their payout.
    with_hand = [leaf for leaf in leaves if b'"hand":{' in leaf.data]
    with_receipt = [leaf for leaf in leaves if b'"receipt":{' in leaf.data]
    with_awards = [leaf for leaf in leaves if b'"awards":[{' in leaf.data]
    assert len(with_hand) > 50 and with_receipt and with_awards, kinds
    assert any(
        b'"award":' in leaf.data and b'"award":null' not in leaf.data
        for leaf in with_receipt
    )
