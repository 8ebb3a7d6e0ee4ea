"""Merkle trees as RFC 6962 (Certificate Transparency) and RFC 9162 define them.

A day's ledger is a list of leaves (one canonical record a transaction, see
:mod:`reports.domain.digest`); the tree over them commits to every one of them and
to their order with one 32-byte root:

- a leaf's hash is ``SHA-256(0x00 || leaf)``, an interior node's
  ``SHA-256(0x01 || left || right)``: the prefixes keep a leaf from passing for a
  node (RFC 6962 §2.1, against second preimages);
- the tree of ``n`` leaves splits at ``k``, the largest power of two below ``n``:
  ``MTH(D[n]) = node(MTH(D[0:k]), MTH(D[k:n]))``; the tree of no leaf is
  ``SHA-256()``. An odd node at the end of a level is carried up as it is, never
  paired with itself (the flaw of Bitcoin's trees, CVE-2012-2459);
- the audit path of leaf ``m`` is the list of sibling hashes from the leaf up
  (RFC 6962 §2.1.1); anyone holding the leaf, the path, the tree's size and the
  root checks the leaf is in the tree (RFC 9162 §2.1.3.2, :func:`root_from_path`).

Hashing is :mod:`hashlib`'s; nothing here is home-made cryptography, only the tree's
shape. The tree is built level by level (each level pairs its nodes in order and
carries an odd last one up), which gives RFC 6962's root and paths without
recursion, for 100,000 leaves in a fraction of a second.

>>> root_of([]).hex()[:16]
'e3b0c44298fc1c14'
>>> leaves = [leaf_hash(bytes([i])) for i in range(5)]
>>> path = audit_path(leaves, 3)
>>> root_from_path(leaves[3], 3, 5, path) == root_of(leaves)
True
>>> root_from_path(leaf_hash(b"other"), 3, 5, path) == root_of(leaves)
False
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

HASH_SIZE = 32
LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"


def leaf_hash(leaf: bytes) -> bytes:
    """``SHA-256(0x00 || leaf)``: the hash of a leaf's bytes (RFC 6962 §2.1)."""
    return hashlib.sha256(LEAF_PREFIX + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """``SHA-256(0x01 || left || right)``: an interior node (RFC 6962 §2.1)."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def levels_of(leaves: Sequence[bytes]) -> list[list[bytes]]:
    """Every level of the tree over the leaf hashes ``leaves``, from the leaves
    (level 0) up to the root (the last level, one node); ``[[]]`` without leaves.

    Each level pairs the nodes of the one below in order; an odd last node is
    carried up unchanged, which is RFC 6962's split at the largest power of two.
    """
    level = list(leaves)
    found = [level]
    sha256 = hashlib.sha256
    while len(level) > 1:
        paired = [
            sha256(NODE_PREFIX + level[i] + level[i + 1]).digest()
            for i in range(0, len(level) - 1, 2)
        ]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
        found.append(level)
    return found


def root_of(leaves: Sequence[bytes]) -> bytes:
    """The root (Merkle tree hash) of the leaf hashes ``leaves``; ``SHA-256()``
    for none (RFC 6962 §2.1)."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    return levels_of(leaves)[-1][0]


def path_in(levels: list[list[bytes]], index: int) -> list[bytes]:
    """The audit path of leaf ``index`` in the tree whose :func:`levels_of` are
    ``levels``: the siblings from the leaf up (RFC 6962 §2.1.1).

    Raises :class:`IndexError` for an index outside the tree.
    """
    size = len(levels[0])
    if not 0 <= index < size:
        raise IndexError(f"leaf {index} of a tree of {size}")
    path = []
    for level in levels[:-1]:
        sibling = index ^ 1
        if sibling < len(level):
            path.append(level[sibling])
        index //= 2
    return path


def audit_path(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """The audit path of leaf ``index`` among the leaf hashes ``leaves``.

    Raises :class:`IndexError` for an index outside the tree.
    """
    return path_in(levels_of(leaves), index)


def root_from_path(
    leaf: bytes, index: int, size: int, path: Sequence[bytes]
) -> bytes | None:
    """The root that leaf hash ``leaf``, at ``index`` of a tree of ``size``
    leaves, and its audit ``path`` give; ``None`` when the path can't be one of
    such a tree (too long, too short, or an index outside it). RFC 9162 §2.1.3.2.

    A leaf is in the tree when this equals the tree's root.
    """
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
