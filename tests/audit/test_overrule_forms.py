"""Issue 24, law: "overruled A in B", and overrulings that were refused or only asked for.

Labelled against knowledge_graphs/curated/legal/cases.yaml: Plessy v. Ferguson overruled by
Brown v. Board of Education (1954); Austin v. Michigan Chamber of Commerce overruled by
Citizens United v. FEC (2010); Roe v. Wade overruled by Dobbs (2022), not by Planned
Parenthood v. Casey (1992), which reaffirmed its central holding. Sentences are written for
this file. A refused overruling ("declined to overrule") is a denial, never a claim that the
case was overruled; an overruling asked for, argued or weighed is no holding at all.
"""

from __future__ import annotations

import pytest

ROE, CASEY = "case:410 U.S. 113", "case:505 U.S. 833"
ROWS = [
    # (id, text, overruled case, verdicts allowed)
    ("in-case-right", "In 1954, the Supreme Court overturned Plessy v. Ferguson in Brown v. Board "
     "of Education, ruling that segregation in public schools was unconstitutional.",
     "case:163 U.S. 537", {"supported"}),
    ("in-case-with-citation", "The Court overruled Austin v. Michigan Chamber of Commerce, 494 "
     "U.S. 652 (1990), in Citizens United v. Federal Election Commission.", "case:494 U.S. 652",
     {"supported"}),
    ("in-case-wrong", "The Court overturned Roe v. Wade in Planned Parenthood v. Casey.", ROE,
     {"contradicted"}),
    ("in-decision-in-wrong", "The Court overruled Roe v. Wade in its decision in Planned "
     "Parenthood v. Casey.", ROE, {"contradicted"}),
    ("declined", "Planned Parenthood v. Casey declined to overrule Roe v. Wade.", ROE,
     {"unverifiable", "supported"}),
    ("declined-in-case", "The Court declined to overrule Roe v. Wade in Planned Parenthood v. "
     "Casey.", ROE, {"unverifiable", "supported"}),
    ("refused", "In Planned Parenthood v. Casey the Court refused to overturn Roe v. Wade.",
     ROE, {"unverifiable", "supported"}),
    ("asked", "In Planned Parenthood v. Casey the petitioners asked the Court to overrule Roe "
     "v. Wade.", ROE, {"unverifiable"}),
    ("argued-should", "Pennsylvania argued that the Court should overrule Roe v. Wade in "
     "Planned Parenthood v. Casey.", ROE, {"unverifiable"}),
    ("whether", "The question in Planned Parenthood v. Casey was whether to overrule Roe v. "
     "Wade.", ROE, {"unverifiable"}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "overruled", "allowed"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])  # fmt: skip
def test_overrule_forms(auditor_obj, text: str, overruled: str, allowed: set[str]) -> None:
    res = auditor_obj.audit(text, domain="legal", as_of="2025-01-01")
    mine = [c for c in res.claims if c.predicate == "overruledBy" and c.subject == overruled]
    assert mine, [(c.subject, c.predicate, c.verdict) for c in res.claims]
    assert {c.verdict for c in mine} <= allowed, [(c.object, c.verdict, c.reason) for c in mine]


def test_refused_overruling_is_never_contradicted_as_an_overruling(auditor_obj) -> None:
    """ "Casey declined to overrule Roe" is true; reading it as "Casey overruled Roe" would
    contradict a correct sentence."""
    res = auditor_obj.audit(
        "Planned Parenthood v. Casey declined to overrule Roe v. Wade, but it replaced the "
        "trimester framework with the undue-burden standard.",
        domain="legal",
        as_of="2025-01-01",
    )
    assert not [c for c in res.claims if c.verdict == "contradicted"], [
        (c.predicate, c.reason) for c in res.claims
    ]
    assert any(c.negated for c in res.claims if c.subject == ROE and c.object == CASEY)
