"""Issue 24, medicine: a maximum the label sets for one use is not the drug's maximum.

Labelled against knowledge_graphs/curated/medical/doses.yaml: tadalafil 20 mg/day for erectile
dysfunction as needed (CIALIS) and 40 mg/day for pulmonary arterial hypertension (ADCIRCA);
sildenafil 100 mg/day for erectile dysfunction (VIAGRA) and 60 mg/day for PAH (REVATIO);
alendronate 10 mg/day for osteoporosis and 40 mg/day for Paget's disease; diphenhydramine
300 mg/day as an antihistamine and 50 mg/day as a night-time sleep aid; pregabalin 300, 450 and
600 mg/day for diabetic neuropathy, fibromyalgia, postherpetic neuralgia and seizures. Sentences
are written for this file.

When a sentence names no use, a value that matches one use's maximum is supported only when
no other use, over the same period, has another maximum — or when the answer names the product
whose label that use is, or names that use and no other. Otherwise the claim is unverifiable
and its reason names the use matched. Before this, "The maximum dose of tadalafil is 40 mg per
day" was supported by the PAH label, though an answer about erectile dysfunction that says so
doubles that label's maximum.
"""

from __future__ import annotations

import pytest

TAD, SIL, ALN, DPH = "drug:tadalafil", "drug:sildenafil", "drug:alendronate", "drug:diphenhydramine"
ROWS = [
    # (id, text, subject, verdict)
    ("pah-maximum-no-use", "The maximum dose of tadalafil is 40 mg per day.", TAD,
     "unverifiable"),
    ("pah-maximum-brand", "Adcirca (tadalafil): the maximum dose is 40 mg once daily.", TAD,
     "supported"),
    ("ed-maximum-use-named", "The maximum dose of tadalafil for erectile dysfunction is 20 mg "
     "per day.", TAD, "supported"),
    ("ed-answer-pah-maximum", "Tadalafil treats erectile dysfunction. The maximum dose is 40 mg "
     "per day.", TAD, "unverifiable"),
    ("ed-answer-ed-maximum", "Tadalafil treats erectile dysfunction. The maximum dose is 20 mg "
     "per day.", TAD, "supported"),
    ("both-uses-named", "Tadalafil treats erectile dysfunction and pulmonary arterial "
     "hypertension. The maximum dose is 20 mg per day.", TAD, "unverifiable"),
    ("sildenafil-no-use", "The maximum dose of sildenafil is 100 mg per day.", SIL,
     "unverifiable"),
    ("sildenafil-answer-names-use", "Sildenafil is used for erectile dysfunction. The maximum "
     "is 100 mg per day.", SIL, "supported"),
    ("sildenafil-answer-names-brand", "Viagra contains sildenafil. Do not take more than 100 mg "
     "of sildenafil per day.", SIL, "supported"),
    ("sildenafil-ed-wrong", "The maximum daily dose of sildenafil for erectile dysfunction is "
     "200 mg.", SIL, "contradicted"),
    ("alendronate-paget-no-use", "Alendronate: the maximum is 40 mg per day.", ALN,
     "unverifiable"),
    ("diphenhydramine-no-use", "The maximum dose of diphenhydramine is 300 mg per day.", DPH,
     "unverifiable"),
]  # fmt: skip


def _maxima(auditor_obj, text: str, subject: str) -> list:
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [
        c
        for c in res.claims
        if c.subject == subject and c.predicate == "maxDose" and c.frame.role == "maximum"
    ]
    assert mine, [(c.subject, c.predicate, c.verdict, c.reason) for c in res.claims]
    return mine


@pytest.mark.parametrize(("text", "subject", "verdict"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])  # fmt: skip
def test_one_use_maximum(auditor_obj, text: str, subject: str, verdict: str) -> None:
    mine = _maxima(auditor_obj, text, subject)
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]


def test_the_reason_names_the_use_matched(auditor_obj) -> None:
    (c,) = _maxima(auditor_obj, "The maximum dose of tadalafil is 40 mg per day.", TAD)
    assert "pulmonary arterial hypertension" in (c.reason or ""), c.reason
    assert "another use" in (c.reason or ""), c.reason


def test_an_unlinked_table_row_is_not_another_uses_maximum(auditor_obj) -> None:
    """A row whose condition the graph does not link ("after spinal cord injury") is not
    supported by the seizure label's equal 600 mg."""
    text = (
        "## Lyrica (pregabalin) maximum by condition\n\n"
        "| Indication (adults) | Maximum |\n|---|---|\n"
        "| Neuropathic pain after spinal cord injury | 600 mg/day |\n"
    )
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    doses = [c for c in res.claims if c.predicate == "maxDose"]
    assert doses and "supported" not in {c.verdict for c in doses}, [
        (c.object, c.verdict, c.reason) for c in doses
    ]


HEADED = [
    # the nearest heading above that names one of the drug's labelled uses binds it
    ("heading-binds-treatment", "## Treating a gout flare\n\n### First-line options\n"
     "**1. Colchicine**\n- Take 1.2 mg at the first sign of a flare, then 0.6 mg every hour "
     "until the pain resolves, up to a maximum of 4.8 mg.\n", "drug:colchicine", "contradicted"),
    # another drug's condition in the heading binds nothing: simvastatin is not for hypertension
    ("heading-of-another-drug", "## Amlodipine for high blood pressure\n\n### Interactions\n"
     "- **Simvastatin:** don't exceed 20 mg of simvastatin a day if you also take "
     "amlodipine.\n", "drug:simvastatin", "supported"),
    # a heading that names the condition but not treatment or prevention: the sentence's own
    # period picks the prophylaxis maximum, as with no heading
    ("heading-use-unsaid", "## Colchicine for gout\n\n### Preventing flares\n"
     "- 0.6 mg once or twice daily; maximum 1.2 mg per day\n", "drug:colchicine", "supported"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "verdict"), [r[1:] for r in HEADED],
                         ids=[r[0] for r in HEADED])  # fmt: skip
def test_a_heading_binds_a_use_of_the_drug(auditor_obj, text: str, subject: str, verdict: str):
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [c for c in res.claims if c.subject == subject and c.predicate == "maxDose"
            and c.frame.role == "maximum"]  # fmt: skip
    assert mine and {c.verdict for c in mine} == {verdict}, [
        (c.object, c.verdict, c.reason) for c in mine
    ]
