"""Receivables at the cage (RULES.md DC3): the open ones, collecting them, the block.

A receivable is booked by a correction a second person approves (DC2): the player's
``receivable:<player>`` account is debited with what he got and wasn't due. Here
he pays it back in cash at the cage, in one go or in parts, each payment a numbered
receipt (CA2) and a balanced posting: drawer cash +C, his receivable −C. The ledger
is the record: what is booked, collected and open is read from the account's
entries (:mod:`accounting.domain.receivables`), and a player with an amount past the
house's terms (``CARDROOM_DC3_TERMS_DAYS``, none by default) can't buy in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounting.cage.receipts import issue_receipt
from accounting.domain import cage_postings
from accounting.domain.postings import Plan
from accounting.domain.receivables import Movement, Standing, standing
from accounting.errors import Code, refuse
from accounting.models import Account, Entry, Player, Receipt, Shift
from accounting.services import retry_on_conflict

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


def _collection(shift: Shift, player: Player, cents: int) -> Plan:
    return cage_postings.collection_plan(
        cage=shift.cage.code, shift=shift.pk, player=player.code, cents=cents
    )


@retry_on_conflict()
@transaction.atomic
def receivable_collect(
    *,
    cage: str,
    cashier: User,
    player: str,
    amount_cents: int,
    at: datetime | None = None,
) -> Receipt:
    """Collect ``amount_cents`` in cash of what ``player`` owes, with a receipt (DC3).

    A part is fine; more than is open is refused (422 DC3, ``above_open``, with
    ``allowed.max`` the amount open), as is a player who owes nothing. Raises as a
    chip purchase does for no open shift (CA1), an unregistered player (CA2) and the
    identity threshold (CA5). A refusal writes nothing and takes no receipt number.
    """
    at = at or timezone.now()

    def check(shift: Shift, who: Player) -> None:
        # The player's row is locked from here (CA5's check locks it) until commit,
        # and his account's row by the posting: two desks can't both collect the
        # last euro.
        Player.objects.select_for_update().filter(pk=who.pk).first()
        s = receivable_standing(player=who, now=at)
        if amount_cents > s.open:
            raise refuse(
                Code.ABOVE_OPEN,
                rule="DC3",
                allowed={"min": 1, "max": s.open},
                p=who.code,
                open=s.open,
                a=amount_cents,
            )

    return issue_receipt(
        kind=Receipt.Kind.COLLECTION,
        cage_code=cage,
        cashier=cashier,
        player_code=player,
        amount_cents=amount_cents,
        plan_for=_collection,
        at=at,
        check=check,
    )
