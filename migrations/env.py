"""Alembic environment of the audit-trail schema.

The database URL comes, in order, from a connection handed over by the caller
(``config.attributes["connection"]``, used by ``Trail.migrate()``), an explicit URL
(``config.attributes["db_url"]``), ``-x db_url=...`` on the alembic command line, or
``auditor.settings.get_settings().db_url`` (``KGAUDIT_DATABASE_URL`` / ``KGAUDIT_HOME``).
SQLite runs in batch mode so that ALTERs work there too.
"""

from __future__ import annotations

from logging.config import fileConfig
from typing import Any, Literal

from alembic import context
from sqlalchemy.engine import Connection

from trail.db import create_trail_engine
from trail.models import Base, UTCDateTime

config = context.config
target_metadata = Base.metadata

if config.config_file_name is not None and "connection" not in config.attributes:
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _db_url() -> str:
    url = config.attributes.get("db_url") or context.get_x_argument(as_dictionary=True).get(
        "db_url"
    )
    if url:
        return str(url)
    from auditor.settings import get_settings

    return get_settings().db_url


def _render_item(type_: str, obj: Any, autogen_context: Any) -> str | Literal[False]:
    """Render ``UTCDateTime`` as its plain SQL type so revisions never import model code."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        render_item=_render_item,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(
        url=_db_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_trail_engine(_db_url())
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
