"""Inclusion and consistency proofs from the database, checked offline with the public key.

An insider with write access who edits, deletes or reorders an event either leaves a proof
that fails, or (rehashing the chain and rebuilding the tree) a tree that no longer extends a
signed head anyone kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from auditor.errors import UsageError
from trail import Trail, append_many, prepare, tree
from trail.canonical import GENESIS_HASH, event_hash, record_hash
from trail.checkpoints import CheckpointLog
from trail.models import Audit, AuditClaim, TrailEvent, TrailHead, TreeHead
from trail.proofs import check_document, inclusion_document, prove_audit, prove_consistency
from trail.records import column_values
from trail.testing import fake_result
from trail.tree_heads import TreeSigner


@pytest.fixture
def signed(db_url: str, tmp_path: Path) -> Iterator[Trail]:
    trail = Trail(db_url)
    trail.use_tree_signer(TreeSigner(Ed25519PrivateKey.generate()))
    trail.tree_head_log = CheckpointLog(tmp_path / "tree_heads.jsonl", "t")
    yield trail
    trail.close()


def _fill(trail: Trail, n: int, tenant: str = "acme") -> list[str]:
    res, ids = fake_result(), []
    for i in range(0, n, 500):
        pend = [prepare(res, text=f"audit {j}", tenant=tenant) for j in range(i, min(n, i + 500))]
        ids += [rec.id for rec, _ in append_many(trail, pend)]
    return ids


def _check(trail: Trail, doc: dict, kept: tuple = ()) -> list[str]:
    assert trail.tree_signer is not None
    return check_document(doc, trail.tree_signer.public, kept)


def _every_proof_verifies(trail: Trail, n: int) -> None:
    ids = _fill(trail, n)
    head = trail.sign_tree_head()
    assert head["tree_size"] == n
    for aid in ids:
        doc = inclusion_document(trail, aid, tenant="acme", head=head)
        assert doc is not None and _check(trail, doc) == [], aid
    assert trail.verify().ok


def test_every_audit_has_a_valid_proof(signed: Trail) -> None:
    _every_proof_verifies(signed, 77)


@pytest.mark.slow
def test_every_audit_of_a_10000_event_trail_has_a_valid_proof(signed: Trail) -> None:
    _every_proof_verifies(signed, 10_000)


def test_a_head_is_signed_when_none_covers_the_audit(signed: Trail) -> None:
    first = _fill(signed, 5)
    doc = prove_audit(signed, first[2], tenant="acme")
    assert doc["tree_head"]["tree_size"] == 5 and _check(signed, doc) == []
    later = _fill(signed, 3)
    assert prove_audit(signed, first[0], tenant="acme")["tree_head"]["tree_size"] == 5
    assert prove_audit(signed, later[0], tenant="acme")["tree_head"]["tree_size"] == 8
    assert prove_audit(signed, first[0], tenant="beta") is None  # other tenants: nothing
    unsigned = Trail(signed.db_url)
    _fill(unsigned, 1)
    with pytest.raises(UsageError, match="no signed tree head covers"):
        prove_audit(unsigned, _fill(unsigned, 1)[0], tenant="acme")
    unsigned.close()


def test_consistency_between_signed_heads(signed: Trail) -> None:
    _fill(signed, 6)
    old = signed.sign_tree_head()
    _fill(signed, 11)
    new = signed.sign_tree_head()
    doc = prove_consistency(signed, 6)
    assert (doc["first"], doc["second"]) == (6, 17)
    assert doc["first_head"] == old and doc["second_head"] == new
    assert _check(signed, doc) == []
    assert _check(signed, {**doc, "first_head": None}) == [
        "no signed tree head of size 6 vouches for the first root"
    ]
    assert _check(signed, {**doc, "first_head": None}, (old,)) == []  # a head kept elsewhere
    forged = {**old, "root_hash": "00" * 32}
    assert any("invalid signature" in p for p in _check(signed, {**doc, "first_head": forged}))
    with pytest.raises(UsageError, match="0 <= from <= to <= 17"):
        prove_consistency(signed, 9, 99)


# -- tampering ------------------------------------------------------------------------------
def _rehash_everything(s: Session) -> None:
    """What a careful insider does after an edit: renumber, relink and rehash every event
    and audit in seq order, move the head, rebuild the Merkle tree, drop the stored heads."""
    prev = GENESIS_HASH
    events = s.execute(select(TrailEvent).order_by(TrailEvent.seq)).scalars().all()
    for new_seq, ev in enumerate(events, 1):
        s.execute(update(Audit).where(Audit.id == ev.audit_id).values(seq=-new_seq))
        s.execute(update(TrailEvent).where(TrailEvent.seq == ev.seq).values(seq=-new_seq))
    for new_seq, ev in enumerate(events, 1):
        s.execute(update(Audit).where(Audit.seq == -new_seq).values(seq=new_seq))
        audit = s.execute(select(Audit).where(Audit.id == ev.audit_id)).scalar_one()
        claims = s.execute(select(AuditClaim).where(AuditClaim.audit_id == audit.id)).scalars()
        rh = record_hash(column_values(audit), [column_values(c) for c in claims])
        h = event_hash(
            seq=new_seq,
            kind=ev.kind,
            audit_id=ev.audit_id,
            tenant_id=ev.tenant_id,
            created_at=ev.created_at,
            record_hash=rh,
            prev_hash=prev,
        )
        s.execute(
            update(TrailEvent)
            .where(TrailEvent.seq == -new_seq)
            .values(seq=new_seq, record_hash=rh, prev_hash=prev, hash=h, hash_version=2)
        )
        prev = h
    s.execute(update(TrailHead).values(seq=len(events), hash=prev))
    tree.rebuild(s.connection())
    s.execute(delete(TreeHead))


def _edit(s: Session) -> None:
    s.execute(update(Audit).where(Audit.seq == 3).values(text="rewritten"))


def _delete(s: Session) -> None:
    aid = s.execute(select(TrailEvent.audit_id).where(TrailEvent.seq == 3)).scalar_one()
    s.execute(delete(TrailEvent).where(TrailEvent.seq == 3))
    s.execute(delete(Audit).where(Audit.id == aid))


def _reorder(s: Session) -> None:
    for a, b in ((3, -1), (5, 3), (-1, 5)):
        s.execute(update(TrailEvent).where(TrailEvent.seq == a).values(seq=b))
        s.execute(update(Audit).where(Audit.seq == a).values(seq=b))


TAMPER: list[tuple[str, Callable[[Session], None]]] = [
    ("edit", _edit),
    ("delete", _delete),
    ("reorder", _reorder),
]


@pytest.mark.parametrize(("case", "op"), TAMPER, ids=[c for c, _ in TAMPER])
def test_tampering_breaks_the_proof_of_the_event(signed: Trail, case: str, op: Callable) -> None:
    ids = _fill(signed, 8)
    head = signed.sign_tree_head()
    with signed.session(write=True) as s:
        op(s)
    doc = inclusion_document(signed, ids[2], tenant="acme", head=head)
    if case == "delete":
        assert doc is None  # no proof of a deleted audit...
        assert not signed.verify().ok  # ...and the chain shows the gap
    else:
        assert doc is not None and _check(signed, doc), case
    assert _check(signed, inclusion_document(signed, ids[0], tenant="acme", head=head)) == []


@pytest.mark.parametrize(("case", "op"), TAMPER, ids=[c for c, _ in TAMPER])
def test_a_rewritten_history_is_not_consistent_with_a_kept_head(
    signed: Trail, case: str, op: Callable
) -> None:
    ids = _fill(signed, 8)
    kept = signed.sign_tree_head()  # exported: in the tree-head log, or with a witness
    with signed.session(write=True) as s:
        op(s)
        _rehash_everything(s)
    _fill(signed, 2)
    codes = {p["code"] for p in signed.verify().problems}
    # only the tree-head log outside the database remembers: its head is gone from the
    # database, and the rewritten chain no longer has its root
    assert codes == {"tree_head_missing", "tree_head_mismatch"}
    new = signed.sign_tree_head()  # the server signs the rewritten tree in good faith
    doc = prove_consistency(signed, 8, new["tree_size"])
    assert _check(signed, doc) == ["no signed tree head of size 8 vouches for the first root"]
    assert _check(signed, doc, (kept,)) == ["the signed head of size 8 has another root"]
    if case != "delete":
        edited = inclusion_document(signed, ids[2], tenant="acme", head=kept)
        assert edited is not None and _check(signed, edited)
