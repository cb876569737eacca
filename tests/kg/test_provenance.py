"""Source registries pin what was read (document id, version, retrieval date, licence)."""

from __future__ import annotations

from datetime import date

import pytest

from knowledge_graphs.builders.common import GraphBuilder
from knowledge_graphs.builders.provenance import Registry, RegistryEntryIn, apply_registry
from knowledge_graphs.errors import DataError
from knowledge_graphs.model import Source
from knowledge_graphs.store import provenance_summary

LABEL = Source("ZORB (zorblatin) tablets prescribing information", "2.1", "https://dailymed/s?q=z")


def _entry(**kw):
    base = {"licence": "public domain"}
    return RegistryEntryIn.model_validate({**base, **kw})


def test_document_entry_pins_the_source_and_replaces_the_search_url():
    reg = Registry(
        [
            _entry(
                document=LABEL.document,
                document_id="setid:abc",
                version="7 (2025-03-01)",
                retrieved="2026-12-03",
                url="https://dailymed.nlm.nih.gov/dailymed/lookup.cfm?setid=abc",
            )
        ]
    )
    s = reg.pin(LABEL)
    assert (s.document_id, s.version, s.retrieved, s.section) == (
        "setid:abc",
        "7 (2025-03-01)",
        "2026-12-03",
        "2.1",
    )
    assert s.url.endswith("setid=abc") and s.licence == "public domain"


def test_url_prefix_entry_sets_only_the_licence():
    reg = Registry([_entry(url_prefix="https://www.federalreserve.gov/", licence="US gov")])
    s = reg.pin(Source("FOMC statement", None, "https://www.federalreserve.gov/x.htm"))
    assert s.licence == "US gov" and s.version is None


@pytest.mark.parametrize(
    "bad",
    [
        {"document": "A doc", "url_prefix": "https://x.org/"},
        {"document": "A doc", "version": "3"},
        {"url_prefix": "https://x.org/", "version": "3", "retrieved": "2026-01-01"},
        {},
    ],
)
def test_malformed_registry_entries_are_rejected(bad):
    with pytest.raises(ValueError):
        _entry(**bad)


def test_an_entry_matching_nothing_stops_the_build(tmp_path, monkeypatch):
    from knowledge_graphs.builders import curated

    (tmp_path / "medical").mkdir()
    (tmp_path / "medical" / "sources.yaml").write_text(
        "sources:\n  - document: 'A title nobody cites'\n    licence: public domain\n"
    )
    monkeypatch.setattr(curated, "CURATED_DIR", tmp_path)
    g = GraphBuilder("medical")
    with pytest.raises(DataError, match="matches no source"):
        apply_registry(g)


def test_summary_names_the_oldest_pinned_source():
    a = Source("A", version="1", retrieved="2026-12-01")
    b = Source("B", version="2", retrieved="2026-11-02")
    out = provenance_summary([a, b, Source("C")])
    assert out["pinned"] == 2 and out["unpinned"] == 1
    assert out["oldest"]["document"] == "B"


def test_package_sources_carry_version_and_licence(kb):
    facts = [f for f in kb.facts if f.predicate in {"drugbankId", "currency", "courtExists"}]
    pkg = [f.source for f in facts if not f.qualifiers.get("overrides")]
    assert pkg and all(s.version and s.document_id and s.licence for s in pkg)
    # a sourced override of package data cites its own document (the statute creating a court)
    overridden = [f.source for f in facts if f.qualifiers.get("overrides")]
    assert overridden and all(s.document and s.url for s in overridden)


def test_stats_report_the_oldest_source_per_domain(kb):
    stats = kb.stats()
    for d in ("finance", "medical", "legal"):
        assert stats[d]["provenance"]["pinned"] >= 1  # at least the package-derived sources
    oldest = stats["medical"]["provenance"]["oldest"]
    assert oldest is not None and date.fromisoformat(oldest["retrieved"]) <= date.today()


def test_every_pinned_medical_label_names_its_set_id(kb):
    labels = {
        f.source
        for f in kb.facts
        if f.domain == "medical" and f.source.url and "dailymed" in f.source.url
    }
    pinned = [s for s in labels if s.version]
    assert pinned, "no DailyMed label is pinned"
    assert all(s.document_id and "setid=" in (s.url or "") for s in pinned)
