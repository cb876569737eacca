"""Coverage of the most-prescribed US drugs (ClinCalc DrugStats, The Top 200 of 2024)."""

from __future__ import annotations

from knowledge_graphs.coverage import coverage, load_top200


def test_the_list_is_whole_and_maps_to_graph_drugs(kb):
    doc = load_top200()
    assert [r["rank"] for r in doc["drugs"]] == list(range(1, 201))
    assert doc["list"]["licence"] and doc["list"]["read_from"].startswith("https://")
    unknown = [k for r in doc["drugs"] for k in r["graph"] if f"drug:{k}" not in kb.entities]
    assert unknown == []


def test_top200_coverage_does_not_fall(kb):
    cov = coverage(kb.restrict(["medical"]))
    assert cov.count("max_dose") >= 180, cov.missing["max_dose"]
    assert cov.count("interaction") >= 94, cov.missing["interaction"]


def test_coverage_counts_only_numeric_doses_as_maximum():
    from knowledge_graphs.model import Entity, Fact, Source
    from knowledge_graphs.store import KnowledgeBase

    s = Source("label")
    kb = KnowledgeBase(
        [Entity("drug:a", "medical", "Drug", "A"), Entity("drug:b", "medical", "Drug", "B")],
        [
            Fact("1", "medical", "drug:a", "maxDose", s, value=None, unit="mg"),
            Fact("2", "medical", "drug:b", "maxDose", s, value=5.0, unit="mg"),
        ],
        {"medical": "x"},
    )
    doc = {
        "list": {"publisher": "P", "title": "T"},
        "drugs": [
            {"rank": 1, "name": "A", "graph": ["a"]},
            {"rank": 2, "name": "B", "graph": ["b"]},
        ],
    }
    cov = coverage(kb, doc)
    assert cov.covered["max_dose"] == [2] and cov.covered["any_dose"] == [1, 2]
