"""Domain knowledge graphs: ontology, curated and package-derived facts, cache and queries.

>>> from knowledge_graphs import load_graphs
>>> kb = load_graphs(["legal"])                       # doctest: +SKIP
>>> kb.facts_about("case:347 U.S. 483", "decided")    # doctest: +SKIP
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from knowledge_graphs.errors import DataError, KgauditError, SourceUnavailable, UsageError
from knowledge_graphs.model import DOMAINS, Entity, Fact, Source
from knowledge_graphs.store import KnowledgeBase

_LOCK = threading.Lock()
_LOADED: dict[tuple[object, ...], KnowledgeBase] = {}


def load_graphs(
    domains: Iterable[str] | None = None,
    *,
    cache_dir: Path | str | None = None,
    extra_sources: Mapping[str, Sequence[str]] | None = None,
    rebuild: bool = False,
) -> KnowledgeBase:
    """Load the shipped graphs (from the cache, building it if stale) plus user sources.

    ``extra_sources`` maps a domain to Turtle / N-Triples / JSON-LD files or SPARQL 1.1
    endpoint URLs whose facts follow the kgaudit ontology; they are merged into that domain.
    Results are memoised per process: a second call with the same arguments is free.
    """
    from knowledge_graphs.cache import load_domain

    wanted = tuple(sorted(set(domains or DOMAINS)))
    for d in wanted:
        if d not in DOMAINS:
            raise UsageError(f"unknown domain {d!r}; expected one of {', '.join(DOMAINS)}")
    cdir = Path(cache_dir) if cache_dir else None
    extra = {d: tuple(v) for d, v in sorted((extra_sources or {}).items()) if v}
    key = (wanted, str(cdir), tuple(extra.items()))
    with _LOCK:
        if not rebuild and key in _LOADED:
            return _LOADED[key]
        entities: list[Entity] = []
        facts: list[Fact] = []
        versions: dict[str, str] = {}
        extra_versions: dict[str, str] = {}
        for d in wanted:
            ents, fs, version = load_domain(d, cdir, rebuild=rebuild)
            entities += ents
            facts += fs
            versions[d] = version
        for d, locations in extra.items():
            if d not in wanted:
                continue
            from knowledge_graphs.sources import load_user_source

            for loc in locations:
                ents, fs, version = load_user_source(loc, d)
                entities += ents
                facts += fs
                extra_versions[f"{d}:{loc}"] = version
        kb = KnowledgeBase(entities, facts, versions, extra_versions)
        _LOADED[key] = kb
        return kb


__all__ = [
    "DOMAINS",
    "DataError",
    "Entity",
    "Fact",
    "KgauditError",
    "KnowledgeBase",
    "Source",
    "SourceUnavailable",
    "UsageError",
    "load_graphs",
]
