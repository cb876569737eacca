"""Issue 24, medicine: verdicts on label-style and consumer-page phrasing.

Each row is written for this file (not taken from an evaluation set) and labelled against
knowledge_graphs/curated/medical/washouts.yaml and interactions.yaml: an MAOI then sertraline
14 days (2 weeks); fluoxetine then an MAOI 5 weeks; sertraline then an MAOI 14 days;
venlafaxine then an MAOI 7 days; simvastatin with clarithromycin and sildenafil with nitrates
contraindicated. Wrong values are contradicted, right ones supported, and sentences that are
not a wait between two drugs give no washout claim at all. Ibuprofen OTC 1,200 mg/day
(200 mg tablets, doses.yaml): a count of tablets with "(200 mg each)" is count x strength;
metformin ER 2,000 mg/day (GLUCOPHAGE XR); acetaminophen 3,000 mg/day on the TYLENOL Extra
Strength label and 4,000 mg/day only on the OFIRMEV injection label (so a drug-level 4,000 mg
is unverifiable).
"""

from __future__ import annotations

import pytest

ROWS = [
    # (id, text, subject, predicate, verdict); None: no claim of that relation may be made
    # -- washouts: "X should be discontinued for at least N before starting Y" --------------
    ("off-for-right", "Fluoxetine should be discontinued for at least 5 weeks before starting "
     "an MAOI.", "drug:fluoxetine", "washoutBefore", "supported"),
    ("off-for-wrong", "Fluoxetine should be discontinued for at least 2 weeks before starting "
     "an MAOI.", "drug:fluoxetine", "washoutBefore", "contradicted"),
    ("stopped-for-right", "Venlafaxine must be stopped for at least 7 days before an MAOI is "
     "started.", "drug:venlafaxine", "washoutBefore", "supported"),
    ("stopped-for-wrong", "Venlafaxine should be stopped for at least 3 days before starting "
     "an MAOI.", "drug:venlafaxine", "washoutBefore", "contradicted"),
    # -- washouts: a drug-free / treatment-free period -------------------------------------
    ("drug-free-right", "When switching from phenelzine to sertraline, a drug-free period of "
     "2 weeks is required.", "drug:phenelzine", "washoutBefore", "supported"),
    ("treatment-free-right", "A treatment-free interval of 5 weeks is needed after stopping "
     "fluoxetine before an MAOI is started.", "drug:fluoxetine", "washoutBefore", "supported"),
    ("medication-free-wrong", "Going from phenelzine to sertraline needs a medication-free "
     "gap of 3 days.", "drug:phenelzine", "washoutBefore", "contradicted"),
    # -- washouts: nominal "after discontinuation of X before initiation of Y" ------------
    ("discontinuation-of-right", "Because of its long half-life, at least 5 weeks are "
     "required after discontinuation of fluoxetine before initiation of MAOI therapy.",
     "drug:fluoxetine", "washoutBefore", "supported"),
    ("discontinuation-of-wrong", "At least 2 weeks should pass after discontinuation of "
     "fluoxetine before initiation of an MAOI.", "drug:fluoxetine", "washoutBefore",
     "contradicted"),
    # -- washouts: a third drug in the stretch; the marked stopped/started pair is the frame
    ("third-drug-longer", "A minimum 14-day washout period is required between "
     "discontinuing venlafaxine and starting phenelzine to avoid serotonin syndrome.",
     "drug:venlafaxine", "washoutBefore", "unverifiable"),
    ("third-drug-wrong", "A 3-day washout is enough between stopping venlafaxine and "
     "starting phenelzine, unlike with fluoxetine.", "drug:venlafaxine", "washoutBefore",
     "contradicted"),
    ("unmarked-list", "Wait 14 days between phenelzine, sertraline and fluoxetine.",
     "drug:phenelzine", "washoutBefore", None),
    # -- washouts: a combination product written either way ("sacubitril/valsartan" is the
    # label's "valsartan and sacubitril", ACE inhibitors 36 hours)
    ("combination-slash-right", "You must ensure a 36-hour washout period between stopping "
     "the ACE inhibitor and starting sacubitril/valsartan.", "drugclass:ace-inhibitors",
     "washoutBefore", "supported"),
    ("combination-slash-wrong", "Allow a 12-hour washout between stopping lisinopril and "
     "starting sacubitril/valsartan.", "drug:lisinopril", "washoutBefore", "contradicted"),
    # -- washouts: a non-breaking hyphen in "5-week" (as pasted from web pages)
    ("nb-hyphen-right", "A 5\u2011week washout is needed between stopping fluoxetine and "
     "starting phenelzine.", "drug:fluoxetine", "washoutBefore", "supported"),
    ("nb-hyphen-wrong", "A 2\u2011week washout is enough between stopping fluoxetine and "
     "starting phenelzine.", "drug:fluoxetine", "washoutBefore", "contradicted"),
    # -- washouts: other label wordings (already handled; kept as regression rows) ---------
    ("elapse-between", "Allow at least 14 days to elapse between discontinuation of phenelzine "
     "and initiation of sertraline.", "drug:phenelzine", "washoutBefore", "supported"),
    ("not-started-within", "Sertraline should not be started within 14 days of stopping "
     "phenelzine.", "drug:phenelzine", "washoutBefore", "supported"),
    ("wait-after-stopping", "Wait 2 weeks after stopping phenelzine before you start "
     "sertraline.", "drug:phenelzine", "washoutBefore", "supported"),
    # -- negative controls: a course or a pause is not a washout ---------------------------
    ("course-not-washout", "Take sertraline for at least 6 weeks before judging whether "
     "phenelzine is needed.", "drug:sertraline", "washoutBefore", None),
    ("missed-days-not-washout", "If sertraline is stopped for 2 days, restart it at the usual "
     "dose before adding phenelzine.", "drug:sertraline", "washoutBefore", None),
    # -- interactions in label wording ----------------------------------------------------
    ("contraindicated-in-patients", "Simvastatin is contraindicated in patients taking "
     "clarithromycin.", "drug:simvastatin", "interactsWith", "supported"),
    ("coadministration-contraindicated", "Coadministration of simvastatin with "
     "clarithromycin is contraindicated.", "drug:simvastatin", "interactsWith", "supported"),
    ("concomitant-not-recommended", "Concomitant use of sildenafil and nitroglycerin is not "
     "recommended.", "drug:sildenafil", "interactsWith", "supported"),
    # -- maxima counted in tablets with a per-unit strength ("(200 mg each)") ---------------
    ("each-strength-right", "Ibuprofen: do not take more than 6 tablets (200 mg each) in 24 "
     "hours.", "drug:ibuprofen", "maxDose", "supported"),
    ("each-strength-wrong", "Ibuprofen: do not take more than 12 tablets (200 mg each) in 24 "
     "hours.", "drug:ibuprofen", "maxDose", "contradicted"),
    ("per-caplet-right", "Ibuprofen: do not take more than 6 caplets (200 mg per caplet) in 24 "
     "hours.", "drug:ibuprofen", "maxDose", "supported"),
    ("each-strength-not-a-dose", "Do not take more than 6 caplets (500 mg each) of "
     "acetaminophen in 24 hours.", "drug:acetaminophen", "maxDose", "not-contradicted"),
    # -- a role word between two values is the later value's ("not at X, as the max is Y")
    ("prohibited-dose-not-a-max", "Metformin extended release should not be taken at a dose "
     "of 4,000 mg per day, as the maximum recommended daily dose is 2,000 mg.",
     "drug:metformin", "maxDose", "not-contradicted"),
    ("prohibited-dose-wrong-max", "Metformin extended release must not be given at 4,000 mg "
     "a day, since the maximum daily dose is 3,000 mg.", "drug:metformin", "maxDose",
     "some-contradicted"),
    ("trailing-role-kept", "Extended-release metformin can be taken up to 2,000 mg per day, "
     "which is the maximum.", "drug:metformin", "maxDose", "supported"),
    # -- a product named only in a restatement "(the same as N ... tablets)" is no product --
    ("restated-in-tablets", "The maximum recommended dose of acetaminophen for adults is "
     "4,000 mg daily (the same as 8 extra strength tablets of 500 mg).",
     "drug:acetaminophen", "maxDose", "unverifiable"),
    ("restated-equivalent", "Adults should not exceed 4,000 mg of acetaminophen a day "
     "(equivalent to 8 extra strength caplets).", "drug:acetaminophen", "maxDose",
     "unverifiable"),
    ("product-named-wrong", "Extra Strength Tylenol: do not take more than 4,000 mg of "
     "acetaminophen in 24 hours.", "drug:acetaminophen", "maxDose", "contradicted"),
    ("product-named-right", "For extra strength acetaminophen, the maximum is 3,000 mg a day.",
     "drug:acetaminophen", "maxDose", "supported"),
    ("each-day-is-a-dose", "Do not take more than 8 mg of loperamide each day.",
     "drug:loperamide", "maxDose", "supported"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "predicate", "verdict"),
                         [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])  # fmt: skip
