"""The audit-trail schema: SQLAlchemy 2.0 typed ORM, one ``MetaData`` with a naming convention.

Tables::

    tenants            one row per tenant (isolation boundary of every query)
    api_keys           REST API keys: lookup prefix + SHA-256 of the token, never the token
    audits             one audited request: text, request, full result JSON, scores, versions
    audit_claims       one row per claim of an audit (queryable by verdict, type, rule)
    trail_events       the append-only hash chain: seq, prev_hash, record_hash, hash
    trail_head         a single row (id = 1) holding the chain head; locked by every append
    trail_checkpoints  signed chain heads (HMAC-SHA256), exportable
    trail_tree_nodes   the RFC 9162 Merkle tree over the events: one row per perfect subtree
    trail_tree_heads   signed tree heads (Ed25519 over size, root and time)
    reviews            reviewers' decisions on an audit's items; each one is a chain event
    review_items       derived index of the review queue: one row per item that may need a
                       person, with its state; never hashed (rebuilt from audits + reviews)

Constraint and index names come from ``NAMING_CONVENTION``; migrations never spell them.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any, ClassVar, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Date,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from auditor.lookup_cache import CITATION_LOOKUPS, NAMING_CONVENTION, UTCDateTime
from trail.canonical import HASH_VERSION

HEAD_ROW_ID = 1


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class Tenant(Base):
    __tablename__ = "tenants"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(256))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ApiKey(Base):
    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    prefix: Mapped[str] = mapped_column(String(16), unique=True)
    key_hash: Mapped[str] = mapped_column(String(64))
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"), index=True)
    role: Mapped[str] = mapped_column(String(16))
    name: Mapped[str | None] = mapped_column(String(256))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime())  # None: never


class Audit(Base):
    __tablename__ = "audits"
    __table_args__ = (
        UniqueConstraint("tenant_id", "external_id"),
        Index(None, "tenant_id", "seq"),
        Index(None, "tenant_id", "created_at"),
        Index(None, "tenant_id", "answered_at"),
    )

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger, unique=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"))
    external_id: Mapped[str | None] = mapped_column(String(256))
    source: Mapped[str] = mapped_column(String(32))
    requester: Mapped[str | None] = mapped_column(String(256))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # when the text was said: metadata["answered_at"] (trail.metadata.answered_at),
    # kept as a column for reports by that day; not hashed itself, since ``meta`` is
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    domain: Mapped[str] = mapped_column(String(32), index=True)
    as_of: Mapped[date] = mapped_column(Date)
    text: Mapped[str] = mapped_column(Text)
    text_sha256: Mapped[str] = mapped_column(String(64))
    request: Mapped[dict[str, Any]] = mapped_column(JSON)
    request_sha256: Mapped[str] = mapped_column(String(64))
    meta: Mapped[dict[str, Any]] = mapped_column("metadata", JSON)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    fer: Mapped[float | None] = mapped_column(Float)
    citation_confidence: Mapped[float | None] = mapped_column(Float)
    joint_score: Mapped[float | None] = mapped_column(Float)
    coverage: Mapped[float | None] = mapped_column(Float)
    n_supported: Mapped[int] = mapped_column(Integer)
    n_contradicted: Mapped[int] = mapped_column(Integer)
    n_unverifiable: Mapped[int] = mapped_column(Integer)
    kg_version: Mapped[str] = mapped_column(String(128))
    rules_version: Mapped[str] = mapped_column(String(128))
    auditor_version: Mapped[str] = mapped_column(String(128))

    claims: Mapped[list[AuditClaim]] = relationship(
        back_populates="audit", order_by="AuditClaim.idx", cascade="all, delete-orphan"
    )


class AuditClaim(Base):
    __tablename__ = "audit_claims"
    __table_args__ = (
        UniqueConstraint("audit_id", "idx"),
        Index(None, "verdict", "audit_id"),
        Index(None, "hallucination_type", "audit_id"),
        Index(None, "rule_id", "audit_id"),
    )

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id", ondelete="CASCADE"))
    idx: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    span_start: Mapped[int] = mapped_column(Integer)
    span_end: Mapped[int] = mapped_column(Integer)
    subject: Mapped[str | None] = mapped_column(String(512))
    predicate: Mapped[str | None] = mapped_column(String(256))
    object: Mapped[str | None] = mapped_column(Text)
    verdict: Mapped[str] = mapped_column(String(16))
    hallucination_type: Mapped[str | None] = mapped_column(String(64))
    rule_id: Mapped[str | None] = mapped_column(String(256))

    audit: Mapped[Audit] = relationship(back_populates="claims")


class TrailEvent(Base):
    __tablename__ = "trail_events"

    seq: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(32))
    # the audit an ``audit.recorded`` event records, or the one a ``review.recorded`` event
    # reviews (several events per audit since migration 0005)
    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id"), index=True)
    tenant_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    record_hash: Mapped[str] = mapped_column(String(64))
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64), unique=True)
    # hash format of this event and its record (trail.canonical); rows written before
    # migration 0002 are version 1
    hash_version: Mapped[int] = mapped_column(
        SmallInteger, default=HASH_VERSION, server_default="1"
    )


class TrailHead(Base):
    __tablename__ = "trail_head"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seq: Mapped[int] = mapped_column(BigInteger)
    hash: Mapped[str | None] = mapped_column(String(64))
    updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class TrailCheckpoint(Base):
    __tablename__ = "trail_checkpoints"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    seq: Mapped[int] = mapped_column(BigInteger)
    head_hash: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    alg: Mapped[str] = mapped_column(String(32))
    key_id: Mapped[str] = mapped_column(String(32))
    signature: Mapped[str] = mapped_column(String(128))


class TreeNode(Base):
    """A perfect aligned subtree of the Merkle tree (``trail.merkle.node_pos``)."""

    __tablename__ = "trail_tree_nodes"

    pos: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    level: Mapped[int] = mapped_column(SmallInteger)
    hash: Mapped[str] = mapped_column(String(64))


class TreeHead(Base):
    """A signed tree head: the root of the first ``tree_size`` events at ``created_at``."""

    __tablename__ = "trail_tree_heads"
    __table_args__ = (Index(None, "tree_size"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tree_size: Mapped[int] = mapped_column(BigInteger)
    root_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    alg: Mapped[str] = mapped_column(String(32))
    key_id: Mapped[str] = mapped_column(String(32))
    signature: Mapped[str] = mapped_column(String(128))


class Review(Base):
    """One reviewer's decision on one item of an audit (``trail.reviews``); chained
    as the ``review.recorded`` event of the same ``seq``."""

    __tablename__ = "reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    seq: Mapped[int] = mapped_column(BigInteger, unique=True)
    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id"), index=True)
    tenant_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    reviewer: Mapped[str] = mapped_column(String(256))
    item: Mapped[str] = mapped_column(String(64))
    decision: Mapped[str] = mapped_column(String(16))
    verdict: Mapped[str] = mapped_column(String(32))
    reason: Mapped[str | None] = mapped_column(Text)


class ReviewItem(Base):
    """An item of an audit that may need a person (``trail.reviews.item_rows``): a
    contradicted or unverifiable claim, or a citation not ``verified``; with the audit's
    tenant, domain, time and risk copied, so the review queue filters, sorts and pages in
    SQL. Derived from ``audits`` and ``reviews`` (written with them, in the same
    transaction; migration 0008 fills it for older trails) and covered by no hash."""

    __tablename__ = "review_items"
    __table_args__ = (
        UniqueConstraint("audit_id", "item"),
        Index(None, "tenant_id", "status", "risk", "created_at"),
    )

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id", ondelete="CASCADE"))
    audit_seq: Mapped[int] = mapped_column(BigInteger)
    tenant_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    domain: Mapped[str] = mapped_column(String(32))
    risk: Mapped[float | None] = mapped_column(Float)
    item: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))
    verdict: Mapped[str] = mapped_column(String(32))
    rule_id: Mapped[str | None] = mapped_column(String(256))
    status: Mapped[str] = mapped_column(String(16))  # open | confirmed | overturned


class CitationLookup(Base):
    """A cached CourtListener citation-lookup answer (only when a token is configured); the
    columns are :data:`auditor.lookup_cache.CITATION_LOOKUPS`, which the online check reads
    and writes without importing the trail."""

    __table__ = CITATION_LOOKUPS.to_metadata(Base.metadata)


def table(model: type[Base]) -> Table:
    """The :class:`~sqlalchemy.Table` of a mapped class (``__table__`` is typed as a plain
    ``FromClause``, which has no ``insert``/``update``)."""
    return cast(Table, model.__table__)


__all__ = [
    "HEAD_ROW_ID",
    "NAMING_CONVENTION",
    "ApiKey",
    "Audit",
    "AuditClaim",
    "Base",
    "CitationLookup",
    "Review",
    "ReviewItem",
    "Tenant",
    "TrailCheckpoint",
    "TrailEvent",
    "TrailHead",
    "TreeHead",
    "TreeNode",
    "UTCDateTime",
    "table",
]
