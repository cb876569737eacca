"""``Trail``: append audits to the hash chain and read them back, tenant by tenant."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import Connection, Engine, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import OperationalError, ProgrammingError
from sqlalchemy.orm import Session

from auditor import telemetry
from auditor.errors import DataError, UsageError
from trail import db, queries, tree
from trail.append import EVENT_KIND, Appended, CheckedRequest, Pending, append, prepare
from trail.auto_checkpoint import AutoCheckpointer
from trail.checkpoints import CheckpointLog, CheckpointPolicy
from trail.group_commit import GroupCommitter
from trail.metadata import MetadataLimits
from trail.models import HEAD_ROW_ID, Audit, Tenant, TrailEvent, TrailHead, table
from trail.records import (
    RecordedAudit,
    check_strings,
    check_tenant,
    full_dict,
    parse_audit_id,
)
from trail.tree_heads import TreeSigner
from trail.verify import VerifyReport, verify_chain

_H = table(TrailHead)
_SELECT_HEAD = select(_H.c.seq, _H.c.hash).where(_H.c.id == HEAD_ROW_ID).with_for_update()


def _now() -> datetime:
    return datetime.now(UTC)


class Trail:
    """The tamper-evident audit trail in an SQL database (SQLite file or PostgreSQL).

    Thread-safe: share one ``Trail`` per process; every call opens its own session.
    ``durable=False`` trades power-failure durability of the last appends for speed (see
    :func:`trail.db.create_trail_engine`); settings: ``trail_durable_commits``.
    """

    def __init__(
        self,
        db_url: str,
        *,
        durable: bool = True,
        engine: Engine | None = None,
        checkpoints: CheckpointPolicy | None = None,
        group_window_s: float = 0.0,
        group_max_batch: int = 64,
    ) -> None:
        self.db_url = db_url
        self.engine = engine or db.create_trail_engine(db_url, durable=durable)
        self.checkpoint_policy: CheckpointPolicy | None = None
        self.checkpoint_log: CheckpointLog | None = None
        self._auto: AutoCheckpointer | None = None
        if checkpoints is not None:
            self.use_checkpoints(checkpoints)
        self._write_engine = self.engine.execution_options(**{db.WRITE_OPTION: True})
        self.known_tenants: set[str] = set()  # tenants known to exist (skip their INSERT)
        # SQLite: writers (threads and processes) queue here rather than in SQLite's busy
        # handler, whose sleeps (up to 100 ms) would add latency (db.WriterLock)
        self._writer_lock = db.sqlite_writer_lock(self.engine)
        # the Merkle frontier after this process's last committed append, keyed by the head
        # (seq, hash) it belongs to: used only while the head is still that one
        self._tree_frontier: tuple[int, str | None, tree.Frontier] | None = None
        # group commit of appends from this process's threads (max_batch 1: off)
        self.committer: GroupCommitter | None = (
            GroupCommitter(self, window_s=group_window_s, max_batch=group_max_batch)
            if group_max_batch > 1
            else None
        )
        self.tree_signer: TreeSigner | None = None
        self.tree_head_log: CheckpointLog | None = None
        self.witness_url: str | None = None
        self._metadata_limits: MetadataLimits | None = None

    @property
    def metadata_limits(self) -> MetadataLimits:
        """What ``record`` accepts as metadata: the settings' limits (``from_settings`` and
        the API set them), else the settings' defaults."""
        return self._metadata_limits or MetadataLimits.defaults()

    @metadata_limits.setter
    def metadata_limits(self, limits: MetadataLimits) -> None:
        self._metadata_limits = limits

    @classmethod
    def from_settings(cls, settings: Any, db_url: str | None = None) -> Trail:
        """The trail of ``settings`` (or ``db_url``): checkpoint policy (if a key is set),
        group commit, tree signing key, tree-head log and witness."""
        trail = cls(
            db_url or settings.db_url,
            durable=settings.trail_durable_commits,
            checkpoints=CheckpointPolicy.from_settings(settings),
            group_window_s=settings.trail_group_commit_window_ms / 1000,
            group_max_batch=settings.trail_group_commit_max_batch,
        )
        trail.use_tree_signer(TreeSigner.from_settings(settings), settings)
        trail.metadata_limits = MetadataLimits.from_settings(settings)
        return trail

    def use_tree_signer(self, signer: TreeSigner | None, settings: Any = None) -> None:
        """Sign tree heads with ``signer``; log them to the settings' tree-head log and send
        them to its witness URL."""
        self.tree_signer = signer
        if settings is not None:
            url = self.engine.url.render_as_string(hide_password=True)
            self.tree_head_log = CheckpointLog(
                settings.tree_head_log_path, CheckpointLog.label_for(url)
            )
            self.witness_url = settings.tree_head_witness_url

    def use_checkpoints(self, policy: CheckpointPolicy | None) -> None:
        """Sign checkpoints automatically under ``policy`` and log them to ``policy.log``."""
        self.checkpoint_policy = policy
        self.checkpoint_log = None
        self._auto = AutoCheckpointer(self, policy) if policy is not None else None
        if policy is not None and policy.log is not None:
            url = self.engine.url.render_as_string(hide_password=True)
            self.checkpoint_log = CheckpointLog(policy.log, CheckpointLog.label_for(url))

    def __repr__(self) -> str:
        return f"Trail({self.engine.url.render_as_string(hide_password=True)!r})"

    # -- schema ---------------------------------------------------------------------------

    def migrate(self) -> None:
        """``alembic upgrade head`` on this database (idempotent)."""
        db.upgrade(self.engine)

    def schema_is_current(self) -> bool:
        return db.current_revision(self.engine) == db.head_revision()

    def ping(self) -> None:
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def session(self, *, write: bool = False, snapshot: bool = False) -> Iterator[Session]:
        """A session in one transaction. ``write``: serialised with every append;
        ``snapshot``: every statement sees the same state (PostgreSQL REPEATABLE READ; an
        SQLite read transaction is a snapshot anyway)."""
        bind = self._write_engine if write else self.engine
        if snapshot and bind.dialect.name == "postgresql":
            bind = bind.execution_options(isolation_level="REPEATABLE READ")
        with Session(bind, expire_on_commit=False) as s, s.begin():
            yield s

    # -- append ---------------------------------------------------------------------------

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
        checked: CheckedRequest | None = None,
    ) -> RecordedAudit:
        """Append one audit (``AuditResult`` or its ``to_dict()``) to the chain.

        Idempotent on ``(tenant, external_id)``: a second call with the same ``external_id``
        returns the stored record with ``created=False`` and appends nothing. ``checked``:
        the request as the caller checked it before the audit (``trail.append.check_request``;
        stored as it is, ``metadata`` and ``request`` omitted).
        """
        pending = prepare(
            result,
            text=text,
            tenant=tenant,
            requester=requester,
            external_id=external_id,
            metadata=metadata,
            source=source,
            request=request,
            metadata_limits=self.metadata_limits,
            checked=checked,
        )
        return self._append(pending)[0]

    def record_and_get(
        self, result: Any, *, text: str, tenant: str = "default", **kwargs: Any
    ) -> tuple[RecordedAudit, dict[str, Any]]:
        """:meth:`record`, plus the stored audit as :meth:`get` returns it (built from what
        was just written instead of read back; read back for an idempotent replay)."""
        kwargs.setdefault("metadata_limits", self.metadata_limits)
        rec, full = self._append(prepare(result, text=text, tenant=tenant, **kwargs))
        if full is None:
            full = self.get(rec.id, tenant=tenant)
        if full is None:  # pragma: no cover - committed just before
            raise DataError(f"audit {rec.id} vanished right after it was recorded")
        return rec, full

    def _append(self, pending: Pending) -> Appended:
        with telemetry.span("kgaudit.trail.append", **{telemetry.SPAN_KIND: "CHAIN"}) as sp:
            rec, full = append(self, pending)
            telemetry.set_attributes(
                sp, {"kgaudit.trail.seq": rec.seq, "kgaudit.trail.created": rec.created}
            )
            return rec, full

    def tree_frontier(self, head_seq: int, head_hash: str | None) -> tree.Frontier | None:
        """The tree frontier this process remembers for the chain head ``(head_seq,
        head_hash)``, or None (another process appended since, or none is known)."""
        known = self._tree_frontier
        if known is None or known[0] != head_seq or known[1] != head_hash:
            return None
        return known[2]

    def remember_tree_frontier(self, seq: int, head_hash: str, frontier: tree.Frontier) -> None:
        """After a committed append: the frontier of the tree whose head is now ``seq``."""
        self._tree_frontier = (seq, head_hash, frontier)

    @contextmanager
    def locked_head(self) -> Iterator[tuple[Connection, int, str | None]]:
        """A write transaction holding the chain head (serialises every append)."""
        try:
            with (
                self._writer_lock.hold() if self._writer_lock else nullcontext(),
                self._write_engine.begin() as conn,
            ):
                head = conn.execute(_SELECT_HEAD).first()
                if head is None:
                    raise DataError(
                        "the audit trail's head row is missing; run "
                        "'kgaudit trail verify' and restore from a backup"
                    )
                yield conn, head.seq, head.hash
        except (OperationalError, ProgrammingError) as exc:
            if not db.has_schema(self.engine):
                raise UsageError(
                    "the audit-trail database has no schema yet; run "
                    "'alembic upgrade head' or Trail.migrate()"
                ) from exc
            raise

    def insert_tenant(
        self, conn: Connection | Session, tenant: str, name: str | None = None
    ) -> None:
        """``INSERT`` the tenant unless it exists (inside the caller's transaction)."""
        dialect = conn.get_bind().dialect.name if isinstance(conn, Session) else conn.dialect.name
        ins = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(Tenant)
        conn.execute(
            ins.values(id=tenant, name=name, created_at=_now()).on_conflict_do_nothing(
                index_elements=[Tenant.id]
            )
        )

    def ensure_tenant(self, tenant: str, *, name: str | None = None) -> None:
        """Create ``tenant`` if it does not exist yet."""
        check_tenant(tenant)
        check_strings(name=name)
        with self.session() as s:
            self.insert_tenant(s, tenant, name)

    # -- read -----------------------------------------------------------------------------

    def get(self, audit_id: str | uuid.UUID, *, tenant: str) -> dict[str, Any] | None:
        """The stored audit (request, text, full result JSON, chain hashes), or None.

        Another tenant's audit is None, exactly like a missing one.
        """
        aid = parse_audit_id(audit_id)
        if aid is None:
            return None
        with self.session() as s:
            found = s.execute(
                select(Audit, TrailEvent)
                .join(TrailEvent, TrailEvent.seq == Audit.seq, isouter=True)
                .where(Audit.id == aid, Audit.tenant_id == tenant)
            ).first()
            return full_dict(*found) if found else None

    def find_by_external_id(self, external_id: str, *, tenant: str) -> dict[str, Any] | None:
        check_strings(external_id=external_id, tenant=tenant)
        with self.session() as s:
            found = s.execute(
                select(Audit, TrailEvent)
                .join(TrailEvent, TrailEvent.seq == Audit.seq, isouter=True)
                .where(Audit.tenant_id == tenant, Audit.external_id == external_id)
            ).first()
            return full_dict(*found) if found else None

    def claims(
        self,
        audit_id: str | uuid.UUID,
        *,
        tenant: str,
        verdict: str | None = None,
        hallucination_type: str | None = None,
        rule_id: str | None = None,
    ) -> list[dict[str, Any]] | None:
        """The audit's claims (full detail from the result, plus ``idx``); None if no audit."""
        audit = self.get(audit_id, tenant=tenant)
        if audit is None:
            return None
        out = []
        for i, c in enumerate(audit["result"].get("claims", [])):
            if verdict is not None and c.get("verdict") != verdict:
                continue
            if hallucination_type is not None and c.get("hallucination_type") != hallucination_type:
                continue
            if rule_id is not None and c.get("rule_id") != rule_id:
                continue
            out.append({"idx": i, **c})
        return out

    def list_audits(
        self,
        *,
        tenant: str,
        domain: str | None = None,
        start: datetime | date | str | None = None,
        end: datetime | date | str | None = None,
        fer_min: float | None = None,
        fer_max: float | None = None,
        verdict: str | None = None,
        hallucination_type: str | None = None,
        rule_id: str | None = None,
        cursor: str | None = None,
        limit: int = 50,
        include_result: bool = False,
    ) -> tuple[list[dict[str, Any]], str | None]:
        """Audit summaries, newest first, and the cursor of the next page (None at the end).

        ``start`` is inclusive, ``end`` exclusive; a plain date as ``end`` includes that day.
        ``verdict``/``hallucination_type``/``rule_id`` keep audits with at least one such claim.
        """
        return queries.list_audits(
            self,
            tenant=tenant,
            domain=domain,
            start=start,
            end=end,
            fer_min=fer_min,
            fer_max=fer_max,
            verdict=verdict,
            hallucination_type=hallucination_type,
            rule_id=rule_id,
            cursor=cursor,
            limit=limit,
            include_result=include_result,
        )

    def iter_audits(
        self,
        *,
        tenant: str | None = None,
        start: datetime | date | str | None = None,
        end: datetime | date | str | None = None,
        domain: str | None = None,
        by: str = "recorded",
    ) -> Iterator[dict[str, Any]]:
        """Every matching audit as a full dict (as :meth:`get`), oldest first, streamed;
        ``by="answered"`` takes the period by the day the text was said (``answered_at``)."""
        return queries.iter_audits(self, tenant=tenant, start=start, end=end, domain=domain, by=by)

    def count(self, *, tenant: str | None = None) -> int:
        return queries.count(self, tenant=tenant)

    # -- integrity ------------------------------------------------------------------------

    def verify(
        self, *, key: bytes | None = None, full: bool | None = None, progress: Any = None
    ) -> VerifyReport:
        """Check the chain; given ``key``, also every stored and logged checkpoint.

        ``full`` (default: True without a key, False with one) recomputes every record; else
        only the records after the newest valid signed checkpoint (see ``verify_chain``).
        """
        full = key is None if full is None else full
        return verify_chain(self, key=key, full=full, progress=progress)

    def maybe_checkpoint(self, *, wait: bool = False) -> None:
        """Sign a checkpoint if the policy says one is due (in a background thread; ``wait``
        for it). Called after every append; servers also call it on a timer."""
        if self._auto is not None:
            self._auto.maybe(wait=wait)

    def wait_for_checkpoint(self, timeout: float | None = None) -> None:
        """Wait for a running automatic checkpoint (before a short-lived process exits)."""
        if self._auto is not None:
            self._auto.wait(timeout)

    def checkpoint(self, key: bytes, *, verify_first: bool = True) -> dict[str, Any]:
        """Sign the current chain head (HMAC-SHA256), store it, append it to the checkpoint
        log, and return it."""
        from trail.checkpoints import create_checkpoint

        return create_checkpoint(self, key, verify_first=verify_first)

    def sign_tree_head(self) -> dict[str, Any]:
        """Sign the Merkle root of every event now (Ed25519), store, log and witness it."""
        from trail.tree_heads import sign_tree_head

        if self.tree_signer is None:
            raise UsageError(
                "no tree signing key: run 'kgaudit trail tree-keygen' or set KGAUDIT_TREE_KEY"
            )
        return sign_tree_head(self, self.tree_signer)

    def checkpoints(self) -> list[dict[str, Any]]:
        from trail.checkpoints import list_checkpoints

        return list_checkpoints(self)

    def verify_checkpoint(self, cp: Mapping[str, Any], key: bytes) -> bool:
        """True when ``cp`` is signed by ``key`` and the chain still holds its head hash."""
        from trail.checkpoints import check_checkpoint

        return check_checkpoint(self, cp, key) is None

    # -- re-audit -------------------------------------------------------------------------

    def reaudit(
        self,
        audit_id: str,
        *,
        tenant: str,
        audit_fn: Any = None,
        record: bool = False,
        requester: str | None = None,
    ) -> dict[str, Any]:
        """Re-run a stored audit against the current graph; the original stays untouched.

        Returns the claim-level diff (``changed``/``added``/``removed``/``unchanged``), the
        new ``result``, and with ``record=True`` the new record (``source="reaudit"``,
        metadata ``{"reaudit_of": audit_id}``).
        """
        from trail.diff import reaudit

        return reaudit(
            self, audit_id, tenant=tenant, audit_fn=audit_fn, record=record, requester=requester
        )

    def diff(self, audit_a: str, audit_b: str, *, tenant: str) -> dict[str, Any]:
        """Claim-level differences between two stored audits of ``tenant``."""
        from trail.diff import diff_audits

        return diff_audits(self, audit_a, audit_b, tenant=tenant)


__all__ = ["EVENT_KIND", "RecordedAudit", "Trail"]
