"""`kgaudit kg export` writes files that rdflib and pyoxigraph parse back to the same triples,
and that `kgaudit kg validate` accepts."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from knowledge_graphs.model import Entity, Fact, Source
from services.cli.main import cli


def _export(tmp_path, domain: str, fmt: str) -> tuple[str, int]:
    res = CliRunner().invoke(
        cli, ["kg", "export", "--domain", domain, "--format", fmt, str(tmp_path)]
    )
    assert res.exit_code == 0, res.output
    path, count = re.search(r"wrote (\S+) \((\d+) triples\)", res.output).groups()
    return path, int(count)


def _counts(path: str, fmt: str) -> tuple[int, int]:
    import pyoxigraph as ox
    from rdflib import Graph

    g = Graph().parse(path, format="turtle" if fmt == "turtle" else "nt")
    store = ox.Store()
    store.load(path=path, format=ox.RdfFormat.TURTLE if fmt == "turtle" else ox.RdfFormat.N_TRIPLES)
    return len(g), len(store)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["turtle", "nt"])
@pytest.mark.parametrize("domain", ["finance", "legal"])
def test_export_parses_back_to_the_same_triple_count(tmp_path, domain, fmt):
    path, written = _export(tmp_path, domain, fmt)
    assert _counts(path, fmt) == (written, written)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["turtle", "nt"])
def test_medical_export_parses_back(tmp_path, fmt):
    path, written = _export(tmp_path, "medical", fmt)
    assert _counts(path, fmt) == (written, written)


def test_keys_that_need_escapes_round_trip_through_turtle(tmp_path):
    """Reporter keys like "F.C.C." once came out as `kgr:reporter\\/F.C.C\\.` (rdflib rejects)."""
    from knowledge_graphs.export import export_graph

    src = Source("doc", None, "https://example.org", version="1", retrieved="2026-01-02")
    ents = [
        Entity("reporter:F.C.C.", "legal", "Reporter", "F.C.C.", (), {}, src),
        Entity("reporter:Hen. & M.", "legal", "Reporter", "Hen. & M.", (), {}, src),
        Entity("case:1 U.S. (1 Dall.) 1", "legal", "Case", "A v. B", (), {}, src),
    ]
    facts = [Fact("legal:x:1", "legal", "reporter:F.C.C.", "editionStart", src, value=1934.0)]
    out = tmp_path / "x.ttl"
    written = export_graph(ents, facts, out, "turtle")
    assert _counts(str(out), "turtle") == (written, written)


@pytest.mark.slow
def test_validate_accepts_the_exported_finance_graph(tmp_path):
    path, _ = _export(tmp_path, "finance", "turtle")
    res = CliRunner().invoke(cli, ["kg", "validate", "--domain", "finance", path])
    assert res.exit_code == 0, res.output
    assert ": ok (" in res.output


@pytest.mark.slow
def test_pinned_provenance_survives_the_round_trip(tmp_path):
    from knowledge_graphs.sources import load_user_source

    path, _ = _export(tmp_path, "finance", "nt")
    _, facts, _ = load_user_source(path, "finance")
    pinned = [f.source for f in facts if f.source.version]
    assert pinned and all(s.document_id for s in pinned)
