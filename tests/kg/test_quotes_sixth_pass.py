"""Issue 28, sixth quote pass: label sentences read in stored DailyMed pages.

Three `label_maximum` entries whose label sentence turned out to be a recommended dose (the
suspect maxima listed on the fifth pass) are now `usual_range`, quoted from the DailyMed page
read and pinned by its "Updated" date. The role check would refuse each quote as a maximum.
"""

from __future__ import annotations

import pytest

from knowledge_graphs.builders.quotes import limit_role_error

RECOMMENDED = [
    # drug, min, max (mg/day), quote fragment, set id, version
    (
        "saxagliptin",
        2.5,
        5,
        "Recommended dosage is 2.5 mg or 5 mg once daily",
        "6e390c1b-a539-48f4-af32-24723121afb8",
        "DailyMed label updated 2022-04-08",
    ),
    (
        "alogliptin",
        25,
        25,
        "The recommended dose in patients with normal renal function or mild renal impairment is 25 mg once daily.",
        "38d30e4f-4212-4f7a-96b5-74b277b56cba",
        "DailyMed label updated 2023-10-24",
    ),
    (
        "gemfibrozil",
        1200,
        1200,
        "The recommended dose for adults is 1200 mg administered in two divided doses",
        "42e40524-57e9-4fee-993f-be0fda14936b",
        "DailyMed label updated 2025-03-10",
    ),
]


@pytest.mark.parametrize(("drug", "low", "high", "fragment", "label", "version"), RECOMMENDED)
def test_recommended_dose_is_not_a_maximum(kb, drug, low, high, fragment, label, version):
    """The label gives a recommended dose and no maximum: the fact is a usual range."""
    facts = kb.facts_about(f"drug:{drug}", "maxDose")
    assert not [f for f in facts if f.qualifiers.get("kind") == "label_maximum"], drug
    (f,) = facts
    assert f.qualifiers["kind"] == "usual_range"
    assert (f.value, f.value_max or f.value) == (low, high)
    assert fragment in f.qualifiers["quote"]
    assert limit_role_error(f.qualifiers["quote"]) is not None
    assert f.source.document_id == f"dailymed-setid:{label}"
    assert f.source.version == version


@pytest.mark.parametrize(
    "claim",
    [
        "The maximum dose of saxagliptin is 5 mg per day.",
        "The maximum dose of alogliptin is 25 mg once daily.",
        "The maximum dose of gemfibrozil is 1200 mg a day.",
        "The maximum dose of desloratadine is 5 mg a day.",
    ],
)
def test_recommended_dose_claimed_as_maximum_is_unverifiable(auditor_obj, claim):
    """With the maximum gone, a claim that the recommended dose is the maximum is no longer
    backed by a label_maximum fact: it is unverifiable, neither supported nor contradicted."""
    claims = auditor_obj.audit(claim, domain="medical").to_dict()["claims"]
    assert claims and {c["verdict"] for c in claims} == {"unverifiable"}, claims


def test_desloratadine_recommended_dose_is_not_a_maximum(kb):
    """The Lupin label's 2.1 (DailyMed, 'Updated January 19, 2024'): 'The recommended dose of
    desloratadine tablets is one 5 mg tablet once ...' (the page cuts the sentence there). A
    recommended dose, so a usual range; the sentence was not read whole, so it stays
    unquoted."""
    (f,) = kb.facts_about("drug:desloratadine", "maxDose")
    assert f.qualifiers["kind"] == "usual_range"
    assert (f.value, f.value_max or f.value) == (5, 5)
    assert f.qualifiers.get("unquoted") == "true" and not f.qualifiers.get("quote")
