"""Issue 24, medicine: the drug a dosing verb takes as its object, and a maximum that differs
between treating and preventing.

Labelled against knowledge_graphs/curated/medical/doses.yaml: ibuprofen 3,200 mg/day (Rx
label) and 1,200 mg/day (OTC 200 mg tablets); colchicine (COLCRYS) 1.8 mg over one hour for
treatment of gout flares and 1.2 mg/day for prophylaxis of gout flares. Sentences are written
for this file. "Take ibuprofen ..." doses ibuprofen ("if you take warfarin ..." still names a
co-medication). When a drug's labelled maxima for one condition differ between treatment and
prevention, a sentence must say which it means; otherwise the claim is unverifiable. A count
of tablets of a product named in full (brand and every other word of its label's product
name) is counted at that label's strength; a brand alone names no strength.
"""

from __future__ import annotations

import pytest

IBU, COL, APAP = "drug:ibuprofen", "drug:colchicine", "drug:acetaminophen"
ROWS = [
    # (id, text, subject, verdict)
    ("take-object-right", "Take ibuprofen 400 mg every 4 hours, up to a maximum of 3,200 mg a "
     "day.", IBU, "supported"),
    ("you-can-take-wrong", "You can take ibuprofen 400 mg every 4 hours, up to a maximum of "
     "4,800 mg a day.", IBU, "contradicted"),
    ("take-object-imperative-bullet", "- Take ibuprofen, up to a maximum of 3,200 mg a day.",
     IBU, "supported"),
    ("flare-right", "For a gout flare, the maximum colchicine dose is 1.8 mg over one hour.", COL,
     "supported"),
    ("flare-course-wrong", "Take colchicine 1.2 mg at the first sign of a gout flare, then 0.6 "
     "mg every hour, up to a maximum of 4.8 mg.", COL, "contradicted"),
    ("prevention-right", "To prevent gout flares, take no more than 1.2 mg of colchicine per "
     "day.", COL, "supported"),
    # 1.8 mg is the flare treatment's maximum, not prophylaxis's: never supported by it
    ("prevention-wrong", "For gout prophylaxis, the maximum colchicine dose is 1.8 mg.", COL,
     "contradicted"),
    ("use-unsaid", "For gout, do not take more than 1.8 mg of colchicine.", COL, "unverifiable"),
    # a count of tablets of a product named by brand and every word of its name: that label's
    # strength (TYLENOL Extra Strength 500 mg caplets, 6 caplets = 3,000 mg in 24 hours)
    ("named-product-count-right", "Don't exceed 6 caplets of Tylenol Extra Strength in 24 "
     "hours.", APAP, "supported"),
    ("named-product-count-wrong", "Don't exceed 8 tablets of Extra Strength Tylenol in 24 "
     "hours.", APAP, "contradicted"),
    ("brand-alone-count", "Don't take more than 8 tablets of Tylenol in 24 hours.", APAP,
     "unverifiable"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "verdict"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])  # fmt: skip
def test_dose_use_and_object(auditor_obj, text: str, subject: str, verdict: str) -> None:
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [
        c
        for c in res.claims
        if c.subject == subject and c.predicate == "maxDose" and c.frame.role == "maximum"
    ]
    assert mine, [(c.subject, c.predicate, c.verdict, c.reason) for c in res.claims]
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]


def test_unsaid_use_names_what_is_missing(auditor_obj) -> None:
    res = auditor_obj.audit(
        "For gout, do not take more than 1.8 mg of colchicine.",
        domain="medical",
        as_of="2025-09-01",
    )
    (c,) = [c for c in res.claims if c.predicate == "maxDose"]
    assert "treatment and prevention" in (c.reason or "")


def test_take_with_a_co_medication_is_still_a_condition(auditor_obj) -> None:
    """ "If you take warfarin" names a co-medication: acetaminophen is dosed, warfarin is not."""
    res = auditor_obj.audit(
        "If you take warfarin, do not exceed 2,000 mg of acetaminophen a day.",
        domain="medical",
        as_of="2025-09-01",
    )
    doses = [c for c in res.claims if c.predicate == "maxDose"]
    assert {c.subject for c in doses} == {APAP}, [(c.subject, c.reason) for c in doses]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the 325 mg tablets' 3,900 mg is one strength's maximum (500 mg caplets: 4,000 mg)
        ("| Drug | Max per day (OTC) |\n|---|---|\n| Aspirin | 4,000 mg |", "unverifiable"),
        ("Do not take more than 16 tablets of 325 mg aspirin in 24 hours.", "contradicted"),
        ("Do not take more than 12 tablets of 325 mg aspirin in 24 hours.", "supported"),
    ],
)
def test_a_strength_specific_maximum_needs_the_strength(
    auditor_obj, text: str, verdict: str
) -> None:
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [c for c in res.claims if c.subject == "drug:aspirin" and c.predicate == "maxDose"]
    assert mine and {c.verdict for c in mine} == {verdict}, [
        (c.object, c.verdict, c.reason) for c in mine
    ]
