"""Cached CourtListener citation lookups (optional online citation verification).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03 09:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "citation_lookups",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("cite", sa.String(length=128), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("response", sa.JSON(), nullable=False),
        sa.Column("retrieved_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_citation_lookups")),
        sa.UniqueConstraint("cite", name=op.f("uq_citation_lookups_cite")),
    )


def downgrade() -> None:
    op.drop_table("citation_lookups")
