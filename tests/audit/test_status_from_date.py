"""Issue 24: a schedule stated from the day it takes effect, and hyphenated several-word names.

Labelled against knowledge_graphs/curated/medical/legal_status.yaml (tramadol not federally
controlled until 18 August 2014 and Schedule IV from that day, 79 FR 37623; hydrocodone
Schedule II) and washouts.yaml (an ACE inhibitor, then sacubitril/valsartan: 36 hours). Each
sentence is written for this file. A status "starting <day>" in the present tense is the
status on that day; a year or a month alone ("since 2014") is no day the status can be
checked on, and a past-tense sentence speaks of another time: both stay unverifiable.
"""

from __future__ import annotations

import pytest

ROWS = [
    # (id, text, subject, predicate, verdict); None: no claim of that relation
    ("starting-day-right", "Starting August 18, 2014, tramadol is a Schedule IV controlled "
     "substance.", "drug:tramadol", "controlledSchedule", "supported"),
    ("effective-day-right", "Effective October 6, 2014, hydrocodone must be prescribed as a "
     "Schedule II drug.", "drug:hydrocodone", "controlledSchedule", "supported"),
    ("trailing-starting-right", "Under the final rule, tramadol is classified as a Schedule IV "
     "controlled substance starting August 18, 2014.", "drug:tramadol", "controlledSchedule",
     "supported"),
    ("starting-day-wrong-schedule", "Starting August 18, 2014, tramadol is a Schedule III "
     "controlled substance.", "drug:tramadol", "controlledSchedule", "contradicted"),
    ("starting-day-wrong-day", "Starting August 18, 2010, tramadol is a Schedule IV controlled "
     "substance.", "drug:tramadol", "controlledSchedule", "contradicted"),
    ("since-year-only", "Since 2014, tramadol is a Schedule IV controlled substance.",
     "drug:tramadol", "controlledSchedule", "unverifiable"),
    ("past-tense", "Tramadol was not a controlled substance until August 18, 2014.",
     "drug:tramadol", "controlledSchedule", "unverifiable"),
    ("point-date", "On August 18, 2014, tramadol was placed in Schedule IV.", "drug:tramadol",
     "controlledSchedule", "unverifiable"),
    # -- a hyphen inside a several-word name ("ACE-inhibitor", "ACE-Inhibitor") -------------
    ("hyphenated-class-right", "You must wait 36 hours after the last dose of your "
     "ACE-Inhibitor before taking your first dose of Entresto.", "drugclass:ace-inhibitors",
     "washoutBefore", "supported"),
    ("hyphenated-class-wrong", "Wait 12 hours after the last dose of your ACE-inhibitor before "
     "taking your first dose of Entresto.", "drugclass:ace-inhibitors", "washoutBefore",
     "contradicted"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "predicate", "verdict"),
                         [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])  # fmt: skip
def test_status_from_date(
    auditor_obj, text: str, subject: str, predicate: str, verdict: str | None
) -> None:
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [c for c in res.claims if c.subject == subject and c.predicate == predicate]
    if verdict is None:
        assert not mine, [(c.object, c.verdict, c.reason) for c in mine]
        return
    assert mine, [(c.subject, c.predicate, c.verdict, c.reason) for c in res.claims]
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]


def test_wrong_day_names_the_day_it_took_effect(auditor_obj) -> None:
    """A status said to start before it did is a wrong date, and the reason gives the day."""
    res = auditor_obj.audit(
        "Starting August 18, 2010, tramadol is a Schedule IV controlled substance.",
        domain="medical",
        as_of="2025-09-01",
    )
    (c,) = [c for c in res.claims if c.predicate == "controlledSchedule"]
    assert c.hallucination_type == "wrong_date"
    assert "from 2014-08-18" in (c.reason or "")


def test_hyphen_links_only_several_word_names() -> None:
    """A hyphen between words matches the spaced name, and back; a one-word name inside a
    hyphenated word was already a match and stays one ("aspirin-like")."""
    from auditor.extract.linker import link_key

    assert link_key("ACE-Inhibitor") == "ace inhibitor"
    assert link_key("beta-blockers") == "beta blockers"
    assert link_key("-5 mg") == "-5 mg"  # a leading minus is no word hyphen
    assert len(link_key("co-trimoxazole — x")) == len("co-trimoxazole — x")
