"""Every shipped graph conforms to the SHACL shapes (pyshacl), and the shapes do catch errors."""

from __future__ import annotations

from datetime import date

import pytest

from knowledge_graphs.model import Fact, Source
from knowledge_graphs.shacl import validate_records


@pytest.mark.slow
@pytest.mark.parametrize("domain", ["finance", "legal", "medical"])
def test_shipped_graph_conforms(kb, domain):
    part = kb.restrict([domain])
    assert validate_records(part.entities.values(), part.facts) == []


def test_shapes_reject_a_broken_fact(kb):
    bad = Fact(
        "medical:maxDose:bad",
        "medical",
        "drug:ibuprofen",
        "maxDose",
        Source("x"),
        value=10.0,
        unit="furlongs",
        qualifiers={"per": "day", "status": "otc", "kind": "label_maximum"},
        valid_from=date(2020, 1, 1),
        valid_to=date(2019, 1, 1),
    )
    problems = validate_records([], [bad], context=kb)
    text = "\n".join(problems)
    assert "validFrom" in text or "after" in text
    assert "unit" in text
    assert any("document" in p for p in problems)  # a source document must have >= 3 characters
