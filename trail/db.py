"""Engine creation and migrations for the audit trail.

SQLite (the embedded default) gets WAL journaling, foreign keys, a busy timeout, and write
transactions that start with ``BEGIN IMMEDIATE`` so concurrent appenders queue instead of
failing on lock upgrades. PostgreSQL appends lock the ``trail_head`` row (``FOR UPDATE``).
"""

from __future__ import annotations

import json
import os
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from auditor.errors import UsageError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

WRITE_OPTION = "kgaudit_write"
SQLITE_BUSY_TIMEOUT_S = 60.0
_SYNCHRONOUS = {"FULL": "PRAGMA synchronous=FULL", "NORMAL": "PRAGMA synchronous=NORMAL"}


def create_trail_engine(db_url: str, *, durable: bool = True, **kwargs: Any) -> Engine:
    """An engine for ``db_url``; SQLite files get their folder created and the pragmas set.

    ``durable=False`` stops waiting for the disk on commit (SQLite ``synchronous=NORMAL`` in
    WAL mode, PostgreSQL ``synchronous_commit=off``): appends get faster, and a power failure
    (not a process crash) may lose the last few; the chain itself is never corrupted.
    """
    try:
        url = make_url(db_url)
    except ArgumentError as exc:
        raise UsageError(f"database URL {_safe(db_url)!r} is not a valid SQLAlchemy URL") from exc
    connect_args: dict[str, Any] = {}
    if url.get_backend_name() == "sqlite":
        if url.database in (None, "", ":memory:"):
            raise UsageError("the audit trail needs an SQLite file, not an in-memory database")
        Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        connect_args = {"timeout": SQLITE_BUSY_TIMEOUT_S, "check_same_thread": False}
    elif url.get_backend_name() == "postgresql" and not durable:
        connect_args = {"options": "-c synchronous_commit=off"}
    try:
        engine = create_engine(
            url, connect_args=connect_args, pool_pre_ping=True, json_serializer=json_dumps, **kwargs
        )
    except (NoSuchModuleError, ModuleNotFoundError) as exc:
        raise UsageError(f"no database driver for {url.drivername!r}: {exc}") from exc
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine, "FULL" if durable else "NORMAL")
    return engine


def json_dumps(value: Any) -> str:
    """JSON column serialiser: orjson (fast), stdlib json for what orjson refuses (big ints).

    Reads use the stdlib parser: orjson turns integers beyond 64 bits into floats.
    """
    try:
        return orjson.dumps(value).decode("utf-8")
    except TypeError:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _configure_sqlite(engine: Engine, synchronous: str) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we emit BEGIN ourselves (below)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(_SYNCHRONOUS[synchronous])
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get(WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


class WriterLock:
    """Serialises the writers of one SQLite file: threads of this process on a lock, and
    processes on an ``flock`` of ``<database>.writer.lock``.

    SQLite's own busy handler makes a writer that finds the database locked sleep (1, 2, 5,
    ... up to 100 ms between tries), so with several server processes appends wait long after
    the lock was freed and throughput falls as clients grow; a blocked ``flock`` wakes as
    soon as the holder lets go. The ``BEGIN IMMEDIATE`` inside still guards against writers
    that do not take this lock (other tools, older versions). The file is opened once per
    process (a forked child opens its own: ``flock`` locks are shared by inherited file
    descriptors); where ``fcntl`` is missing (Windows) only threads are serialised.
    """

    def __init__(self, database: str) -> None:
        self.path = Path(database).expanduser().with_name(Path(database).name + ".writer.lock")
        self._thread_lock = threading.Lock()
        self._fd: int | None = None
        self._pid = -1

    def _file(self) -> int | None:
        if fcntl is None:
            return None
        if self._pid != os.getpid():  # first use, or a forked child
            if self._fd is not None:  # the parent's (its lock stays the parent's)
                os.close(self._fd)
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError:  # a read-only folder: SQLite's own locking still applies
                self._fd = None
            self._pid = os.getpid()
        return self._fd

    @contextmanager
    def hold(self) -> Iterator[None]:
        with self._thread_lock:
            fd = self._file()
            if fd is None:
                yield
                return
            fcntl.flock(fd, fcntl.LOCK_EX)  # releases the GIL while it waits
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)


def sqlite_writer_lock(engine: Engine) -> WriterLock | None:
    """The :class:`WriterLock` of an SQLite file engine; None for other databases."""
    if engine.dialect.name != "sqlite" or not engine.url.database:
        return None
    return WriterLock(engine.url.database)


def migrations_dir() -> Path:
    """The Alembic script directory (the top-level ``migrations`` package)."""
    import migrations

    return Path(migrations.__file__).resolve().parent


def alembic_config(db_url: str | None = None, connection: Connection | None = None) -> Any:
    """A programmatic Alembic ``Config`` (no ``alembic.ini`` needed) for ``db_url``."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    if db_url is not None:
        cfg.attributes["db_url"] = db_url
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


# tables seen present, per engine; forgotten by upgrade() / downgrade() of this process
_PRESENT: weakref.WeakKeyDictionary[Engine, set[str]] = weakref.WeakKeyDictionary()


def has_table(conn: Connection, name: str) -> bool:
    """Whether table ``name`` exists; a table once seen is remembered for the engine until
    this process migrates (a migration run by another process needs a restart)."""
    seen = _PRESENT.setdefault(conn.engine, set())
    if name in seen:
        return True
    if inspect(conn).has_table(name):
        seen.add(name)
        return True
    return False


def upgrade(engine: Engine, revision: str = "head") -> None:
    from alembic import command

    _PRESENT.clear()
    with engine.begin() as conn:
        command.upgrade(alembic_config(connection=conn), revision)


def downgrade(engine: Engine, revision: str = "base") -> None:
    from alembic import command

    _PRESENT.clear()
    with engine.begin() as conn:
        command.downgrade(alembic_config(connection=conn), revision)


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def has_schema(engine: Engine) -> bool:
    return inspect(engine).has_table("trail_events")


def _safe(db_url: str) -> str:
    head, sep, tail = db_url.rpartition("@")
    return f"{head.split(':', 1)[0]}://***@{tail}" if sep else db_url


__all__ = [
    "WRITE_OPTION",
    "WriterLock",
    "alembic_config",
    "create_trail_engine",
    "current_revision",
    "downgrade",
    "head_revision",
    "migrations_dir",
    "sqlite_writer_lock",
    "upgrade",
]
