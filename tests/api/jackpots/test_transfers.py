"""A promotion ends into its successor; drops that reached no pool go to one (JD5).

Every cent dropped is eventually paid to players or moved to a successor jackpot,
with a manager's record of why; the books stay balanced and the record can't change.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, ProgrammingError, connection, transaction

from accounting.models import Transaction
from accounting.selectors import trial_balance
from cardroom.services import room_default
from core.roles import Role
from jackpots import services
from jackpots.models import Hit, Pool, Transfer

from .conftest import SEED, balance

pytestmark = pytest.mark.django_db

BB = "jackpot:main.bad-beat:pool"
BB_RESERVE = "jackpot:main.bad-beat:reserve"
NEXT = "jackpot:main.bad-beat-2:pool"
NEXT_RESERVE = "jackpot:main.bad-beat-2:reserve"
DROPS = "jackpot:drops"


@pytest.fixture
def successor(pools, make_staff) -> Pool:
    return services.pool_create(
        room=room_default(),
        code="bad-beat-2",
        name="Bad beat 2027",
        kind=Pool.Kind.BAD_BEAT,
        drop_ratio=0,
        by=make_staff("owner2", Role.MANAGER),
    )


def retire(client, pool: Pool, successor: Pool, reason: str = "", key: str = "r-1"):
    return client.post(
        f"/api/v1/jackpots/pools/{pool.pk}/retire",
        {"successor": successor.pk, "reason": reason},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


def test_a_retired_pool_hands_amount_and_reserve_to_its_successor(
    manager, pools, successor, make_staff
):
    pool = pools["bad-beat"]
    boss = make_staff("boss", Role.MANAGER)
    services.pool_seed(pool=pool, amount_cents=2_500, to_reserve=True, by=boss)
    reason = "The 2026 promotion ended; its players' money seeds the 2027 one."

    answer = retire(manager, pool, successor, reason)

    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["pool"]["active"] is False
    assert (body["pool"]["amount"], body["pool"]["reserve"]) == (0, 0)
    moved = body["transfer"]
    assert (moved["source"], moved["target"]) == ("bad-beat", "bad-beat-2")
    assert (moved["amount"], moved["reserve"]) == (SEED, 2_500)
    assert (moved["reason"], moved["decided_by"]) == (reason, "manager")
    assert (balance(BB), balance(BB_RESERVE)) == (0, 0)
    assert (balance(NEXT), balance(NEXT_RESERVE)) == (SEED, 2_500)
    posting = Transaction.objects.get(pk=moved["transaction"])
    assert (posting.kind, posting.memo) == ("jackpot_transfer", reason)
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree

    again = retire(manager, pool, successor, reason)
    assert again.status_code == 200 and again.json() == body
    assert Transfer.objects.count() == 1
    other_key = retire(manager, pool, successor, reason, key="r-2")
    assert other_key.status_code == 409
    assert other_key.json()["error"]["code"] == "already_retired"


def test_a_retired_pool_takes_no_more_drops(manager, pools, successor, dealer):
    retire(manager, pools["month"], pools["bad-beat"], "Monthly promotion ended.")
    before = balance(BB), balance("jackpot:main.hand-of-the-month:pool")
    dealer.ordinary()
    after = balance(BB), balance("jackpot:main.hand-of-the-month:pool")
    # The whole €1 drop goes to the one active pool with a share (bad-beat-2 has 0).
    assert (after[0] - before[0], after[1] - before[1]) == (100, 0)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"reason": "   "}, "reason_required"),
        ({"successor": "self"}, "bad_successor"),
        ({"successor": "inactive"}, "bad_successor"),
    ],
)
def test_a_retirement_needs_a_reason_and_another_active_pool(
    manager, pools, successor, change, code
):
    pool = pools["bad-beat"]
    target = successor
    if change.get("successor") == "self":
        target = pool
    elif change.get("successor") == "inactive":
        services.pool_update(pool=successor, by=None, active=False)
    answer = retire(manager, pool, target, change.get("reason", "Ended."))
    assert answer.status_code == 422, answer.content
    error = answer.json()["error"]
    assert (error["rule"], error["code"]) == ("JD5", code)
    pool.refresh_from_db()
    assert pool.active and balance(BB) == SEED and not Transfer.objects.exists()


def test_a_pool_with_a_hit_waiting_is_not_moved(
    manager, pools, successor, dealer, sweep
):
    dealer.bad_beat()
    sweep()
    hit = Hit.objects.get()
    answer = retire(manager, pools["bad-beat"], successor, "Ended.")
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert (error["rule"], error["code"]) == ("JD5", "pool_owes")
    assert error["allowed"] == {"waiting": [f"hit {hit.pk}"]}
    assert Pool.objects.get(code="bad-beat").active


def test_only_a_manager_moves_money_held_in_trust(staff_client, pools, successor):
    for role in (Role.CASHIER, Role.FLOOR, Role.AUDITOR):
        client = staff_client(role, username=f"u-{role.value}")
        assert retire(client, pools["bad-beat"], successor, "x").status_code == 403
        answer = client.post(
            "/api/v1/jackpots/drops/allocate",
            {"pool": successor.pk, "reason": "x"},
            format="json",
        )
        assert answer.status_code == 403
    auditor = staff_client(Role.AUDITOR, username="reader")
    assert auditor.get("/api/v1/jackpots/transfers").status_code == 200


def test_drops_from_a_room_without_pools_are_given_to_a_pool(
    manager, pools, successor, dealer
):
    for pool in Pool.objects.all():
        services.pool_update(pool=pool, by=None, active=False)
    dealer.ordinary()
    dealer.ordinary()
    assert balance(DROPS) == 200
    services.pool_update(pool=successor, by=None, active=True)

    too_much = manager.post(
        "/api/v1/jackpots/drops/allocate",
        {"pool": successor.pk, "amount": 201, "reason": "The new promotion."},
        format="json",
    )
    assert too_much.status_code == 422
    assert too_much.json()["error"]["allowed"] == {"min": 1, "max": 200}

    given = manager.post(
        "/api/v1/jackpots/drops/allocate",
        {"pool": successor.pk, "reason": "The new promotion."},
        format="json",
        HTTP_IDEMPOTENCY_KEY="d-1",
    )
    assert given.status_code == 201, given.content
    assert (given.json()["source"], given.json()["amount"]) == (None, 200)
    assert (balance(DROPS), balance(NEXT)) == (0, 200)
    listed = manager.get(f"/api/v1/jackpots/transfers?pool={successor.pk}").json()
    assert [t["id"] for t in listed] == [given.json()["id"]]
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree


def test_the_database_keeps_a_transfer_as_it_was(manager, pools, successor):
    answer = retire(manager, pools["bad-beat"], successor, "Ended.")
    transfer = Transfer.objects.get(pk=answer.json()["transfer"]["id"])
    for statement in (
        f"UPDATE jackpots_transfer SET reason = 'x' WHERE id = {transfer.pk}",
        f"DELETE FROM jackpots_transfer WHERE id = {transfer.pk}",
    ):
        # The trigger refuses; the app's role isn't granted UPDATE or DELETE either.
        refused = pytest.raises(
            ProgrammingError, match=r"Cannot update or delete|permission denied"
        )
        with refused, transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    with pytest.raises(IntegrityError), transaction.atomic():
        Transfer.objects.create(
            room=transfer.room,
            source=transfer.target,
            target=transfer.target,
            amount_cents=1,
            reserve_cents=0,
            reason="loop",
            decided_by=transfer.decided_by,
            decided_at=transfer.decided_at,
            ledger_transaction=Transaction.objects.exclude(
                pk=transfer.ledger_transaction_id
            ).first(),
        )
