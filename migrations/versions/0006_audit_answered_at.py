"""When the audited text was said: ``audits.answered_at``, for reports by that day.

The value is ``metadata["answered_at"]`` (``trail.metadata.answered_at``), so it is
covered by the record hash through the metadata digest; the column only serves queries
(``kgaudit report --by answered``). Audits already stored get it from their metadata, in
pages; a stored value that does not parse (written before the check existed) stays NULL.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04 22:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from auditor.errors import UsageError
from trail.metadata import answered_at
from trail.models import UTCDateTime

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_PAGE = 5000


def upgrade() -> None:
    with op.batch_alter_table("audits", recreate="never") as batch:
        batch.add_column(sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index(op.f("ix_audits_tenant_id_answered_at"), "audits", ["tenant_id", "answered_at"])
    audits = sa.table(
        "audits",
        sa.column("seq", sa.BigInteger()),
        sa.column("metadata", sa.JSON()),
        sa.column("answered_at", UTCDateTime()),
    )
    bind = op.get_bind()
    last = -1
    while True:
        rows = bind.execute(
            sa.select(audits.c.seq, audits.c.metadata)
            .where(audits.c.seq > last)
            .order_by(audits.c.seq)
            .limit(_PAGE)
        ).all()
        for seq, meta in rows:
            try:
                when = answered_at(meta)
            except UsageError:
                when = None
            if when is not None:
                bind.execute(sa.update(audits).where(audits.c.seq == seq).values(answered_at=when))
        if len(rows) < _PAGE:
            return
        last = rows[-1][0]


def downgrade() -> None:
    # never recreate the table: on SQLite that drops ``audits``, which the claims and
    # events reference (SQLite >= 3.35 drops a column in place)
    op.drop_index(op.f("ix_audits_tenant_id_answered_at"), table_name="audits")
    with op.batch_alter_table("audits", recreate="never") as batch:
        batch.drop_column("answered_at")
