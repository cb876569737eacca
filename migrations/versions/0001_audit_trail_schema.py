"""Audit trail schema: tenants, API keys, audits, claims, hash-chained events, checkpoints.

Generated with ``alembic revision --autogenerate`` against ``trail.models`` and
reviewed: constraint/index names are the naming convention's (``op.f``), indexes are created
outside batch mode (plain CREATE INDEX works on every backend), and the single
``trail_head`` row that every append locks is inserted here.

Revision ID: 0001
Revises:
Create Date: 2026-12-02 11:07:40
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tenants",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tenants")),
    )
    op.create_table(
        "trail_checkpoints",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("head_hash", sa.String(length=64), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("alg", sa.String(length=32), nullable=False),
        sa.Column("key_id", sa.String(length=32), nullable=False),
        sa.Column("signature", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trail_checkpoints")),
    )
    head = op.create_table(
        "trail_head",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=True),
        sa.Column("updated_at", _TS, nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trail_head")),
    )
    op.bulk_insert(head, [{"id": 1, "seq": 0, "hash": None, "updated_at": None}])
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("revoked_at", _TS, nullable=True),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"], name=op.f("fk_api_keys_tenant_id_tenants")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("prefix", name=op.f("uq_api_keys_prefix")),
    )
    op.create_index(op.f("ix_api_keys_tenant_id"), "api_keys", ["tenant_id"])
    op.create_table(
        "audits",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("external_id", sa.String(length=256), nullable=True),
        sa.Column("source", sa.String(length=32), nullable=False),
        sa.Column("requester", sa.String(length=256), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("domain", sa.String(length=32), nullable=False),
        sa.Column("as_of", sa.Date(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("text_sha256", sa.String(length=64), nullable=False),
        sa.Column("request", sa.JSON(), nullable=False),
        sa.Column("request_sha256", sa.String(length=64), nullable=False),
        sa.Column("metadata", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("fer", sa.Float(), nullable=True),
        sa.Column("citation_confidence", sa.Float(), nullable=True),
        sa.Column("joint_score", sa.Float(), nullable=True),
        sa.Column("coverage", sa.Float(), nullable=True),
        sa.Column("n_supported", sa.Integer(), nullable=False),
        sa.Column("n_contradicted", sa.Integer(), nullable=False),
        sa.Column("n_unverifiable", sa.Integer(), nullable=False),
        sa.Column("kg_version", sa.String(length=128), nullable=False),
        sa.Column("rules_version", sa.String(length=128), nullable=False),
        sa.Column("auditor_version", sa.String(length=128), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"], name=op.f("fk_audits_tenant_id_tenants")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audits")),
        sa.UniqueConstraint("seq", name=op.f("uq_audits_seq")),
        sa.UniqueConstraint(
            "tenant_id", "external_id", name=op.f("uq_audits_tenant_id_external_id")
        ),
    )
    op.create_index(op.f("ix_audits_domain"), "audits", ["domain"])
    op.create_index(op.f("ix_audits_tenant_id_created_at"), "audits", ["tenant_id", "created_at"])
    op.create_index(op.f("ix_audits_tenant_id_seq"), "audits", ["tenant_id", "seq"])
    op.create_table(
        "audit_claims",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("audit_id", sa.Uuid(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("span_start", sa.Integer(), nullable=False),
        sa.Column("span_end", sa.Integer(), nullable=False),
        sa.Column("subject", sa.String(length=512), nullable=True),
        sa.Column("predicate", sa.String(length=256), nullable=True),
        sa.Column("object", sa.Text(), nullable=True),
        sa.Column("verdict", sa.String(length=16), nullable=False),
        sa.Column("hallucination_type", sa.String(length=64), nullable=True),
        sa.Column("rule_id", sa.String(length=256), nullable=True),
        sa.ForeignKeyConstraint(
            ["audit_id"],
            ["audits.id"],
            ondelete="CASCADE",
            name=op.f("fk_audit_claims_audit_id_audits"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_claims")),
        sa.UniqueConstraint("audit_id", "idx", name=op.f("uq_audit_claims_audit_id_idx")),
    )
    op.create_index(
        op.f("ix_audit_claims_hallucination_type_audit_id"),
        "audit_claims",
        ["hallucination_type", "audit_id"],
    )
    op.create_index(
        op.f("ix_audit_claims_rule_id_audit_id"), "audit_claims", ["rule_id", "audit_id"]
    )
    op.create_index(
        op.f("ix_audit_claims_verdict_audit_id"), "audit_claims", ["verdict", "audit_id"]
    )
    op.create_table(
        "trail_events",
        sa.Column("seq", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("audit_id", sa.Uuid(), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("record_hash", sa.String(length=64), nullable=False),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_trail_events_audit_id_audits")
        ),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_trail_events")),
        sa.UniqueConstraint("audit_id", name=op.f("uq_trail_events_audit_id")),
        sa.UniqueConstraint("hash", name=op.f("uq_trail_events_hash")),
    )


def downgrade() -> None:
    op.drop_table("trail_events")
    op.drop_index(op.f("ix_audit_claims_verdict_audit_id"), table_name="audit_claims")
    op.drop_index(op.f("ix_audit_claims_rule_id_audit_id"), table_name="audit_claims")
    op.drop_index(op.f("ix_audit_claims_hallucination_type_audit_id"), table_name="audit_claims")
    op.drop_table("audit_claims")
    op.drop_index(op.f("ix_audits_tenant_id_seq"), table_name="audits")
    op.drop_index(op.f("ix_audits_tenant_id_created_at"), table_name="audits")
    op.drop_index(op.f("ix_audits_domain"), table_name="audits")
    op.drop_table("audits")
    op.drop_index(op.f("ix_api_keys_tenant_id"), table_name="api_keys")
    op.drop_table("api_keys")
    op.drop_table("trail_head")
    op.drop_table("trail_checkpoints")
    op.drop_table("tenants")
