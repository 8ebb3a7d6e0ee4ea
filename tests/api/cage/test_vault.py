"""A manager takes house cash out of the vault or retires chips, saying where to."""

from __future__ import annotations

import pytest

from accounting.models import Account, Transaction
from accounting.selectors import trial_balance

from .conftest import VAULT, post

pytestmark = pytest.mark.django_db

BODY = {"cage": "MAIN", "cash": 1_500_000, "chips": 0, "memo": "Bank deposit 4471."}


def balance(code: str) -> int:
    return Account.objects.get(code=code).balance_cents


def test_cash_goes_from_the_vault_back_to_the_house(cage, manager):
    capital = balance("equity:house_capital")
    answer = post(manager, "cage/vault/withdrawals", BODY, "w-1")
    assert answer.status_code == 201, answer.content
    assert answer.json()["cash"] == VAULT - 1_500_000 == balance("cage:MAIN:cash")
    assert balance("equity:house_capital") == capital - 1_500_000
    posting = Transaction.objects.get(pk=answer.json()["transaction"])
    assert (posting.kind, posting.memo) == ("vault_withdraw", "Bank deposit 4471.")
    again = post(manager, "cage/vault/withdrawals", BODY, "w-1")
    assert again.status_code == 201 and again.json() == answer.json()
    assert balance("cage:MAIN:cash") == VAULT - 1_500_000
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree


def test_chips_retired_leave_the_float(cage, manager):
    chip_float = balance("equity:chip_float")
    body = {**BODY, "cash": 0, "chips": 200_000, "memo": "Worn chips destroyed."}
    answer = post(manager, "cage/vault/withdrawals", body)
    assert answer.status_code == 201, answer.content
    assert balance("cage:MAIN:chips") == VAULT - 200_000
    assert balance("equity:chip_float") == chip_float - 200_000


@pytest.mark.parametrize(
    ("change", "status", "code"),
    [
        ({"cash": VAULT + 1}, 422, "insufficient_funds"),
        ({"cash": 0}, 400, "invalid_amount"),
        ({"memo": " "}, 400, "memo_required"),
    ],
)
def test_what_the_vault_hasnt_or_no_reason_is_refused(
    cage, manager, change, status, code
):
    answer = post(manager, "cage/vault/withdrawals", {**BODY, **change})
    assert answer.status_code == status, answer.content
    assert answer.json()["error"]["code"] == code
    assert balance("cage:MAIN:cash") == VAULT
    assert not Transaction.objects.filter(kind="vault_withdraw").exists()


def test_only_a_manager_takes_money_out_of_the_vault(cage, cashier, floor):
    for client in (cashier, floor):
        assert post(client, "cage/vault/withdrawals", BODY).status_code == 403
    assert balance("cage:MAIN:cash") == VAULT
