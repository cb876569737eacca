"""Issue 24: classes of phrasing found by the independent set v9 (tests/realistic/*/131-145),
in wordings of our own.

* an error the text reports ("Mistaken daily use of the weekly dose has caused deaths",
  'a "70 mg daily" sig is an error') is not asserted: no verdict either way.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "text",
    [
        "Methotrexate for psoriasis is taken once weekly. Mistaken daily use of the weekly "
        "dose has caused deaths.",
        'Alendronate 70 mg is the once-weekly tablet, so a "70 mg daily" prescription is an error.',
        "Methotrexate is weekly; doses taken daily by mistake have caused deaths.",
    ],
)
def test_a_reported_error_is_not_contradicted(auditor_obj, text):
    res = auditor_obj.audit(text, domain="medical", as_of="2026-03-01")
    assert not [c for c in res.claims if c.verdict == "contradicted"]


def test_the_same_frequency_asserted_is_contradicted(auditor_obj):
    res = auditor_obj.audit(
        "Methotrexate for psoriasis is taken once daily.", domain="medical", as_of="2026-03-01"
    )
    assert [c.verdict for c in res.claims if c.predicate == "dosingFrequency"] == ["contradicted"]


def _pairs(auditor_obj, text):
    res = auditor_obj.audit(text, domain="medical", as_of="2026-03-01")
    return [(c.subject, c.object, c.verdict) for c in res.claims if c.predicate == "interactsWith"]


def test_doesnt_affect_the_other_drug_denies_the_interaction(auditor_obj):
    # v9 miss real-med-133's class of phrasing: "they don't really affect lithium"
    got = _pairs(
        auditor_obj, "Furosemide doesn't affect lithium, so no extra monitoring is needed."
    )
    assert got == [("drug:furosemide", "drug:lithium", "contradicted")]
    # one effect denied stays unjudged
    got = _pairs(auditor_obj, "Furosemide doesn't affect lithium levels.")
    assert [v for *_, v in got] == ["unverifiable"]


def test_an_example_of_a_class_is_not_an_interaction_with_it(auditor_obj):
    text = "NSAIDs such as ibuprofen can raise blood pressure."
    assert not [p for p in _pairs(auditor_obj, text) if p[0].startswith("drugclass:")]


def test_a_negation_inside_the_proposition_is_not_the_cases_status(auditor_obj):
    # v9 real-law-136: an overruled case "remains the leading authority that X cannot ..." was
    # read as "no longer in force" and SUPPORTED
    text = ("*National League of Cities v. Usery*, 426 U.S. 833 (1976), remains the leading "
            "authority that the FLSA cannot be applied to state employees.")  # fmt: skip
    res = auditor_obj.audit(text, domain="legal", as_of="2026-03-01")
    status = [c for c in res.claims if c.rule_id == "LEG-GOOD-LAW"]
    assert [c.verdict for c in status] == ["contradicted"]
    text = "*National League of Cities v. Usery*, 426 U.S. 833 (1976), is no longer good law."
    res = auditor_obj.audit(text, domain="legal", as_of="2026-03-01")
    assert [c.verdict for c in res.claims if c.rule_id == "LEG-GOOD-LAW"] == ["supported"]
