"""The Merkle tree in SQL: extended inside every append transaction, read for proofs.

Leaf ``i`` (0-based) is event ``seq = i + 1``; its leaf data is the 32 bytes of the event's
``hash``. ``trail_tree_nodes`` holds one row per perfect aligned subtree at its position
(:func:`trail.merkle.node_pos`); an append reads the at most 64 roots of the current
tree's decomposition, then inserts the new leaves and the subtrees they complete (about two
rows per event) in one statement.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import Connection, bindparam, delete, select

from auditor.errors import DataError
from trail import merkle
from trail.merkle import Node
from trail.models import TrailEvent, TreeNode, table

_N = table(TreeNode)
_INSERT = _N.insert()
_SELECT = select(_N.c.pos, _N.c.hash).where(_N.c.pos.in_(bindparam("pos", expanding=True)))
_CHUNK = 500


def leaf_of(event_hash: str) -> bytes:
    """The leaf hash of an event (hex SHA-256 event hash as leaf data)."""
    return merkle.leaf_hash(bytes.fromhex(event_hash))


def fetch(conn: Connection, nodes: Iterable[Node]) -> dict[Node, bytes]:
    """The stored hashes of ``nodes``; a missing one is a DataError (the tree is damaged)."""
    by_pos = {merkle.node_pos(*n): n for n in nodes}
    out: dict[Node, bytes] = {}
    positions = sorted(by_pos)
    for i in range(0, len(positions), _CHUNK):
        for r in conn.execute(_SELECT, {"pos": positions[i : i + _CHUNK]}):
            out[by_pos[r.pos]] = bytes.fromhex(r.hash)
    missing = set(by_pos.values()) - set(out)
    if missing:
        level, index = min(missing)
        raise DataError(
            f"the Merkle tree lacks the node at level {level}, index {index}: run "
            "'kgaudit trail verify --full'"
        )
    return out


Frontier = list[tuple[Node, bytes]]  # the roots of a tree's decomposition, left to right


def extend(
    conn: Connection, size: int, event_hashes: Sequence[str], *, frontier: Frontier | None = None
) -> Frontier:
    """Append the events after the first ``size`` to the tree (inside the caller's
    transaction, which holds the chain head); returns the new tree's frontier.

    ``frontier``: the frontier of the tree of ``size`` as an earlier ``extend`` of a
    committed transaction returned it, which spares reading it (a list for another size is
    ignored); it is not modified."""
    parts = merkle.range_parts(0, size)
    if frontier is None or [n for n, _ in frontier] != parts:
        stored = fetch(conn, parts)
        frontier = [(n, stored[n]) for n in parts]
    else:
        frontier = list(frontier)  # append_leaves works in place
    if not event_hashes:
        return frontier
    new = merkle.append_leaves(frontier, size, [leaf_of(h) for h in event_hashes])
    conn.execute(
        _INSERT,
        [{"pos": merkle.node_pos(*n), "level": n[0], "hash": h.hex()} for n, h in new],
    )
    return frontier


def rebuild(conn: Connection) -> int:
    """Replace the whole tree by the one of the stored events, in ``seq`` order (what an
    operator repairing a damaged tree, or an insider covering a rewrite, would run); returns
    the tree's size. Tree heads signed before no longer match a rewritten chain."""
    conn.execute(delete(TreeNode))
    hashes = list(conn.execute(select(TrailEvent.hash).order_by(TrailEvent.seq)).scalars())
    extend(conn, 0, hashes)
    return len(hashes)


def root(conn: Connection, size: int) -> bytes:
    """The root of the tree of the first ``size`` events (``SHA-256("")`` for none)."""
    parts = merkle.range_parts(0, size)
    got = fetch(conn, parts)
    return merkle.fold([got[n] for n in parts])


def inclusion_path(conn: Connection, index: int, size: int) -> list[bytes]:
    ranges = merkle.inclusion_ranges(index, size)
    got = fetch(conn, merkle.needed_nodes(ranges))
    return merkle.hash_ranges(ranges, got.__getitem__)


def consistency_path(conn: Connection, first: int, second: int) -> list[bytes]:
    ranges = merkle.consistency_ranges(first, second)
    got = fetch(conn, merkle.needed_nodes(ranges))
    return merkle.hash_ranges(ranges, got.__getitem__)


__all__ = [
    "consistency_path",
    "extend",
    "fetch",
    "inclusion_path",
    "leaf_of",
    "rebuild",
    "root",
]
