"""Helpers shared by the domain builders: fact ids, the accumulator, package sources."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from importlib import metadata
from typing import Any

from knowledge_graphs.errors import DataError
from knowledge_graphs.model import Entity, Fact, Source


def package_source(dist: str, document: str, url: str | None = None) -> Source:
    """A source naming an installed package (and its version) the data was imported from.

    The pinned fields come from the installed distribution's metadata: ``document_id`` is
    the distribution name, ``version`` its version, ``licence`` its declared licence.
    """
    try:
        meta = metadata.metadata(dist)
        version = meta["Version"]
        licence = _licence(meta)
    except metadata.PackageNotFoundError:  # pragma: no cover - a dependency is missing
        version, licence = "unknown", None
    return Source(
        f"{document} ({dist} {version})",
        None,
        url or f"https://pypi.org/project/{dist}/",
        document_id=f"pypi:{dist}",
        version=version,
        licence=licence,
    )


def _licence(meta: Any) -> str | None:
    """The licence a distribution declares: License-Expression, License, or its classifier."""
    for key in ("License-Expression", "License"):
        value = (meta.get(key) or "").strip()
        if value and len(value) < 80 and "\n" not in value:
            return value
    classifiers = [
        c.removeprefix("License :: ").removeprefix("OSI Approved :: ")
        for c in meta.get_all("Classifier") or []
        if c.startswith("License ::")
    ]
    return "; ".join(classifiers) or None


def fact_id(domain: str, subject: str, predicate: str, *parts: Any) -> str:
    """A stable content-derived id, e.g. ``medical:maxDose:3f2a...``."""
    raw = "\x1f".join([domain, subject, predicate, *(repr(p) for p in parts)])
    return f"{domain}:{predicate}:{hashlib.sha256(raw.encode()).hexdigest()[:16]}"


@dataclass
class GraphBuilder:
    """Collects entities and facts for one domain, rejecting dangling references."""

    domain: str
    entities: dict[str, Entity] = field(default_factory=dict)
    facts: dict[str, Fact] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def entity(
        self,
        id: str,
        type: str,
        label: str,
        aliases: Iterable[str] = (),
        attrs: Mapping[str, Any] | None = None,
        source: Source | None = None,
    ) -> Entity:
        """Add (or extend the aliases/attrs of) an entity and return it."""
        clean = tuple(
            dict.fromkeys(a.strip() for a in aliases if a and a.strip() and a.strip() != label)
        )
        old = self.entities.get(id)
        if old is not None:
            merged = tuple(dict.fromkeys((*old.aliases, *clean)))
            ent = Entity(
                id,
                self.domain,
                old.type,
                old.label,
                merged,
                {**old.attrs, **(attrs or {})},
                old.source or source,
            )
        else:
            ent = Entity(id, self.domain, type, label, clean, dict(attrs or {}), source)
        self.entities[id] = ent
        return ent

    def fact(
        self,
        subject: str,
        predicate: str,
        source: Source,
        *,
        object: str | None = None,
        value: float | None = None,
        value_max: float | None = None,
        unit: str | None = None,
        literal: str | None = None,
        date: date | None = None,
        qualifiers: Mapping[str, Any] | None = None,
        valid_from: date | None = None,
        valid_to: date | None = None,
    ) -> Fact:
        q = {k: str(v) for k, v in (qualifiers or {}).items() if v is not None and v != ""}
        fid = fact_id(
            self.domain,
            subject,
            predicate,
            object,
            value,
            value_max,
            unit,
            literal,
            date,
            sorted(q.items()),
            valid_from,
            valid_to,
        )
        f = Fact(
            fid,
            self.domain,
            subject,
            predicate,
            source,
            object,
            value,
            value_max,
            unit,
            literal,
            date,
            q,
            valid_from,
            valid_to,
        )
        self.facts[fid] = f
        return f

    def check_references(self) -> None:
        """Every fact's subject and object must be an entity of this domain."""
        for f in self.facts.values():
            for ref in (f.subject, f.object):
                if ref is not None and ref not in self.entities:
                    raise DataError(
                        f"fact {f.id} ({f.predicate}) refers to unknown entity {ref!r}",
                        location=f"{self.domain} graph",
                    )
            if f.valid_from and f.valid_to and f.valid_from > f.valid_to:
                raise DataError(f"fact {f.id}: valid_from is after valid_to", location=self.domain)
