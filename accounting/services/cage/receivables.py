"""Receivables at the cage (RULES.md DC3): the open ones, what a player owes, the
block.

A receivable is booked by a correction a second person approves (DC2): the player's
``receivable:<player>`` account is debited with what he got and wasn't due. He
pays it back in cash at the cage, in one go or in parts, each payment a numbered
receipt (CA2, :func:`accounting.services.cage.receipts.receivable_collect`) and a
balanced posting: drawer cash +C, his receivable −C. The ledger is the record: what is
booked, collected and open is read from the account's entries
(:mod:`accounting.domain.receivables`), and a player with an amount past the
house's terms (``CARDROOM_DC3_TERMS_DAYS``, none by default) can't buy in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from accounting.domain.receivables import Movement, Standing, standing
from accounting.errors import Code, refuse
from accounting.models import Account, Entry, Player

PREFIX = "receivable:"


def terms() -> timedelta:
    """The time a player has to pay a receivable back (DC3; none by default)."""
    return timedelta(days=getattr(settings, "CARDROOM_DC3_TERMS_DAYS", 0))


def _movements(account_ids: list[int], at: datetime) -> dict[int, list[Movement]]:
    """The entries of the accounts posted by ``at``, as movements, by account."""
    rows = (
        Entry.objects.filter(account_id__in=account_ids, transaction__posted_at__lte=at)
        .select_related("transaction")
        .order_by("transaction__posted_at", "id")
    )
    found: dict[int, list[Movement]] = {a: [] for a in account_ids}
    for e in rows:
        t = e.transaction
        found[e.account_id].append(
            Movement(t.posted_at, e.amount_cents, t.reference, t.memo, t.pk)
        )
    return found


@dataclass(frozen=True, slots=True)
class PlayerReceivables:
    """A player's receivables as the ledger holds them, at ``at``."""

    player: str
    name: str
    standing: Standing


def receivable_standing(*, player: Player, now: datetime | None = None) -> Standing:
    """Return what ``player`` owes, read from his receivable account (DC3)."""
    now = now or timezone.now()
    account = Account.objects.filter(code=f"{PREFIX}{player.code}").first()
    moves = _movements([account.pk], now)[account.pk] if account else []
    return standing(moves, now=now, terms=terms())


def receivables_open(
    *, player: str | None = None, due_only: bool = False, now: datetime | None = None
) -> list[PlayerReceivables]:
    """Return every player with an open receivable at ``now``, oldest due first (DC3).

    ``player`` keeps one player's; ``due_only`` keeps those past their terms. Read
    from the ledger as it was at ``now`` (the daily audit asks for its period's end).
    """
    now = now or timezone.now()
    accounts = Account.objects.filter(code__startswith=PREFIX)
    if player is not None:
        accounts = accounts.filter(code=f"{PREFIX}{player}")
    by_id = {a.pk: a.code.removeprefix(PREFIX) for a in accounts}
    names = dict(
        Player.objects.filter(code__in=by_id.values()).values_list("code", "name")
    )
    moves = _movements(list(by_id), now)
    out = []
    for pk, code in by_id.items():
        s = standing(moves[pk], now=now, terms=terms())
        if s.open > 0 and (s.due > 0 or not due_only):
            out.append(PlayerReceivables(code, names.get(code, ""), s))
    out.sort(key=lambda r: (r.standing.oldest_due_at or now, r.player))
    return out


def receivable_check(*, player: Player, now: datetime | None = None) -> None:
    """Refuse a buy-in by a player with a receivable past its terms (DC3).

    Raises :class:`Refusal` (422, ``receivable_open``, DC3) with the amount open
    and the amount due in ``allowed``.
    """
    s = receivable_standing(player=player, now=now)
    if s.due > 0:
        raise refuse(
            Code.RECEIVABLE_OPEN,
            rule="DC3",
            allowed={"open": s.open, "due": s.due},
            p=player.code,
            open=s.open,
            due=s.due,
        )
