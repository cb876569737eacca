"""Issue 24, medicine: the date of a drug's market withdrawal.

Labelled against knowledge_graphs/curated/medical/drugs.yaml: ranitidine (Zantac) withdrawn
at the FDA's request of 2020-04-01; lorcaserin (Belviq) 2020-02-13. Sentences are written for
this file. Withdrawal symptoms, and a patient withdrawing from a trial, are not a market
withdrawal.
"""

from __future__ import annotations

import pytest

ROWS = [
    ("month-right", "Ranitidine was withdrawn from the US market in April 2020.",
     "drug:ranitidine", "supported"),
    ("fda-request-right", "On April 1, 2020, the FDA requested that manufacturers withdraw all "
     "ranitidine products.", "drug:ranitidine", "supported"),
    ("year-wrong", "The FDA requested the withdrawal of ranitidine in 2019.", "drug:ranitidine",
     "contradicted"),
    ("brand-right", "Belviq (lorcaserin) was withdrawn in February 2020.", "drug:lorcaserin",
     "supported"),
    ("pulled", "Zantac was pulled from shelves in 2020.", "drug:ranitidine", "supported"),
    ("symptoms", "In 2019, patients stopping ranitidine had withdrawal symptoms.",
     "drug:ranitidine", None),
    ("trial", "In 2018 many patients withdrew from the ranitidine trial.", "drug:ranitidine",
     None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "verdict"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])  # fmt: skip
def test_withdrawal_date(auditor_obj, text: str, subject: str, verdict: str | None) -> None:
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [c for c in res.claims if c.predicate == "withdrawn" and c.subject == subject
            and c.rule_id == "MED-WITHDRAWN-DATE"]  # fmt: skip
    if verdict is None:
        assert not mine, [(c.object, c.verdict, c.reason) for c in mine]
        return
    assert mine, [(c.subject, c.predicate, c.rule_id, c.verdict) for c in res.claims]
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]
