"""API keys can expire: ``api_keys.expires_at`` (NULL: never, as every key before).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04 22:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # never recreate the table (SQLite adds and drops a column in place since 3.35)
    with op.batch_alter_table("api_keys", recreate="never") as batch:
        batch.add_column(sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("api_keys", recreate="never") as batch:
        batch.drop_column("expires_at")
