"""A gaming day's digest: the ledger's leaves, their Merkle root, the chain of days,
the Ed25519 signature, and how a kept digest finds what changed (docs/digest.md).

Plain Python with no Django import; hashing is :mod:`hashlib`'s and signing the
``cryptography`` package's, so an auditor's own script (``scripts/verify_proof.py``,
which imports nothing of the project) computes the same bytes from the formats
written here:

- **canonical JSON**: sorted keys, no spaces (``,`` and ``:``), UTF-8 with non-ASCII
  characters as they are; integers, strings, ``null``, lists and objects only (no
  float ever: money is integer cents);
- **a leaf**: the canonical JSON of one ledger transaction (:func:`leaf_record`);
- **the digest's body**: the canonical JSON of :func:`digest_body`; its SHA-256 is
  "the digest" printed on the day's audit and the next day's ``previous``; the
  signature is Ed25519 over the body's bytes.

>>> canonical({"b": [1, None], "a": "é"})
b'{"a":"\\xc3\\xa9","b":[1,null]}'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from reports.domain.merkle import HASH_SIZE, leaf_hash, root_of

ALGORITHM = "cardroom-ledger-digest/1 (RFC 6962 SHA-256 Merkle tree, Ed25519)"
FILE_FORMAT = "cardroom-day-digest/1"
PROOF_FORMAT = "cardroom-inclusion-proof/1"
GENESIS = "0" * 64  # the ``previous`` of the first day's digest
ID_SIZE = 8  # a transaction's id in the stored list: 8 bytes, big-endian


def canonical(value: Any) -> bytes:
    """``value`` as canonical JSON bytes: sorted keys, no spaces, UTF-8.

    Raises :class:`TypeError` for a float or another type JSON doesn't hold
    as this format writes it.
    """
    _no_floats(value)
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()


def _no_floats(value: Any) -> None:
    if isinstance(value, float):
        raise TypeError("a digest holds no floats: money is integer cents")
    if isinstance(value, Mapping):
        for item in value.values():
            _no_floats(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _no_floats(item)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- Leaves -------------------------------------------------------------------------


def leaf_record(
    *,
    transaction: Mapping[str, Any],
    entries: Sequence[tuple[str, int, str]],
    hand: Mapping[str, Any] | None,
    receipt: Mapping[str, Any] | None,
    awards: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """One ledger transaction as the leaf's record (docs/digest.md, "A leaf").

    ``transaction`` holds ``id``, ``kind``, ``reference``, ``external_id``,
    ``memo``, ``source``, ``posted_at`` (ISO 8601 UTC, ``…T18:05:00.000000Z``),
    ``posted_by``, ``approved_by`` (staff ids) and ``reverses`` (a transaction's
    id); ``entries`` are its legs in the order they were written, as (account
    code, signed cents, currency); ``hand``, ``receipt`` and ``awards`` are what
    it books, or ``None`` and ``[]``.
    """
    return {
        **{key: transaction[key] for key in TRANSACTION_KEYS},
        "entries": [[code, amount, currency] for code, amount, currency in entries],
        "hand": None if hand is None else dict(hand),
        "receipt": None if receipt is None else dict(receipt),
        "awards": [dict(award) for award in awards],
    }


TRANSACTION_KEYS = (
    "id",
    "kind",
    "reference",
    "external_id",
    "memo",
    "source",
    "posted_at",
    "posted_by",
    "approved_by",
    "reverses",
)


@dataclass(frozen=True, slots=True)
class Leaf:
    """A transaction's leaf: its id, its canonical bytes and their leaf hash."""

    transaction: int
    data: bytes
    hash: bytes

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> Leaf:
        data = canonical(record)
        return cls(int(record["id"]), data, leaf_hash(data))


def pack_ids(ids: Sequence[int]) -> bytes:
    """Transaction ids as 8-byte big-endian integers, one after another."""
    return b"".join(i.to_bytes(ID_SIZE, "big") for i in ids)


def unpack_ids(data: bytes) -> list[int]:
    return [
        int.from_bytes(data[i : i + ID_SIZE], "big")
        for i in range(0, len(data), ID_SIZE)
    ]


def unpack_hashes(data: bytes) -> list[bytes]:
    return [data[i : i + HASH_SIZE] for i in range(0, len(data), HASH_SIZE)]


# --- The day's digest ---------------------------------------------------------------


def digest_body(
    *,
    room: str,
    gaming_day: str,
    start: str,
    until: str,
    horizon: int,
    leaves: Sequence[bytes],
    previous: str,
    key: str,
) -> dict[str, Any]:
    """The signed document of a gaming day (docs/digest.md, "The digest").

    ``leaves`` are the day's leaf hashes in order; ``start`` and ``until`` the
    day's bounds (ISO 8601 UTC); ``horizon`` the first database transaction not
    sealed (every one below it had ended); ``previous`` the digest (hash) of the
    day before's body, :data:`GENESIS` for the first; ``key`` the fingerprint of
    the public key that signs it.
    """
    return {
        "algorithm": ALGORITHM,
        "room": room,
        "gaming_day": gaming_day,
        "from": start,
        "until": until,
        "horizon": horizon,
        "size": len(leaves),
        "root": root_of(leaves).hex(),
        "previous": previous,
        "key": key,
    }


