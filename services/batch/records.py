"""One unit of batch work — a text to audit with its id, domain, date, citations and context.

Readers (:mod:`services.batch.sources`) turn every input row into a :class:`BatchRecord`. A row
that cannot be audited still becomes a record, with ``error`` saying why, so the run can log
it and go on. Record ids come from the input (``id``) or, failing that, from a content hash,
so a rerun over the same input finds the same ids.

>>> r = flat_record({"id": 7, "text": "Metformin treats type 2 diabetes.", "domain": "medical"},
...                 "in.jsonl:1")
>>> (r.id, r.domain, r.error)
('7', 'medical', None)
>>> flat_record({"text": "x", "domain": "cardio"}, "in.jsonl:2").error
"unknown domain 'cardio'; expected one of finance, medical, legal, auto"
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import orjson

from knowledge_graphs.model import DOMAINS

MAX_ID_CHARS = 256
DOMAIN_CHOICES = (*DOMAINS, "auto")
FIELDS = ("id", "text", "domain", "as_of", "citations", "metadata")


@dataclass(frozen=True, slots=True)
class BatchRecord:
    """A text to audit; ``error`` is set (and ``text`` may be None) when it cannot be audited."""

    id: str
    location: str  # where it came from: "chats.jsonl:12", "answers.csv:7", "sql:row 3"
    text: str | None = None
    domain: str | None = None
    as_of: str | None = None
    citations: list[str] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    # Set by the reader's check (:func:`make_record`): ``as_of`` as a date, parsed there and
    # handed to the auditor as it is; ``checked``: the text and ``metadata`` passed the
    # trail's checks under the settings' limits, so the worker does not check them again.
    # A record built any other way (checked False) is checked by the worker, as before.
    day: date | None = None
    checked: bool = False


def raw_row(values: Mapping[str, Any]) -> bytes:
    """The row as bytes for a content id (orjson refuses nesting past 254 levels)."""
    try:
        return orjson.dumps(dict(values), default=str)
    except TypeError:  # orjson.JSONEncodeError: too deep for orjson; repr is bounded by input
        return repr(sorted(values.items(), key=lambda kv: str(kv[0]))).encode("utf-8", "replace")


def content_id(*parts: Any) -> str:
    """A stable id for a record that has none: ``sha256:`` + 24 hex digits of its content."""
    try:
        blob = orjson.dumps(
            parts, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str
        )
    except TypeError:  # nested past orjson's 254 levels: such a record is refused anyway
        blob = repr(parts).encode("utf-8", "replace")
    return "sha256:" + hashlib.sha256(blob).hexdigest()[:24]


def bad_record(location: str, error: str, raw: bytes | str, record_id: Any = None) -> BatchRecord:
    """A record that cannot be audited; its id is the input's id or a hash of the raw row."""
    rid = _id_or_none(record_id)
    if rid is None:
        rid = content_id(raw if isinstance(raw, str) else raw.hex())
    return BatchRecord(id=rid, location=location, error=error)


def _id_or_none(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | str) and str(value).strip():
        return str(value).strip()
    return None


def check_fields(values: Mapping[str, Any]) -> str | None:
    """The first problem with a record's fields (one sentence), or None."""
    return checked_fields(values)[0]


_UNPARSED: Any = object()  # as_of not parsed yet (make_record's ``day``)


def checked_fields(
    values: Mapping[str, Any], *, metadata: bool = True, day: date | None = _UNPARSED
) -> tuple[str | None, date | None]:
    """:func:`check_fields`, and ``as_of`` as the date it parsed. ``metadata`` False: the
    caller checks the record's metadata itself; ``day``: ``as_of`` parsed already (a
    conversation's, for each of its turns), not parsed again."""
    text = values.get("text")
    if text is None or (isinstance(text, str) and not text.strip()):
        return "the record has no text to audit", None
    if not isinstance(text, str):
        return f"'text' must be a string, not {type(text).__name__}", None
    if "\x00" in text:
        return "the text contains a NUL character", None
    domain = values.get("domain")
    if domain is not None and domain not in DOMAIN_CHOICES:
        return f"unknown domain {domain!r}; expected one of {', '.join(DOMAIN_CHOICES)}", None
    as_of = values.get("as_of")
    if as_of is None:
        day = None
    elif day is _UNPARSED:
        if not isinstance(as_of, str):
            return f"'as_of' must be a date string YYYY-MM-DD, not {type(as_of).__name__}", None
        try:
            day = date.fromisoformat(as_of)  # the one parse: the auditor gets this date
        except ValueError:
            return f"'as_of' {as_of!r} is not a date YYYY-MM-DD", None
    cites = values.get("citations")
    if cites is not None and (
        not isinstance(cites, list) or not all(isinstance(c, str) for c in cites)
    ):
        return "'citations' must be a list of strings", None
    meta = values.get("metadata")
    if meta is not None and not isinstance(meta, dict):
        return "'metadata' must be an object", None
    if meta is not None and metadata:
        problem = metadata_problem(meta)
        if problem is not None:
            return problem, None
    rid = values.get("id")
    if rid is not None and _id_or_none(rid) is None:
        return "'id' must be a non-empty string or an integer", None
    if rid is not None and len(str(rid).strip()) > MAX_ID_CHARS:
        return f"'id' is longer than {MAX_ID_CHARS} characters", None
    return None, day


