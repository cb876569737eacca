"""The tamper-evident audit trail: every audit appended to a hash chain in SQL.

Python API (stable; batch jobs and compliance reports build on it)::

    from trail import Trail
    trail = Trail(db_url)          # SQLAlchemy URL; SQLite gets WAL + busy timeout
    trail = Trail(db_url, durable=False)   # don't wait for the disk per append (faster)
    trail.migrate()                # alembic upgrade head (idempotent)

    rec = trail.record(result, text=text, tenant="default", requester=None,
                       external_id=None, metadata=None, source="api", request=None)
    # -> RecordedAudit(id, seq, hash, created_at, created, request_sha256)
    # result: an AuditResult or its to_dict(); request: the caller's parameters
    # ({"domain", "as_of", "citations"}), default derived from the result.
    # Idempotent on (tenant, external_id): a repeat returns the stored record with
    # created=False and appends nothing.
    rec, stored = trail.record_and_get(result, text=text, ...)   # + the dict get() returns

    # Split form for parallel writers (batch): the CPU-heavy part anywhere, the append under
    # the chain lock. Pending is picklable.
    from trail import Pending, append, append_many, prepare
    pending = prepare(result, text=text, tenant=t, external_id=..., source="batch", ...)
    rec, stored_or_none = append(trail, pending)    # None when it was an idempotent replay
    pairs = append_many(trail, [pending, ...])       # one transaction/commit, all or nothing;
                                                     # same hashes as one by one

    trail.get(audit_id, tenant=t)                -> dict | None   (None for other tenants)
    trail.find_by_external_id(ext_id, tenant=t)  -> dict | None
    trail.claims(audit_id, tenant=t, verdict=None, hallucination_type=None, rule_id=None)
    trail.list_audits(tenant=t, domain=None, start=None, end=None, fer_min=None,
                      fer_max=None, verdict=None, hallucination_type=None, rule_id=None,
                      cursor=None, limit=50, include_result=False)
        -> (list[summary dict], next_cursor | None)        newest first
    trail.iter_audits(tenant=None, start=None, end=None, domain=None) -> Iterator[dict]
        oldest first, full dicts, streamed in pages (for reports)
    trail.count(tenant=None) -> int

    trail.verify(key=None) -> VerifyReport(ok, checked, head_hash, first_broken, problems)
    trail.checkpoint(key)  -> dict        signed head (HMAC-SHA256), stored and returned
    trail.checkpoints()    -> list[dict]; trail.verify_checkpoint(cp, key) -> bool
    trail.reaudit(audit_id, tenant=t, audit_fn=None, record=False) -> diff dict
    trail.diff(audit_a, audit_b, tenant=t) -> diff dict

Dict shapes. A summary (``list_audits``) holds ``id, seq, hash, tenant, external_id, source,
requester, created_at`` (UTC ISO, ``Z``), ``domain, as_of, fer, citation_confidence,
joint_score, coverage, counts{supported,contradicted,unverifiable}, kg_version,
rules_version, auditor_version, metadata``. A full audit (``get``, ``iter_audits``,
``list_audits(include_result=True)``) adds ``prev_hash, record_hash, text, text_sha256,
request, request_sha256, result`` (``result`` is exactly ``AuditResult.to_dict()``).

Integrity. Appends are serialised (PostgreSQL: ``SELECT ... FOR UPDATE`` on the single
``trail_head`` row; SQLite: ``BEGIN IMMEDIATE``), so concurrent writers never fork the chain.
Hashes are SHA-256 over canonical JSON (see :mod:`trail.canonical`); ``verify``
recomputes every record and link and names the first broken record.
"""

from trail.append import Pending, append, append_many, prepare
from trail.records import RecordedAudit
from trail.store import Trail
from trail.verify import VerifyReport

__all__ = ["Pending", "RecordedAudit", "Trail", "VerifyReport", "append", "append_many", "prepare"]
