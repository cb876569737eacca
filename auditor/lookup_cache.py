"""The cache of online citation lookups: a table of the trail's database that the online
check (:mod:`auditor.verify.legal.courtlistener`) reads and writes with SQLAlchemy Core.

It is defined here, below the trail, so that the check never imports the trail (whose
package loads the whole chain); :class:`trail.models.CitationLookup` maps a copy of it into
the trail's ``MetaData``, which the migrations compare against. :class:`UTCDateTime` and the
naming convention are the trail schema's own, shared from here.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import JSON, Column, DateTime, Integer, MetaData, String, Table
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every backend (SQLite stores it naive)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("UTCDateTime needs a timezone-aware datetime")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


CITATION_LOOKUPS = Table(
    "citation_lookups",
    MetaData(naming_convention=NAMING_CONVENTION),
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("cite", String(128), unique=True, nullable=False),
    Column("status", Integer, nullable=False),
    Column("response", JSON, nullable=False),
    Column("retrieved_at", UTCDateTime(), nullable=False),
)
