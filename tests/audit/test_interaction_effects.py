"""Issue 24, medicine: an interaction stated as one drug changing the other's levels or
effect, and "don't take X if you use Y".

Labelled against knowledge_graphs/curated/medical/interactions.yaml (clarithromycin and
ketoconazole with simvastatin, omeprazole with clopidogrel, sildenafil with nitroglycerin).
Sentences are written for this file. A denied effect ("does not raise simvastatin levels") is
no denial of the interaction — sertraline need not change warfarin levels to raise the bleeding
risk — so it is unverifiable, never supported and never contradicted.
"""

from __future__ import annotations

import pytest

ROWS = [
    ("raises-levels", "Clarithromycin raises simvastatin levels.", "drug:clarithromycin",
     "supported"),
    ("increases-blood-levels-of", "Ketoconazole increases the blood levels of simvastatin.",
     "drug:ketoconazole", "supported"),
    ("reduces-effect-of", "Omeprazole reduces the effect of clopidogrel.", "drug:omeprazole",
     "supported"),
    ("if-you-use", "Don't take sildenafil if you use nitroglycerin.", "drug:sildenafil",
     "supported"),
    ("effect-denied", "Clarithromycin does not raise simvastatin levels.", "drug:clarithromycin",
     "unverifiable"),
    ("effect-denied-2", "Omeprazole does not reduce the effect of clopidogrel.",
     "drug:omeprazole", "unverifiable"),
    # an interaction denied outright is still contradicted
    ("interaction-denied", "Simvastatin and clarithromycin don't interact.", "drug:simvastatin",
     "contradicted"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "verdict"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])  # fmt: skip
def test_interaction_effect(auditor_obj, text: str, subject: str, verdict: str) -> None:
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [
        c for c in res.claims if c.predicate == "interactsWith" and subject in (c.subject, c.object)
    ]
    assert mine, [(c.subject, c.predicate, c.verdict) for c in res.claims]
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]


@pytest.mark.parametrize(
    "text",
    [
        "Ibuprofen reduces fever and acetaminophen reduces pain.",
        "Aspirin reduces the risk of stroke; ibuprofen does not.",
    ],
)
def test_two_drugs_with_their_own_effects_are_no_denial(auditor_obj, text: str) -> None:
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    assert not [c for c in res.claims if c.verdict == "contradicted"], [
        (c.predicate, c.reason) for c in res.claims
    ]
