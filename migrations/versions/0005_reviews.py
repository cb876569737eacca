"""Reviewers' decisions: the ``reviews`` table, chained as ``review.recorded`` events.

A review event carries the id of the audit it reviews, so ``trail_events.audit_id`` is no
longer unique (an audit has one ``audit.recorded`` event and any number of review events):
the unique constraint becomes a plain index. Existing events and their hashes are unchanged.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04 22:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("audit_id", sa.Uuid(), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reviewer", sa.String(length=256), nullable=False),
        sa.Column("item", sa.String(length=64), nullable=False),
        sa.Column("decision", sa.String(length=16), nullable=False),
        sa.Column("verdict", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_reviews_audit_id_audits")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reviews")),
        sa.UniqueConstraint("seq", name=op.f("uq_reviews_seq")),
    )
    op.create_index(op.f("ix_reviews_audit_id"), "reviews", ["audit_id"], unique=False)
    with op.batch_alter_table("trail_events") as batch:
        batch.drop_constraint(op.f("uq_trail_events_audit_id"), type_="unique")
        batch.create_index(op.f("ix_trail_events_audit_id"), ["audit_id"], unique=False)


def downgrade() -> None:
    n = op.get_bind().execute(
        sa.text("SELECT COUNT(*) FROM trail_events WHERE kind = :kind"), {"kind": "review.recorded"}
    )
    if n.scalar_one():
        raise RuntimeError(
            "the trail holds review events: downgrading below 0005 would break the chain; "
            "restore a backup taken before the upgrade instead"
        )
    op.drop_index(op.f("ix_reviews_audit_id"), table_name="reviews")
    op.drop_table("reviews")
    with op.batch_alter_table("trail_events") as batch:
        batch.drop_index(op.f("ix_trail_events_audit_id"))
        batch.create_unique_constraint(op.f("uq_trail_events_audit_id"), ["audit_id"])
