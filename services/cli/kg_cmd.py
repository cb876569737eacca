"""``kgaudit kg build|stats|query|export|validate``: compile, inspect and query the graphs."""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

import click
import orjson

from auditor.errors import DataError, UsageError
from knowledge_graphs.model import DOMAINS

_DOMAIN = click.Choice(DOMAINS)


@click.group("kg")
def kg_group() -> None:
    """Build, inspect and query the knowledge graphs."""


@kg_group.command("build")
@click.option(
    "--domain", "domains", type=_DOMAIN, multiple=True, help="Build only this domain (repeatable)."
)
def build_command(domains: tuple[str, ...]) -> None:
    """Compile package-derived and curated data into the cache (validates every curated file)."""
    from auditor.settings import get_settings
    from knowledge_graphs.cache import build_domain

    cache = get_settings().kg_cache_dir
    for d in domains or DOMAINS:
        build_domain(d, cache)
    t0 = time.perf_counter()
    kb = _load(domains or DOMAINS)
    click.echo(
        f"kg_version {kb.kg_version}; {len(kb.entities)} entities, {len(kb.facts)} facts; "
        f"loaded from cache in {time.perf_counter() - t0:.2f} s"
    )


@kg_group.command("stats")
@click.option(
    "--domain", "domains", type=_DOMAIN, multiple=True, help="Only this domain (repeatable)."
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def stats_command(domains: tuple[str, ...], fmt: str) -> None:
    """Per domain: facts, entities, sources, counts per fact family and entity type."""
    kb = _load(domains or DOMAINS)
    stats = kb.stats()
    if fmt == "json":
        doc = {"kg_version": kb.kg_version, "domains": stats}
        click.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
        return
    click.echo(f"kg_version: {kb.kg_version}")
    for d, s in stats.items():
        click.echo(f"\n{d}  (version {s['kg_version']})")
        click.echo(
            f"  entities {s['entities']:>8}   facts {s['facts']:>8}   sources {s['sources']:>6}"
        )
        prov = s["provenance"]
        click.echo(
            f"  source documents {prov['documents']}: pinned {prov['pinned']} "  # type: ignore[index]
            f"(version recorded), unpinned {prov['unpinned']}, "  # type: ignore[index]
            f"with licence {prov['with_licence']}"  # type: ignore[index]
        )
        old = prov["oldest"]  # type: ignore[index]
        click.echo(
            "  oldest source: "
            + (
                f"{old['document']} [{old['document_id'] or '-'}] version {old['version']}, "
                f"retrieved {old['retrieved']}"
                if old
                else "none pinned with a retrieval date"
            )
        )
        click.echo("  facts per family (subjects):")
        subjects = s["subjects_per_family"]
        for fam, n in s["facts_per_family"].items():  # type: ignore[union-attr]
            click.echo(f"    {fam:<22}{n:>8}  ({subjects[fam]})")  # type: ignore[index]
        click.echo("  entities per type:")
        for typ, n in s["entities_per_type"].items():  # type: ignore[union-attr]
            click.echo(f"    {typ:<22}{n:>8}")


@kg_group.command("query")
@click.option(
    "--domain",
    "domains",
    type=_DOMAIN,
    multiple=True,
    required=True,
    help="Domain(s) to query (repeatable).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "csv"]),
    default="table",
    show_default=True,
)
@click.argument("sparql")
def query_command(domains: tuple[str, ...], fmt: str, sparql: str) -> None:
    """Run a SPARQL 1.1 SELECT/ASK query over the graphs (ontology included).

    Prefixes kga: (ontology) and kgr: (instances) are predeclared.
    """
    import pyoxigraph as ox

    from knowledge_graphs.rdf import KGA, KGR, to_store

    kb = _load(domains)
    store = to_store(kb.entities.values(), kb.facts)
    prefixes = {
        "kga": str(KGA),
        "kgr": str(KGR),
        "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
        "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
        "skos": "http://www.w3.org/2004/02/skos/core#",
        "xsd": "http://www.w3.org/2001/XMLSchema#",
    }
    try:
        result = store.query(sparql, prefixes=prefixes)
    except SyntaxError as exc:
        raise UsageError(f"the SPARQL query is invalid: {exc}") from exc
    if isinstance(result, ox.QueryBoolean):
        click.echo("true" if bool(result) else "false")
        return
    if not isinstance(result, ox.QuerySolutions):
        raise UsageError("only SELECT and ASK queries are supported")
    names = [v.value for v in result.variables]
    rows = [[_term(sol[v]) for v in result.variables] for sol in result]
    if fmt == "json":
        click.echo(
            orjson.dumps(
                [dict(zip(names, r, strict=True)) for r in rows], option=orjson.OPT_INDENT_2
            ).decode()
        )
    elif fmt == "csv":
        w = csv.writer(sys.stdout)
        w.writerow(names)
        w.writerows(rows)
    else:
        widths = [
            min(60, max([len(n)] + [len(r[i] or "") for r in rows])) for i, n in enumerate(names)
        ]
        click.echo("  ".join(n.ljust(w) for n, w in zip(names, widths, strict=True)))
        for r in rows:
            click.echo("  ".join((c or "")[:60].ljust(w) for c, w in zip(r, widths, strict=True)))
        click.echo(f"({len(rows)} rows)")


@kg_group.command("export")
@click.option(
    "--domain", "domains", type=_DOMAIN, multiple=True, help="Only this domain (repeatable)."
)
@click.option(
    "--format", "fmt", type=click.Choice(["turtle", "nt"]), default="turtle", show_default=True
)
@click.argument("out_dir", type=click.Path(file_okay=False, path_type=Path))
def export_command(domains: tuple[str, ...], fmt: str, out_dir: Path) -> None:
    """Write each domain's graph as Turtle or N-Triples (for other RDF tools)."""
    from knowledge_graphs.export import export_graph

    out_dir.mkdir(parents=True, exist_ok=True)
    for d in domains or DOMAINS:
        kb = _load([d])
        path = out_dir / f"{d}.{'ttl' if fmt == 'turtle' else 'nt'}"
        n = export_graph(kb.entities.values(), kb.facts, path, fmt)  # type: ignore[arg-type]
        click.echo(f"wrote {path} ({n} triples)")


@kg_group.command("validate")
@click.option("--domain", type=_DOMAIN, required=True, help="Domain the files belong to.")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def validate_command(domain: str, files: tuple[Path, ...]) -> None:
    """Check user graph files: parse, map to the ontology, and validate with the SHACL shapes."""
    from knowledge_graphs.shacl import validate_records
    from knowledge_graphs.sources import load_user_source

    for f in files:
        ents, facts, _ = load_user_source(str(f), domain)
        kb = _load([domain])
        problems = validate_records(ents, facts, context=kb)
        if problems:
            raise DataError(
                f"{len(problems)} SHACL violation(s); first: {problems[0]}", location=str(f)
            )
        click.echo(f"{f}: ok ({len(ents)} entities, {len(facts)} facts)")


def _load(domains: tuple[str, ...] | list[str]):  # -> KnowledgeBase
    from auditor.settings import get_settings
    from knowledge_graphs import load_graphs

    s = get_settings()
    return load_graphs(domains, cache_dir=s.kg_cache_dir, extra_sources=s.graphs)


def _term(t: object) -> str | None:
    if t is None:
        return None
    return getattr(t, "value", str(t))
