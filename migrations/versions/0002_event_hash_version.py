"""Hash format version per chain event (RFC 8785 canonical JSON from version 2 on).

Every event written before this revision was hashed with format 1 (sorted-key ``json.dumps``);
the new column says so (server default 1), and the events appended afterwards carry 2. The
version is part of each event's hashed payload, so changing it breaks that event's hash:
records written before keep verifying exactly as they were written.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-03 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("trail_events") as batch:
        batch.add_column(
            sa.Column("hash_version", sa.SmallInteger(), server_default="1", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("trail_events") as batch:
        batch.drop_column("hash_version")
