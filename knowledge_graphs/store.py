"""The in-memory knowledge base: entities, facts and the indexes the auditor queries.

>>> from knowledge_graphs.model import Entity, Fact, Source
>>> s = Source("doc")
>>> kb = KnowledgeBase([Entity("drug:x", "medical", "Drug", "X")],
...                    [Fact("f1", "medical", "drug:x", "maxDose", s, value=1.0, unit="mg")],
...                    {"medical": "abc"})
>>> [f.id for f in kb.facts_about("drug:x", "maxDose")]
['f1']
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

from knowledge_graphs.model import DOMAINS, Entity, Fact, Source


class KnowledgeBase:
    """Entities and facts of one or more domains, indexed by subject and object."""

    def __init__(
        self,
        entities: Iterable[Entity],
        facts: Iterable[Fact],
        versions: Mapping[str, str],
        extra_versions: Mapping[str, str] | None = None,
    ) -> None:
        self.entities: dict[str, Entity] = {e.id: e for e in entities}
        self.facts: list[Fact] = list(facts)
        self.versions = dict(versions)
        self.extra_versions = dict(extra_versions or {})
        self._by_subject: dict[str, list[Fact]] = defaultdict(list)
        self._by_object: dict[str, list[Fact]] = defaultdict(list)
        self._by_predicate: dict[str, list[Fact]] = defaultdict(list)
        self._by_type: dict[str, list[Entity]] | None = None  # built on first use
        for f in self.facts:
            self._by_subject[f.subject].append(f)
            self._by_predicate[f.predicate].append(f)
            if f.object is not None:
                self._by_object[f.object].append(f)

    # -- identity ------------------------------------------------------------------------

    @property
    def domains(self) -> list[str]:
        return sorted(self.versions)

    @property
    def kg_version(self) -> str:
        """Content hash of every loaded graph (built-in and user-configured)."""
        h = hashlib.sha256()
        for k, v in sorted({**self.versions, **self.extra_versions}.items()):
            h.update(f"{k}={v};".encode())
        return "kg-" + h.hexdigest()[:16]

    # -- lookups -------------------------------------------------------------------------

    def entity(self, entity_id: str) -> Entity | None:
        return self.entities.get(entity_id)

    def facts_about(self, subject: str, predicate: str | None = None) -> list[Fact]:
        facts = self._by_subject.get(subject, [])
        return [f for f in facts if predicate is None or f.predicate == predicate]

    def facts_with(self, predicate: str) -> list[Fact]:
        """Every fact of one relation."""
        return self._by_predicate.get(predicate, [])

    def facts_pointing_to(self, obj: str, predicate: str | None = None) -> list[Fact]:
        facts = self._by_object.get(obj, [])
        return [f for f in facts if predicate is None or f.predicate == predicate]

    def facts_between(self, a: str, b: str, predicate: str) -> list[Fact]:
        """Facts linking ``a`` and ``b`` in either direction (symmetric relations)."""
        return [f for f in self.facts_about(a, predicate) if f.object == b] + [
            f for f in self.facts_about(b, predicate) if f.object == a
        ]

    def entities_of_type(self, type_: str) -> list[Entity]:
        if self._by_type is None:
            by: dict[str, list[Entity]] = defaultdict(list)
            for e in self.entities.values():
                by[e.type].append(e)
            self._by_type = dict(by)
        return list(self._by_type.get(type_, ()))

    def search(self, query: str, *, domain: str | None = None, limit: int = 20) -> list[Entity]:
        """Entities whose label or an alias contains ``query`` (case-insensitive), best first."""
        q = query.strip().lower()
        if not q:
            return []
        scored: list[tuple[int, str, Entity]] = []
        for e in self.entities.values():
            if domain and e.domain != domain:
                continue
            best = None
            for n in e.names():
                n_low = n.lower()
                if n_low == q:
                    best = 0
                    break
                if n_low.startswith(q):
                    best = 1 if best is None else min(best, 1)
                elif q in n_low:
                    best = 2 if best is None else min(best, 2)
            if best is not None:
                scored.append((best, e.label.lower(), e))
        scored.sort(key=lambda t: (t[0], len(t[1]), t[1]))
        return [e for _, _, e in scored[:limit]]

    # -- views and statistics ------------------------------------------------------------

    def restrict(self, domains: Iterable[str]) -> KnowledgeBase:
        keep = set(domains)
        return KnowledgeBase(
            (e for e in self.entities.values() if e.domain in keep),
            (f for f in self.facts if f.domain in keep),
            {d: v for d, v in self.versions.items() if d in keep},
            {k: v for k, v in self.extra_versions.items() if k.split(":", 1)[0] in keep},
        )

    def stats(self) -> dict[str, dict[str, object]]:
        """Per domain: facts, entities, sources, and counts per fact family and entity type."""
        out: dict[str, dict[str, object]] = {}
        for d in [d for d in DOMAINS if d in self.versions] + [
            d for d in self.versions if d not in DOMAINS
        ]:
            facts = [f for f in self.facts if f.domain == d]
            ents = [e for e in self.entities.values() if e.domain == d]
            sources = {f.source for f in facts}
            out[d] = {
                "kg_version": self.versions[d],
                "facts": len(facts),
                "entities": len(ents),
                "sources": len(sources),
                "provenance": provenance_summary(sources),
                "facts_without_source": sum(1 for f in facts if not f.source.document),
                "facts_per_family": dict(sorted(Counter(f.predicate for f in facts).items())),
                "entities_per_type": dict(sorted(Counter(e.type for e in ents).items())),
                "subjects_per_family": {
                    p: len({f.subject for f in facts if f.predicate == p})
                    for p in sorted({f.predicate for f in facts})
                },
            }
        return out


def provenance_summary(sources: Iterable[Source]) -> dict[str, object]:
    """How many sources are pinned (a version was recorded) and the oldest one read.

    The oldest is the pinned source with the earliest ``retrieved`` date (ties: the earliest
    version string), i.e. the document whose recorded content is the most likely to be stale.

    >>> a = Source("A", version="3", retrieved="2026-01-05")
    >>> b = Source("B", version="7", retrieved="2025-11-30")
    >>> provenance_summary([a, b, Source("C")])["oldest"]["document"]
    'B'
    """
    docs: dict[tuple[str, str | None], Source] = {}
    for s in sources:
        docs.setdefault((s.document, s.version), s)
    pinned = [s for s in docs.values() if s.version]
    dated = sorted(
        (s for s in pinned if s.retrieved), key=lambda s: (s.retrieved or "", s.version or "")
    )
    oldest = dated[0] if dated else None
    return {
        "documents": len(docs),
        "pinned": len(pinned),
        "unpinned": len(docs) - len(pinned),
        "with_licence": sum(1 for s in docs.values() if s.licence),
        "oldest": None
        if oldest is None
        else {
            "document": oldest.document,
            "document_id": oldest.document_id,
            "version": oldest.version,
            "retrieved": oldest.retrieved,
        },
    }
