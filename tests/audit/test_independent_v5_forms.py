"""Issue 24: classes of phrasing found by the independent sets v4/v5 (tests/realistic/*/101-116),
each written here in wordings of our own, with the label or graph fact that decides it.

* A washout whose stopped drug is marked at its second mention ("if you take an MAOI or for 2
  weeks after stopping the MAOI"), and one warning shared by a list of drugs ("X, Y and Z ...
  or for 2 weeks after stopping the MAOI"): OTC Drug Facts, phenylephrine: "or for 2 weeks
  after stopping the MAOI drug".
* "After a dose of tadalafil, at least N hours should pass before a nitrate is given": CIALIS,
  48 hours after the last dose before nitrate administration.
* "titration above N mg per day is not recommended" states a maximum (ADALAT CC: "titration to
  doses above 90 mg daily is not recommended"); "split doses above 15 mg" under a "Label
  maximum" column is a threshold, not the maximum (glipizide 40 mg/day IR).
* "not exceeding N mg" is a maximum (atorvastatin with clarithromycin: do not exceed 20 mg).
* A good-law statement about the part of a case that survived a partial overruling is
  unverifiable (Booth v. Maryland, overruled in part by Payne v. Tennessee); the whole case
  called good law stays contradicted.
* "those still cited as good law (A, B)": the status is said of the cases in the parenthesis.
* A rate dated by a year-less day ("the September 17 cut to 4.00%-4.25%") takes the heading's
  year, never the heading's own date; a day another clause's "later" moves away from, or
  another table cell's day, dates nothing.
"""

from __future__ import annotations

import pytest


def _claims(auditor_obj, text, domain, predicate, as_of="2025-09-01"):
    res = auditor_obj.audit(text, domain=domain, as_of=as_of)
    return [c for c in res.claims if c.predicate == predicate]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Do not use phenylephrine if you are taking an MAOI or for 1 week after stopping the "
         "MAOI.", "contradicted"),
        ("Do not use phenylephrine if you take an MAOI, or for 2 weeks after stopping the MAOI.",
         "supported"),
        ("Guaifenesin, dextromethorphan and phenylephrine share one warning: not while you are "
         "taking an MAOI, or for 10 days after stopping the MAOI.", "contradicted"),
    ],
)  # fmt: skip
def test_washout_role_from_any_mention_and_a_shared_warning(auditor_obj, text, verdict):
    found = [c for c in _claims(auditor_obj, text, "medical", "washoutBefore")
             if c.object == "drug:phenylephrine"]  # fmt: skip
    assert [c.verdict for c in found] == [verdict], [(c.object, c.reason) for c in found]
    assert found[0].subject == "drugclass:maois-psychiatric"


def test_a_shared_warning_claims_nothing_the_graph_lacks(auditor_obj):
    text = ("Dextromethorphan and phenylephrine share one warning: not while you are taking an "
            "MAOI, or for 2 weeks after stopping the MAOI.")  # fmt: skip
    by_drug = {c.object: c.verdict for c in _claims(auditor_obj, text, "medical", "washoutBefore")}
    assert by_drug == {"drug:dextromethorphan": "unverifiable", "drug:phenylephrine": "supported"}


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("After a dose of tadalafil, at least 12 hours should pass before a nitrate is given.",
         "contradicted"),
        ("After a dose of tadalafil, at least 48 hours should pass before a nitrate is given.",
         "supported"),
    ],
)  # fmt: skip
def test_after_a_dose_of_marks_the_drug_taken_first(auditor_obj, text, verdict):
    found = _claims(auditor_obj, text, "medical", "washoutBefore")
    assert [(c.subject, c.verdict) for c in found] == [("drug:tadalafil", verdict)]


@pytest.mark.parametrize(
    ("text", "value", "verdict"),
    [
        ("For blood pressure, nifedipine extended-release (Adalat CC) starts at 30 mg once "
         "daily, and titration above 150 mg per day is not recommended.", "150 mg per day",
         "contradicted"),
        ("Adalat CC (nifedipine extended-release): titration to doses above 90 mg daily is not "
         "recommended.", "90 mg per day", "supported"),
        ("With clarithromycin, atorvastatin is given not exceeding 40 mg daily.",
         "40 mg per day", "contradicted"),
    ],
)  # fmt: skip
def test_a_bound_advised_against_above_is_a_maximum(auditor_obj, text, value, verdict):
    found = {c.object: c for c in _claims(auditor_obj, text, "medical", "maxDose")}
    assert value in found, list(found)
    assert found[value].verdict == verdict, found[value].reason


