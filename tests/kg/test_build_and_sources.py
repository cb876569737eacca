"""Cache build/load, content hashing, user graph sources and their errors."""

from __future__ import annotations

import pytest

from knowledge_graphs import load_graphs
from knowledge_graphs.errors import DataError, SourceUnavailable
from knowledge_graphs.projection import neighbourhood, to_networkx
from knowledge_graphs.sources import load_user_source

USER_TTL = """@prefix kga: <https://kgaudit.dev/ontology#> .
@prefix kgr: <https://kgaudit.dev/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

<https://kgaudit.dev/id/drug/zorblatin> a kga:Drug ; rdfs:label "Zorblatin" ; kga:domain "medical" .
<https://kgaudit.dev/id/fact/z1> a kga:Fact, kga:MaxDoseFact ;
    kga:subject <https://kgaudit.dev/id/drug/zorblatin> ; kga:predicate kga:maxDose ;
    kga:value "50"^^xsd:decimal ; kga:unit "mg" ; kga:per "day" ; kga:status "rx" ;
    kga:kind "label_maximum" ;
    kga:source [ kga:document "House formulary 2026" ; kga:url "https://example.org/formulary" ] .
"""


def test_a_fresh_cache_is_loaded_not_rebuilt(kb, monkeypatch):
    # kb fixture guarantees the default cache exists. Start-up time itself is a benchmark
    # figure (README, "graphs load in 0.6 s"), not a timed test: what a test can pin is that a
    # fresh cache is read as it is, never rebuilt
    from knowledge_graphs import cache

    def no_rebuild(*_a, **_k):
        raise AssertionError("a fresh cache was rebuilt")

    monkeypatch.setattr(cache, "build_domain", no_rebuild)
    for d in ("finance", "medical", "legal"):
        ents, facts, version = cache.load_domain(d)
        assert ents and facts and version


def test_kg_version_is_a_stable_content_hash(kb):
    again = load_graphs(rebuild=False)
    assert again.kg_version == kb.kg_version
    assert kb.kg_version.startswith("kg-")


@pytest.mark.slow
def test_user_turtle_is_merged(tmp_path):
    path = tmp_path / "formulary.ttl"
    path.write_text(USER_TTL)
    kb = load_graphs(["medical"], extra_sources={"medical": [str(path)]})
    facts = kb.facts_about("drug:zorblatin", "maxDose")
    assert (
        len(facts) == 1
        and facts[0].value == 50.0
        and facts[0].source.url == "https://example.org/formulary"
    )
    assert kb.kg_version != load_graphs(["medical"]).kg_version


def test_malformed_turtle_names_file_and_line(tmp_path):
    path = tmp_path / "bad.ttl"
    path.write_text('@prefix kga: <https://kgaudit.dev/ontology#> .\n\n<a> <b> "unterminated .\n')
    with pytest.raises(DataError) as err:
        load_user_source(str(path), "medical")
    assert str(path) in str(err.value) and ":3" in str(err.value)


def test_missing_graph_file_is_a_clear_error(tmp_path):
    with pytest.raises(SourceUnavailable, match="does not exist"):
        load_user_source(str(tmp_path / "nope.ttl"), "medical")


def test_unreachable_sparql_endpoint_is_a_clear_error():
    with pytest.raises(SourceUnavailable, match="cannot reach SPARQL endpoint"):
        load_user_source("http://127.0.0.1:9/sparql", "finance", timeout=2)


def test_malformed_curated_file_names_file_entry_and_field(tmp_path, monkeypatch):
    from knowledge_graphs.builders import curated

    (tmp_path / "medical").mkdir()
    (tmp_path / "medical" / "doses.yaml").write_text(
        "entries:\n  - drug: ibuprofen\n    max: 10\n    unit: furlongs\n"
        "    source: {document: doc, url: 'https://x.org'}\n"
    )
    monkeypatch.setattr(curated, "CURATED_DIR", tmp_path)
    with pytest.raises(DataError) as err:
        curated.load_entries("medical/doses.yaml", curated.DoseIn)
    msg = str(err.value)
    assert "medical/doses.yaml" in msg and "entry 1 (ibuprofen)" in msg and "'unit'" in msg


def test_neighbourhood_keeps_source_facts(kb):
    med = kb.restrict(["medical"])
    nb = neighbourhood(med, ["drug:sildenafil"], hops=1, relations=["interactsWith"])
    assert "drug:nitroglycerin" in nb.entities
    assert nb.edge_facts and all(
        med_fact.startswith("medical:interactsWith") for med_fact in nb.edge_facts
    )
    assert (
        any(f.startswith("medical:maxDose") for f in nb.value_facts) is False
    )  # filtered relation
    two = neighbourhood(med, ["drug:sildenafil"], hops=2, relations=["interactsWith"])
    assert len(two.entities) >= len(nb.entities)


def test_networkx_projection_keeps_fact_ids(kb):
    g = to_networkx(kb.restrict(["legal"]), relations=["overruledBy"])
    edges = list(g.edges(data=True))
    assert edges and all(d["fact"].startswith("legal:overruledBy") for _, _, d in edges)


def test_sparql_endpoint_source_over_real_http(tmp_path):
    """A SPARQL 1.1 endpoint (an Oxigraph store behind a real HTTP server) as a graph source."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qs

    import pyoxigraph as ox

    store = ox.Store()
    store.load(USER_TTL.encode(), format=ox.RdfFormat.TURTLE)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"])).decode()
            query = parse_qs(body)["query"][0]
            triples = store.query(query)
            out = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES)
            self.send_response(200)
            self.send_header("Content-Type", "application/n-triples")
            self.end_headers()
            self.wfile.write(out)

        def log_message(self, *args):  # keep test output quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/sparql"
        ents, facts, version = load_user_source(url, "medical")
        assert [f.value for f in facts if f.predicate == "maxDose"] == [50.0]
        assert any(e.id == "drug:zorblatin" for e in ents) and version
    finally:
        server.shutdown()
