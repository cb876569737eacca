"""Signed checkpoints detect a rewrite of the whole chain; re-audits never alter records."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import delete, select, update

from auditor.errors import DataError, UsageError
from trail import Trail, tree
from trail.canonical import GENESIS_HASH, event_hash, record_hash
from trail.models import Audit, AuditClaim, TrailEvent, TrailHead
from trail.records import column_values
from trail.testing import fake_audit, fake_result

KEY = b"kx7Q2mVt9LpR4wZs8NcH3bYf6GdJ1aEu"


def _fill(trail: Trail, n: int = 4) -> list[str]:
    return [trail.record(fake_result(), text=f"t{i}", tenant="acme").id for i in range(n)]


def _rewrite_whole_chain(trail: Trail, new_text: str) -> None:
    """What an insider with write access would do: change a record, rehash everything
    (chain and Merkle tree)."""
    with trail.session(write=True) as s:
        s.execute(update(Audit).where(Audit.seq == 2).values(text=new_text))
        prev = GENESIS_HASH
        for ev in s.execute(select(TrailEvent).order_by(TrailEvent.seq)).scalars().all():
            audit = s.get(Audit, ev.audit_id)
            claims = (
                s.execute(select(AuditClaim).where(AuditClaim.audit_id == ev.audit_id))
                .scalars()
                .all()
            )
            rh = record_hash(column_values(audit), [column_values(c) for c in claims])
            h = event_hash(
                seq=ev.seq,
                kind=ev.kind,
                audit_id=ev.audit_id,
                tenant_id=ev.tenant_id,
                created_at=ev.created_at,
                record_hash=rh,
                prev_hash=prev,
            )
            s.execute(
                update(TrailEvent)
                .where(TrailEvent.seq == ev.seq)
                .values(record_hash=rh, prev_hash=prev, hash=h)
            )
            prev = h
        s.execute(update(TrailHead).values(hash=prev))
        tree.rebuild(s.connection())  # and the Merkle tree over the rewritten events


def test_checkpoint_signs_the_head(trail: Trail) -> None:
    _fill(trail)
    cp = trail.checkpoint(KEY)
    assert cp["seq"] == 4 and cp["head_hash"] == trail.verify().head_hash
    assert cp["alg"] == "HMAC-SHA256" and len(cp["signature"]) == 64
    assert trail.verify_checkpoint(cp, KEY)
    assert not trail.verify_checkpoint(cp, b"x" * 32)
    assert not trail.verify_checkpoint({**cp, "seq": 3}, KEY)
    assert trail.checkpoints() == [cp]
    exported = json.loads(json.dumps(cp))  # survives export as JSON
    _fill(trail, 2)  # later appends keep old checkpoints valid
    assert trail.verify_checkpoint(exported, KEY) and trail.verify(key=KEY).ok


def test_rewrite_of_entire_chain_is_caught_by_checkpoint(trail: Trail) -> None:
    _fill(trail)
    cp = trail.checkpoint(KEY)
    _rewrite_whole_chain(trail, "rewritten history")
    assert trail.verify().ok  # the chain alone is self-consistent again...
    assert not trail.verify_checkpoint(cp, KEY)  # ...but the exported checkpoint disagrees
    report = trail.verify(key=KEY)  # and so does the stored one
    assert not report.ok and report.first_broken["code"] == "checkpoint_mismatch"
    assert report.first_broken["seq"] == 4


def test_truncation_behind_a_checkpoint_is_caught(trail: Trail) -> None:
    _fill(trail)
    cp = trail.checkpoint(KEY)
    with trail.session(write=True) as s:
        last = s.execute(select(TrailEvent).where(TrailEvent.seq == 4)).scalar_one()
        s.execute(delete(TrailEvent).where(TrailEvent.seq == 4))
        s.execute(delete(Audit).where(Audit.id == last.audit_id))
        s.execute(update(TrailHead).values(seq=3, hash=last.prev_hash))
    assert trail.verify().ok
    assert not trail.verify_checkpoint(cp, KEY)


def test_checkpoint_refuses_a_broken_chain_and_short_keys(trail: Trail) -> None:
    _fill(trail)
    with pytest.raises(UsageError, match="32 bytes"):
        trail.checkpoint(b"short")
    with trail.session(write=True) as s:
        s.execute(update(Audit).where(Audit.seq == 1).values(text="forged"))
    with pytest.raises(DataError, match="broken chain"):
        trail.checkpoint(KEY)


def test_reaudit_lists_differences_and_keeps_the_original(trail: Trail) -> None:
    rec = trail.record(
        fake_result(verdicts=("supported", "contradicted")),
        text="t",
        tenant="acme",
        request={"domain": "medical", "as_of": None, "citations": None},
    )
    before = trail.get(rec.id, tenant="acme")

    def newer_graph(
        text: str, *, domain: str, as_of: object = None, citations: object = None
    ) -> dict:
        assert (domain, as_of) == ("medical", before["as_of"])  # judged at the same date
        return fake_result(
            verdicts=("supported", "supported", "unverifiable"),
            kg_version="kg-newer",
            as_of=str(as_of),
        )

    d = trail.reaudit(rec.id, tenant="acme", audit_fn=newer_graph)
    assert d["versions"]["kg_version"] == {"old": "kg-test", "new": "kg-newer"}
    assert [(c["old_verdict"], c["verdict"]) for c in d["changed"]] == [
        ("contradicted", "supported")
    ]
    assert len(d["added"]) == 1 and d["unchanged"] == 1 and not d["identical"]
    assert d["recorded"] is None and trail.count() == 1
    d2 = trail.reaudit(rec.id, tenant="acme", audit_fn=newer_graph, record=True)
    new = trail.get(d2["recorded"]["id"], tenant="acme")
    assert new["source"] == "reaudit" and new["metadata"] == {"reaudit_of": rec.id}
    assert trail.get(rec.id, tenant="acme") == before  # the original is untouched
    assert trail.verify().ok
    assert trail.diff(rec.id, new["id"], tenant="acme")["changed"] == d["changed"]
    same = trail.reaudit(new["id"], tenant="acme", audit_fn=fake_audit)
    assert same["versions"]["kg_version"]["new"] == "kg-test"
    with pytest.raises(UsageError):
        trail.reaudit(rec.id, tenant="other", audit_fn=fake_audit)
