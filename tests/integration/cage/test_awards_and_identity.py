"""Award payouts against approval and signature (CA6); the identity threshold (CA5)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import IntegrityError, transaction

from accounting import chart
from accounting.models import Cage, CashTransaction, Payable, Receipt
from accounting.selectors import trial_balance
from accounting.services import cage as services
from accounting.services.cage.receipts import receipt_number_take
from core.errors import Conflict, Refusal
from core.roles import Role

from .conftest import FLOAT
from .helpers import book_award, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def award(player, manager, floor_person):
    booking = book_award(player.code, 150_000)
    return services.payable_create(
        player=player,
        amount_cents=150_000,
        reference="bad beat hit 12",
        approved_by=manager,
        created_by=floor_person,
        booking=booking,
    )


def pay(payable, cashier, **kwargs):
    values = {"cage": "MAIN", "player": "P-1001", "player_signed": True, **kwargs}
    return services.payable_pay(payable=payable, cashier=cashier, **values)


def test_an_award_is_paid_once_from_the_drawer(award, shift, cashier):
    """Awards payable → drawer cash, on a receipt the player signed; twice is 409."""
    receipt = pay(award, cashier)
    assert receipt.kind == Receipt.Kind.AWARD_PAYOUT
    assert receipt.player_signed and receipt.payable == award
    assert chart.awards_payable().balance_cents == 0
    drawer = chart.drawer_cash(cage="MAIN", shift=shift.pk)
    assert drawer.balance_cents == FLOAT - 150_000
    award.refresh_from_db()
    assert award.status == Payable.Status.PAID
    before = snapshot()
    with pytest.raises(Conflict) as refused:
        pay(award, cashier)
    assert (refused.value.rule, refused.value.code) == ("CA6", "already_paid")
    assert snapshot() == before
    assert trial_balance().balanced


def test_the_database_refuses_a_second_payment(award, shift, cashier):
    """Even going around the service, an award has one receipt."""
    first = pay(award, cashier)
    with pytest.raises(IntegrityError, match="payable"), transaction.atomic():
        # Rolled back with the refused insert: the number isn't left unused.
        number = receipt_number_take(Cage.objects.select_for_update().get(code="MAIN"))
        Receipt.objects.create(
            cage=first.cage,
            number=number,
            kind=Receipt.Kind.AWARD_PAYOUT,
            shift=first.shift,
            player=first.player,
            amount_cents=first.amount_cents,
            transaction=book_award("P-1001", 1),
            payable=award,
            player_signed=True,
            issued_by=cashier,
            issued_at=first.issued_at,
        )


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"player_signed": False}, "signature_required"),
        ({"player": "P-3003"}, "wrong_player"),
    ],
)
def test_a_payout_needs_the_awards_player_and_his_signature(
    award, shift, cashier, change, code
):
    """Another player's id, or no signature: refused (CA6), nothing moves."""
    services.player_register(
        code="P-3003",
        name="Someone Else",
        id_verified=True,
        birth_date=date(1985, 1, 1),
    )
    before = snapshot()
    with pytest.raises(Refusal) as refused:
        pay(award, cashier, **change)
    assert (refused.value.rule, refused.value.code) == ("CA6", code)
    assert snapshot() == before


def test_an_award_needs_an_approver_other_than_its_maker_and_payer(
    player, manager, make_staff, cage
):
    """No approver, approving one's own, or paying one's own approval: CA6."""
    before = snapshot()
    with pytest.raises(Refusal) as unapproved:
        services.payable_create(
            player=player, amount_cents=1_000, reference="promo", approved_by=None
        )
    assert (unapproved.value.rule, unapproved.value.code) == (
        "CA6",
        "award_not_approved",
    )
    with pytest.raises(Refusal) as own:
        services.payable_create(
            player=player,
            amount_cents=1_000,
            reference="promo",
            approved_by=manager,
            created_by=manager,
        )
    assert own.value.rule == "CA6"
    assert snapshot() == before
    boss = make_staff("boss", Role.CASHIER, Role.MANAGER)
    services.shift_open(cage=cage, cashier=boss, cash_cents=10_000, chips_cents=0)
    book_award(player.code, 1_000)
    award = services.payable_create(
        player=player, amount_cents=1_000, reference="promo", approved_by=boss
    )
    with pytest.raises(Refusal) as self_paid:
        pay(award, boss)
    assert (self_paid.value.rule, self_paid.value.code) == ("CA6", "four_eyes")


def test_cash_reaching_the_threshold_needs_a_verified_id(
    cage, shift, cashier, unverified
):
    """€1,500 then €500 more: refused with what is left (€499.99), nothing written."""
    buy = {"cage": "MAIN", "cashier": cashier, "player": unverified.code}
    services.chip_purchase(amount_cents=150_000, **buy)
    before = snapshot()
    with pytest.raises(Refusal) as refused:
        services.chip_purchase(amount_cents=50_000, **buy)
    assert (refused.value.rule, refused.value.code) == (
        "CA5",
        "identity_required",
    )
    assert refused.value.allowed == {"max": 49_999}
    assert snapshot() == before
    # Redemptions are cash transactions too.
    with pytest.raises(Refusal):
        services.chip_redemption(amount_cents=50_000, **buy)
    services.chip_purchase(amount_cents=49_999, **buy)
    services.player_identity_verify(
        player=unverified,
        document_type="passport",
        document_number="FI1234567",
        verified_by=cashier,
    )
    services.chip_redemption(amount_cents=199_999, **buy)
    assert CashTransaction.objects.filter(player=unverified).count() == 3


def test_the_threshold_counts_per_gaming_day_and_for_table_buy_ins(
    unverified, settings
):
    """Cash at 05:59 belongs to the night before (cut-off 06:00, BI8)."""
    settings.TIME_ZONE = "Europe/Helsinki"
    settings.CARDROOM_GAMING_DAY_CUTOFF_HOUR = 6
    # 03:59 UTC is 05:59 in Helsinki (winter, UTC+2): still the 29th's night.
    night = datetime(2026, 11, 30, 3, 59, tzinfo=UTC)
    services.cash_activity_record(
        player=unverified,
        amount_cents=190_000,
        kind="table_buy_in",
        reference="T01",
        at=night,
        threshold_cents=200_000,
    )
    with pytest.raises(Refusal) as refused:
        services.cash_activity_check(
            player=unverified,
            amount_cents=10_000,
            at=night + timedelta(seconds=59),
            threshold_cents=200_000,
        )
    assert refused.value.allowed == {"max": 9_999}
    # A minute later the new gaming day starts from zero.
    services.cash_activity_check(
        player=unverified,
        amount_cents=199_999,
        at=night + timedelta(minutes=1),
        threshold_cents=200_000,
    )
    assert CashTransaction.objects.get().gaming_day.isoformat() == "2026-11-29"


def test_a_room_passes_its_own_gaming_day(unverified):
    """The floor gives its room's business date; the totals follow it, not the
    settings' clock."""
    at = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    room_night = date(2026, 11, 29)  # e.g. a room whose night ends at 15:00
    services.cash_activity_record(
        player=unverified,
        amount_cents=150_000,
        kind="table_buy_in",
        at=at,
        gaming_day=room_night,
    )
    assert CashTransaction.objects.get().gaming_day == room_night
    with pytest.raises(Refusal):
        services.cash_activity_check(
            player=unverified, amount_cents=50_000, at=at, gaming_day=room_night
        )
    services.cash_activity_check(
        player=unverified,
        amount_cents=50_000,
        at=at,
        gaming_day=date(2026, 11, 30),
    )
