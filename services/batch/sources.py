"""Batch inputs: JSONL (chat or flat records), CSV with a column mapping, and SQL queries.

Every source is an iterable of :class:`~services.batch.records.BatchRecord` with a ``count()``
(for the progress bar) and a ``name``. A malformed row becomes a record with ``error`` set;
only problems with the input as a whole (missing or empty file, unknown column, unreachable
database) raise :class:`~auditor.errors.UsageError`.

Column mapping (CSV and SQL): ``{"text": "answer", "id": "ticket"}`` maps record fields to
columns; unmapped fields use the column of the same name if there is one. Columns that are
not mapped to a field are kept as metadata. ``citations`` cells hold a JSON list or
``;``-separated citations.
"""

from __future__ import annotations

import codecs
import csv
from collections.abc import Iterator, Mapping, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

import orjson

from auditor.errors import UsageError
from auditor.input_file import check_input_file
from services.batch.chat import chat_count, chat_records
from services.batch.records import BatchRecord, bad_record, flat_record, make_record

MAPPABLE = ("id", "text", "domain", "as_of", "citations", "context")
FORMATS = ("jsonl", "csv")


def parse_mapping(pairs: Sequence[str]) -> dict[str, str]:
    """``["text=answer", "id=ticket"]`` -> ``{"text": "answer", "id": "ticket"}``."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, col = pair.partition("=")
        key, col = key.strip(), col.strip()
        if not sep or not key or not col:
            raise UsageError(f"--map {pair!r} is not FIELD=COLUMN")
        if key not in MAPPABLE:
            raise UsageError(
                f"--map names the unknown field {key!r}; fields are {', '.join(MAPPABLE)}"
            )
        out[key] = col
    return out


class _Source:
    name: str

    def __iter__(self) -> Iterator[BatchRecord]:  # pragma: no cover - abstract
        raise NotImplementedError

    def count(self) -> int | None:
        """How many records the source yields (None when it cannot tell cheaply)."""
        return sum(1 for _ in self)


def _check_file(path: Path) -> None:
    check_input_file(path, hint="give a JSONL or CSV file")
    with path.open("rb") as f:
        if not f.read(65536).strip():
            raise UsageError(f"input file {path} is empty: there is nothing to audit")


class JsonlSource(_Source):
    """One JSON object per line: a conversation (``messages``) or a flat record."""

    def __init__(self, path: Path, *, encoding: str = "utf-8") -> None:
        self.path, self.encoding, self.name = path, encoding, path.name
        codecs.lookup(encoding)
        _check_file(path)

    def __iter__(self) -> Iterator[BatchRecord]:
        for obj, loc in self._objects():
            if isinstance(obj, BatchRecord):
                yield obj
            elif "messages" in obj:
                yield from chat_records(obj, loc)
            else:
                yield flat_record(obj, loc)

    def count(self) -> int:
        """How many records the file yields, without checking them (the reading does that,
        once): one per line, or per turn of a conversation (:func:`chat_count`)."""
        return sum(
            1 if isinstance(obj, BatchRecord) or "messages" not in obj else chat_count(obj)
            for obj, _ in self._objects()
        )

    def _objects(self) -> Iterator[tuple[BatchRecord | dict[str, Any], str]]:
        """Each non-blank line's JSON object, or the bad record it makes, and its location."""
        with self.path.open("rb") as f:
            for lineno, raw in enumerate(f, 1):
                if lineno == 1 and raw.startswith(codecs.BOM_UTF8):
                    raw = raw[len(codecs.BOM_UTF8) :]
                if raw.strip():
                    loc = f"{self.name}:{lineno}"
                    yield self._line(raw, loc, lineno), loc

    def _line(self, raw: bytes, loc: str, lineno: int) -> BatchRecord | dict[str, Any]:
        raw = raw.rstrip(b"\r\n")
        try:
            text = raw.decode(self.encoding)
        except UnicodeDecodeError as exc:
            return bad_record(
                loc,
                f"line {lineno} is not valid {self.encoding} (byte "
                f"{exc.start}); re-encode the file or pass --encoding",
                raw,
            )
        try:
            obj = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            return bad_record(
                loc, f"line {lineno} is not valid JSON ({exc.msg}); the line may be truncated", raw
            )
        if not isinstance(obj, dict):
            return bad_record(loc, f"line {lineno} is not a JSON object", raw)
        return obj


