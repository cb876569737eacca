"""The write path of the trail: prepare an audit outside the lock, append it under the lock.

Everything expensive (canonical JSON, digests of the text and result, claim rows) happens in
:func:`prepare` (anywhere: ``Pending`` pickles, so batch workers prepare in parallel);
:func:`append` / :func:`append_many` hold the chain head only for the hashes of the small
record headers and a few statements — one transaction and one commit for a whole list, which
also extends the Merkle tree (:mod:`trail.tree`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, bindparam, select
from sqlalchemy.exc import IntegrityError

from auditor.errors import UsageError
from trail import tree
from trail.canonical import (
    GENESIS_HASH,
    HASH_VERSION,
    event_hash,
    field_digests,
    record_hash,
    to_json_value,
)
from trail.metadata import MetadataLimits
from trail.models import HEAD_ROW_ID, Audit, AuditClaim, ReviewItem, TrailEvent, TrailHead, table
from trail.records import (
    RecordedAudit,
    audit_row,
    canonical_result,
    check_strings,
    check_tenant,
    check_text,
    claim_rows,
    full_dict,
    request_digest,
)
from trail.reviews import has_item_index, item_rows

if TYPE_CHECKING:
    from trail.core import TrailCore

EVENT_KIND = "audit.recorded"
_A, _C, _E, _H = (table(m) for m in (Audit, AuditClaim, TrailEvent, TrailHead))
_COLUMN = {"meta": "metadata"}  # attribute name -> column name where they differ
# Built once: SQLAlchemy memoises each statement's cache key, so appends skip that work.
_INSERT_AUDIT, _INSERT_CLAIMS, _INSERT_EVENT = _A.insert(), _C.insert(), _E.insert()
_INSERT_ITEMS = table(ReviewItem).insert()
_UPDATE_HEAD = (
    _H.update()
    .where(_H.c.id == HEAD_ROW_ID)
    .values(seq=bindparam("head_seq"), hash=bindparam("head_hash"), updated_at=bindparam("head_at"))
)
_FIND_EXTERNAL = (
    select(_A.c.id, _A.c.seq, _A.c.created_at, _A.c.request_sha256, _A.c.external_id, _E.c.hash)
    .join(_E, _E.c.seq == _A.c.seq, isouter=True)
    .where(
        _A.c.tenant_id == bindparam("tenant"),
        _A.c.external_id.in_(bindparam("external_ids", expanding=True)),
    )
)


@dataclass(frozen=True, slots=True)
class Pending:
    """An audit checked and serialised, ready to be appended."""

    result: dict[str, Any]
    claims: list[dict[str, Any]]
    digests: dict[str, str]
    request_sha256: str
    text: str
    tenant: str
    requester: str | None
    external_id: str | None
    metadata: dict[str, Any]
    source: str
    request: dict[str, Any]


@dataclass(frozen=True, slots=True)
class CheckedRequest:
    """A request checked once, before the audit runs (:func:`check_request`): its text, the
    request and metadata as the trail stores them, and the digest that tells an idempotent
    replay from a conflicting reuse. :func:`prepare` takes it as it is."""

    text: str
    request: dict[str, Any]
    metadata: dict[str, Any]
    digest: str


def check_request(
    text: str,
    request: Mapping[str, Any],
    metadata: Mapping[str, Any] | None,
    limits: MetadataLimits | None = None,
    *,
    text_checked: bool = False,
    metadata_checked: bool = False,
) -> CheckedRequest:
    """Check the text (valid strings) and the metadata (``limits``: the caller's settings,
    :meth:`MetadataLimits.from_settings`) once, and compute the request's digest; a UsageError
    names what is wrong. A check the caller has already made is skipped: ``text_checked``
    (the route, the batch reader), ``metadata_checked`` (the batch reader, which checked the
    metadata under the settings' limits when it read the record; ``limits`` are then unused)."""
    if not text_checked:
        check_text(text)
    if metadata_checked:
        return _checked(text, request, metadata, None)
    return _checked(text, request, metadata, limits or MetadataLimits.defaults())


def _checked(
    text: str,
    request: Mapping[str, Any],
    metadata: Mapping[str, Any] | None,
    limits: MetadataLimits | None,
) -> CheckedRequest:
    """``limits`` None: the metadata is already checked, only turned into JSON values."""
    req = to_json_value(dict(request))
    if limits is not None:
        metadata = limits.check(metadata)
    meta = to_json_value({} if metadata is None else dict(metadata))
    return CheckedRequest(text, req, meta, request_digest(text, req, meta))


def prepare(
    result: Any,
    *,
    text: str,
    tenant: str = "default",
    requester: str | None = None,
    external_id: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    source: str = "api",
    request: Mapping[str, Any] | None = None,
    metadata_limits: MetadataLimits | None = None,
    checked: CheckedRequest | None = None,
) -> Pending:
    """Check and serialise one audit for :func:`append`. ``metadata_limits`` are the
    limits the caller's settings set (``MetadataLimits.from_settings``); without them, the
    settings' defaults. ``checked``: the request as :func:`check_request` already checked it
    (its text, request, metadata and digest are used as they are; ``text``, ``request`` and
    ``metadata`` must then be the same values or omitted)."""
    check_tenant(tenant)
    if checked is not None:
        if text != checked.text:
            raise UsageError("the text differs from the checked request's")
    else:
        check_text(text)
    check_strings(external_id=external_id, requester=requester, source=source)
    if external_id is not None and not (0 < len(external_id) <= 256):
        raise UsageError("external_id must be 1-256 characters long")
    res, res_json = canonical_result(result)  # res_json: what res was parsed from
    if checked is None:
        checked = _checked(
            text,
            request
            if request is not None
            else {"domain": res["domain"], "as_of": None, "citations": None},
            metadata,
            metadata_limits or MetadataLimits.defaults(),
        )
    req, meta = checked.request, checked.metadata
    digests = field_digests(
        {"text": text, "request": req, "meta": meta, "result": res},
        version=HASH_VERSION,
        json_texts={"result": res_json},
    )
    return Pending(
        res,
        claim_rows(res),
        digests,
        checked.digest,
        text,
        tenant,
        requester,
        external_id,
        meta,
        source,
        req,
    )


Appended = tuple[RecordedAudit, dict[str, Any] | None]


def append(trail: TrailCore, p: Pending) -> Appended:
    """Append ``p``; returns the record and its full dict (None for an idempotent replay).

    With group commit (the default) ``p`` shares a transaction with the appends of other
    threads of this process (:mod:`trail.group_commit`); it returns once committed.
    """
    if trail.committer is not None:
        done: Appended = trail.committer.submit(p)
        return done
    return append_many(trail, [p])[0]


def append_many(trail: TrailCore, pendings: Sequence[Pending]) -> list[Appended]:
    """Append several audits in one transaction (one lock, one commit), all or nothing.

    The hashes are exactly those of appending the items one by one. Replays (an
    ``external_id`` already stored, or repeated earlier in ``pendings``: the first wins) come
    back with ``created=False`` and no dict, like :func:`append`.
    """
    if not pendings:
        return []
    try:
        out = _append_many(trail, pendings)
    except IntegrityError:
        tenants = {p.tenant for p in pendings}
        if not tenants & trail.known_tenants:
            raise
        trail.known_tenants.difference_update(tenants)  # a tenant row vanished (restore)
        out = _append_many(trail, pendings)
    if trail.checkpoint_policy is not None and any(rec.created for rec, _ in out):
        trail.maybe_checkpoint()
    return out


def _stored_replays(
    conn: Connection, pendings: Sequence[Pending]
) -> dict[tuple[str, str], RecordedAudit]:
    wanted: dict[str, set[str]] = {}
    for p in pendings:
        if p.external_id is not None:
            wanted.setdefault(p.tenant, set()).add(p.external_id)
    found: dict[tuple[str, str], RecordedAudit] = {}
    for tenant, ids in wanted.items():
        ordered = sorted(ids)
        for i in range(0, len(ordered), 500):  # stay far below bind-parameter limits
            for r in conn.execute(
                _FIND_EXTERNAL, {"tenant": tenant, "external_ids": ordered[i : i + 500]}
            ):
                found[(tenant, r.external_id)] = RecordedAudit(
                    str(r.id), r.seq, r.hash or "", r.created_at, False, r.request_sha256
                )
    return found


def _append_many(trail: TrailCore, pendings: Sequence[Pending]) -> list[Appended]:
    out: list[Appended] = []
    audits: list[dict[str, Any]] = []
    claims: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    items: list[dict[str, Any]] = []
    frontier: tree.Frontier | None = None
    with trail.locked_head() as (conn, head_seq, head_hash):
        indexed = has_item_index(conn)
        replays = _stored_replays(conn, pendings)
        for tenant in sorted({p.tenant for p in pendings} - trail.known_tenants):
            trail.insert_tenant(conn, tenant)
        seq, prev = head_seq, head_hash or GENESIS_HASH
        for p in pendings:
            key = (p.tenant, p.external_id or "")
            if p.external_id is not None and key in replays:
                out.append((replays[key], None))
                continue
            seq += 1
            audit_id, created_at = uuid.uuid4(), datetime.now(UTC)
            row = audit_row(
                p.result,
                audit_id=audit_id,
                seq=seq,
                tenant=p.tenant,
                external_id=p.external_id,
                source=p.source,
                requester=p.requester,
                created_at=created_at,
                text=p.text,
                request=p.request,
                metadata=p.metadata,
                request_sha256=p.request_sha256,
            )
            rh = record_hash(row, p.claims, digests=p.digests, version=HASH_VERSION)
            h = event_hash(
                seq=seq,
                kind=EVENT_KIND,
                audit_id=audit_id,
                tenant_id=p.tenant,
                created_at=created_at,
                record_hash=rh,
                prev_hash=prev,
                version=HASH_VERSION,
            )
            audits.append({_COLUMN.get(k, k): v for k, v in row.items()})
            claims += [{"audit_id": audit_id, **c} for c in p.claims]
            if indexed:
                items += item_rows(
                    p.result,
                    audit_id=audit_id,
                    audit_seq=seq,
                    tenant=p.tenant,
                    created_at=created_at,
                    domain=row["domain"],
                )
            events.append(
                {
                    "seq": seq,
                    "kind": EVENT_KIND,
                    "audit_id": audit_id,
                    "tenant_id": p.tenant,
                    "created_at": created_at,
                    "record_hash": rh,
                    "prev_hash": prev,
                    "hash": h,
                    "hash_version": HASH_VERSION,
                }
            )
            rec = RecordedAudit(str(audit_id), seq, h, created_at, True, p.request_sha256)
            if p.external_id is not None:  # a later duplicate in this list replays this one
                replays[key] = RecordedAudit(rec.id, seq, h, created_at, False, p.request_sha256)
            out.append(
                (
                    rec,
                    full_dict(
                        SimpleNamespace(**row),
                        SimpleNamespace(hash=h, prev_hash=prev, record_hash=rh),
                    ),
                )
            )
            prev = h
        if audits:
            if all(a["answered_at"] is None for a in audits):
                # NULL is the column's default: leaving it out keeps this insert valid on a
                # schema before 0006 (the migration tests write old trails with this code)
                for a in audits:
                    del a["answered_at"]
            conn.execute(_INSERT_AUDIT, audits)
            if claims:
                conn.execute(_INSERT_CLAIMS, claims)
            conn.execute(_INSERT_EVENT, events)
            if items:
                conn.execute(_INSERT_ITEMS, items)
            frontier = tree.extend(
                conn,
                head_seq,
                [e["hash"] for e in events],
                frontier=trail.tree_frontier(head_seq, head_hash),
            )
            conn.execute(
                _UPDATE_HEAD,
                {"head_seq": seq, "head_hash": prev, "head_at": events[-1]["created_at"]},
            )
    if frontier is not None:  # committed: the next append of this process skips reading it
        trail.remember_tree_frontier(seq, prev, frontier)
    trail.known_tenants.update(p.tenant for p in pendings)
    return out


__all__ = [
    "EVENT_KIND",
    "Appended",
    "CheckedRequest",
    "Pending",
    "append",
    "append_many",
    "check_request",
    "prepare",
]
