"""Compile the graphs into a JSON cache and load them back quickly.

One file per domain, ``<cache_dir>/<domain>.json``, holding a deduplicated source table,
entity rows and fact rows. The file records a *fingerprint* of its inputs (curated YAML
files, builder code, versions of the packages data is imported from); a stale or missing
cache is rebuilt on load. ``kg_version`` per domain is a SHA-256 over the canonical rows, so
two machines with the same data report the same version.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
import uuid
from collections.abc import Callable, Iterable
from datetime import date
from importlib import metadata
from pathlib import Path
from typing import Any

import orjson

from knowledge_graphs.builders.common import GraphBuilder
from knowledge_graphs.builders.curated import CURATED_DIR
from knowledge_graphs.errors import DataError, UsageError
from knowledge_graphs.model import DOMAINS, Entity, Fact, Source

FORMAT_VERSION = 2
_BUILDERS_DIR = Path(__file__).resolve().parent / "builders"
_PACKAGES = {
    "medical": ("drug-named-entity-recognition", "simple-icd-10-cm", "wordfreq"),
    "finance": ("pycountry", "babel"),
    "legal": ("reporters-db", "courts-db", "wordfreq"),
}


def default_cache_dir() -> Path:
    """``$KGAUDIT_HOME/kg`` if set, else ``~/.cache/kgaudit/kg``."""
    home = os.environ.get("KGAUDIT_HOME")
    base = Path(home) if home else Path.home() / ".cache" / "kgaudit"
    return base / "kg"


def _builder(domain: str) -> Callable[[], GraphBuilder]:
    if domain == "medical":
        from knowledge_graphs.builders.medical import build_medical

        return build_medical
    if domain == "finance":
        from knowledge_graphs.builders.finance import build_finance

        return build_finance
    if domain == "legal":
        from knowledge_graphs.builders.legal import build_legal

        return build_legal
    raise UsageError(f"unknown domain {domain!r}; expected one of {', '.join(DOMAINS)}")


def fingerprint(domain: str) -> str:
    """Hash of everything a domain's cache is built from."""
    h = hashlib.sha256(f"format={FORMAT_VERSION};domain={domain};".encode())
    for path in sorted((CURATED_DIR / domain).glob("*.yaml")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    for path in sorted(_BUILDERS_DIR.glob("*.py")):
        h.update(path.read_bytes())
    h.update((Path(__file__).resolve().parent / "model.py").read_bytes())
    for dist in _PACKAGES[domain]:
        try:
            h.update(f"{dist}={metadata.version(dist)};".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{dist}=missing;".encode())
    return h.hexdigest()


# -- serialisation ----------------------------------------------------------------------------


def _d(day: date | None) -> str | None:
    return day.isoformat() if day else None


def _rows(entities: Iterable[Entity], facts: Iterable[Fact]) -> dict[str, Any]:
    sources: dict[tuple[Any, ...], int] = {}

    def sid(s: Source | None) -> int | None:
        if s is None:
            return None
        return sources.setdefault(s.key(), len(sources))

    ent_rows = [
        [e.id, e.type, e.label, list(e.aliases), dict(sorted(e.attrs.items())), sid(e.source)]
        for e in sorted(entities, key=lambda e: e.id)
    ]
    fact_rows = [
        [
            f.id,
            f.subject,
            f.predicate,
            f.object,
            f.value,
            f.value_max,
            f.unit,
            f.literal,
            _d(f.date),
            dict(sorted(f.qualifiers.items())),
            _d(f.valid_from),
            _d(f.valid_to),
            sid(f.source),
        ]
        for f in sorted(facts, key=lambda f: f.id)
    ]
    return {"sources": [list(k) for k in sources], "entities": ent_rows, "facts": fact_rows}


def content_hash(rows: dict[str, Any]) -> str:
    return hashlib.sha256(orjson.dumps(rows, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


def build_domain(
    domain: str, cache_dir: Path | None = None, *, quiet: bool = False
) -> dict[str, Any]:
    """Build one domain from its sources and write its cache file; returns the file's meta."""
    from knowledge_graphs.builders.provenance import apply_registry

    t0 = time.perf_counter()
    g = _builder(domain)()
    apply_registry(g)
    rows = _rows(g.entities.values(), g.facts.values())
    meta = {
        "format": FORMAT_VERSION,
        "domain": domain,
        "fingerprint": fingerprint(domain),
        "kg_version": content_hash(rows),
        "entities": len(rows["entities"]),
        "facts": len(rows["facts"]),
        "build_seconds": round(time.perf_counter() - t0, 2),
        "warnings": g.warnings,
    }
    out = cache_dir or default_cache_dir()
    out.mkdir(parents=True, exist_ok=True)
    # a name of this writer's own: processes building at once (xdist workers, batch workers)
    # must not rename each other's file away
    tmp = out / f".{domain}.json.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
    tmp.write_bytes(orjson.dumps({"meta": meta, **rows}))
    tmp.replace(out / f"{domain}.json")
    if not quiet:
        print(
            f"built {domain}: {meta['entities']} entities, {meta['facts']} facts "
            f"in {meta['build_seconds']} s -> {out / (domain + '.json')}",
            file=sys.stderr,
        )
        for w in g.warnings:
            print(f"  warning: {w}", file=sys.stderr)
    return meta


def _decode(doc: dict[str, Any], domain: str) -> tuple[list[Entity], list[Fact]]:
    sources = [Source(*s) for s in doc["sources"]]
    fd = date.fromisoformat
    ents = [
        Entity(
            r[0], domain, r[1], r[2], tuple(r[3]), r[4], sources[r[5]] if r[5] is not None else None
        )
        for r in doc["entities"]
    ]
    facts = [
        Fact(
            r[0],
            domain,
            r[1],
            r[2],
            sources[r[12]],
            r[3],
            r[4],
            r[5],
            r[6],
            r[7],
            fd(r[8]) if r[8] else None,
            r[9],
            fd(r[10]) if r[10] else None,
            fd(r[11]) if r[11] else None,
        )
        for r in doc["facts"]
    ]
    return ents, facts


def load_domain(
    domain: str, cache_dir: Path | None = None, *, rebuild: bool = False, check_fresh: bool = True
) -> tuple[list[Entity], list[Fact], str]:
    """Entities, facts and content hash of a domain, building the cache if needed."""
    cache_dir = cache_dir or default_cache_dir()
    path = cache_dir / f"{domain}.json"
    _builder(domain)  # validates the domain name
    doc: dict[str, Any] | None = None
    if path.exists() and not rebuild:
        try:
            doc = orjson.loads(path.read_bytes())
        except orjson.JSONDecodeError:
            doc = None  # a damaged cache is rebuilt, never trusted
        if doc is not None and (
            doc.get("meta", {}).get("format") != FORMAT_VERSION
            or (check_fresh and doc["meta"].get("fingerprint") != fingerprint(domain))
        ):
            doc = None
    if doc is None:
        try:
            build_domain(domain, cache_dir)
        except OSError as exc:
            raise DataError(
                f"cannot write the graph cache: {exc}", location=str(cache_dir)
            ) from exc
        doc = orjson.loads(path.read_bytes())
    ents, facts = _decode(doc, domain)
    return ents, facts, doc["meta"]["kg_version"]