def test_realphrasing_verdict(
    auditor_obj, text: str, subject: str, predicate: str, verdict: str | None
) -> None:
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [c for c in res.claims if c.subject == subject and c.predicate == predicate]
    if verdict is None:
        assert not mine, [(c.object, c.verdict, c.reason) for c in mine]
        return
    assert mine, [(c.subject, c.predicate, c.verdict) for c in res.claims]
    if verdict == "not-contradicted":  # right text: never contradicted (500 mg is no ceiling)
        assert "contradicted" not in {c.verdict for c in mine}, [(c.object, c.reason) for c in mine]
        return
    if verdict == "some-contradicted":  # the wrong maximum is contradicted, 4,000 mg is not
        got = {(c.object, c.verdict) for c in mine}
        assert ("3000 mg", "contradicted") in got and ("4000 mg per day", "contradicted") not in got
        return
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]


@pytest.mark.parametrize(
    "text",
    [
        "Cetirizine (Zyrtec) Fexofenadine (Allegra) Loratadine (Claritin)\n\n"
        "10 mg once daily 60 mg twice daily 10 mg once daily",
        "Cetirizine and fexofenadine\n\nTake 60 mg twice daily.",
        "Cetirizine, fexofenadine, loratadine\n\nUp to 180 mg a day.",
    ],
)
def test_header_row_binds_no_value(auditor_obj, text: str) -> None:
    """A line that only lists drug names (a flattened table header) is no topic: the next
    line's values are not bound to its first drug (fexofenadine's 60 mg twice daily is not
    cetirizine's 120 mg/day), so nothing is contradicted."""
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    doses = [c for c in res.claims if c.predicate == "maxDose"]
    assert not [c for c in doses if c.verdict == "contradicted"], [
        (c.subject, c.object, c.reason) for c in doses
    ]


def test_single_drug_heading_still_binds(auditor_obj) -> None:
    """A heading with one drug (and its brand) is still the next line's topic."""
    res = auditor_obj.audit(
        "Cetirizine (Zyrtec)\n\nDo not take more than 20 mg in 24 hours.",
        domain="medical",
        as_of="2025-09-01",
    )
    got = {(c.subject, c.verdict) for c in res.claims if c.predicate == "maxDose"}
    assert ("drug:cetirizine", "contradicted") in got, got
