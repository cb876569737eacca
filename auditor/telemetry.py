"""OpenTelemetry spans for the audit stages (the optional ``otel`` extra).

>>> from auditor.telemetry import span
>>> with span("kgaudit.extract", **{"kgaudit.domain": "medical"}) as sp:
...     sp.set_attribute("kgaudit.claims", 3)

Each audit is one ``kgaudit.audit`` span with a child span per stage (``kgaudit.extract``,
``kgaudit.verify``, ``kgaudit.score``; ``kgaudit.trail.append`` when it is recorded).
Attribute names follow OpenInference where it has one (``openinference.span.kind``,
``input.value``, ``output.value``, ``llm.model_name``, ``llm.input_messages``,
``llm.output_messages``); the rest are ``kgaudit.*`` (FER, claim counts, rule ids).

Nothing is exported unless the application installs an OpenTelemetry SDK tracer provider
with an exporter: kgaudit never configures one itself. :func:`span` is a no-op when
``opentelemetry`` is not importable or ``KGAUDIT_OTEL=off`` is set (read once, at import).
Texts are attributes (``input.value``, message contents) unless ``OPENINFERENCE_HIDE_INPUTS``
/ ``OPENINFERENCE_HIDE_OUTPUTS`` is ``true`` (the OpenInference masking switches).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

SPAN_KIND = "openinference.span.kind"
INPUT_VALUE = "input.value"
OUTPUT_VALUE = "output.value"
MODEL_NAME = "llm.model_name"
INPUT_MESSAGES = "llm.input_messages"
OUTPUT_MESSAGES = "llm.output_messages"


def _truthy(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


class _NoSpan:
    """Stands in for a span when telemetry is off: every call does nothing."""

    __slots__ = ()

    def set_attribute(self, key: str, value: Any) -> None:
        return None

    def set_attributes(self, attributes: Mapping[str, Any]) -> None:
        return None

    def is_recording(self) -> bool:
        return False

    def __enter__(self) -> _NoSpan:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


NO_SPAN = _NoSpan()
HIDE_INPUTS = _truthy("OPENINFERENCE_HIDE_INPUTS")
HIDE_OUTPUTS = _truthy("OPENINFERENCE_HIDE_OUTPUTS")


def _load_tracer() -> Any:
    if os.environ.get("KGAUDIT_OTEL", "").strip().lower() in {"0", "off", "false", "no"}:
        return None
    try:
        from opentelemetry import trace
    except ImportError:
        return None
    from auditor.version import AUDITOR_VERSION

    # a proxy: it follows whatever provider the application sets, before or after this
    return trace.get_tracer("kgaudit", AUDITOR_VERSION)


_TRACER = _load_tracer()
ENABLED = _TRACER is not None


def span(name: str, **attributes: Any) -> AbstractContextManager[Any]:
    """A span named ``name`` (child of the current one), or a no-op when telemetry is off.

    ``attributes`` with a ``None`` value are left out; pass dotted names with ``**{...}``.
    """
    if _TRACER is None:
        return NO_SPAN
    return _otel_span(name, attributes)


@contextmanager
def _otel_span(name: str, attributes: dict[str, Any]) -> Iterator[Any]:
    with _TRACER.start_as_current_span(name) as sp:
        if sp.is_recording():
            set_attributes(sp, attributes)
        yield sp


def set_attributes(sp: Any, attributes: Mapping[str, Any]) -> None:
    """Set the attributes that are not ``None`` (OpenTelemetry rejects ``None`` values)."""
    if not sp.is_recording():
        return
    sp.set_attributes({k: v for k, v in attributes.items() if v is not None})


def input_text(text: object) -> str | None:
    """``text`` for ``input.value``, or None when inputs are hidden (or it is no string)."""
    return text if isinstance(text, str) and not HIDE_INPUTS else None


def message_attributes(
    prefix: str, messages: Sequence[Mapping[str, Any]], *, hide: bool
) -> dict[str, Any]:
    """OpenInference's flattened message list: ``<prefix>.<i>.message.role`` / ``.content``."""
    out: dict[str, Any] = {}
    for i, m in enumerate(messages):
        out[f"{prefix}.{i}.message.role"] = str(m.get("role") or "")
        content = m.get("content")
        if isinstance(content, str) and not hide:
            out[f"{prefix}.{i}.message.content"] = content
    return out


def result_attributes(result: Any) -> dict[str, Any]:
    """``kgaudit.*`` attributes of an :class:`~auditor.types.AuditResult`."""
    counts = result.counts
    rule_ids = sorted({c.rule_id for c in result.claims if c.rule_id})
    failed = sorted({c.rule_id for c in result.claims if c.rule_id and c.verdict == "contradicted"})
    return {
        "kgaudit.fer": result.fer,
        "kgaudit.joint_score": result.joint_score,
        "kgaudit.claims": len(result.claims),
        "kgaudit.claims.supported": counts.get("supported", 0),
        "kgaudit.claims.contradicted": counts.get("contradicted", 0),
        "kgaudit.claims.unverifiable": counts.get("unverifiable", 0),
        "kgaudit.citations": len(result.citations),
        "kgaudit.rule_ids": rule_ids,
        "kgaudit.contradicted_rule_ids": failed,
        "kgaudit.kg_version": result.kg_version,
        "kgaudit.rules_version": result.rules_version,
    }


__all__ = [
    "ENABLED",
    "INPUT_MESSAGES",
    "INPUT_VALUE",
    "MODEL_NAME",
    "NO_SPAN",
    "OUTPUT_MESSAGES",
    "OUTPUT_VALUE",
    "SPAN_KIND",
    "input_text",
    "message_attributes",
    "result_attributes",
    "set_attributes",
    "span",
]
