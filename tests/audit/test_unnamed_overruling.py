"""Issue 24, law: an overruling whose overruling decision the text does not name.

"Roe v. Wade was overturned in 2022", "In 2019, the Supreme Court overturned Roe v. Wade":
labelled against knowledge_graphs/curated/legal/cases.yaml (Roe overruled by Dobbs on
2022-06-24; Plessy by Brown on 1954-05-17; Chevron by Loper Bright on 2024-06-28; Miranda
not overruled). Sentences are written for this file. A dated claim is supported by an
overruling decided in that period and contradicted (wrong_date) when every recorded overruling
lies elsewhere; a case with no recorded overruling stays unverifiable. Only the Court (or no
agent) overrules: "overturned by Congress" is a legislative override, no claim.
"""

from __future__ import annotations

import pytest

ROE, PLESSY, MIRANDA, CHEVRON = (
    "case:410 U.S. 113",
    "case:163 U.S. 537",
    "case:384 U.S. 436",
    "case:467 U.S. 837",
)
ROWS = [
    ("passive-right", "Roe v. Wade was overturned in 2022.", ROE, "supported"),
    ("passive-wrong-year", "Roe v. Wade was overturned in 2020.", ROE, "contradicted"),
    ("court-subject-right", "In 2022, the Supreme Court overturned Roe v. Wade.", ROE,
     "supported"),
    ("court-subject-wrong", "In 2019, the Supreme Court overturned Roe v. Wade.", ROE,
     "contradicted"),
    ("effective-overruling-wrong", "Plessy v. Ferguson was overturned in 1964.", PLESSY,
     "contradicted"),
    ("undated", "Roe v. Wade was overturned.", ROE, "supported"),
    ("short-name", "The Supreme Court overturned Chevron in 2024.", CHEVRON, "supported"),
    ("own-year-in-brackets", "Roe v. Wade (1973) was overturned in 2022.", ROE, "supported"),
    ("citation", "Roe v. Wade, 410 U.S. 113 (1973), was overturned in 2022.", ROE, "supported"),
    ("relative-clause", "Roe v. Wade, which was overturned in 2022, had protected abortion "
     "rights.", ROE, "supported"),
    ("justices", "The justices overturned Roe v. Wade in 2022.", ROE, "supported"),
    ("none-recorded", "Miranda v. Arizona was overturned in 2000.", MIRANDA, "unverifiable"),
    # no claim at all
    ("legislative-override", "Ledbetter v. Goodyear Tire & Rubber Co. was overturned by "
     "Congress in 2009.", None, None),
    ("two-dates", "Roe v. Wade, decided in 1973, was overturned in 2019.", ROE, None),
    ("expected", "Many expected Roe v. Wade to be overturned in 2019.", ROE, None),
    ("declined", "The Court declined to overturn Roe v. Wade in 1992.", ROE, None),
    ("the-decision-that-overturned", "The Court overturned Texas's abortion ban in Roe v. "
     "Wade in 1973.", ROE, None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "verdict"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])  # fmt: skip
def test_unnamed_overruling(
    auditor_obj, text: str, subject: str | None, verdict: str | None
) -> None:
    res = auditor_obj.audit(text, domain="legal", as_of="2025-08-01")
    mine = [
        c
        for c in res.claims
        if c.predicate == "overruledBy"
        and c.qualifiers.get("overruler") == "unnamed"
        and (subject is None or c.subject == subject)
    ]
    if verdict is None:
        assert not [c for c in mine if c.verdict != "unverifiable"], [
            (c.subject, c.verdict, c.reason) for c in mine
        ]
        assert not [c for c in res.claims if c.verdict == "contradicted"], [
            (c.predicate, c.reason) for c in res.claims
        ]
        return
    assert mine, [(c.subject, c.predicate, c.verdict) for c in res.claims]
    assert {c.verdict for c in mine} == {verdict}, [(c.verdict, c.reason) for c in mine]


def test_wrong_year_names_the_overruling(auditor_obj) -> None:
    res = auditor_obj.audit(
        "Roe v. Wade was overturned in 2020.", domain="legal", as_of="2025-08-01"
    )
    (c,) = [c for c in res.claims if c.predicate == "overruledBy"]
    assert c.hallucination_type == "wrong_date"
    assert "Dobbs" in (c.reason or "") and "2022-06-24" in (c.reason or "")
