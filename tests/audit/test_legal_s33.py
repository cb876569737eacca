"""A citation of a case relied on as governing law after it was overruled is no verified
authority: its check is ``contradicted`` / ``overruled`` and its claim folds into the
reliance claim (issue 24: no verified citation on a labelled error). Sentences written for
this test; the overrulings are the graph's (Bowers by Lawrence v. Texas, 2003; Quill by
South Dakota v. Wayfair, 2018)."""

from __future__ import annotations

import pytest

from auditor import audit

RELIED = [
    (
        "Under Bowers v. Hardwick, 478 U.S. 186 (1986), a state may make private consensual "
        "conduct between adults a crime.",
        "478 U.S. 186",
    ),
    (
        "Under Quill Corp. v. North Dakota, 504 U.S. 298 (1992), a remote seller with no "
        "physical presence does not have to collect the state's sales tax.",
        "504 U.S. 298",
    ),
    (  # a case before the Supreme Court index's first Term: only the curated graph has it
        "Minimum resale prices remain per se illegal under Dr. Miles Medical Co. v. John D. "
        "Park & Sons Co., 220 U.S. 373 (1911).",
        "220 U.S. 373",
    ),
]


@pytest.mark.parametrize(("text", "cite"), RELIED)
def test_overruled_authority_relied_on_is_not_a_verified_citation(text: str, cite: str) -> None:
    r = audit(text, domain="legal", as_of="2024-01-01")
    checks = [c for c in r.citations if cite in c.text]
    assert checks and all(c.outcome == "contradicted" and c.reason == "overruled" for c in checks)
    assert not [c for c in r.claims if c.verdict == "supported" and c.subject == f"case:{cite}"]
    relied = [c for c in r.claims if c.subject == f"case:{cite}" and c.predicate == "overruledBy"]
    assert [c.verdict for c in relied] == ["contradicted"]
    assert any(e.get("role") == "citation_match" for e in relied[0].evidence)


def test_an_accurate_history_keeps_the_citation_verified() -> None:
    text = (
        "Quill Corp. v. North Dakota, 504 U.S. 298 (1992), was overruled by South Dakota v. "
        "Wayfair, Inc. in 2018."
    )
    r = audit(text, domain="legal", as_of="2024-01-01")
    checks = [c for c in r.citations if "504 U.S. 298" in c.text]
    assert checks and all(c.outcome == "verified" for c in checks)
    assert not [c for c in r.claims if c.verdict == "contradicted"]


def test_before_the_overruling_the_citation_stays_verified() -> None:
    r = audit(RELIED[1][0], domain="legal", as_of="2010-01-01")
    checks = [c for c in r.citations if "504 U.S. 298" in c.text]
    assert checks and all(c.outcome == "verified" for c in checks)