def metadata_problem(meta: Mapping[str, Any]) -> str | None:
    """Why the trail would refuse ``meta`` (too deep, too large, ...), as one sentence; the
    limits are the settings' (``max_metadata_bytes``, ``_depth``, ``_keys``)."""
    from auditor.errors import UsageError
    from auditor.settings import get_settings
    from trail.metadata import MetadataLimits

    try:
        MetadataLimits.from_settings(get_settings()).check(meta)
    except UsageError as exc:
        return f"'metadata' cannot be stored: {exc}"
    return None


def text_problem(text: str) -> str | None:
    """Why the trail would refuse the (string, NUL-free) ``text``, as one sentence: the
    trail's own check (:func:`trail.records.check_text`), made here once for the worker."""
    from auditor.errors import UsageError
    from trail.records import check_text

    try:
        check_text(text)
    except UsageError as exc:
        return f"cannot be recorded in the audit trail: {exc}"
    return None


def make_record(
    values: Mapping[str, Any],
    location: str,
    *,
    id_parts: tuple[Any, ...] = (),
    extra_metadata: Mapping[str, Any] | None = None,
    day: date | None = _UNPARSED,
) -> BatchRecord:
    """A checked record from field values (``id`` defaults to a hash of the content).

    Every check the trail makes of the text and metadata is made here, once, under the
    settings' limits (the record is ``checked``), and ``as_of`` is parsed here, once
    (``day``: given, e.g. a conversation's, it is not parsed again). With ``extra_metadata``
    the metadata is checked once, merged."""
    problem, day = checked_fields(values, metadata=not extra_metadata, day=day)
    if problem is not None:
        return bad_record(location, problem, raw_row(values), values.get("id"))
    meta = {**(values.get("metadata") or {}), **(extra_metadata or {})}
    problem = metadata_problem(meta) if extra_metadata else None
    if problem is not None:
        return bad_record(location, problem, raw_row(values), values.get("id"))
    rid = _id_or_none(values.get("id")) or content_id(
        values["text"],
        values.get("domain"),
        values.get("as_of"),
        values.get("citations"),
        meta.get("context"),
        *id_parts,
    )
    problem = text_problem(values["text"])
    if problem is not None:  # refused before the audit, with the id and words of before
        return BatchRecord(id=rid, location=location, error=problem)
    return BatchRecord(
        id=rid,
        location=location,
        text=values["text"],
        domain=values.get("domain"),
        as_of=values.get("as_of"),
        citations=values.get("citations"),
        metadata=meta,
        day=day,
        checked=True,
    )


def flat_record(obj: Mapping[str, Any], location: str) -> BatchRecord:
    """A flat record ``{id, text, domain, as_of, citations, metadata}``; other keys are errors."""
    unknown = sorted(set(obj) - set(FIELDS))
    if unknown:
        return bad_record(
            location,
            f"unknown field {unknown[0]!r}; a record has "
            f"{', '.join(FIELDS)} (put anything else under 'metadata')",
            raw_row(obj),
            obj.get("id"),
        )
    return make_record(obj, location)


__all__ = [
    "FIELDS",
    "MAX_ID_CHARS",
    "BatchRecord",
    "bad_record",
    "check_fields",
    "checked_fields",
    "content_id",
    "flat_record",
    "make_record",
    "metadata_problem",
    "raw_row",
    "text_problem",
]
