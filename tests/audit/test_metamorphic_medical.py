"""Medical rules written for failures that ``kgaudit eval metamorphic`` exposed; each class of
phrasing with several wordings (labels: the ZOLOFT, VIAGRA and LUNESTA labels, graph facts)."""

from __future__ import annotations

import pytest


def _verdicts(auditor_obj, text: str, predicate: str) -> list[str]:
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    return [c.verdict for c in res.claims if c.predicate == predicate]


CASES = [
    # a stated maximum with no period, above every labelled maximum (eszopiclone 3 mg, sertraline
    # 200 mg/day): wrong read per dose and per day, as a matching one is supported
    ("Eszopiclone maximum: 9 mg.", "maxDose", ["contradicted"]),
    ("The top dose of eszopiclone is 3 mg.", "maxDose", ["supported"]),
    ("Sertraline should never exceed 600 mg.", "maxDose", ["contradicted"]),
    ("Sertraline can be taken at up to 150 mg.", "maxDose", ["unverifiable"]),
    # the header of the row label's column qualifies the row
    ("## Lyrica (pregabalin) by condition\n\n| Indication (children) | Start | Maximum |\n"
     "|---|---|---|\n| Diabetic peripheral neuropathy | 50 mg three times daily | 300 mg/day |",
     "maxDose", ["unverifiable", "unverifiable"]),  # the start dose, then the maximum
    ("## Lyrica (pregabalin) by condition\n\n| Indication (adults) | Start | Maximum |\n"
     "|---|---|---|\n| Diabetic peripheral neuropathy | 50 mg three times daily | 300 mg/day |",
     "maxDose", ["unverifiable", "supported"]),
    # "contraindicated with" + a class is an interaction, not class membership
    ("Sildenafil is contraindicated with nitrates.", "interactsWith", ["supported"]),
    ("Sertraline is contraindicated with MAOIs.", "interactsWith", ["supported"]),
    ("Sertraline is an SSRI.", "interactsWith", []),
    ("Isosorbide mononitrate is a long-acting nitrate.", "interactsWith", []),
    ("Sertraline is grouped with SSRIs.", "interactsWith", []),
    ("Isosorbide mononitrate is classed with nitrates.", "interactsWith", []),
    # a denied contraindication, or a combination said to be safe, is a denial
    ("Sildenafil is not contraindicated with nitroglycerin.", "interactsWith", ["contradicted"]),
    ("Sildenafil isn't contraindicated with nitrates.", "interactsWith", ["contradicted"]),
    ("Sertraline is combined with MAOIs safely.", "interactsWith", ["contradicted"]),
    ("Sildenafil is taken with nitroglycerin without problems.", "interactsWith",
     ["contradicted"]),
    # "is the highest recommended / top dose" after the value names the maximum
    ("In adults, 200 mg per day is the highest recommended dose of sertraline.", "maxDose",
     ["supported"]),
    ("For sertraline, 400 mg a day is the highest approved dose.", "maxDose", ["contradicted"]),
    ("In adults, 100 mg per day is the highest dose most patients need of sertraline.",
     "maxDose", []),
    # the listing state: markup is no word; "a prescription for X"; "no prescription is needed"
    ("Levothyroxine is **available over the counter**.", "prescriptionStatus",
     ["contradicted"]),
    ("Levothyroxine is __sold without a prescription__.", "prescriptionStatus",
     ["contradicted"]),
    ("You need a prescription for levothyroxine.", "prescriptionStatus", ["supported"]),
    ("A prescription is required for levothyroxine.", "prescriptionStatus", ["supported"]),
    ("No prescription is needed for levothyroxine.", "prescriptionStatus", ["contradicted"]),
    ("No prescription is required to buy levothyroxine.", "prescriptionStatus",
     ["contradicted"]),
    ("An **OTC** decongestant can help.", "prescriptionStatus", []),
    # "until N days after" is a washout trigger
    ("An MAOI should not be started until 14 days after sertraline is stopped.",
     "washoutBefore", ["supported"]),
    ("An MAOI should not be started until 3 days after sertraline is stopped.",
     "washoutBefore", ["contradicted"]),
    ("Continue sertraline until 14 days after symptoms resolve.", "washoutBefore", []),
]  # fmt: skip


@pytest.mark.parametrize(("text", "predicate", "expected"), CASES, ids=[c[0][:60] for c in CASES])
def test_medical_metamorphic_rules(auditor_obj, text, predicate, expected):
    assert _verdicts(auditor_obj, text, predicate) == expected
