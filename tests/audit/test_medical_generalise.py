"""Issue 24, medicine: verdicts that depend on what is claimed, not on how it is worded.

Each row is an illustration written for this file (not taken from an evaluation set), labelled
against knowledge_graphs/curated/medical: loperamide 8 mg/day OTC and 16 mg/day Rx; acetaminophen
1,000 mg per dose and 4,000 mg/day on the OFIRMEV injection label, 3,000 mg/day on the TYLENOL
Extra Strength label; alendronate 70 mg once weekly or 10 mg once daily; zolpidem IR 10 mg/day;
metformin IR 2,550 mg/day and ER 2,000 mg/day; sildenafil and nitrates (isosorbide mononitrate
via the class) contraindicated; simvastatin with clarithromycin contraindicated; phenelzine and
sertraline 14 days, ACE inhibitors and sacubitril/valsartan 36 hours apart.
"""

from __future__ import annotations

import pytest

from auditor.extract.assertion import context_qualifiers, polarity

ROWS = [
    # (id, text, subject, predicate, verdict)
    # -- wrong supports that must not happen --------------------------------------------
    ("otc-self-treating", "If you are self-treating, take no more than 16 mg of loperamide a day.",
     "drug:loperamide", "maxDose", "contradicted"),
    ("otc-without-prescription", "Without a prescription, adults may use up to 16 mg of "
     "loperamide per day.", "drug:loperamide", "maxDose", "contradicted"),
    ("schedule-weekly-amount-daily", "For osteoporosis, alendronate is taken as 70 mg once "
     "daily.", "drug:alendronate", "dosingFrequency", "contradicted"),
    ("schedule-daily-amount-daily", "For osteoporosis, alendronate is taken as 10 mg once daily.",
     "drug:alendronate", "dosingFrequency", "supported"),
    ("oral-dose-vs-iv-label", "Do not take more than 1,000 mg of acetaminophen at a time.",
     "drug:acetaminophen", "maxDose", "unverifiable"),
    ("drug-level-vs-iv-label", "Most adults can take up to 4,000 mg of acetaminophen a day.",
     "drug:acetaminophen", "maxDose", "unverifiable"),
    ("child-weight-based", "For a child, give acetaminophen 15 mg/kg per dose, up to 4,000 mg a "
     "day.", "drug:acetaminophen", "maxDose", "unverifiable"),
    ("iv-named-iv-label", "IV acetaminophen: the maximum single dose is 1,000 mg.",
     "drug:acetaminophen", "maxDose", "supported"),
    # -- recall: denied or minimised interactions --------------------------------------
    ("denial-continue-during", "You can usually continue simvastatin during a short course of "
     "clarithromycin.", "drug:simvastatin", "interactsWith", "contradicted"),
    ("denial-dont-interact", "Phenelzine and sertraline don't interact.",
     "drug:phenelzine", "interactsWith", "contradicted"),
    ("mitigated-class-member", "Sildenafil is fine to use with isosorbide mononitrate if you "
     "space the doses.", "drug:sildenafil", "interactsWith", "contradicted"),
    ("mitigated-halve-the-dose", "Nitroglycerin and sildenafil can be combined if you just cut "
     "the sildenafil dose in half.", "drug:nitroglycerin", "interactsWith", "contradicted"),
    ("denial-across-aside", "Naproxen at usual doses (up to 500 mg twice a day) is fine to "
     "combine with warfarin for a week.", "drug:naproxen", "interactsWith", "contradicted"),
    ("mitigated-so-it", "Isosorbide mononitrate is a long-acting nitrate, so it's safe to take "
     "with sildenafil if you separate the doses.", "drug:isosorbide mononitrate",
     "interactsWith", "contradicted"),
    ("restriction-is-not-denial", "Clarithromycin can be used with simvastatin only with a large "
     "reduction of the simvastatin dose.", "drug:clarithromycin", "interactsWith", "supported"),
    ("negated-denial", "It is not safe to take sildenafil with nitroglycerin.",
     "drug:sildenafil", "interactsWith", "supported"),
    # -- recall: ceilings, forms, washouts ---------------------------------------------
    ("ceiling-as-step", "Zolpidem: if 5 mg isn't enough, it can be increased in steps up to "
     "20 mg at bedtime.", "drug:zolpidem", "maxDose", "contradicted"),
    ("er-form-named-with-ir", "Like the immediate-release form, ER metformin can be taken up to "
     "a maximum of 2,550 mg per day.", "drug:metformin", "maxDose", "contradicted"),
    ("er-form-right", "Extended-release metformin is limited to 2,000 mg a day.",
     "drug:metformin", "maxDose", "supported"),
    ("washout-same-evening", "Take your last enalapril dose at breakfast and start Entresto "
     "that evening.", "drug:enalapril", "washoutBefore", "contradicted"),
    ("washout-no-gap", "When switching from phenelzine, you can start sertraline the same day; "
     "no washout is needed.", "drug:phenelzine", "washoutBefore", "contradicted"),
    ("washout-right", "After stopping lisinopril, wait 36 hours before the first Entresto dose.",
     "drug:lisinopril", "washoutBefore", "supported"),
    # -- precision ---------------------------------------------------------------------
    ("two-ceilings", "The Tylenol Extra Strength label says not to take more than 6 caplets "
     "(3,000 mg) in 24 hours; the commonly cited ceiling for adults is 4,000 mg per day.",
     "drug:acetaminophen", "maxDose", None),
    ("studied-dose", "Doses up to 120 mg of duloxetine were studied but were no more effective "
     "than 60 mg.", "drug:duloxetine", "maxDose", "unverifiable"),
    ("step-up-amount", "Increase the levothyroxine dose by no more than 25 mcg a day.",
     "drug:levothyroxine", "maxDose", "unverifiable"),
    ("brand-split-from-generic", "Bismuth subsalicylate (Pepto-Bismol) is used for diarrhea.",
     "drug:bismuth subsalicylate", "brandName", "unverifiable"),
    ("brand-of-another-drug", "Tylenol (ibuprofen) is a pain reliever.",
     "drug:ibuprofen", "brandName", "contradicted"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "predicate", "verdict"),
                         [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])  # fmt: skip
