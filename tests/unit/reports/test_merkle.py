"""The day's Merkle tree and digest, without a database: RFC 6962's own test
vectors, the tree's shape against RFC 6962's recursive definition, audit paths,
canonical bytes and signatures (reports.domain)."""

from __future__ import annotations

import doctest
import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from reports.domain import digest, merkle
from reports.domain.digest import (
    Leaf,
    body_hash,
    canonical,
    digest_body,
    fingerprint,
    first_difference,
    leaves_commit,
    public_key_hex,
    sign,
    signature_holds,
)
from reports.domain.merkle import (
    audit_path,
    leaf_hash,
    node_hash,
    root_from_path,
    root_of,
)

# Certificate Transparency's reference leaves and the roots of their first n
# (RFC 6962; the same in Google's and Trillian's tests).
CT_LEAVES = [
    bytes.fromhex(h)
    for h in (
        "",
        "00",
        "10",
        "2021",
        "3031",
        "40414243",
        "5051525354555657",
        "606162636465666768696a6b6c6d6e6f",
    )
]
CT_ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
# Their inclusion proofs (index, size, path).
CT_PATHS = [
    (
        0,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        5,
        8,
        [
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
]
HASHED = [leaf_hash(leaf) for leaf in CT_LEAVES]


@pytest.mark.parametrize("size", range(9))
def test_the_roots_are_rfc_6962s(size):
    assert root_of(HASHED[:size]).hex() == CT_ROOTS[size]


@pytest.mark.parametrize(("index", "size", "path"), CT_PATHS)
def test_the_audit_paths_are_rfc_6962s(index, size, path):
    assert [h.hex() for h in audit_path(HASHED[:size], index)] == path
    found = root_from_path(HASHED[index], index, size, [bytes.fromhex(h) for h in path])
    assert found is not None and found.hex() == CT_ROOTS[size]


def mth(leaves: list[bytes]) -> bytes:
    """RFC 6962 §2.1 as written: split at the largest power of two below n."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return node_hash(mth(leaves[:k]), mth(leaves[k:]))


def path_rfc(m: int, leaves: list[bytes]) -> list[bytes]:
    """RFC 6962 §2.1.1's PATH(m, D[n]), recursively."""
    if len(leaves) == 1:
        return []
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    if m < k:
        return [*path_rfc(m, leaves[:k]), mth(leaves[k:])]
    return [*path_rfc(m - k, leaves[k:]), mth(leaves[:k])]


@given(st.integers(min_value=1, max_value=70), st.data())
def test_the_level_by_level_tree_is_rfc_6962s_recursion(size, data):
    """For any size, the root and every leaf's path are the recursive
    definition's; each path leads to the root, and from no other leaf or index."""
    leaves = [leaf_hash(i.to_bytes(2, "big")) for i in range(size)]
    root = root_of(leaves)
    assert root == mth(leaves)
    index = data.draw(st.integers(min_value=0, max_value=size - 1))
    path = audit_path(leaves, index)
    assert path == path_rfc(index, leaves)
    assert root_from_path(leaves[index], index, size, path) == root
    assert root_from_path(leaf_hash(b"forged"), index, size, path) != root
    if size > 1:
        other = (index + 1) % size
        assert root_from_path(leaves[index], other, size, path) != root
    # (The size may give the same root for another size: it is the signed
    # digest's, and the verifier holds the proof to it.)
    assert root_from_path(leaves[index], index, size, path[:-1] or [root]) != root


def test_a_path_outside_the_tree_gives_no_root():
    assert root_from_path(HASHED[0], 3, 3, []) is None
    assert root_from_path(HASHED[0], -1, 3, []) is None
    with pytest.raises(IndexError):
        audit_path(HASHED[:3], 3)


def test_canonical_bytes_sort_keys_keep_unicode_and_refuse_floats():
    assert (
        canonical({"b": 1, "a": ["Pää", None]}) == '{"a":["Pää",null],"b":1}'.encode()
    )
    with pytest.raises(TypeError):
        canonical({"amount": 1.5})


def test_a_signed_body_verifies_with_its_key_and_no_other():
    key = Ed25519PrivateKey.generate()
    public = public_key_hex(key)
    leaves = [Leaf.of({"id": i, "kind": "hand"}) for i in (1, 2, 3)]
    body = digest_body(
        room="main",
        gaming_day="2026-11-27",
        start="2026-11-27T04:00:00.000000Z",
        until="2026-11-28T04:00:00.000000Z",
        horizon=1000,
        leaves=[leaf.hash for leaf in leaves],
        previous="0" * 64,
        key=fingerprint(public),
    )
    assert body["size"] == 3
    assert body["root"] == root_of([leaf.hash for leaf in leaves]).hex()
    signature = sign(body, key)
    assert signature_holds(body, signature, public)
    assert not signature_holds({**body, "size": 4}, signature, public)
    assert not signature_holds(
        body, signature, public_key_hex(Ed25519PrivateKey.generate())
    )
    assert body_hash(body) == hashlib.sha256(canonical(body)).hexdigest()
    pairs = [(leaf.transaction, leaf.hash) for leaf in leaves]
    assert leaves_commit(pairs, root=body["root"], size=3)
    assert not leaves_commit(pairs[::-1], root=body["root"], size=3)


def test_the_first_difference_trusts_the_sealed_hashes_not_their_labels():
    """A sealed list relabelled (ids swapped, hashes kept: its root still holds)
    can't make another transaction the changed one: it is named by the record
    now, whose leaf holds its id."""
    a, b, c = (Leaf.of({"id": i, "v": 0}) for i in (1, 2, 3))
    changed = Leaf.of({"id": 2, "v": 1})
    sealed = [(1, a.hash), (2, b.hash), (3, c.hash)]
    now = [(1, a.hash), (2, changed.hash), (3, c.hash)]
    relabelled = [(2, a.hash), (1, b.hash), (3, c.hash)]
    for kept in (sealed, relabelled):
        found = first_difference(kept, now)
        assert (found.transaction, found.how, found.position) == (2, "changed", 1)


@pytest.mark.parametrize("module", [merkle, digest])
def test_the_domains_doctests_hold(module):
    assert doctest.testmod(module).failed == 0
