"""Issue 24: a case relied on under an abbreviated citation name, Bluebook state
abbreviations, and a capital minimum a bank is "required to hold".

Labelled against knowledge_graphs/curated/legal/cases.yaml (Chevron, 467 U.S. 837, overruled
by Loper Bright in 2024; Quill Corp. v. North Dakota, 504 U.S. 298, overruled by Wayfair in
2018) and knowledge_graphs/curated/finance/basel.yaml (Tier 1 minimum 6 %, CET1 4.5 %).
Sentences are written for this file.
"""

from __future__ import annotations

import pytest

from auditor.verify.legal.names import _words

CHEVRON, QUILL = "case:467 U.S. 837", "case:504 U.S. 298"
LEGAL = [
    # (id, text, subject, predicate, verdict)
    # "Chevron" alone is linked inside the abbreviated name: the citation's whole name is the
    # mention, so the present-tense reliance after it is read
    ("abbreviated-name-reliance", "Under Chevron U.S.A. v. NRDC, 467 U.S. 837 (1984), courts "
     "defer to reasonable agency interpretations.", CHEVRON, "overruledBy", "contradicted"),
    ("abbreviated-name-past", "Under Chevron U.S.A. v. NRDC, 467 U.S. 837 (1984), courts "
     "deferred to agencies until 2024.", CHEVRON, "overruledBy", None),
    ("state-abbreviation-name", "Quill Corp. v. N.D., 504 U.S. 298 (1992), was overruled by "
     "South Dakota v. Wayfair.", QUILL, "citation", "supported"),
    ("state-abbreviation-overruled", "Quill Corp. v. N.D., 504 U.S. 298 (1992), was overruled "
     "by South Dakota v. Wayfair.", QUILL, "overruledBy", "supported"),
    ("wrong-name-still-wrong", "Smith v. Jones, 504 U.S. 298 (1992), holds that taxes are "
     "due.", QUILL, "citation", "contradicted"),
]  # fmt: skip
FINANCE = [
    ("required-to-hold-right", "Basel III requires banks to hold a minimum Tier 1 capital "
     "ratio of 6%.", "minimumRatio", "supported"),
    ("must-have-wrong", "Under Basel III, banks must have a minimum Tier 1 capital ratio of "
     "8%.", "minimumRatio", "contradicted"),
    ("own-figure", "The bank holds a Tier 1 ratio of 6%.", "minimumRatio", None),
    ("own-figure-has", "JPMorgan has a CET1 ratio of 15%.", "minimumRatio", None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "predicate", "verdict"), [r[1:] for r in LEGAL],
                         ids=[r[0] for r in LEGAL])  # fmt: skip
def test_legal(auditor_obj, text: str, subject: str, predicate: str, verdict: str | None) -> None:
    res = auditor_obj.audit(text, domain="legal", as_of="2025-08-01")
    mine = [c for c in res.claims if c.subject == subject and c.predicate == predicate]
    if verdict is None:
        assert not [c for c in mine if c.verdict != "unverifiable"], [
            (c.object, c.verdict, c.reason) for c in mine
        ]
        return
    assert mine, [(c.subject, c.predicate, c.verdict) for c in res.claims]
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]


@pytest.mark.parametrize(("text", "predicate", "verdict"), [r[1:] for r in FINANCE],
                         ids=[r[0] for r in FINANCE])  # fmt: skip
def test_finance(auditor_obj, text: str, predicate: str, verdict: str | None) -> None:
    res = auditor_obj.audit(text, domain="finance", as_of="2025-08-01")
    mine = [c for c in res.claims if c.predicate == predicate]
    if verdict is None:
        assert not mine, [(c.object, c.verdict, c.reason) for c in mine]
        return
    assert mine, [(c.subject, c.predicate, c.verdict) for c in res.claims]
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]


def test_state_abbreviations_need_their_period() -> None:
    assert _words("Quill Corp. v. N.D.") == ["quill", "corporation", "v", "north", "dakota"]
    assert _words("W. Va. Bd. of Educ. v. Barnette")[:2] == ["west", "virginia"]
    assert "oregon" not in _words("Smith or Jones v. Doe")  # "or" without a period is a word
    assert _words("Miss Smith v. Jones")[0] == "miss"


@pytest.mark.parametrize(
    ("text", "verdicts"),
    [
        # the total after the buffer is the minimum plus the buffer (4.5% + 2.5%)
        ("Under Basel III, the capital conservation buffer is 2.5% of risk-weighted assets, "
         "bringing the CET1 requirement to 7%.", {"supported"}),
        ("Under Basel III, the capital conservation buffer is 2.5% of risk-weighted assets, "
         "bringing the CET1 requirement to 8%.", {"supported", "contradicted"}),
    ],
)  # fmt: skip
def test_total_after_the_buffer(auditor_obj, text: str, verdicts: set[str]) -> None:
    res = auditor_obj.audit(text, domain="finance", as_of="2025-08-01")
    got = {c.verdict for c in res.claims if c.predicate == "minimumRatio"}
    assert got == verdicts, [(c.object, c.verdict, c.reason) for c in res.claims]


@pytest.mark.parametrize(
    "text",
    [
        # a part of the act applies from its own date (MiCA Titles III-IV: 30 June 2024)
        "MiCA's provisions on stablecoins applied from 30 June 2024 and the rest from 30 "
        "December 2024.",
        "The GDPR's rules on data protection officers have applied since 25 May 2018.",
    ],
)
def test_a_part_of_an_act_has_its_own_date(auditor_obj, text: str) -> None:
    res = auditor_obj.audit(text, domain="finance", as_of="2025-08-01")
    assert not [c for c in res.claims if c.verdict == "contradicted"], [
        (c.object, c.reason) for c in res.claims
    ]
