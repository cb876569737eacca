"""The Merkle frontier a process remembers after its own append (trail.tree.extend):
used only while the chain head is the one it belongs to, so appends of other processes, or a
failed transaction, never make the tree wrong."""

from __future__ import annotations

import pytest

from trail import Trail, merkle, tree
from trail.testing import fake_result


def _record(trail: Trail, text: str) -> None:
    trail.record(fake_result(), text=text, tenant="acme")


def _stored_frontier(trail: Trail) -> tree.Frontier:
    with trail.engine.connect() as conn:
        size = trail.verify().checked
        parts = merkle.range_parts(0, size)
        stored = tree.fetch(conn, parts)
    return [(n, stored[n]) for n in parts]


def test_two_processes_appending_in_turn_keep_the_tree_right(db_url: str) -> None:
    a, b = Trail(db_url), Trail(db_url)  # two processes' trails on one database
    try:
        for i in range(7):
            _record(a, f"a{i}")
            _record(a, f"a{i}-2")  # served from a's remembered frontier
            _record(b, f"b{i}")  # b's remembered frontier (if any) is for an older head
        report = a.verify(full=True)
        assert report.ok, report.problems
        assert report.checked == 21
        head = a._tree_frontier
        assert head is not None and head[0] == 20  # a's last append was the 20th event
        assert a.tree_frontier(21, "x") is None  # b appended since: not used
    finally:
        a.close()
        b.close()


def test_the_remembered_frontier_is_the_stored_one(db_url: str) -> None:
    trail = Trail(db_url)
    try:
        for i in range(5):
            _record(trail, f"t{i}")
        seq, head_hash, frontier = trail._tree_frontier or (0, None, [])
        assert seq == 5
        assert trail.tree_frontier(seq, head_hash) == frontier == _stored_frontier(trail)
    finally:
        trail.close()


def test_a_failed_append_leaves_the_remembered_frontier_untouched(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    trail = Trail(db_url, group_max_batch=1)
    try:
        _record(trail, "first")
        before = trail._tree_frontier
        assert before is not None
        snapshot = list(before[2])

        def fail(*args: object, **kwargs: object) -> None:
            raise RuntimeError("the head update failed")

        real_extend = tree.extend

        def extend_then_fail(*args: object, **kwargs: object) -> tree.Frontier:
            out = real_extend(*args, **kwargs)  # type: ignore[arg-type]
            fail()
            return out

        monkeypatch.setattr(tree, "extend", extend_then_fail)
        with pytest.raises(RuntimeError):
            _record(trail, "rolled back")
        monkeypatch.undo()
        assert trail._tree_frontier == before and before[2] == snapshot
        _record(trail, "second")
        report = trail.verify(full=True)
        assert report.ok, report.problems
        assert report.checked == 2
    finally:
        trail.close()


def test_extend_ignores_a_frontier_of_another_size(db_url: str) -> None:
    trail = Trail(db_url)
    try:
        _record(trail, "one")
        _record(trail, "two")
        wrong = [((0, 0), b"\x00" * 32)]  # the frontier of a 1-leaf tree, not of 2
        with trail.engine.begin() as conn:
            assert tree.extend(conn, 2, [], frontier=wrong) == _stored_frontier(trail)
    finally:
        trail.close()
