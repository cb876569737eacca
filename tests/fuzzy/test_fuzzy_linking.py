"""Fuzzy linking on the shipped graphs: examples, type constraints, what audits record, and
precision/recall on generated misspellings, abbreviations and case variants."""

from __future__ import annotations

import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from auditor.extract.context import compile_rule
from auditor.extract.fuzzy import FuzzyParams
from auditor.extract.fuzzy.index import NGRAMS
from measure.evaluation.fuzzy_linking import make_variants, measure, prepare


def _link(auditor, domain: str, text: str):  # type: ignore[no-untyped-def]
    rules = [compile_rule(r) for r in auditor.rules.for_domain(domain)]
    exact = auditor.linker().link(text, domains=[domain])
    return auditor.fuzzy_linker.link(text, exact, domain=domain, rules=rules)


@pytest.mark.parametrize(
    ("domain", "text", "expected"),
    [
        (
            "medical",
            "Warfrin interacts with ibuprofin, so avoid using them together.",
            {"Warfrin": "drug:warfarin", "ibuprofin": "drug:ibuprofen"},
        ),
        (
            "legal",
            "In Brown v. Bd. of Ed., 347 U.S. 483 (1954), the Court held as much.",
            {"Brown v. Bd. of Ed.": "case:347 U.S. 483"},
        ),
        (
            "legal",
            "Miranda v. Arizna was decided in 1966.",
            {"Miranda v. Arizna": "case:384 U.S. 436"},
        ),
        (
            "finance",
            "The Sixth Anti-Money Laundring Directive entered into force on July 9, 2024.",
            {"Sixth Anti-Money Laundring Directive": "regulation:amld6"},
        ),
    ],
    ids=["drugs", "bluebook-abbreviations", "case-name", "regulation"],
)
def test_misspelled_and_abbreviated_names_are_linked(auditor_obj, domain, text, expected) -> None:
    found = {m.text: m.candidates[0] for m in _link(auditor_obj, domain, text)}
    for surface, entity in expected.items():
        assert found.get(surface) == entity, found


def test_fuzzy_mentions_carry_their_score(auditor_obj) -> None:
    fuzzy = [m for m in _link(auditor_obj, "medical", "Avoid warfrin.") if m.fuzzy_score]
    assert fuzzy and 0.7 <= fuzzy[0].fuzzy_score < 1.0


def test_the_sentence_rules_out_entity_types(auditor_obj) -> None:
    """ "hypertenson" is a condition: fine after "indicated for", not as a drug interaction."""
    indicated = _link(auditor_obj, "medical", "Lisinopril is indicated for hypertenson.")
    assert any(m.text == "hypertenson" and m.types[0] == "Condition" for m in indicated)
    interacts = _link(auditor_obj, "medical", "Lisinopril interacts with hypertenson.")
    assert not any(m.text == "hypertenson" for m in interacts)


def test_out_of_graph_names_and_numbers_stay_unlinked(auditor_obj) -> None:
    assert not [
        m
        for m in _link(auditor_obj, "legal", "See Hartwell v. Meridian Logistics, Inc.")
        if m.fuzzy_score
    ]
    basel = _link(auditor_obj, "finance", "Basel IIII sets the leverage ratio at 3%.")
    assert not [m for m in basel if m.fuzzy_score and "II" in m.text]


def test_audit_records_the_fuzzy_link_on_the_claim_and_in_the_evidence(auditor_obj) -> None:
    d = auditor_obj.audit(
        # a prescription maximum: the graph's 4,000 mg is a prescription (OFIRMEV) label's
        "The prescription maximum of acetaminophin is 4,000 mg a day.",
        domain="medical",
        as_of="2025-01-15",
    ).to_dict()
    claim = next(c for c in d["claims"] if c["subject"] == "drug:acetaminophen")
    # a misspelt name is never turned into support: reported, with what it would have been
    assert claim["verdict"] == "unverifiable"
    assert "unknown name 'acetaminophin' (did you mean Acetaminophen?)" in claim["reason"]
    assert "would be supported" in claim["reason"]
    assert 0.7 <= claim["fuzzy_link_score"] < 1.0
    assert claim["evidence"][0]["role"] == "fuzzy_link"
    assert claim["evidence"][0]["mention"] == "acetaminophin"


def test_query_vectors_match_scikit_learn(auditor_obj) -> None:
    index = auditor_obj.fuzzy_linker.index()
    names = index.keys[:300]
    vec = TfidfVectorizer(analyzer="char_wb", ngram_range=NGRAMS, vocabulary=index.vocab)
    vec.fit(names)
    vec.idf_ = index.idf
    ours, theirs = index.vectorize(names).toarray(), vec.transform(names).toarray()
    assert abs(ours - theirs).max() < 1e-5


@pytest.mark.slow
def test_precision_and_recall_on_generated_variants(auditor_obj) -> None:
    """A small sample here; ``kgaudit eval --fit`` measures ≥ 1,000 mentions per domain."""
    variants = make_variants(auditor_obj.kb, auditor_obj.linker(), seed=21, per_domain=120)
    res = measure(
        prepare(variants, auditor_obj.linker(), auditor_obj.fuzzy_linker),
        auditor_obj.fuzzy_linker,
        auditor_obj.rules,
    )
    for d in ("finance", "medical", "legal"):
        assert res[d]["mentions"] >= 120
        assert res[d]["precision"] >= 0.95, (d, res[d])
        assert res[d]["recall"] >= 0.85, (d, res[d])


def test_calibration_is_shipped_for_every_domain() -> None:
    params = FuzzyParams.load()
    assert params.version.startswith("fuzzy-")
    for d in ("finance", "medical", "legal"):
        tau, margin = params.for_domain(d)
        assert 0.5 < tau < 1.0 and 0.0 <= margin < 0.5
