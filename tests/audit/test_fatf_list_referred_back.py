"""Issue 24, finance: "this list" refers to the FATF list the sentence before names, and a
semicolon may open the list of countries.

Labelled against knowledge_graphs/curated/finance/fatf.yaml: Kenya and Namibia added to the
grey list (Jurisdictions under Increased Monitoring) on 2024-02-23; Jamaica on it since
before that. Sentences are written for this file.
"""

from __future__ import annotations

import pytest

LEAD = (
    "At its February plenary, FATF updated its list of Jurisdictions under Increased "
    "Monitoring (known as the grey list). "
)


@pytest.mark.parametrize(
    ("text", "country", "verdict"),
    [
        (LEAD + "Two countries were added to this list; Kenya and Namibia.", "Namibia",
         "supported"),
        (LEAD + "Two countries were added to this list; Kenya and Jamaica.", "Jamaica",
         "contradicted"),
    ],
)  # fmt: skip
def test_this_list(auditor_obj, text: str, country: str, verdict: str) -> None:
    res = auditor_obj.audit(text, domain="finance", as_of="2024-03-28")
    mine = [c for c in res.claims if c.predicate == "fatfListed" and c.subject_label == country]
    assert mine, [(c.subject_label, c.predicate, c.verdict) for c in res.claims]
    assert {c.verdict for c in mine} == {verdict}, [(c.verdict, c.reason) for c in mine]
    assert {c.qualifiers.get("list_change") for c in mine} == {"added"}


def test_no_list_before_names_nothing(auditor_obj) -> None:
    res = auditor_obj.audit(
        "Two countries were added to this list; Kenya and Jamaica.",
        domain="finance",
        as_of="2024-03-28",
    )
    assert not [c for c in res.claims if c.predicate == "fatfListed"]
