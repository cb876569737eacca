"""Issue 24, medicine: a maximum said in an apposition after the value, and a drug code name
made of function words.

Labelled against knowledge_graphs/curated/medical/doses.yaml: escitalopram 20 mg/day (major
depressive disorder), sertraline 200 mg/day. Sentences are written for this file.
"increased to 40 mg if needed, which is the maximum" states 40 mg as the maximum (the
apposition past the clause's comma says what the value is); "10 mg daily, the maximum being
20 mg" gives the maximum its own value, so 10 mg stays a direction. "at 10" is a code name of
dihydrotachysterol in the drug dictionary; "start at 10 mg" names no drug.
"""

from __future__ import annotations

import pytest

from knowledge_graphs.builders.medical import only_function_words

ESC, SER = "drug:escitalopram", "drug:sertraline"
ROWS = [
    # (id, text, subject, value, verdict)
    ("apposed-wrong", "Escitalopram is usually started at 10 mg once daily and increased to 40 "
     "mg if needed, which is the maximum.", ESC, 40, "contradicted"),
    ("apposed-right", "Escitalopram is usually started at 10 mg once daily and increased to 20 "
     "mg if needed, which is the maximum.", ESC, 20, "supported"),
    ("apposed-daily-dose", "Sertraline can be increased to 200 mg, which is the maximum daily "
     "dose.", SER, 200, "supported"),
    # the maximum goes on to its own value: the first value is not it
    ("maximum-with-own-value", "Take escitalopram 10 mg daily, the maximum being 20 mg.", ESC,
     10, "unverifiable"),
    ("maximum-is-stated-after", "Take escitalopram 10 mg daily, the maximum is 20 mg.", ESC, 10,
     "unverifiable"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "value", "verdict"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])  # fmt: skip
def test_apposed_maximum(auditor_obj, text: str, subject: str, value: float, verdict: str):
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [c for c in res.claims if c.predicate == "maxDose" and c.quantity
            and c.quantity.value == value]  # fmt: skip
    assert mine, [(c.subject, c.object, c.verdict, c.reason) for c in res.claims]
    assert {c.subject for c in mine} == {subject}
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]


def test_start_at_10_names_no_drug(auditor_obj) -> None:
    res = auditor_obj.audit(
        "Escitalopram: start at 10 mg daily; the dose may be increased to 40 mg daily, which is "
        "the maximum dose.",
        domain="medical",
        as_of="2025-09-01",
    )
    assert {c.subject for c in res.claims if c.predicate == "maxDose"} == {ESC}
    assert "contradicted" in {c.verdict for c in res.claims}


def test_function_word_aliases_are_not_linked(kb) -> None:
    assert only_function_words("at 10") and not only_function_words("all clear")
    names = {n.lower() for n in kb.entity("drug:dihydrotachysterol").names()}
    assert "at 10" not in names and "dihydrotachysterol" in names