def body_hash(body: Mapping[str, Any]) -> str:
    """The digest of a day: the SHA-256 of its body's canonical bytes, in hex."""
    return sha256_hex(canonical(body))


def public_key_hex(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """The raw 32-byte Ed25519 public key, in hex."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def fingerprint(public_key: str) -> str:
    """A public key's fingerprint: ``ed25519:`` and the first 16 bytes of the
    SHA-256 of its raw bytes, in hex."""
    return "ed25519:" + sha256_hex(bytes.fromhex(public_key))[:32]


def sign(body: Mapping[str, Any], key: Ed25519PrivateKey) -> str:
    """The Ed25519 signature of ``body``'s canonical bytes, in hex."""
    return key.sign(canonical(body)).hex()


def signature_holds(body: Mapping[str, Any], signature: str, public_key: str) -> bool:
    """Whether ``signature`` is ``public_key``'s over ``body``'s canonical bytes."""
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key)).verify(
            bytes.fromhex(signature), canonical(body)
        )
    except (InvalidSignature, ValueError):
        return False
    return True


def digest_file(
    *,
    body: Mapping[str, Any],
    signature: str,
    public_key: str,
    leaves: Sequence[tuple[int, bytes]] | None = None,
) -> dict[str, Any]:
    """The day's digest as a file to keep (e-mailed, posted, archived, downloaded):
    the body, its digest, the signature and the public key; with ``leaves``, each
    transaction's id and leaf hash in the tree's order, which name the transaction
    that changed when the day's digest no longer agrees (docs/digest.md)."""
    found: dict[str, Any] = {
        "format": FILE_FORMAT,
        "digest": dict(body),
        "hash": body_hash(body),
        "signature": signature,
        "public_key": public_key,
    }
    if leaves is not None:
        found["leaves"] = [[i, h.hex()] for i, h in leaves]
    return found


# --- What changed -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Difference:
    """The first transaction of a day that differs from the sealed leaves.

    ``how`` is ``changed`` (its record now is none of the sealed ones, and its id
    was sealed), ``added`` (its record now is none of the sealed ones, and its id
    wasn't: posted into the day since, or moved into it) or ``missing`` (a sealed
    record no longer in the day: deleted, changed beyond the day, or moved out of
    it). ``position`` is its place in the tree's order.
    """

    transaction: int
    how: str
    position: int


def first_difference(
    sealed: Sequence[tuple[int, bytes]], now: Sequence[tuple[int, bytes]]
) -> Difference | None:
    """The first difference between the leaves ``sealed`` (authentic: their root
    is the kept one) and the day's leaves recomputed ``now``, both (transaction
    id, leaf hash) in the tree's order; ``None`` when they are the same.

    A changed or added transaction is named by the database's own record, whose
    leaf holds its id: only the hashes of ``sealed`` are trusted, which the kept
    root authenticates, not the ids beside them. A sealed record that is gone is
    named by the id it was sealed with.

    >>> a, b, c = b"a" * 32, b"b" * 32, b"c" * 32
    >>> first_difference([(1, a), (2, b)], [(1, a), (2, c)])
    Difference(transaction=2, how='changed', position=1)
    >>> first_difference([(1, a), (2, b)], [(2, b)])
    Difference(transaction=1, how='missing', position=0)
    >>> first_difference([(1, a)], [(1, a), (9, c)])
    Difference(transaction=9, how='added', position=1)
    >>> first_difference([(1, a)], [(1, a)]) is None
    True
    """
    sealed_hashes = {h for _t, h in sealed}
    now_hashes = {h for _t, h in now}
    new = next(((p, t) for p, (t, h) in enumerate(now) if h not in sealed_hashes), None)
    gone = next(
        ((p, t) for p, (t, h) in enumerate(sealed) if h not in now_hashes), None
    )
    if new is not None and (gone is None or new[0] <= gone[0]):
        sealed_ids = {t for t, _h in sealed}
        how = "changed" if new[1] in sealed_ids else "added"
        return Difference(new[1], how, new[0])
    if gone is not None:
        return Difference(gone[1], "missing", gone[0])
    return None


def leaves_commit(leaves: Sequence[tuple[int, bytes]], *, root: str, size: int) -> bool:
    """Whether the (id, leaf hash) list ``leaves`` is the one a digest of ``size``
    leaves and ``root`` committed to: a list whose root is the kept one can't be
    forged (SHA-256's second preimages)."""
    return len(leaves) == size and root_of([h for _i, h in leaves]).hex() == root
