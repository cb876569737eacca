"""Issue 24, medicine: a drug said to belong to a pharmacologic class (MED-CLASS).

Labelled against knowledge_graphs/curated/medical/classes.yaml (sertraline among the SSRIs,
lisinopril among the ACE inhibitors, losartan among the ARBs). Sentences are written for this
file. Only a direct statement of membership is read; a class the graph does not list the drug
in is unverifiable (the class lists are the labels' named members, no class is recorded as
exclusive of another), and only a negation between the drug and the class denies it.
"""

from __future__ import annotations

import pytest

ROWS = [
    ("copula-right", "Sertraline is an SSRI.", "drug:sertraline", "supported"),
    ("belongs-right", "Sertraline belongs to a class of drugs called SSRIs.", "drug:sertraline",
     "supported"),
    ("denied-wrong", "Sertraline is not an SSRI.", "drug:sertraline", "contradicted"),
    ("unlisted-class", "Losartan is an ACE inhibitor.", "drug:losartan", "unverifiable"),
    ("other-class-denied", "Lisinopril is an ACE inhibitor, not an ARB.", "drug:lisinopril",
     "supported"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "verdict"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])  # fmt: skip
def test_membership(auditor_obj, text: str, subject: str, verdict: str) -> None:
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [c for c in res.claims if c.predicate == "memberOf" and c.subject == subject]
    assert mine, [(c.subject, c.predicate, c.verdict) for c in res.claims]
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]


def test_a_class_named_with_an_interaction_is_no_membership(auditor_obj) -> None:
    res = auditor_obj.audit(
        "Sertraline must not be combined with MAOIs.", domain="medical", as_of="2025-09-01"
    )
    assert not [c for c in res.claims if c.predicate == "memberOf"]


def test_a_contracted_copula_denies_too(auditor_obj) -> None:
    res = auditor_obj.audit("Sertraline isn't an SSRI.", domain="medical", as_of="2025-09-01")
    assert {c.verdict for c in res.claims if c.predicate == "memberOf"} == {"contradicted"}
