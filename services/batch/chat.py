"""Records from a conversation in the OpenAI chat format.

Every assistant turn with text is one record; the nearest preceding user turn is kept as
``metadata["context"]`` (stored in the trail, shown in reports) but is not audited — the
auditor judges what the assistant said, not the question. The record id is
``<conversation id>/<message index>``, so a conversation that grows later keeps the ids of
its earlier turns and a rerun audits only the new ones.

>>> recs = chat_records({"id": "c1", "domain": "medical", "messages": [
...     {"role": "user", "content": "Max dose of ibuprofen?"},
...     {"role": "assistant", "content": "Up to 1,200 mg a day over the counter."}]}, "x:1")
>>> [(r.id, r.metadata["context"]) for r in recs]
[('c1/1', 'Max dose of ibuprofen?')]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.batch.records import (
    BatchRecord,
    bad_record,
    checked_fields,
    content_id,
    make_record,
    raw_row,
)

ROLES = ("system", "developer", "user", "assistant", "tool", "function")
# Keys of a conversation that configure the audit; any other key is kept as metadata.
AUDIT_KEYS = ("id", "domain", "as_of", "citations", "metadata")


def message_text(content: Any) -> str | None:
    """The text of a message: a string, or the text parts of a list of content parts."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            p.get("text")
            for p in content
            if isinstance(p, Mapping) and p.get("type") in ("text", "output_text")
        ]
        if all(isinstance(p, str) for p in parts):
            return "\n".join(parts)
    raise ValueError("content is neither a string nor a list of text parts")


def chat_records(obj: Mapping[str, Any], location: str) -> list[BatchRecord]:
    """One record per assistant turn of the conversation ``obj`` (or one bad record)."""
    return _records(obj, location, build=True)


def chat_count(obj: Mapping[str, Any]) -> int:
    """How many records :func:`chat_records` makes of ``obj``; the turns are not built (nor
    checked), only the conversation's settings, which decide whether it makes one bad record."""
    return len(_records(obj, "", build=False))


def _records(obj: Mapping[str, Any], location: str, *, build: bool) -> list[BatchRecord]:
    raw = raw_row(obj)
    messages = obj.get("messages")
    settings = {k: obj.get(k) for k in AUDIT_KEYS if k != "id"}
    problem = None if isinstance(messages, list) else "'messages' must be a list"
    day = None
    if problem is None:  # the conversation's settings, checked (as_of parsed) once for all turns
        problem, day = checked_fields({**settings, "text": "-", "id": obj.get("id")})
    if problem is not None:
        return [bad_record(location, problem, raw, obj.get("id"))]
    conv_id = str(obj["id"]).strip() if obj.get("id") is not None else content_id(messages)
    extra = {k: v for k, v in obj.items() if k not in AUDIT_KEYS and k != "messages"}
    out: list[BatchRecord] = []
    context: str | None = None
    for i, msg in enumerate(messages):
        where = f"{location} message {i}"
        rid = f"{conv_id}/{i}"
        if not isinstance(msg, Mapping) or msg.get("role") not in ROLES:
            role = msg.get("role") if isinstance(msg, Mapping) else None
            out.append(
                bad_record(
                    where,
                    f"message {i} has no valid role (got {role!r}; "
                    f"expected one of {', '.join(ROLES)})",
                    raw,
                    rid,
                )
            )
            continue
        try:
            text = message_text(msg.get("content"))
        except ValueError as exc:
            out.append(bad_record(where, f"message {i}: {exc}", raw, rid))
            continue
        if msg["role"] == "user":
            context = text
        elif msg["role"] == "assistant" and text and text.strip():
            if not build:
                out.append(BatchRecord(id=rid, location=where))
                continue
            meta = {"conversation_id": conv_id, "turn": i, "context": context, **extra}
            out.append(
                make_record(
                    {**settings, "id": rid, "text": text}, where, extra_metadata=meta, day=day
                )
            )
    if not out:
        return [
            bad_record(
                location, "the conversation has no assistant turn with text", raw, obj.get("id")
            )
        ]
    return out


__all__ = ["AUDIT_KEYS", "ROLES", "chat_count", "chat_records", "message_text"]
