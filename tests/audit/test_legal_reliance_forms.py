"""Issue 24: a case relied on in the present tense right after its full citation ("Chevron
U.S.A. v. NRDC, 467 U.S. 837 (1984), still requires courts to defer ...") claims it is good
law; the verb was looked for right after the name, so the citation between hid it. Chevron was
overruled by Loper Bright Enterprises v. Raimondo, 603 U.S. 369 (2024); Roe v. Wade by Dobbs
(2022). "Remains useful for describing the two prongs" is not reliance (Saucier, partly
overruled by Pearson v. Callahan, shared dev set dev-law-03), and an answer that names the
overruling case gives an account of it. A passive overruling takes any adverb ("was formally
overruled in", "was ultimately overruled by") without turning the pair round.
"""

from __future__ import annotations

import pytest


def _claims(auditor_obj, text):
    return auditor_obj.audit(text, domain="legal", as_of="2025-09-01").claims


@pytest.mark.parametrize(
    "text",
    [
        "Chevron U.S.A. v. NRDC, 467 U.S. 837 (1984), still requires courts to defer to "
        "reasonable agency interpretations.",
        "Roe v. Wade, 410 U.S. 113 (1973), protects a right to abortion.",
    ],
)
def test_present_reliance_after_the_citation(auditor_obj, text):
    got = [(c.predicate, c.verdict) for c in _claims(auditor_obj, text)]
    assert ("overruledBy", "contradicted") in got, got


@pytest.mark.parametrize(
    "text",
    [
        "Roe v. Wade, 410 U.S. 113 (1973), held that the Constitution protects a right to "
        "abortion.",
        "Saucier v. Katz, 533 U.S. 194 (2001), remains useful for describing the two prongs, "
        "but not for the order in which they must be addressed.",
        "Dobbs overruled Roe. Roe v. Wade, 410 U.S. 113 (1973), protects a right to abortion "
        "only in the history books.",
    ],
)
def test_past_account_or_usefulness_is_not_reliance(auditor_obj, text):
    bad = [(c.text, c.reason) for c in _claims(auditor_obj, text) if c.verdict == "contradicted"]
    assert not bad, bad


@pytest.mark.parametrize(
    ("text", "overruled", "overruling"),
    [
        ("Plessy v. Ferguson was ultimately overruled by Brown v. Board of Education.",
         "case:163 U.S. 537", "case:347 U.S. 483"),
        ("Bowers v. Hardwick was explicitly overruled in Lawrence v. Texas.",
         "case:478 U.S. 186", "case:539 U.S. 558"),
    ],
)  # fmt: skip
def test_passive_overruling_with_an_adverb(auditor_obj, text, overruled, overruling):
    got = [(c.subject, c.object, c.verdict) for c in _claims(auditor_obj, text)
           if c.predicate == "overruledBy"]  # fmt: skip
    assert got == [(overruled, overruling, "supported")], got
