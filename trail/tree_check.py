"""The Merkle-tree part of ``trail verify``: stored nodes and signed tree heads vs the chain.

While the chain is walked, the tree is rebuilt from the walked events' hashes (a compact
range: O(log n) memory) and every stored node of that stretch is compared with it
(``tree_altered``, ``tree_missing``). Each signed tree head, stored or in the tree-head log,
must carry a valid signature (when the public key is known) and the root the chain has at
its size (``tree_head_mismatch``); a logged head gone from the database is
``tree_head_missing``; a head larger than the chain means events were cut off the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, select

from auditor.errors import DataError
from trail import merkle, tree
from trail.models import TrailEvent, TreeNode
from trail.tree_heads import head_problem, tree_heads

if TYPE_CHECKING:
    from trail.core import TrailCore


def _problem(seq: int | None, code: str, reason: str) -> dict[str, Any]:
    return {"seq": seq, "audit_id": None, "code": code, "reason": reason}


class TreeChecker:
    """Checks the tree alongside :func:`trail.verify.verify_chain`'s walk."""

    def __init__(self, trail: TrailCore, conn: Connection, start: int) -> None:
        self.conn, self.size = conn, start
        self.problems: list[dict[str, Any]] = []
        self.frontier: list[tuple[merkle.Node, bytes]] = []
        if start:
            try:
                got = tree.fetch(conn, merkle.range_parts(0, start))
                self.frontier = [(n, got[n]) for n in merkle.range_parts(0, start)]
            except DataError as exc:
                self.problems.append(_problem(start, "tree_missing", str(exc)))
        self.heads = self._heads(trail)
        self.by_size: dict[int, list[dict[str, Any]]] = {}
        for h in self.heads:
            self.by_size.setdefault(int(h["tree_size"]), []).append(h)
        self.public = trail.tree_signer.public if trail.tree_signer is not None else None
        self._check_old_heads()

    def _heads(self, trail: TrailCore) -> list[dict[str, Any]]:
        stored = tree_heads(trail)
        logged = trail.tree_head_log.read() if trail.tree_head_log is not None else []
        signed = {(h["tree_size"], h["signature"]) for h in stored}
        for h in logged:
            if "malformed" in h:
                self.problems.append(
                    _problem(
                        None,
                        "tree_head_mismatch",
                        f"line {h['malformed']} of the tree-head log is not JSON",
                    )
                )
            elif (h.get("tree_size"), h.get("signature")) not in signed:
                self.problems.append(
                    _problem(
                        h.get("tree_size"),
                        "tree_head_missing",
                        f"the tree head of size {h.get('tree_size')} signed at "
                        f"{h.get('timestamp')} is in the tree-head log but no longer in the "
                        "database: stored heads were deleted",
                    )
                )
        return [*stored, *(h for h in logged if "malformed" not in h)]

    def _check_head(self, head: dict[str, Any], root: bytes) -> None:
        reason = head_problem(head, self.public) if self.public is not None else None
        if reason is None and head.get("root_hash") != root.hex():
            reason = (
                f"the tree head of size {head['tree_size']} signed a root the chain no longer "
                "has: events up to it were changed, removed or reordered"
            )
        if reason is not None:
            self.problems.append(_problem(int(head["tree_size"]), "tree_head_mismatch", reason))

    def _check_old_heads(self) -> None:
        old = [h for h in self.heads if 0 < int(h["tree_size"]) <= self.size]
        sizes = sorted({int(h["tree_size"]) for h in old})
        try:
            got = tree.fetch(self.conn, {n for s in sizes for n in merkle.range_parts(0, s)})
        except DataError as exc:
            self.problems.append(_problem(None, "tree_missing", str(exc)))
            return
        for h in old:
            parts = merkle.range_parts(0, int(h["tree_size"]))
            self._check_head(h, merkle.fold([got[n] for n in parts]))

    def check(self, events: Sequence[TrailEvent]) -> None:
        """Rebuild the tree over ``events`` (the next ones of the walk) and compare."""
        first, before = self.size, list(self.frontier)
        new = merkle.append_leaves(self.frontier, first, [tree.leaf_of(e.hash) for e in events])
        lo, hi = merkle.nodes_before(first), merkle.nodes_before(first + len(events))
        stored = dict(
            self.conn.execute(
                select(TreeNode.pos, TreeNode.hash).where(TreeNode.pos >= lo, TreeNode.pos < hi)
            ).all()
        )
        for (level, index), h in new:
            got = stored.get(merkle.node_pos(level, index))
            if got != h.hex():
                seq = (index << level) + 1
                code, what = (
                    ("tree_missing", "missing") if got is None else ("tree_altered", "altered")
                )
                self.problems.append(
                    _problem(
                        seq,
                        code,
                        f"the Merkle tree node at level {level} over event "
                        f"{seq} is {what}: it no longer matches the chain",
                    )
                )
                break  # one per batch is enough to point at the place
        self.size += len(events)
        for size in range(first + 1, self.size + 1):
            for head in self.by_size.get(size, ()):
                if size == self.size:
                    root = merkle.fold([h for _, h in self.frontier])
                else:
                    scratch = list(before)
                    leaves = [tree.leaf_of(e.hash) for e in events[: size - first]]
                    merkle.append_leaves(scratch, first, leaves)
                    root = merkle.fold([h for _, h in scratch])
                self._check_head(head, root)

    def finish(self) -> list[dict[str, Any]]:
        for h in self.heads:
            if int(h["tree_size"]) > self.size:
                self.problems.append(
                    _problem(
                        self.size + 1,
                        "tree_head_mismatch",
                        f"a tree head signed {h['tree_size']} events but the chain has "
                        f"{self.size}: events were cut off the end",
                    )
                )
        return self.problems


__all__ = ["TreeChecker"]
