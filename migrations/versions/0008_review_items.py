"""The review queue's index: ``review_items``, one row per item that may need a person.

Derived from ``audits`` and ``reviews`` (``trail.reviews.item_rows`` and
``apply_decisions``): the queue filters, sorts by risk and pages in SQL instead of decoding
each audit's stored result. The table is covered by no hash (the hash format is unchanged);
existing trails get it filled here, in pages, then every decision applied in chain order.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 23:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from trail.models import UTCDateTime
from trail.reviews import apply_decisions, item_rows

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_PAGE = 2000


def upgrade() -> None:
    op.create_table(
        "review_items",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("audit_id", sa.Uuid(), nullable=False),
        sa.Column("audit_seq", sa.BigInteger(), nullable=False),
        sa.Column("tenant_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("domain", sa.String(32), nullable=False),
        sa.Column("risk", sa.Float(), nullable=True),
        sa.Column("item", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("verdict", sa.String(32), nullable=False),
        sa.Column("rule_id", sa.String(256), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.ForeignKeyConstraint(
            ["audit_id"],
            ["audits.id"],
            name=op.f("fk_review_items_audit_id_audits"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_review_items")),
        sa.UniqueConstraint("audit_id", "item", name=op.f("uq_review_items_audit_id_item")),
    )
    op.create_index(
        op.f("ix_review_items_tenant_id_status_risk_created_at"),
        "review_items",
        ["tenant_id", "status", "risk", "created_at"],
    )
    _backfill(op.get_bind())


def _backfill(bind: sa.Connection) -> None:
    audits = sa.table(
        "audits",
        sa.column("seq", sa.BigInteger()),
        sa.column("id", sa.Uuid()),
        sa.column("tenant_id", sa.String()),
        sa.column("created_at", UTCDateTime()),
        sa.column("domain", sa.String()),
        sa.column("result", sa.JSON()),
    )
    items = sa.table(
        "review_items",
        *(
            sa.column(n, t)
            for n, t in (
                ("audit_id", sa.Uuid()),
                ("audit_seq", sa.BigInteger()),
                ("tenant_id", sa.String()),
                ("created_at", UTCDateTime()),
                ("domain", sa.String()),
                ("risk", sa.Float()),
                ("item", sa.String()),
                ("kind", sa.String()),
                ("verdict", sa.String()),
                ("rule_id", sa.String()),
                ("status", sa.String()),
            )
        ),
    )
    last = -1
    while True:
        rows = bind.execute(
            sa.select(audits).where(audits.c.seq > last).order_by(audits.c.seq).limit(_PAGE)
        ).all()
        batch = []
        for r in rows:
            batch += item_rows(
                r.result,
                audit_id=r.id,
                audit_seq=r.seq,
                tenant=r.tenant_id,
                created_at=r.created_at,
                domain=r.domain,
            )
        if batch:
            bind.execute(items.insert(), batch)
        if len(rows) < _PAGE:
            break
        last = rows[-1].seq
    reviews = sa.table(
        "reviews",
        sa.column("seq", sa.BigInteger()),
        sa.column("audit_id", sa.Uuid()),
        sa.column("item", sa.String()),
        sa.column("decision", sa.String()),
    )
    decided = bind.execute(
        sa.select(reviews.c.audit_id, reviews.c.item, reviews.c.decision)
        .where(reviews.c.decision != "note")
        .order_by(reviews.c.seq)
    ).all()
    apply_decisions(bind, [r._asdict() for r in decided])


def downgrade() -> None:
    op.drop_index(
        op.f("ix_review_items_tenant_id_status_risk_created_at"), table_name="review_items"
    )
    op.drop_table("review_items")