def _cell(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return value


def _citations(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    value = value.strip()
    if not value:
        return None
    if value.startswith("["):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value  # reported by the record check as "not a list of strings"
    return [c.strip() for c in value.split(";") if c.strip()]


class _Columns:
    """Resolve a field -> column mapping against the columns a table really has."""

    def __init__(self, columns: Sequence[str], mapping: Mapping[str, str], where: str) -> None:
        for key, col in mapping.items():
            if col not in columns:
                raise UsageError(
                    f"--map {key}={col}: {where} has no column {col!r} "
                    f"(columns: {', '.join(columns)})"
                )
        self.fields = {k: mapping.get(k, k) for k in MAPPABLE if mapping.get(k, k) in columns}
        if "text" not in self.fields:
            raise UsageError(
                f"{where} has no 'text' column; name the column to audit with "
                f"--map text=COLUMN (columns: {', '.join(columns)})"
            )
        used = set(self.fields.values())
        self.rest = [c for c in columns if c not in used]

    def record(self, row: Mapping[str, Any], location: str) -> BatchRecord:
        values: dict[str, Any] = {}
        for key, col in self.fields.items():
            v = _cell(row.get(col))
            values[key] = None if isinstance(v, str) and not v.strip() and key != "text" else v
        values["citations"] = _citations(values.get("citations"))
        meta = {c: _cell(row.get(c)) for c in self.rest if row.get(c) not in (None, "")}
        context = values.pop("context", None)
        if context is not None:
            meta["context"] = str(context)
        if isinstance(values.get("id"), str):
            values["id"] = values["id"].strip() or None
        return make_record({**values, "metadata": meta or None}, location)


def _has_surrogates(row: Sequence[str]) -> bool:
    return any("\udc80" <= ch <= "\udcff" for cell in row for ch in cell)


class CsvSource(_Source):
    """A CSV file with a header row (``--map FIELD=COLUMN`` picks the columns)."""

    def __init__(
        self, path: Path, *, mapping: Mapping[str, str] | None = None, encoding: str = "utf-8"
    ) -> None:
        self.path, self.encoding, self.name = path, encoding, path.name
        codecs.lookup(encoding)
        _check_file(path)
        header = next(self._rows(), None)
        if header is None or _has_surrogates(header[1]):
            raise UsageError(f"the header row of {path} is not valid {encoding}; pass --encoding")
        self.columns = _Columns(header[1], dict(mapping or {}), path.name)
        self.header = header[1]

    def count(self) -> int:
        """One record per non-blank row after the header, counted without checking it."""
        return max(0, sum(1 for _ in self._rows()) - 1)

    def _rows(self) -> Iterator[tuple[int, list[str]]]:
        enc = "utf-8-sig" if self.encoding.lower().replace("_", "-") == "utf-8" else self.encoding
        with self.path.open(encoding=enc, errors="surrogateescape", newline="") as f:
            reader = csv.reader(f)
            for row in reader:
                if any(cell.strip() for cell in row):
                    yield reader.line_num, row

    def __iter__(self) -> Iterator[BatchRecord]:
        rows = self._rows()
        next(rows, None)
        n = len(self.header)
        for line, row in rows:
            loc = f"{self.name}:{line}"
            if _has_surrogates(row):
                raw = "\x1f".join(row).encode("utf-8", "surrogateescape")
                yield bad_record(
                    loc,
                    f"row at line {line} is not valid {self.encoding}; "
                    "re-encode the file or pass --encoding",
                    raw,
                )
            elif len(row) != n:
                yield bad_record(
                    loc,
                    f"row at line {line} has {len(row)} cells; the header has {n}",
                    "\x1f".join(row),
                )
            else:
                yield self.columns.record(dict(zip(self.header, row, strict=True)), loc)


class SqlSource(_Source):
    """Rows of an SQL query (any SQLAlchemy URL), mapped to records like CSV columns."""

    def __init__(self, url: str, query: str, *, mapping: Mapping[str, str] | None = None) -> None:
        from sqlalchemy import create_engine
        from sqlalchemy.exc import ArgumentError, NoSuchModuleError

        self.query, self.name = query.strip().rstrip(";"), "sql"
        self.mapping = dict(mapping or {})
        try:
            self.engine = create_engine(url)
        except (ArgumentError, NoSuchModuleError, ModuleNotFoundError) as exc:
            raise UsageError(f"--from-sql: cannot use the database URL ({exc})") from exc
        self.columns = _Columns(self._keys(), self.mapping, "the --query result")

    def _execute(self, sql: str) -> Any:
        from sqlalchemy import text
        from sqlalchemy.exc import SQLAlchemyError

        conn = None
        try:
            conn = self.engine.connect()
            return conn, conn.execution_options(stream_results=True).execute(text(sql))
        except SQLAlchemyError as exc:
            if conn is not None:
                conn.close()
            reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
            raise UsageError(f"--from-sql: {reason}") from exc

    def _keys(self) -> list[str]:
        conn, result = self._execute(self.query)
        with conn:
            return list(result.keys())

    def __iter__(self) -> Iterator[BatchRecord]:
        conn, result = self._execute(self.query)
        with conn:
            for i, row in enumerate(result, 1):
                yield self.columns.record(row._mapping, f"sql:row {i}")

    def count(self) -> int | None:
        conn, result = self._execute(f"SELECT count(*) FROM ({self.query}) AS kgaudit_q")
        with conn:
            return int(result.scalar_one())


def open_source(
    path: Path | None,
    *,
    fmt: str | None = None,
    mapping: Mapping[str, str] | None = None,
    encoding: str = "utf-8",
    sql_url: str | None = None,
    query: str | None = None,
) -> _Source:
    """The source named by the CLI options (a file, or ``--from-sql URL --query SQL``)."""
    if sql_url is not None:
        if path is not None:
            raise UsageError("give either an INPUT file or --from-sql, not both")
        if not query:
            raise UsageError("--from-sql needs --query 'SELECT ...'")
        return SqlSource(sql_url, query, mapping=mapping)
    if query is not None:
        raise UsageError("--query needs --from-sql URL")
    if path is None:
        raise UsageError("name an INPUT file (JSONL or CSV) or use --from-sql URL --query SQL")
    fmt = fmt or ("csv" if path.suffix.lower() in (".csv", ".tsv") else "jsonl")
    try:
        if fmt == "csv":
            return CsvSource(path, mapping=mapping, encoding=encoding)
        if mapping:
            raise UsageError("--map applies to CSV and SQL inputs; JSONL records name their fields")
        return JsonlSource(path, encoding=encoding)
    except LookupError as exc:
        raise UsageError(f"unknown --encoding {encoding!r}") from exc


__all__ = [
    "FORMATS",
    "MAPPABLE",
    "CsvSource",
    "JsonlSource",
    "SqlSource",
    "open_source",
    "parse_mapping",
]
