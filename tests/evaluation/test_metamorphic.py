"""Metamorphic relations on a small slice (fast): value and qualifier mutations pinned at 1.00,
the mutation helpers table-driven, and the paraphrase wording sets checked as data."""

from __future__ import annotations

from pathlib import Path

import pytest

from measure.evaluation.metamorphic import (
    load_paraphrase_sets,
    load_passages,
    run_mutations,
    run_paraphrases,
)
from measure.evaluation.mutations import _bump, fact_value, qualifier_mutations, value_mutations

ROOT = Path(__file__).resolve().parents[2]
PARAPHRASE = ROOT / "tests" / "corpus" / "paraphrase"
# a slice with maxima, washouts, schedules, listing states, table headers and headings
SLICE = ("real-med-004", "real-med-009", "real-med-010", "real-med-027", "real-med-036",
         "real-med-038", "real-med-043", "med-viagra-2.1")  # fmt: skip


def _audit(auditor_obj):
    return lambda text, dom, day: auditor_obj.audit(text, domain=dom, as_of=day)


@pytest.fixture(scope="module")
def slice_report(auditor_obj):
    passages = load_passages(sorted((ROOT / "tests" / "truth").glob("medical.jsonl")),
                             ROOT / "tests" / "realistic")  # fmt: skip
    chosen = [p for p in passages if p.id in SLICE]
    assert len(chosen) == len(SLICE)
    return run_mutations(chosen, _audit(auditor_obj), kb=auditor_obj.kb)


@pytest.mark.parametrize("kind", ["value", "qualifier"])
def test_slice_rate_is_one(slice_report, kind):
    rates = slice_report[kind]["rates"]["all"]
    assert rates["n"] >= 5, rates
    assert rates["rate"] == 1.0, slice_report[kind]["failures"]


@pytest.mark.parametrize(
    ("text", "percent", "expected"),
    [
        ("240 mg in 24 hours", False, "720 mg in 24 hours"),
        ("4,000 mg per day", False, "12,000 mg per day"),
        ("2.4 mg", False, "7.2 mg"),
        ("60 mg every 4 to 6 hours", False, "180 mg every 4 to 6 hours"),
        ("$10,000", False, "$30,000"),
        ("5-1/4 to 5-1/2 percent", True, "8-1/4 to 8-1/2 percent"),
        ("0 to 1/4 percent", True, "3 to 3-1/4 percent"),
        ("4.5%", True, "7.5%"),
    ],
    ids=lambda v: str(v),
)
def test_bump_moves_amounts_not_periods(text, percent, expected):
    assert _bump(text, percent) == expected


@pytest.mark.parametrize(
    ("dimension", "qualifiers", "value"),
    [
        ("status", {"status": "otc"}, "otc"),
        ("status", {}, None),
        ("period", {"per": "week"}, "week"),
        ("period", {"per": "dose"}, None),
        ("population", {"population": "adult >= 50 kg"}, "adult"),
        ("population", {"population": "children 6 years and older"}, "child"),
        ("release", {"product": "FOCALIN XR extended-release capsules"}, "er"),
        ("release", {"product": "NEURONTIN (immediate-release)"}, "ir"),
        ("release", {"product": "VIAGRA"}, None),
    ],
)
def test_fact_value(dimension, qualifiers, value):
    assert fact_value(dimension, qualifiers) == value


def _supported(auditor_obj, text, predicate="maxDose"):
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    return [c for c in res.claims if c.predicate == predicate and c.verdict == "supported"]


def test_value_mutation_keeps_lower_values_out(auditor_obj):
    """A starting dose is not mutated: a larger start may still be under the maximum."""
    text = "Sertraline: start at 50 mg once daily; the maximum is 200 mg per day."
    (claim,) = _supported(auditor_obj, text)
    (m,), _ = value_mutations(claim, text, auditor_obj.kb)
    assert m.apply(text).endswith("the maximum is 600 mg per day.")


def test_qualifier_scope_with_both_values_is_not_swapped(auditor_obj):
    text = "## Wellbutrin SR vs immediate-release\n\n- Wellbutrin SR maximum: 400 mg per day"
    for claim in _supported(auditor_obj, text):
        muts, _ = qualifier_mutations(claim, text)
        assert all(m.dimension != "release" or m.start > text.index("\n") for m in muts)


def test_paraphrase_sets_are_valid_data():
    sets = load_paraphrase_sets(PARAPHRASE)
    relations = {s["relation"] for s in sets}
    assert {"max_dose", "interaction", "washout", "threshold", "rate", "citation"} <= relations
    assert all(len(s["wordings"]) >= 10 for s in sets)


def test_paraphrase_loader_refuses_short_sets(tmp_path):
    (tmp_path / "x.yaml").write_text(
        "relation: r\ndomain: medical\nas_of: '2025-01-01'\npredicate: maxDose\n"
        "sets:\n  - id: a\n    expected: supported\n    wordings: [one, two]\n"
    )
    with pytest.raises(ValueError, match="10 distinct wordings"):
        load_paraphrase_sets(tmp_path)


def test_medical_paraphrases_keep_their_verdict(auditor_obj):
    sets = [s for s in load_paraphrase_sets(PARAPHRASE) if s["domain"] == "medical"]
    report = run_paraphrases(sets, _audit(auditor_obj))
    assert report["rates"]["all"]["rate"] == 1.0, report["failures"]
