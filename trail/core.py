"""What the trail's parts read from the trail they serve: :class:`TrailCore`.

:class:`trail.store.Trail` composes the parts (appending, checkpoints, tree heads, reviews,
queries, verification, export); each part takes the trail it works on as a ``TrailCore``, so
the store imports the parts and no part imports the store. Members typed ``Any`` hold an
object of a part that imports this module (a checkpoint policy or log, the group committer,
the tree signer, a verification report): naming their classes here would close the loop.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine
    from sqlalchemy.orm import Session

    from trail.metadata import MetadataLimits
    from trail.records import RecordedAudit
    from trail.tree import Frontier


class TrailCore(Protocol):
    db_url: str
    engine: Engine
    known_tenants: set[str]
    metadata_limits: MetadataLimits
    checkpoint_policy: Any  # trail.checkpoints.CheckpointPolicy | None
    checkpoint_log: Any  # trail.checkpoints.CheckpointLog | None
    committer: Any  # trail.group_commit.GroupCommitter | None
    tree_signer: Any  # trail.tree_heads.TreeSigner | None
    tree_head_log: Any  # trail.checkpoints.CheckpointLog | None
    witness_url: str | None

    def session(
        self, *, write: bool = False, snapshot: bool = False
    ) -> AbstractContextManager[Session]: ...

    def record(
        self,
        result: Any,
        *,
        text: str,
        tenant: str = "default",
        requester: str | None = None,
        external_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        source: str = "api",
        request: Mapping[str, Any] | None = None,
    ) -> RecordedAudit: ...

    def get(self, audit_id: str | uuid.UUID, *, tenant: str) -> dict[str, Any] | None: ...

    def locked_head(self) -> AbstractContextManager[tuple[Connection, int, str | None]]: ...

    def insert_tenant(
        self, conn: Connection | Session, tenant: str, name: str | None = None
    ) -> None: ...

    def maybe_checkpoint(self, *, wait: bool = False) -> None: ...

    def checkpoint(self, key: bytes, *, verify_first: bool = True) -> dict[str, Any]: ...

    def checkpoints(self) -> list[dict[str, Any]]: ...

    def sign_tree_head(self) -> dict[str, Any]: ...

    def tree_frontier(self, head_seq: int, head_hash: str | None) -> Frontier | None: ...

    def remember_tree_frontier(self, seq: int, head_hash: str, frontier: Frontier) -> None: ...

    def verify(
        self, *, key: bytes | None = None, full: bool | None = None, progress: Any = None
    ) -> Any: ...  # trail.verify.VerifyReport