def test_a_threshold_under_a_maximum_column_is_not_the_maximum(auditor_obj):
    text = (
        "| Drug | Start | Label maximum |\n|---|---|---|\n"
        "| Glipizide | 5 mg before breakfast | 40 mg per day; divide doses above 15 mg |"
    )
    found = {c.object: c for c in _claims(auditor_obj, text, "medical", "maxDose")}
    assert found["40 mg per day"].verdict == "supported"
    assert found["15 mg"].verdict == "unverifiable"
    assert "threshold" in (found["15 mg"].reason or "")


def test_the_surviving_part_of_a_partly_overruled_case(auditor_obj):
    text = ("Payne left open the part of Booth v. Maryland, 482 U.S. 496 (1987), on family "
            "members' opinions of the sentence. That part of Booth remains binding. "
            "Booth remains good law.")  # fmt: skip
    found = {c.object: c for c in _claims(auditor_obj, text, "legal", "overruledBy")}
    assert found["remains binding"].verdict == "unverifiable"
    assert "in part" in (found["remains binding"].reason or "")
    assert found["remains good law"].verdict == "contradicted"


def test_a_wholly_overruled_case_is_not_saved_by_part_words(auditor_obj):
    text = "Part of Plessy v. Ferguson, 163 U.S. 537 (1896), remains good law."
    found = {c.object: c for c in _claims(auditor_obj, text, "legal", "overruledBy")}
    assert found["remains good law"].verdict == "contradicted"


def test_good_law_said_of_the_cases_listed_after_it(auditor_obj):
    text = ("Harper v. Virginia Board of Elections overruled Breedlove v. Suttles, 302 U.S. 277 "
            "(1937). Tell the overruled cases (*Breedlove*) from those still good law (*Baker "
            "v. Carr*, *Plessy v. Ferguson*).")  # fmt: skip
    found = {c.subject: c.verdict for c in _claims(auditor_obj, text, "legal", "overruledBy")
             if c.object and c.object.endswith("good law")}  # fmt: skip
    assert "case:302 U.S. 277" not in found
    assert found.get("case:163 U.S. 537") == "contradicted", found


_HEAD = "# Policy rates — late November 2025\n\n"


@pytest.mark.parametrize(
    ("text", "value", "verdict"),
    [
        (_HEAD + "The FOMC lowered the target range again on October 29. That came after the "
         "September 17 cut to 4.00%–4.25%.", "4–4.25%", "supported"),
        (_HEAD + "The federal funds target range was lowered at the September 17 meeting to "
         "4.25%–4.50%.", "4.25–4.5%",
         "contradicted"),
        # a day after the heading's own date cannot be the heading's year
        ("# Policy rates — mid-March 2025\n\nThe federal funds target range was cut to "
         "4.00%–4.25% on September 17.", "4–4.25%", "unverifiable"),
        ("## 2008\n\nOn January 22 the FOMC cut the federal funds target rate to 3.50%, "
         "followed eight days later by a cut to 3.00%.", "3%", "unverifiable"),
        ("## 2008\n\nOn January 22 the FOMC cut the federal funds target rate to 3.50%, "
         "followed eight days later by a cut to 3.00%.", "3.5%", "supported"),
    ],
)  # fmt: skip
def test_a_yearless_day_takes_the_headings_year(auditor_obj, text, value, verdict):
    found = [c for c in _claims(auditor_obj, text, "finance", "policyRate", as_of="2025-12-01")
             if c.object == value]  # fmt: skip
    assert found, "no claim"
    assert {c.verdict for c in found} == {verdict}, [(c.date, c.reason) for c in found]


def test_a_meetings_days_with_their_year_are_not_yearless(auditor_obj):
    text = (
        "## Fed decision: December 2024\n\nAt its December 17–18, 2024 meeting the FOMC "
        "cut the federal funds target range by 25 basis points to 4.50%–4.75%."
    )
    found = [c for c in _claims(auditor_obj, text, "finance", "policyRate", as_of="2025-01-15")
             if c.object == "4.5–4.75%"]  # fmt: skip
    assert [c.verdict for c in found] == ["contradicted"], [c.reason for c in found]
