"""Issue 24, law: decision years in a copula ("X was a 1963 case") and in a list of decisions
("Bell Atlantic v. Twombly in 2007 and Ashcroft v. Iqbal in 2009").

Labelled against the graph's decided dates (Gideon v. Wainwright 1963, Bell Atlantic v.
Twombly 2007, Ashcroft v. Iqbal 2009, Roe v. Wade 1973). Sentences are written for this file.
A year after a case named as an object of another event ("Casey reaffirmed Roe v. Wade in
1992") or in a list not called decisions stays unread.
"""

from __future__ import annotations

import pytest

ROWS = [
    ("copula-right", "Gideon v. Wainwright was a 1963 case.", "Gideon", "supported"),
    ("copula-wrong", "Gideon v. Wainwright was a 1961 case.", "Gideon", "contradicted"),
    ("list-right", "In a pair of decisions, Bell Atlantic v. Twombly in 2007 and Ashcroft v. "
     "Iqbal in 2009, the Court tightened pleading standards.", "Iqbal", "supported"),
    ("list-wrong", "In two cases, Roe v. Wade in 1971 and Doe v. Bolton in 1973, the Court "
     "ruled on abortion laws.", "Roe", "contradicted"),
    ("other-event", "Casey reaffirmed Roe v. Wade in 1992.", "Roe", None),
    ("including", "The brief cited cases including Roe v. Wade in 1992.", "Roe", None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "name", "verdict"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])  # fmt: skip
def test_decision_year(auditor_obj, text: str, name: str, verdict: str | None) -> None:
    res = auditor_obj.audit(text, domain="legal", as_of="2025-08-01")
    mine = [c for c in res.claims if c.predicate == "decided" and name in (c.subject_label or "")]
    if verdict is None:
        assert not mine, [(c.object, c.verdict, c.reason) for c in mine]
        return
    assert mine, [(c.subject_label, c.predicate, c.verdict) for c in res.claims]
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the date's clause has a subject of its own ("Brown", not linked here): not Plessy's
        ('Plessy v. Ferguson (1896) upheld "separate but equal"; Brown rejected it in 1954.',
         "supported"),
        # a pronoun or "the Court" continues the case's clause
        ("Roe v. Wade was decided in 1973; the Court ruled in 1971.", "contradicted"),
    ],
)  # fmt: skip
def test_another_subjects_clause_dates_its_own_event(auditor_obj, text: str, verdict: str) -> None:
    res = auditor_obj.audit(text, domain="legal", as_of="2025-08-01")
    got = {c.verdict for c in res.claims if c.predicate == "decided"}
    assert verdict in got and (verdict == "contradicted" or "contradicted" not in got), [
        (c.object, c.verdict, c.reason) for c in res.claims
    ]
