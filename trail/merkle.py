"""RFC 9162 Merkle tree arithmetic: hashes, proof shapes, verification, and node positions.

Hashing (RFC 9162 section 2.1.1)::

    leaf hash  = SHA-256(0x00 || leaf data)        leaf data: the 32 bytes of an event hash
    node hash  = SHA-256(0x01 || left || right)
    MTH({})    = SHA-256("")

The tree over ``n`` leaves splits at ``k``, the largest power of two below ``n``: the left
part is always a *perfect* subtree aligned to its size. The store keeps exactly the perfect
aligned subtrees (``(level, index)``: leaves ``index·2^level .. (index+1)·2^level − 1``), one
row each, numbered in the order they complete (:func:`node_pos`, the Merkle-mountain-range
position), so the nodes added by a batch of leaves are one contiguous range of positions.
Any other subtree hash (a tree's root, a proof's right-hand siblings) is a fold of the
perfect subtrees of its binary decomposition (:func:`range_parts`).

Nothing here touches the database: ``trail.tree`` fetches the nodes these functions
name; ``check-proof`` and outside verifiers need only :func:`verify_inclusion` and
:func:`verify_consistency` (RFC 9162 sections 2.1.3.2 and 2.1.4.2).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence

Node = tuple[int, int]  # (level, index) of a perfect aligned subtree
Range = tuple[int, int]  # leaves [start, end) of a subtree of the RFC 9162 tree
EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n ≥ 2)."""
    return 1 << ((n - 1).bit_length() - 1)


def node_pos(level: int, index: int) -> int:
    """Position of a perfect subtree in completion order (0-based; leaves and inner nodes)."""
    last = ((index + 1) << level) - 1
    return 2 * last - last.bit_count() + level


def nodes_before(size: int) -> int:
    """How many perfect subtrees a tree of ``size`` leaves has (= the next free position)."""
    return 2 * size - size.bit_count()


def range_parts(start: int, end: int) -> list[Node]:
    """The perfect subtrees, left to right, whose fold is the hash of leaves [start, end)."""
    out, pos = [], start
    for level in range((end - start).bit_length() - 1, -1, -1):
        if (end - start) >> level & 1:
            out.append((level, pos >> level))
            pos += 1 << level
    return out


def fold(hashes: Sequence[bytes]) -> bytes:
    """The RFC 9162 hash of consecutive perfect subtrees, largest (leftmost) first."""
    if not hashes:
        return EMPTY_ROOT
    out = hashes[-1]
    for h in reversed(hashes[:-1]):
        out = node_hash(h, out)
    return out


def inclusion_ranges(index: int, size: int) -> list[Range]:
    """The subtrees whose hashes form PATH(index, D[size]), bottom-up (RFC 9162 2.1.3.1)."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    out: list[Range] = []
    start, end = 0, size
    while end - start > 1:
        k = _split(end - start)
        if index < start + k:
            out.append((start + k, end))
            end = start + k
        else:
            out.append((start, start + k))
            start += k
    return out[::-1]


def consistency_ranges(first: int, second: int) -> list[Range]:
    """The subtrees whose hashes form PROOF(first, D[second]) (RFC 9162 2.1.4.1)."""
    if not 0 <= first <= second:
        raise ValueError(f"no consistency proof from size {first} to size {second}")
    if first in (0, second):
        return []
    out: list[Range] = []
    start, end, m, whole = 0, second, first, True
    while m != end - start:
        k = _split(end - start)
        if m <= k:
            out.append((start + k, end))
            end = start + k
        else:
            out.append((start, start + k))
            start, m, whole = start + k, m - k, False
    if not whole:
        out.append((start, end))
    return out[::-1]


def needed_nodes(ranges: Iterable[Range]) -> set[Node]:
    return {n for a, b in ranges for n in range_parts(a, b)}


def hash_ranges(ranges: Sequence[Range], get: Callable[[Node], bytes]) -> list[bytes]:
    """The hash of each range, from the perfect subtrees ``get`` returns."""
    return [fold([get(n) for n in range_parts(a, b)]) for a, b in ranges]


def append_leaves(
    frontier: list[tuple[Node, bytes]], size: int, leaves: Sequence[bytes]
) -> list[tuple[Node, bytes]]:
    """Add leaf hashes to a tree of ``size`` leaves whose perfect-subtree roots of its
    binary decomposition are ``frontier`` (left to right; updated in place). Returns every
    new perfect subtree in position order."""
    out: list[tuple[Node, bytes]] = []
    for i, h in enumerate(leaves, size):
        node: tuple[Node, bytes] = ((0, i), h)
        out.append(node)
        while frontier and frontier[-1][0][0] == node[0][0]:
            (level, _), left = frontier.pop()
            node = ((level + 1, node[0][1] >> 1), node_hash(left, node[1]))
            out.append(node)
        frontier.append(node)
    return out


def verify_inclusion(
    index: int, size: int, leaf: bytes, path: Sequence[bytes], root: bytes
) -> bool:
    """RFC 9162 2.1.3.2: does ``path`` prove leaf hash ``leaf`` at ``index`` under ``root``?"""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == root


def verify_consistency(
    first: int, second: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]
) -> bool:
    """RFC 9162 2.1.4.2: is the tree of ``second`` leaves an append-only extension of the
    tree of ``first`` leaves? (Equal sizes: equal roots and an empty proof; from the empty
    tree: an empty proof.)"""
    if not 0 <= first <= second:
        return False
    if first == second:
        return not proof and first_root == second_root
    if first == 0:
        return not proof and first_root == EMPTY_ROOT
    if not proof:
        return False
    path = list(proof)
    if first & (first - 1) == 0:
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == first_root and sr == second_root and sn == 0


__all__ = [
    "EMPTY_ROOT",
    "Node",
    "Range",
    "append_leaves",
    "consistency_ranges",
    "fold",
    "hash_ranges",
    "inclusion_ranges",
    "leaf_hash",
    "needed_nodes",
    "node_hash",
    "node_pos",
    "nodes_before",
    "range_parts",
    "verify_consistency",
    "verify_inclusion",
]
