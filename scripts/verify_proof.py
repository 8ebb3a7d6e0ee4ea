#!/usr/bin/env python3
"""Check a cardroom inclusion proof, or a day's digest file, from outside the room.

    python verify_proof.py proof.json --public-key 42a5… --digest 2026-11-27:9f2c…
    python verify_proof.py digest-2026-11-27.json --public-key 42a5…

Needs Python 3.11 and the ``cryptography`` package, nothing of the cardroom project:
give it to an auditor or a regulator as it is. The formats are in the project's
docs/digest.md.

For a proof (``cardroom-inclusion-proof/1``, from ``GET
/api/v1/reports/proofs/…`` or the auditor's screen) it checks:

1. the leaf is canonical JSON (sorted keys, no spaces, UTF-8) of the transaction
   the proof names;
2. the leaf's hash, ``SHA-256(0x00 || leaf)``, and the audit path lead to the
   digest's Merkle root for a tree of the proof's size (RFC 6962, RFC 9162
   §2.1.3.2);
3. with ``--digest``, the digest is the one kept: the SHA-256 of its canonical
   JSON is the hex printed on the day's audit (and its day the day given);
4. the Ed25519 signature over the digest's canonical JSON holds with
   ``--public-key`` (the room's key as the audit prints it). Without it the key in
   the proof is used, and its fingerprint printed to compare with the audit's.

For a digest file (``cardroom-day-digest/1``) it checks 3 and 4, and that its
leaves, when it has them, make its root.

Exit status 0 when every check made holds, 1 when one fails, 2 for a file it
can't read. It prints what the leaf records: the transaction, its entries and the
hand, receipt or awards it books.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

PROOF = "cardroom-inclusion-proof/1"
DIGEST_FILE = "cardroom-day-digest/1"


def canonical(value: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8 with non-ASCII characters as they are."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_from_path(
    leaf: bytes, index: int, size: int, path: list[bytes]
) -> bytes | None:
    """RFC 9162 §2.1.3.2: the root an audit path gives, or None."""
    if not 0 <= index < size:
        return None
    fn, sn, node = index, size - 1, leaf
    for sibling in path:
        if sn == 0:
            return None
        if fn % 2 == 1 or fn == sn:
            node = node_hash(sibling, node)
            while fn % 2 == 0 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            node = node_hash(node, sibling)
        fn >>= 1
        sn >>= 1
    return node if sn == 0 else None


def root_of(hashes: list[bytes]) -> bytes:
    """RFC 6962's Merkle tree hash of the leaf hashes, level by level."""
    if not hashes:
        return hashlib.sha256(b"").digest()
    level = hashes
    while len(level) > 1:
        paired = [
            node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)
        ]
        level = paired + ([level[-1]] if len(level) % 2 else [])
    return level[0]


def fingerprint(public_key: str) -> str:
    return "ed25519:" + hashlib.sha256(bytes.fromhex(public_key)).hexdigest()[:32]


class Report:
    """The checks made and whether each held."""

    def __init__(self) -> None:
        self.failed = False

    def check(self, holds: bool, what: str) -> None:
        print(f"{'ok  ' if holds else 'FAIL'}  {what}")
        self.failed = self.failed or not holds


def check_digest(
    report: Report, document: dict[str, Any], kept: str | None, key: str | None
) -> dict[str, Any]:
    """Checks 3 and 4 on the signed digest of ``document``; returns it."""
    digest: dict[str, Any] = document["digest"]
    digest_hash = hashlib.sha256(canonical(digest)).hexdigest()
    day = digest.get("gaming_day")
    print(
        f"      gaming day {day}, {digest['size']} transactions, digest {digest_hash}"
    )
    if "hash" in document:
        report.check(
            document["hash"] == digest_hash, "the file's digest is its document's"
        )
    if kept is not None:
        kept_day, _, kept_hash = kept.rpartition(":")
        report.check(
            kept_hash.lower() == digest_hash and kept_day in ("", day),
            "the digest is the one kept",
        )
    if key is None:
        key = document["public_key"]
        print(f"      no --public-key: the file's own key, {fingerprint(key)};")
        print("      compare it with the key fingerprint printed on the audit")
    else:
        report.check(
            document.get("public_key") in (None, key), "the file names the key given"
        )
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(
            bytes.fromhex(document["signature"]), canonical(digest)
        )
        signed = digest.get("key") == fingerprint(key)
    except (InvalidSignature, ValueError):
        signed = False
    report.check(signed, f"the digest is signed by {fingerprint(key)}")
    return digest


