"""A naming apposition inside a wrong sentence folds into that sentence's contradicted claim
(issue 24: a wrong sentence is never also reported as partly supported by its own naming).
Sentences written for this test; ranitidine's withdrawal (FDA, 2020-04-01) is the graph's."""

from __future__ import annotations

from auditor import audit


def test_brand_gloss_in_a_contradicted_sentence_is_evidence_not_a_support() -> None:
    text = "Ranitidine (Zantac) is still a good first choice for heartburn."
    r = audit(text, domain="medical", as_of="2024-06-01")
    wrong = [c for c in r.claims if c.verdict == "contradicted" and c.subject == "drug:ranitidine"]
    assert wrong, [(c.predicate, c.verdict) for c in r.claims]
    assert not [c for c in r.claims if c.verdict == "supported" and c.predicate == "brandName"]
    assert any(e.get("role") == "identified_by" for e in wrong[0].evidence)


def test_brand_gloss_in_a_correct_sentence_stays_a_claim() -> None:
    text = "Ranitidine (Zantac) was withdrawn from the US market in 2020."
    r = audit(text, domain="medical", as_of="2024-06-01")
    assert [c.verdict for c in r.claims if c.predicate == "brandName"] == ["supported"]
    assert not [c for c in r.claims if c.verdict == "contradicted"]


def test_wrong_brand_pairing_is_still_contradicted() -> None:
    text = "Fluoxetine (Zoloft) is an SSRI."
    r = audit(text, domain="medical", as_of="2024-06-01")
    assert "contradicted" in [c.verdict for c in r.claims if c.predicate == "brandName"]
