"""Issue 28 item 2, third pass: maximum doses quoted from label text read verbatim.

Each case names the drug, the stored maximum (mg/day) and a fragment of the label sentence now
stored as its quote; the quote must pass the builder's role check, and the fact must cite the
set-id-titled label that `sources.yaml` pins.
"""

from __future__ import annotations

import pytest

from knowledge_graphs.builders.quotes import limit_role_error

CASES = [
    # drug, max mg/day, with_drugs, quote fragment, set id
    (
        "amlodipine",
        10,
        None,
        "the maximum dose is 10 mg once daily",
        "7367289c-b0b0-466a-83e2-558e2985c29f",
    ),
    (
        "losartan",
        100,
        None,
        "maximum dose of 100 mg once daily",
        "9949448f-c3b9-44ee-94ed-c1aca8c90f39",
    ),
    (
        "atorvastatin",
        80,
        None,
        "dosage range is 10 mg to 80 mg",
        "a60cc18b-0631-4cf0-b021-9f52224ece65",
    ),
    (
        "atorvastatin",
        20,
        "clarithromycin",
        "clarithromycin or itraconazole, do not exceed LIPITOR 20 mg",
        "a60cc18b-0631-4cf0-b021-9f52224ece65",
    ),
    (
        "atorvastatin",
        40,
        "nelfinavir",
        "nelfinavir, do not exceed LIPITOR 40 mg",
        "a60cc18b-0631-4cf0-b021-9f52224ece65",
    ),
    (
        "glimepiride",
        8,
        None,
        "Maximum recommended dose is 8 mg once daily",
        "0003458f-352a-46fa-9d99-230daa76ae29",
    ),
    (
        "oxybutynin",
        30,
        None,
        "up to a maximum of 30 mg/day",
        "02ff3be7-fc5c-4b91-8c67-ecdf6e19c42a",
    ),
    (
        "meloxicam",
        15,
        None,
        "maximum recommended daily oral dose of meloxicam is 15 mg",
        "eae60d2c-411c-460a-b673-05b5784ed943",
    ),
    (
        "glipizide",
        20,
        None,
        "The maximum recommended dose is 20 mg once daily.",
        "8aa8ee11-19fd-82a1-e053-2995a90ad7b0",
    ),
    (
        "pioglitazone",
        45,
        None,
        "up to a maximum of 45 mg once daily",
        "22569835-bc9f-7787-e063-6394a90a6232",
    ),
    (
        "rizatriptan",
        30,
        None,
        "maximum dose in a 24-hour period: 30 mg",
        "187204ef-5370-476a-84b1-e3c54b60c6c2",
    ),
]


def _maxima(kb, drug, value, with_drug):
    out = []
    for f in kb.facts_about(f"drug:{drug}", "maxDose"):
        q = f.qualifiers
        if q.get("kind") != "label_maximum" or f.value != value:
            continue
        co_medication = str(q.get("co_medication") or "")
        if (with_drug is None) != (not co_medication):
            continue
        if with_drug is not None and with_drug not in co_medication:
            continue
        out.append(f)
    return out


@pytest.mark.parametrize(("drug", "value", "with_drug", "fragment", "set_id"), CASES)
def test_maximum_carries_its_label_sentence_and_pinned_source(
    kb, drug, value, with_drug, fragment, set_id
):
    facts = [f for f in _maxima(kb, drug, value, with_drug) if f.qualifiers.get("quote")]
    assert len(facts) == 1, [f.qualifiers for f in _maxima(kb, drug, value, with_drug)]
    (f,) = facts
    quote = f.qualifiers["quote"]
    assert fragment in quote
    assert limit_role_error(quote) is None
    assert set_id in f.source.document
    assert f.source.version and f.source.document_id == f"dailymed-setid:{set_id}"


@pytest.mark.parametrize(("drug", "value"), [("oxybutynin", 30), ("glipizide", 20)])
def test_extended_release_maximum_names_the_formulation_not_the_brand(kb, drug, value):
    """The sentence was read in a generic (or authorized-generic) extended-release label, so the
    entry names the formulation, not DITROPAN XL / GLUCOTROL XL."""
    (f,) = [f for f in _maxima(kb, drug, value, None) if f.qualifiers.get("quote")]
    assert f.qualifiers["product"] == "extended-release tablets"
