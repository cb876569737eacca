"""Conversion between the typed records and RDF (the kgaudit ontology), and the ontology itself.

Entities become ``kgr:<type>/<key>`` nodes, facts ``kgr:fact/<id>`` nodes of class
``kga:Fact`` and of their relation's fact class. The same mapping is used to export the
shipped graphs (Turtle, N-Triples), to validate them with SHACL and to read users' graphs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import RDF, RDFS, SKOS, XSD

from knowledge_graphs.errors import DataError
from knowledge_graphs.model import Entity, Fact, Source

KGA = Namespace("https://kgaudit.dev/ontology#")
KGR = Namespace("https://kgaudit.dev/id/")
ONTOLOGY_DIR = Path(__file__).resolve().parent / "ontology"
ONTOLOGY_PATH = ONTOLOGY_DIR / "kgaudit.ttl"
SHAPES_PATH = ONTOLOGY_DIR / "shapes.ttl"


def camel(key: str) -> str:
    """``via_class`` -> ``viaClass`` (Python keys are snake_case, RDF properties camelCase)."""
    head, *rest = key.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def entity_iri(entity_id: str) -> URIRef:
    kind, _, key = entity_id.partition(":")
    return KGR[f"{kind}/{quote(key, safe='')}"]


def iri_entity_id(iri: str) -> str | None:
    if not iri.startswith(str(KGR)):
        return None
    kind, _, key = iri[len(str(KGR)) :].partition("/")
    return f"{kind}:{unquote(key)}" if key and kind != "fact" else None


@lru_cache(maxsize=1)
def ontology() -> Graph:
    g = Graph()
    g.parse(ONTOLOGY_PATH, format="turtle")
    return g


@lru_cache(maxsize=1)
def relations() -> dict[str, dict[str, str | None]]:
    """Relation name -> {value_kind, fact_class, subject_class, object_class}."""
    g = ontology()
    out: dict[str, dict[str, str | None]] = {}
    for rel in g.subjects(RDF.type, KGA.Relation):
        name = str(rel).removeprefix(str(KGA))
        obj = g.value(rel, KGA.objectClass)
        out[name] = {
            "value_kind": str(g.value(rel, KGA.valueKind)),
            "fact_class": str(g.value(rel, KGA.factClass)).removeprefix(str(KGA)),
            "subject_class": str(g.value(rel, KGA.subjectClass)).removeprefix(str(KGA)),
            "object_class": str(obj).removeprefix(str(KGA)) if obj else None,
        }
    return out


@lru_cache(maxsize=1)
def declared_properties(kind: str) -> frozenset[str]:
    """Local names of the declared sub-properties of ``kga:qualifier`` or ``kga:attribute``."""
    g = ontology()
    return frozenset(
        str(p).removeprefix(str(KGA)) for p in g.subjects(RDFS.subPropertyOf, KGA[kind])
    )


Term = tuple[
    str, Any, str | None
]  # ("iri", iri, None) | ("lit", python value, xsd datatype or None)


def _iri(x: str) -> Term:
    return ("iri", x, None)


def _lit(v: Any, datatype: str | None = None) -> Term:
    return ("lit", v, datatype)


# Pinned-provenance properties of a kga:Source: (RDF local name, Source field)
_SOURCE_EXTRA = (
    ("documentId", "document_id"),
    ("version", "version"),
    ("retrieved", "retrieved"),
    ("licence", "licence"),
)


def triples(entities: Iterable[Entity], facts: Iterable[Fact]) -> Iterable[tuple[str, str, Term]]:
    """The records as neutral triples; :func:`to_graph` and :func:`to_store` adapt them."""
    rels = relations()
    kga, kgr = str(KGA), str(KGR)
    rdf_type, label, alt = str(RDF.type), str(RDFS.label), str(SKOS.altLabel)
    dec, day, any_uri = str(XSD.decimal), str(XSD.date), str(XSD.anyURI)
    sources: dict[tuple[Any, ...], str] = {}
    pending: list[tuple[str, str, Term]] = []

    def source_node(s: Source) -> str:
        key = s.key()
        node = sources.get(key)
        if node is None:
            node = sources[key] = f"{kgr}source/{len(sources)}"
            pending.append((node, rdf_type, _iri(kga + "Source")))
            pending.append((node, kga + "document", _lit(s.document)))
            if s.section:
                pending.append((node, kga + "section", _lit(s.section)))
            if s.url:
                pending.append((node, kga + "url", _lit(s.url, any_uri)))
            for prop, v in _SOURCE_EXTRA:
                val = getattr(s, v)
                if val:
                    dt = day if prop == "retrieved" else None
                    pending.append((node, kga + prop, _lit(val, dt)))
        return node

    for e in entities:
        n = str(entity_iri(e.id))
        yield n, rdf_type, _iri(kga + e.type)
        yield n, label, _lit(e.label)
        yield n, kga + "domain", _lit(e.domain)
        for a in e.aliases:
            yield n, alt, _lit(a)
        for k, v in e.attrs.items():
            for item in v if isinstance(v, list) else [v]:
                if item is not None:
                    yield n, kga + camel(k), _lit(item)
        if e.source:
            yield n, kga + "source", _iri(source_node(e.source))
        yield from pending
        pending.clear()
    for f in facts:
        n = f"{kgr}fact/{quote(f.id, safe='')}"
        meta = rels.get(f.predicate)
        if meta is None:
            raise DataError(
                f"fact {f.id} uses relation {f.predicate!r}, which the ontology does not declare"
            )
        yield n, rdf_type, _iri(kga + "Fact")
        yield n, rdf_type, _iri(kga + str(meta["fact_class"]))
        yield n, kga + "subject", _iri(str(entity_iri(f.subject)))
        yield n, kga + "predicate", _iri(kga + f.predicate)
        if f.object is not None:
            yield n, kga + "object", _iri(str(entity_iri(f.object)))
        if f.value is not None:
            yield n, kga + "value", _lit(repr(f.value), dec)
        if f.value_max is not None:
            yield n, kga + "valueMax", _lit(repr(f.value_max), dec)
        if f.unit is not None:
            yield n, kga + "unit", _lit(f.unit)
        if f.literal is not None:
            yield n, kga + "literal", _lit(f.literal)
        for prop, d in (("date", f.date), ("validFrom", f.valid_from), ("validTo", f.valid_to)):
            if d is not None:
                yield n, kga + prop, _lit(d.isoformat(), day)
        for k, v in f.qualifiers.items():
            yield n, kga + camel(k), _lit(v)
        yield n, kga + "source", _iri(source_node(f.source))
        yield from pending
        pending.clear()


def to_graph(entities: Iterable[Entity], facts: Iterable[Fact]) -> Graph:
    """The rdflib graph of the given records (ontology not included)."""
    g = Graph()
    g.bind("kga", KGA)
    g.bind("kgr", KGR)
    for s, p, (kind, v, dt) in triples(entities, facts):
        o = URIRef(v) if kind == "iri" else Literal(v, datatype=URIRef(dt) if dt else None)
        g.add((URIRef(s), URIRef(p), o))
    return g


def to_store(
    entities: Iterable[Entity], facts: Iterable[Fact], *, with_ontology: bool = True
) -> Any:
    """An in-memory Oxigraph store of the records (fast SPARQL over large graphs)."""
    import pyoxigraph as ox

    store = ox.Store()
    nn: dict[str, Any] = {}

    def node(x: str) -> Any:
        n = nn.get(x)
        if n is None:
            n = nn[x] = ox.NamedNode(x)
        return n

    def gen() -> Iterable[Any]:
        for s, p, (kind, v, dt) in triples(entities, facts):
            o = (
                node(v)
                if kind == "iri"
                else ox.Literal(str(v), datatype=node(dt))
                if dt
                else ox.Literal(str(v))
            )
            yield ox.Quad(node(s), node(p), o)

    store.bulk_extend(gen())
    if with_ontology:
        store.bulk_load(ONTOLOGY_PATH.read_bytes(), format=ox.RdfFormat.TURTLE)
    return store


def from_graph(g: Graph, domain: str, origin: str) -> tuple[list[Entity], list[Fact]]:
    """Read entities and facts that follow the kgaudit ontology out of a user's graph.

    ``origin`` (a file name or endpoint URL) is used in error messages and as the source of
    facts that carry none.
    """
    rels = relations()
    quals = declared_properties("qualifier")
    entities: list[Entity] = []
    for node, label in g.subject_objects(RDFS.label):
        eid = iri_entity_id(str(node))
        types = [
            str(t).removeprefix(str(KGA))
            for t in g.objects(node, RDF.type)
            if str(t).startswith(str(KGA))
        ]
        if eid is None or not types:
            continue
        aliases = tuple(str(a) for a in g.objects(node, SKOS.altLabel))
        entities.append(
            Entity(
                eid,
                domain,
                types[0],
                str(label),
                aliases,
                {},
                _source(g, g.value(node, KGA.source), origin),
            )
        )
    facts: list[Fact] = []
    for node in g.subjects(RDF.type, KGA.Fact):
        where = f"{origin}: fact {node}"
        pred = g.value(node, KGA.predicate)
        subj = g.value(node, KGA.subject)
        if pred is None or subj is None:
            raise DataError("a kga:Fact needs kga:subject and kga:predicate", location=where)
        name = str(pred).removeprefix(str(KGA))
        if name not in rels:
            raise DataError(
                f"relation {name!r} is not declared in the kgaudit ontology", location=where
            )
        sid = iri_entity_id(str(subj))
        if sid is None:
            raise DataError(
                f"subject {subj} is not a kgaudit entity IRI ({KGR}<type>/<key>)", location=where
            )
        obj = g.value(node, KGA.object)
        q: dict[str, str] = {}
        for p, o in g.predicate_objects(node):
            local = str(p).removeprefix(str(KGA))
            if local in quals:
                q[snake(local)] = str(o)
        facts.append(
            Fact(
                id=f"{domain}:user:{quote(str(node), safe='')}",
                domain=domain,
                subject=sid,
                predicate=name,
                source=_source(g, g.value(node, KGA.source), origin),
                object=iri_entity_id(str(obj)) if obj is not None else None,
                value=_num(g.value(node, KGA.value)),
                value_max=_num(g.value(node, KGA.valueMax)),
                unit=_str(g.value(node, KGA.unit)),
                literal=_str(g.value(node, KGA.literal)),
                date=_date(g.value(node, KGA.date), where),
                qualifiers=q,
                valid_from=_date(g.value(node, KGA.validFrom), where),
                valid_to=_date(g.value(node, KGA.validTo), where),
            )
        )
    return entities, facts


def _source(g: Graph, node: Any, origin: str) -> Source:
    if node is None:
        return Source(origin)
    doc = g.value(node, KGA.document)
    extra = {field: _str(g.value(node, KGA[prop])) for prop, field in _SOURCE_EXTRA}
    return Source(
        str(doc) if doc is not None else origin,
        _str(g.value(node, KGA.section)),
        _str(g.value(node, KGA.url)),
        **extra,
    )


def _str(v: Any) -> str | None:
    return None if v is None else str(v)


def _num(v: Any) -> float | None:
    return None if v is None else float(v.toPython() if hasattr(v, "toPython") else v)


def _date(v: Any, where: str) -> date | None:
    if v is None:
        return None
    try:
        return date.fromisoformat(str(v)[:10])
    except ValueError as exc:
        raise DataError(f"{v!s} is not an ISO date", location=where) from exc