def test_medical_verdict(
    auditor_obj, text: str, subject: str, predicate: str, verdict: str | None
) -> None:
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [c for c in res.claims if c.subject == subject and c.predicate == predicate]
    if verdict is None:  # precision row: nothing of this relation may be contradicted
        assert not [c for c in res.claims if c.verdict == "contradicted"], res.to_dict()["claims"]
        return
    assert mine, [(c.subject, c.predicate, c.verdict) for c in res.claims]
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]


@pytest.mark.parametrize(
    ("clause", "relation", "expected"),
    [
        ("Warfarin and fluconazole don't interact.", "interactsWith", "denied"),
        ("It's fine to combine them for a few days.", "interactsWith", "denied"),
        ("It is not safe to combine them.", "interactsWith", "affirmed"),
        ("Safe together as long as you separate the doses.", "interactsWith", "mitigated"),
        ("Use it only with a large reduction of the dose.", "interactsWith", "affirmed"),
        ("Avoid taking them together.", "interactsWith", "affirmed"),
        ("No gap is needed between the two.", "washoutBefore", "denied"),
    ],
)
def test_polarity(clause: str, relation: str, expected: str) -> None:
    assert polarity(clause, relation) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("When self-treating, don't exceed 8 mg.", {"status": "otc"}),
        ("Over the counter, the limit is 1,200 mg.", {"status": "otc"}),
        ("Prescription-strength tablets go up to 800 mg.", {"status": "rx", "route": "oral"}),
        ("Given by IV infusion over 15 minutes.", {"route": "intravenous"}),
        ("Take 2 tablets by mouth.", {"route": "oral"}),
        ("Take one dose at bedtime.", {"route": "taken"}),
        ("The maximum is 40 mg.", {}),
    ],
)
def test_context_qualifiers(text: str, expected: dict[str, str]) -> None:
    assert context_qualifiers(text) == expected


def test_drug_per_column_table(auditor_obj) -> None:
    """A comparison table with one drug per column and the dose role per row: each value
    cell's drug is its column header's (sertraline 200 mg/day, citalopram 40 mg/day)."""
    text = (
        "| | Sertraline | Citalopram |\n"
        "|---|---|---|\n"
        "| Maximum dose | 200 mg per day | 60 mg per day |\n"
        "| Usual start | 50 mg once daily | 20 mg once daily |\n"
    )
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    got = {(c.subject, c.object, c.verdict) for c in res.claims if c.rule_id == "MED-DOSE-MAX"}
    assert ("drug:sertraline", "200 mg per day", "supported") in got
    assert ("drug:citalopram", "60 mg per day", "contradicted") in got
    starts = {v for s, o, v in got if o in {"50 mg per day", "20 mg per day"}}
    assert starts == {"unverifiable"}, got
