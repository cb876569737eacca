"""User-configured knowledge sources: RDF files and SPARQL 1.1 endpoints.

A source is a path to a Turtle (``.ttl``), N-Triples (``.nt``), N3 or JSON-LD (``.jsonld``)
file, or an ``http(s)://`` URL of a SPARQL 1.1 endpoint. Its facts must follow the kgaudit
ontology (``knowledge_graphs/ontology/kgaudit.ttl``). Errors name the file and line, or the
endpoint and the reason, and never leak a traceback to users.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from knowledge_graphs.errors import DataError, SourceUnavailable
from knowledge_graphs.model import Entity, Fact

_FORMATS = {
    ".ttl": "turtle",
    ".turtle": "turtle",
    ".nt": "nt",
    ".n3": "n3",
    ".jsonld": "json-ld",
    ".json": "json-ld",
    ".rdf": "xml",
    ".owl": "xml",
}

CONSTRUCT_QUERY = """
PREFIX kga: <https://kgaudit.dev/ontology#>
CONSTRUCT { ?s ?p ?o . ?src ?sp ?so . }
WHERE {
  { ?s a kga:Fact . ?s ?p ?o . OPTIONAL { ?s kga:source ?src . ?src ?sp ?so . } }
  UNION
  { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l ; a ?t .
    FILTER(STRSTARTS(STR(?t), STR(kga:))) ?s ?p ?o . }
}
"""


def load_user_source(
    location: str, domain: str, *, timeout: float = 20.0
) -> tuple[list[Entity], list[Fact], str]:
    """Entities, facts and content hash of one user source (file or endpoint)."""
    from knowledge_graphs.rdf import from_graph

    if re.match(r"^https?://", location):
        graph, digest = _fetch_endpoint(location, timeout)
    else:
        graph, digest = _parse_file(Path(location))
    ents, facts = from_graph(graph, domain, location)
    return ents, facts, digest


def _parse_file(path: Path):  # -> tuple[rdflib.Graph, str]
    from rdflib import Graph

    if not path.exists():
        raise SourceUnavailable(f"graph file {path} does not exist")
    fmt = _FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise DataError(
            f"unknown graph file type {path.suffix!r}; use one of {', '.join(sorted(_FORMATS))}",
            location=str(path),
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceUnavailable(f"cannot read graph file {path}: {exc.strerror}") from exc
    g = Graph()
    try:
        g.parse(data=data, format=fmt, publicID=path.resolve().as_uri())
    except Exception as exc:  # rdflib raises many types; all mean "malformed"
        raise DataError(_describe_parse_error(exc), location=_line_of(path, exc)) from exc
    return g, hashlib.sha256(data).hexdigest()[:16]


def _line_of(path: Path, exc: Exception) -> str:
    line = getattr(exc, "lines", None)
    if isinstance(line, int):
        return f"{path}:{line + 1}"
    m = re.search(r"line (\d+)", str(exc))
    return f"{path}:{m.group(1)}" if m else str(path)


def _describe_parse_error(exc: Exception) -> str:
    why = getattr(exc, "_why", None) or str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"malformed RDF: {why}"


def _fetch_endpoint(url: str, timeout: float):  # -> tuple[rdflib.Graph, str]
    import httpx
    from rdflib import Graph

    try:
        resp = httpx.post(
            url,
            data={"query": CONSTRUCT_QUERY},
            timeout=timeout,
            headers={"Accept": "application/n-triples, text/turtle;q=0.9"},
        )
    except httpx.HTTPError as exc:
        raise SourceUnavailable(
            f"cannot reach SPARQL endpoint {url}: {type(exc).__name__}"
        ) from exc
    if resp.status_code != 200:
        raise SourceUnavailable(f"SPARQL endpoint {url} answered HTTP {resp.status_code}")
    ctype = resp.headers.get("content-type", "").split(";")[0].strip()
    fmt = {
        "application/n-triples": "nt",
        "text/turtle": "turtle",
        "application/ld+json": "json-ld",
        "application/rdf+xml": "xml",
    }.get(ctype, "turtle")
    g = Graph()
    try:
        g.parse(data=resp.content, format=fmt)
    except Exception as exc:
        raise DataError(
            f"the endpoint's CONSTRUCT answer is not valid RDF ({ctype})", location=url
        ) from exc
    return g, hashlib.sha256(resp.content).hexdigest()[:16]
