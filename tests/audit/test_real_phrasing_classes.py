"""Issue 24, medicine: classes of phrasing found unread in the real-phrasing corpus
(tests/corpus/real/medical.jsonl, sentences written by others), each fixed by one rule.
The sentences below are written for this file, in the same shapes.

Labelled against knowledge_graphs/curated/medical: zolpidem 10 mg/day (AMBIEN), pseudoephedrine
240 mg/day (OTC), sertraline 200 mg/day, citalopram 40 mg/day; washouts tadalafil → nitrates
48 hours (CIALIS), MAOI → SSRI 14 days (SSRI labels).

* "recommended highest / maximum dose" is a maximum, not a usual dose;
* "At no time should adults exceed N" bounds every dose;
* a prose sentence that names nothing ("Patients use one 120 mg pill every 12 hours.") does not
  end the paragraph's topic — a list item does (it binds to its heading);
* a class name of the drug dictionary beside or after the topic ("The antidepressant
  citalopram", "- type of serotonin uptake inhibitor;") describes it: it neither conditions
  the dose nor takes the topic's place;
* washouts: a drug "can be administered / given" after the interval is the one started; "to
  another antidepressant, such as an SSRI" — the example stands for its class; "after the last
  dose" is a wait even after "for"; "4 hours apart" is a spacing, "within 2 weeks of use" a wait;
* "..., which is false", "The idea that ... is a myth": the text refutes, it does not assert.
"""

from __future__ import annotations

import pytest

ZOL, PSE, SER, CIT = "drug:zolpidem", "drug:pseudoephedrine", "drug:sertraline", "drug:citalopram"
TAD, NITRATES = "drug:tadalafil", "drugclass:nitrates"
MAOI, SSRI = "drugclass:maois-psychiatric", "drugclass:ssris"


def _dose(res, subject, value):  # type: ignore[no-untyped-def]
    return [c for c in res.claims if c.predicate == "maxDose" and c.subject == subject
            and c.quantity is not None and c.quantity.value == value]  # fmt: skip


DOSES = [
    ("recommended-highest", "The recommended highest dose of zolpidem (Ambien) is 10 mg for adults.",
     ZOL, 10, "supported"),
    ("recommended-highest-wrong", "The recommended highest dose of zolpidem (Ambien) is 20 mg.",
     ZOL, 20, "contradicted"),
    ("at-no-time", "The 12-hour pseudoephedrine tablets are different. Patients use one 120 mg "
     "pill every 12 hours. At no time should adults exceed 240 mg a day.", PSE, 240, "supported"),
    ("at-no-time-wrong", "The 12-hour pseudoephedrine tablets are different. Patients use one "
     "120 mg pill every 12 hours. At no time should adults exceed 480 mg a day.", PSE, 480,
     "contradicted"),
    ("class-describes-topic", "Sertraline / Zoloft\n\n- Discussion:\n    - type of serotonin "
     "uptake inhibitor;\n    - maximum dose is 200 mg PO qd;", SER, 200, "supported"),
    ("class-apposed-not-a-condition", "The antidepressant citalopram hydrobromide (Celexa) should "
     "no longer be used at doses greater than 40 mg/d.", CIT, 40, "supported"),
    ("class-apposed-wrong", "The antidepressant citalopram (Celexa) should no longer be used at "
     "doses greater than 60 mg/d.", CIT, 60, "contradicted"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "value", "verdict"), [r[1:] for r in DOSES],
                         ids=[r[0] for r in DOSES])  # fmt: skip
def test_dose_phrasings(auditor_obj, text: str, subject: str, value: float, verdict: str):
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = _dose(res, subject, value)
    assert mine, [(c.subject, c.predicate, c.quantity) for c in res.claims]
    assert mine[0].verdict == verdict, mine[0].reason


def test_a_list_item_does_not_carry_the_topic_past_a_quiet_line(auditor_obj):
    """In a list, the line with no name binds to the heading, not to what the line before it
    named ("glucose" of "if more glucose lowering is needed")."""
    text = (
        "## Trulicity (dulaglutide) dose steps\n\n### Adult dose steps\n"
        "1. **Start:** 0.75 mg once weekly\n"
        "2. **Next step:** 1.5 mg once weekly if more glucose lowering is needed\n"
        "3. **Then:** 3 mg once weekly\n"
        "4. **Top dose:** 4.5 mg once daily\n"
    )
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    freq = [c for c in res.claims if c.predicate == "dosingFrequency" and "Top dose" in c.text]
    assert freq and freq[0].subject == "drug:dulaglutide"
    assert freq[0].verdict == "contradicted"


def _washout(res):  # type: ignore[no-untyped-def]
    return [c for c in res.claims if c.predicate == "washoutBefore"]


WASHOUTS = [
    ("label-drug-last-dose", "Tadalafil: No nitrates can be administered for at least 48 hours "
     "after the last dose.", TAD, NITRATES, "supported"),
    ("label-drug-last-dose-short", "Tadalafil: No nitrates can be administered for at least 12 "
     "hours after the last dose.", TAD, NITRATES, "contradicted"),
    ("given-after-last-dose-of", "No nitrates can be given for at least 48 hours after the last "
     "dose of tadalafil.", TAD, NITRATES, "supported"),
    ("example-stands-for-class", "When switching from a MAOI to another antidepressant, such as "
     "an SSRI, a drug-free period of 2 weeks is required.", MAOI, SSRI, "supported"),
    ("example-stands-for-class-short", "When switching from a MAOI to another antidepressant, "
     "such as an SSRI, a drug-free period of 1 week is enough.", MAOI, SSRI, "contradicted"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "stop", "start", "verdict"), [r[1:] for r in WASHOUTS],
                         ids=[r[0] for r in WASHOUTS])  # fmt: skip
def test_washout_phrasings(auditor_obj, text: str, stop: str, start: str, verdict: str):
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [c for c in _washout(res) if c.subject == stop and c.object == start]
    assert mine, [(c.subject, c.object, c.reason) for c in _washout(res)]
    assert mine[0].verdict == verdict, mine[0].reason


def test_spacing_is_not_a_washout_but_within_weeks_of_use_is(auditor_obj):
    spaced = auditor_obj.audit(
        "Take the two pills 4 hours apart after stopping lisinopril.",
        domain="medical",
        as_of="2025-09-01",
    )
    assert not _washout(spaced)
    within = auditor_obj.audit(
        "Rizatriptan is contraindicated with MAO inhibitors (within 2 weeks of use).",
        domain="medical",
        as_of="2025-09-01",
    )
    assert _washout(within)


@pytest.mark.parametrize(
    "text",
    [
        "Adults can take 8,000 mg of acetaminophen a day, which is false.",
        "The idea that adults can take 8,000 mg of acetaminophen a day is a myth.",
    ],
    ids=["which-is-false", "the-idea-that"],
)
def test_refuted_statement_is_not_asserted(auditor_obj, text: str):
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = _dose(res, "drug:acetaminophen", 8000)
    assert mine and mine[0].verdict == "unverifiable", [c.reason for c in mine]
