"""Proofs of a single figure: a hand's, a receipt's or a jackpot award's ledger
transaction in its day's signed digest (docs/digest.md, "Proofs").

A proof is the transaction's leaf (its canonical record, with the hand, receipt or
awards it books), the leaf's audit path to the day's Merkle root (RFC 6962) and the
day's signed digest: ``scripts/verify_proof.py`` checks it with the room's public
key and the digest the auditor kept, importing nothing of the project.

The leaf is read from the ledger now; ``agrees`` says whether it is the one sealed.
A record changed since its day was sealed gives a proof that doesn't verify.
"""

from __future__ import annotations

from typing import Any

from accounting.domain.cage import receipt_no_parse
from accounting.models import Receipt, Transaction
from cardroom.models import Hand
from core.errors import Said, SharedCode, gettext_noop
from jackpots.models import Award
from reports.domain.digest import PROOF_FORMAT, unpack_hashes, unpack_ids
from reports.domain.merkle import levels_of, path_in
from reports.errors import Code, missing, unprocessable
from reports.leaves import transaction_leaf
from reports.models import DayDigest
from reports.services.digests import digest_file_of

HAND = Said(gettext_noop("hand"))
RECEIPT = Said(gettext_noop("receipt"))
AWARD = Said(gettext_noop("jackpot award"))


def digest_holding(transaction: Transaction) -> DayDigest | None:
    """The day's digest that holds ``transaction``: the first sealed whose day
    ends after its date and whose horizon is above its database transaction (a
    posting dated into a sealed day is in the next one sealed)."""
    return (
        DayDigest.objects.filter(
            until__gt=transaction.posted_at, horizon__gt=transaction.xact_id
        )
        .order_by("gaming_day")
        .first()
    )


def transaction_proof(
    *, transaction: int, of: dict[str, str], kind: str
) -> dict[str, Any]:
    """The inclusion proof of ledger transaction ``transaction`` in its day's
    digest; ``of`` names what was asked (``{"hand": "T01#17"}``), ``kind`` says
    it in words for a refusal.

    Raises :class:`core.errors.NotFound` (``not_sealed``) when its day isn't
    sealed yet, or the stored digest doesn't hold it.
    """
    posted = Transaction.objects.only("posted_at", "xact_id").get(pk=transaction)
    digest = digest_holding(posted)
    what = " ".join(of.values())
    if digest is None:
        raise missing(Code.NOT_SEALED, what=what, kind=kind)
    ids = unpack_ids(bytes(digest.transactions))
    try:
        index = ids.index(transaction)
    except ValueError:
        raise missing(Code.NOT_SEALED, what=what, kind=kind) from None
    hashes = unpack_hashes(bytes(digest.leaves))
    leaf = transaction_leaf(transaction)
    assert leaf is not None  # read above
    signed = digest_file_of(digest, leaves=False)
    return {
        "format": PROOF_FORMAT,
        "of": of,
        "transaction": transaction,
        "gaming_day": digest.gaming_day.isoformat(),
        "leaf": leaf.data.decode(),
        "leaf_index": index,
        "tree_size": digest.size,
        "audit_path": [h.hex() for h in path_in(levels_of(hashes), index)],
        "digest": signed["digest"],
        "hash": signed["hash"],
        "signature": signed["signature"],
        "public_key": signed["public_key"],
        "agrees": leaf.hash == hashes[index],
    }


def hand_proof(*, table: str, hand_no: int) -> dict[str, Any]:
    """The proof of hand ``table#hand_no``'s ledger transaction.

    Raises :class:`core.errors.NotFound` for no such hand (``not_found``) or a day
    not sealed yet (``not_sealed``); :class:`core.errors.Unprocessable`
    (``books_nothing``) for a hand that booked no transaction.
    """
    hand = Hand.objects.filter(table__code=table, hand_no=hand_no).first()
    if hand is None:
        raise missing(SharedCode.NOT_FOUND)
    name = f"{table}#{hand_no}"
    if hand.ledger_transaction_id is None:
        raise unprocessable(Code.BOOKS_NOTHING, what=name, kind=HAND)
    return transaction_proof(
        transaction=hand.ledger_transaction_id, of={"hand": name}, kind=HAND
    )


def receipt_proof(*, number: str) -> dict[str, Any]:
    """The proof of cage receipt ``number`` (``MAIN-000123``)'s transaction.

    Raises :class:`core.errors.NotFound` for no such receipt or a day not sealed.
    """
    try:
        cage, n = receipt_no_parse(number)
    except ValueError:
        raise missing(SharedCode.NOT_FOUND) from None
    receipt = Receipt.objects.filter(cage__code=cage, number=n).first()
    if receipt is None:
        raise missing(SharedCode.NOT_FOUND)
    return transaction_proof(
        transaction=receipt.transaction_id, of={"receipt": number}, kind=RECEIPT
    )


def award_proof(*, award: int) -> dict[str, Any]:
    """The proof of the transaction that booked jackpot award ``award`` (its hit's,
    month's or prize's booking; the payout has its receipt's proof).

    Raises :class:`core.errors.NotFound` for no such award or a day not sealed;
    :class:`core.errors.Unprocessable` (``books_nothing``) for an award not booked
    (pending or rejected).
    """
    found = (
        Award.objects.select_related("hit", "month", "prize").filter(pk=award).first()
    )
    if found is None:
        raise missing(SharedCode.NOT_FOUND)
    source = found.hit or found.month or found.prize
    booking = getattr(source, "booking_id", None)
    name = f"#{award}"
    if booking is None:
        raise unprocessable(Code.BOOKS_NOTHING, what=name, kind=AWARD)
    proof = transaction_proof(transaction=booking, of={"award": name}, kind=AWARD)
    paid = (
        Receipt.objects.filter(payable_id=found.payable_id).first()
        if found.payable_id is not None
        else None
    )
    proof["paid_by_receipt"] = paid.no if paid is not None else None
    return proof
