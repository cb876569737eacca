"""``trail.merkle`` against a small independent reference of RFC 9162 section 2.1.

The reference below is the RFC's recursive definitions written out literally (MTH, PATH,
PROOF/SUBPROOF over lists of leaf data); the module under test works on stored perfect
subtrees and positions instead. Hypothesis draws the tree sizes.
"""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from trail import merkle


# -- the reference: RFC 9162 section 2.1, literally ------------------------------------
def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _k(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(d: list[bytes]) -> bytes:
    if not d:
        return _h(b"")
    if len(d) == 1:
        return _h(b"\x00" + d[0])
    k = _k(len(d))
    return _h(b"\x01" + mth(d[:k]) + mth(d[k:]))


def path(m: int, d: list[bytes]) -> list[bytes]:
    if len(d) == 1:
        return []
    k = _k(len(d))
    if m < k:
        return [*path(m, d[:k]), mth(d[k:])]
    return [*path(m - k, d[k:]), mth(d[:k])]


def subproof(m: int, d: list[bytes], b: bool) -> list[bytes]:
    n = len(d)
    if m == n:
        return [] if b else [mth(d)]
    k = _k(n)
    if m <= k:
        return [*subproof(m, d[:k], b), mth(d[k:])]
    return [*subproof(m - k, d[k:], False), mth(d[:k])]


def proof(m: int, d: list[bytes]) -> list[bytes]:
    return subproof(m, d, True) if 0 < m < len(d) else []


# -- the module under test, fed from a store of its own perfect subtrees ------------------
def _leaves(n: int, salt: int = 0) -> list[bytes]:
    return [_h(f"event {i} {salt}".encode()) for i in range(n)]


def _store(d: list[bytes]) -> dict[merkle.Node, bytes]:
    frontier: list[tuple[merkle.Node, bytes]] = []
    nodes = merkle.append_leaves(frontier, 0, [merkle.leaf_hash(x) for x in d])
    return dict(nodes)


def _root(store: dict[merkle.Node, bytes], n: int) -> bytes:
    return merkle.fold([store[p] for p in merkle.range_parts(0, n)])


sizes = st.integers(min_value=1, max_value=300)


@settings(max_examples=150, deadline=None)
@given(n=sizes, data=st.data())
def test_root_and_inclusion_path_match_the_reference(n: int, data: st.DataObject) -> None:
    d = _leaves(n)
    store = _store(d)
    m = data.draw(st.integers(0, n - 1))
    root = _root(store, n)
    assert root == mth(d)
    got = merkle.hash_ranges(merkle.inclusion_ranges(m, n), store.__getitem__)
    assert got == path(m, d)
    leaf = merkle.leaf_hash(d[m])
    assert merkle.verify_inclusion(m, n, leaf, got, root)
    assert not merkle.verify_inclusion(m, n, merkle.leaf_hash(b"other"), got, root)
    if n > 1:
        assert not merkle.verify_inclusion((m + 1) % n, n, leaf, got, root)
        bad = list(got)
        bad[data.draw(st.integers(0, len(bad) - 1))] = _h(b"x")
        assert not merkle.verify_inclusion(m, n, leaf, bad, root)
        assert not merkle.verify_inclusion(m, n, leaf, got[:-1], root)


@settings(max_examples=150, deadline=None)
@given(n=sizes, data=st.data())
def test_consistency_proof_matches_the_reference(n: int, data: st.DataObject) -> None:
    d = _leaves(n)
    store = _store(d)
    m = data.draw(st.integers(0, n))
    got = merkle.hash_ranges(merkle.consistency_ranges(m, n), store.__getitem__)
    assert got == proof(m, d)
    old, new = _root(store, m), _root(store, n)
    assert old == mth(d[:m]) and new == mth(d)
    assert merkle.verify_consistency(m, n, old, new, got)
    if 0 < m < n:
        assert not merkle.verify_consistency(m, n, _h(b"x"), new, got)
        assert not merkle.verify_consistency(m, n, old, _h(b"x"), got)
        bad = list(got)
        bad[data.draw(st.integers(0, len(bad) - 1))] = _h(b"x")
        assert not merkle.verify_consistency(m, n, old, new, bad)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 200), data=st.data())
def test_editing_deleting_or_reordering_a_leaf_breaks_the_proofs(
    n: int, data: st.DataObject
) -> None:
    d = _leaves(n)
    root = mth(d)
    i = data.draw(st.integers(0, n - 1))
    j = data.draw(st.integers(0, n - 1).filter(lambda j: j != i))
    edited = [*d[:i], _h(b"edited"), *d[i + 1 :]]
    deleted = d[:i] + d[i + 1 :]
    reordered = list(d)
    reordered[i], reordered[j] = reordered[j], reordered[i]
    for tampered in (edited, reordered):  # the tampered leaf has no proof under the head
        p = path(i, tampered)
        assert not merkle.verify_inclusion(i, n, merkle.leaf_hash(tampered[i]), p, root)
    for tampered in (edited, deleted, reordered):  # no extension is consistent with the head
        grown = [*tampered, *_leaves(data.draw(st.integers(0, 5)), salt=1)]
        p = proof(n, grown)
        assert not merkle.verify_consistency(n, len(grown), root, mth(grown), p)


@given(n=st.integers(0, 2000))
def test_positions_are_the_completion_order(n: int) -> None:
    nodes = merkle.append_leaves([], 0, [b"\0" * 32] * n)
    assert [merkle.node_pos(*node) for node, _ in nodes] == list(range(merkle.nodes_before(n)))


@given(n=st.integers(0, 500), extra=st.integers(0, 100))
def test_extending_in_batches_equals_building_at_once(n: int, extra: int) -> None:
    d = _leaves(n + extra)
    leaves = [merkle.leaf_hash(x) for x in d]
    frontier: list[tuple[merkle.Node, bytes]] = []
    first = merkle.append_leaves(frontier, 0, leaves[:n])
    stored = dict(first)
    assert [stored[p] for p in merkle.range_parts(0, n)] == [h for _, h in frontier]
    second = merkle.append_leaves(frontier, n, leaves[n:])
    assert dict(first + second) == _store(d)
    assert merkle.fold([h for _, h in frontier]) == mth(d)


def test_empty_tree_and_rfc_edge_cases() -> None:
    assert merkle.fold([]) == _h(b"") == merkle.EMPTY_ROOT
    assert merkle.verify_consistency(0, 5, merkle.EMPTY_ROOT, mth(_leaves(5)), [])
    assert not merkle.verify_consistency(3, 5, mth(_leaves(3)), mth(_leaves(5)), [])
    assert not merkle.verify_consistency(5, 3, mth(_leaves(5)), mth(_leaves(3)), [])
    assert not merkle.verify_inclusion(0, 0, b"", [], merkle.EMPTY_ROOT)
