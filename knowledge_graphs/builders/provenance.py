"""Per-domain source registries: what exactly was read, when, and under which licence.

``curated/<domain>/sources.yaml`` lists the documents behind a domain's curated facts. Each
entry is matched to the sources written inline in the fact files, by the exact document title
(``document``), the exact URL (``match_url``) or a URL prefix (``url_prefix``, for a whole
publisher), and adds the pinned provenance to every matching source: ``document_id`` (e.g. a
DailyMed set id), ``version`` (label version / effective date), ``retrieved`` (the day it was
read), ``licence``, and a ``url`` that replaces the inline one (a set-id link instead of a
search link). Format in ``curated/FORMAT.md``; an entry that matches nothing is an error, so
a typo in a title cannot silently leave facts unpinned.

>>> reg = Registry([RegistryEntryIn(url_prefix="https://x.org/", licence="CC0")])
>>> reg.pin(Source("Doc", None, "https://x.org/a")).licence
'CC0'
"""

from __future__ import annotations

import dataclasses
from datetime import date

from pydantic import Field, model_validator

from knowledge_graphs.builders.common import GraphBuilder
from knowledge_graphs.builders.curated import Strict, load_entries
from knowledge_graphs.errors import DataError
from knowledge_graphs.model import Source


class RegistryEntryIn(Strict):
    document: str | None = Field(default=None, min_length=3)
    match_url: str | None = Field(default=None, pattern=r"^https?://")
    url_prefix: str | None = Field(default=None, pattern=r"^https?://")
    url: str | None = Field(default=None, pattern=r"^https?://")
    document_id: str | None = None
    version: str | None = None
    retrieved: date | None = None
    licence: str = Field(min_length=3)
    note: str | None = None

    @model_validator(mode="after")
    def _check(self) -> RegistryEntryIn:
        keys = [k for k in (self.document, self.match_url, self.url_prefix) if k]
        if len(keys) != 1:
            raise ValueError("give exactly one of 'document', 'match_url' or 'url_prefix'")
        if self.version and not self.retrieved:
            raise ValueError("a pinned 'version' needs the 'retrieved' date")
        if self.url_prefix and (self.document_id or self.version or self.url):
            raise ValueError("a 'url_prefix' entry only sets 'licence' (and 'retrieved')")
        return self


class Registry:
    """Looks up the registry entry for a source and returns the pinned source."""

    def __init__(self, entries: list[RegistryEntryIn]) -> None:
        self.by_doc = {e.document: e for e in entries if e.document}
        self.by_url = {e.match_url: e for e in entries if e.match_url}
        self.prefixes = sorted(
            (e for e in entries if e.url_prefix), key=lambda e: -len(e.url_prefix or "")
        )
        self.used: set[int] = set()

    def entry(self, s: Source) -> RegistryEntryIn | None:
        hit = self.by_doc.get(s.document) or (self.by_url.get(s.url) if s.url else None)
        if hit is None and s.url:
            hit = next((e for e in self.prefixes if s.url.startswith(e.url_prefix or "")), None)
        if hit is not None:
            self.used.add(id(hit))
        return hit

    def pin(self, s: Source) -> Source:
        e = self.entry(s)
        if e is None:
            return s
        return dataclasses.replace(
            s,
            url=e.url or s.url,
            document_id=s.document_id or e.document_id,
            version=s.version or e.version,
            retrieved=s.retrieved or (e.retrieved.isoformat() if e.retrieved else None),
            licence=s.licence or e.licence,
        )

    def unused(self) -> list[str]:
        every = [*self.by_doc.values(), *self.by_url.values(), *self.prefixes]
        return [
            e.document or e.match_url or e.url_prefix or "?"
            for e in every
            if id(e) not in self.used
        ]


def load_registry(domain: str) -> Registry:
    return Registry(load_entries(f"{domain}/sources.yaml", RegistryEntryIn, key="sources"))


def apply_registry(g: GraphBuilder) -> None:
    """Pin every source of ``g`` that its domain's registry knows; reject unused entries."""
    reg = load_registry(g.domain)
    cache: dict[Source, Source] = {}

    def pin(s: Source) -> Source:
        out = cache.get(s)
        if out is None:
            out = cache[s] = reg.pin(s)
        return out

    for fid, f in g.facts.items():
        g.facts[fid] = dataclasses.replace(f, source=pin(f.source))
    for eid, e in g.entities.items():
        if e.source is not None:
            g.entities[eid] = dataclasses.replace(e, source=pin(e.source))
    unused = reg.unused()
    if unused:
        raise DataError(
            f"registry entry matches no source: {unused[0]!r}"
            + (f" (and {len(unused) - 1} more)" if len(unused) > 1 else ""),
            location=f"{g.domain}/sources.yaml",
        )
