"""What a refused floor request must leave as it was: ledger and floor rows."""

from __future__ import annotations

from accounting.models import Account, Entry, Transaction
from accounting.selectors import trial_balance
from cardroom.models import (
    Correction,
    Hand,
    HandException,
    HandVoid,
    SeatSession,
    StackMovement,
    StackReview,
)


def fingerprint() -> dict[str, object]:
    """Entries, transactions, every balance, and the floor rows money hangs on."""
    return {
        "transactions": list(Transaction.objects.order_by("pk").values_list("pk")),
        "entries": list(
            Entry.objects.order_by("pk").values_list("pk", "account_id", "amount_cents")
        ),
        "balances": sorted(Account.objects.values_list("code", "balance_cents")),
        "hands": list(Hand.objects.order_by("pk").values_list("pk", "status")),
        "exceptions": HandException.objects.count(),
        "sessions": list(
            SeatSession.objects.order_by("pk").values_list(
                "pk", "stack_cents", "ended_at", "left_with_cents"
            )
        ),
        "movements": StackMovement.objects.count(),
        "reviews": list(
            StackReview.objects.order_by("pk").values_list("pk", "status", "resolution")
        ),
        "voids": list(HandVoid.objects.order_by("pk").values_list("pk", "status")),
        "corrections": list(
            Correction.objects.order_by("pk").values_list("pk", "status")
        ),
    }


def balance(code: str) -> int:
    account = Account.objects.filter(code=code).first()
    return account.balance_cents if account else 0


def ledger_agrees_with_sessions() -> None:
    """Every open session's stack is its ledger balance; the books balance."""
    for s in SeatSession.objects.filter(ended_at__isnull=True).select_related(
        "player", "table"
    ):
        code = f"player:{s.player.code}:table:{s.table.code}"
        assert balance(code) == s.stack_cents, code
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree


def refused(answer, status: int, rule: str | None, code: str) -> dict:
    """The answer is the error of API.md with this status, rule and code."""
    assert answer.status_code == status, answer.content
    error = answer.json()["error"]
    assert (error["rule"], error["code"]) == (rule, code), error
    return error
