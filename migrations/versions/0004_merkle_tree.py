"""RFC 9162 Merkle tree over the trail events, and signed tree heads.

``trail_tree_nodes`` holds one row per perfect aligned subtree of the tree whose leaf ``i``
is the hash of event ``seq = i + 1``; ``trail_tree_heads`` the Ed25519-signed heads. The
tree of an existing trail is built here from its events, in sequence order, in pages (the
chain itself is neither read for verification nor changed).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from trail import merkle

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_PAGE = 5000


def upgrade() -> None:
    nodes = op.create_table(
        "trail_tree_nodes",
        sa.Column("pos", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("level", sa.SmallInteger(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("pos", name=op.f("pk_trail_tree_nodes")),
    )
    op.create_table(
        "trail_tree_heads",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tree_size", sa.BigInteger(), nullable=False),
        sa.Column("root_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("alg", sa.String(length=32), nullable=False),
        sa.Column("key_id", sa.String(length=32), nullable=False),
        sa.Column("signature", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trail_tree_heads")),
    )
    op.create_index(
        op.f("ix_trail_tree_heads_tree_size"), "trail_tree_heads", ["tree_size"], unique=False
    )
    _build_tree(op.get_bind(), nodes)


def _build_tree(conn: sa.Connection, nodes: sa.Table) -> None:
    events = sa.table("trail_events", sa.column("seq", sa.BigInteger), sa.column("hash"))
    frontier: list[tuple[merkle.Node, bytes]] = []
    size = 0
    while True:
        page = conn.execute(
            sa.select(events.c.seq, events.c.hash)
            .where(events.c.seq > size)
            .order_by(events.c.seq)
            .limit(_PAGE)
        ).all()
        if not page:
            return
        for offset, row in enumerate(page, size + 1):
            if row.seq != offset:  # the tree needs every event; verify reports the gap
                raise RuntimeError(
                    f"trail_events has no seq {offset} (found {row.seq}): run "
                    "'kgaudit trail verify' on the previous version and repair the chain first"
                )
        leaves = [merkle.leaf_hash(bytes.fromhex(r.hash)) for r in page]
        new = merkle.append_leaves(frontier, size, leaves)
        conn.execute(
            nodes.insert(),
            [{"pos": merkle.node_pos(*n), "level": n[0], "hash": h.hex()} for n, h in new],
        )
        size += len(page)


def downgrade() -> None:
    op.drop_index(op.f("ix_trail_tree_heads_tree_size"), table_name="trail_tree_heads")
    op.drop_table("trail_tree_heads")
    op.drop_table("trail_tree_nodes")