def check_proof(report: Report, proof: dict[str, Any], digest: dict[str, Any]) -> None:
    """Checks 1 and 2: the leaf and its path to the digest's root."""
    leaf = proof["leaf"].encode()
    record = json.loads(leaf)
    report.check(canonical(record) == leaf, "the leaf is canonical JSON")
    report.check(
        record.get("id") == proof["transaction"], "the leaf is the transaction's"
    )
    root = root_from_path(
        leaf_hash(leaf),
        proof["leaf_index"],
        proof["tree_size"],
        [bytes.fromhex(h) for h in proof["audit_path"]],
    )
    report.check(
        root is not None
        and proof["tree_size"] == digest["size"]
        and root.hex() == digest["root"],
        f"leaf {proof['leaf_index']} of {proof['tree_size']} leads to the root "
        f"{digest['root']}",
    )
    show(record)


def show(record: dict[str, Any]) -> None:
    """What the leaf records, for people."""
    print(
        f"      transaction #{record['id']} {record['kind']} {record['reference']}"
        f" posted {record['posted_at']}"
    )
    for code, cents, currency in record["entries"]:
        print(f"        {code:40} {cents:+14,d} {currency} cents")
    if record.get("hand"):
        hand = record["hand"]
        print(
            f"      hand {hand['table']}#{hand['hand_no']} ({hand['gaming_day']}):"
            f" pots {hand['pot_cents']}, rake {hand['rake_cents']},"
            f" jackpot drop {hand['jackpot_drop_cents']} (cents)"
        )
    if record.get("receipt"):
        receipt = record["receipt"]
        print(
            f"      receipt {receipt['no']} {receipt['kind']} {receipt['player']}"
            f" {receipt['amount_cents']} cents"
        )
    for award in record.get("awards", []):
        print(
            f"      award #{award['id']} {award['role']} {award['player']}"
            f" {award['amount_cents']} cents (hand {award['hand']})"
        )


def check_leaves(report: Report, document: dict[str, Any]) -> None:
    """A digest file's leaves make its root."""
    if "leaves" not in document:
        return
    hashes = [bytes.fromhex(h) for _id, h in document["leaves"]]
    digest = document["digest"]
    report.check(
        len(hashes) == digest["size"] and root_of(hashes).hex() == digest["root"],
        f"its {len(hashes)} leaves make its root",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("file", help="an inclusion proof or a digest file (JSON)")
    parser.add_argument("--public-key", help="the room's Ed25519 public key, hex")
    parser.add_argument("--digest", help="the digest kept: HEX or DAY:HEX")
    args = parser.parse_args(argv)
    try:
        document = json.loads(Path(args.file).read_text(encoding="utf-8"))
        kind = document["format"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"{args.file}: not a proof or a digest file ({error})", file=sys.stderr)
        return 2
    if kind not in (PROOF, DIGEST_FILE):
        print(f"{args.file}: unknown format {kind!r}", file=sys.stderr)
        return 2
    report = Report()
    try:
        digest = check_digest(report, document, args.digest, args.public_key)
        if kind == PROOF:
            check_proof(report, document, digest)
        else:
            check_leaves(report, document)
    except (KeyError, TypeError, ValueError) as error:
        print(f"{args.file}: malformed ({error!r})", file=sys.stderr)
        return 2
    print("VERIFIED" if not report.failed else "NOT VERIFIED")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
