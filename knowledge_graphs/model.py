"""Typed records of the knowledge graphs: sources, entities and reified facts.

Every fact is a first-class record with its own provenance (:class:`Source`) and validity
interval, so a verdict can cite the exact fact, the document it came from and the period in
which it held. Values come in one of four shapes: an entity (``object``), a number with a
unit (``value``/``value_max``/``unit``), a string (``literal``) or a date (``date``).

>>> s = Source(document="FDA label", section="2.1", url="https://example.org")
>>> f = Fact(id="f1", domain="medical", subject="drug:x", predicate="maxDose",
...          value=10.0, unit="mg", source=s)
>>> f.valid_at(date(2020, 1, 1))
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

_Date = date  # Fact has a field named ``date``: its other annotations name the type this way

DOMAINS: tuple[str, ...] = ("finance", "medical", "legal")


@dataclass(frozen=True, slots=True)
class Source:
    """Where a fact comes from: a document, the section within it, and a URL to check it.

    The pinned provenance says exactly what was read: ``document_id`` (e.g. a DailyMed set id,
    a CELEX number, a package name), ``version`` (the label version or effective date, the
    package version), ``retrieved`` (ISO date the text was read) and ``licence``.
    """

    document: str
    section: str | None = None
    url: str | None = None
    document_id: str | None = None
    version: str | None = None
    retrieved: str | None = None
    licence: str | None = None

    def key(self) -> tuple[str | None, ...]:
        """All fields, in order: the row a cache or a graph stores."""
        return (
            self.document,
            self.section,
            self.url,
            self.document_id,
            self.version,
            self.retrieved,
            self.licence,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"document": self.document, "section": self.section, "url": self.url}
        for k in ("document_id", "version", "retrieved", "licence"):
            v = getattr(self, k)
            if v is not None:
                out[k] = v
        return out


@dataclass(frozen=True, slots=True)
class Entity:
    """A named thing the auditor can link text to (a drug, a case, a currency, ...)."""

    id: str
    domain: str
    type: str
    label: str
    aliases: tuple[str, ...] = ()
    attrs: Mapping[str, Any] = field(default_factory=dict)
    source: Source | None = None

    def names(self) -> tuple[str, ...]:
        return (self.label, *self.aliases)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "domain": self.domain,
            "type": self.type,
            "label": self.label,
            "aliases": list(self.aliases),
            "attrs": dict(self.attrs),
            "source": self.source.to_dict() if self.source else None,
        }


@dataclass(frozen=True, slots=True)
class Fact:
    """One reified statement ``subject predicate value`` with provenance and validity."""

    id: str
    domain: str
    subject: str
    predicate: str
    source: Source
    object: str | None = None
    value: float | None = None
    value_max: float | None = None
    unit: str | None = None
    literal: str | None = None
    date: _Date | None = None
    qualifiers: Mapping[str, str] = field(default_factory=dict)
    valid_from: _Date | None = None
    valid_to: _Date | None = None

    def valid_at(self, when: _Date) -> bool:
        """True when the fact held on ``when`` (``valid_to`` is exclusive)."""
        if self.valid_from is not None and when < self.valid_from:
            return False
        return not (self.valid_to is not None and when >= self.valid_to)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "subject": self.subject,
            "predicate": self.predicate,
        }
        for key in ("object", "value", "value_max", "unit", "literal"):
            v = getattr(self, key)
            if v is not None:
                out[key] = v
        if self.date is not None:
            out["date"] = self.date.isoformat()
        if self.qualifiers:
            out["qualifiers"] = dict(sorted(self.qualifiers.items()))
        out["valid_from"] = self.valid_from.isoformat() if self.valid_from else None
        out["valid_to"] = self.valid_to.isoformat() if self.valid_to else None
        out["source"] = self.source.to_dict()
        return out
