"""Migration 0004 builds the Merkle tree of a trail written by the previous schema (0003)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import inspect

from trail import Trail, db, merkle, tree
from trail.proofs import check_document, prove_audit, prove_consistency
from trail.testing import fake_result, postgres_database
from trail.tree_heads import TreeSigner

append_module = importlib.import_module("trail.append")  # the name is the function


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def old_trail(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Trail, list]]:
    """A trail at revision 0003 with 1,237 events, appended as the previous version did
    (no tree: the 0003 schema has no tree table)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
        trail = Trail(url)
        yield from _fill(trail, monkeypatch)
        return
    request.getfixturevalue("pg_url")  # skips (or fails in CI) when the server is down
    with postgres_database("kgaudit_m4") as url:
        trail = Trail(url)
        yield from _fill(trail, monkeypatch)


def _fill(trail: Trail, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Trail, list]]:
    db.upgrade(trail.engine, "0003")
    assert not inspect(trail.engine).has_table("trail_tree_nodes")
    with monkeypatch.context() as m:
        m.setattr(append_module.tree, "extend", lambda *a, **k: None)
        pend = [append_module.prepare(fake_result(), text=f"old {i}") for i in range(1237)]
        recs = [r for r, _ in append_module.append_many(trail, pend[:1000])]
        recs += [trail.record(fake_result(), text=f"old {i}") for i in range(1000, 1003)]
        recs += [r for r, _ in append_module.append_many(trail, pend[1003:])]
    yield trail, recs
    trail.close()


def _mth(leaves: list[bytes]) -> bytes:
    if len(leaves) == 1:
        return leaves[0]
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return merkle.node_hash(_mth(leaves[:k]), _mth(leaves[k:]))


def test_upgrade_builds_the_tree_of_the_existing_chain(old_trail: tuple[Trail, list]) -> None:
    trail, recs = old_trail
    trail.migrate()
    assert db.current_revision(trail.engine) == db.head_revision()
    leaves = [tree.leaf_of(r.hash) for r in recs]
    with trail.engine.connect() as conn:
        assert tree.root(conn, len(recs)) == _mth(leaves)
        assert tree.root(conn, 1000) == _mth(leaves[:1000])
    assert trail.verify().ok
    trail.use_tree_signer(TreeSigner(Ed25519PrivateKey.generate()))
    old_head = trail.sign_tree_head()
    new = trail.record(fake_result(), text="after the upgrade")
    assert new.seq == len(recs) + 1
    public = trail.tree_signer.public  # type: ignore[union-attr]
    for rec in (recs[0], recs[999], recs[-1], new):
        assert check_document(prove_audit(trail, rec.id, tenant="default"), public) == []
    doc = prove_consistency(trail, old_head["tree_size"], trail.sign_tree_head()["tree_size"])
    assert check_document(doc, public) == []
    assert trail.verify().ok
    db.downgrade(trail.engine, "0003")  # and back: the tree tables go, the chain stays
    assert not inspect(trail.engine).has_table("trail_tree_nodes")
    assert db.current_revision(trail.engine) == "0003"
