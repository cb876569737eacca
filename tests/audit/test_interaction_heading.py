"""Issue 24, medicine: interaction lines under a drug's heading, a line's label and its body,
and the level of an interaction a text claims.

Labelled against knowledge_graphs/curated/medical/interactions.yaml: sildenafil + riociguat
and + nitrates contraindicated (ADEMPAS / VIAGRA Contraindications); sildenafil +
alpha-blockers *caution* (VIAGRA 7.2 "Use caution when co-administering alpha-blockers with
VIAGRA", doxazosin the member its 12.2 names); simvastatin + clarithromycin contraindicated,
+ amlodipine major (ZOCOR 2.5 "do not exceed 20 mg"). Texts are written for this file.

* A list line that names only one party ("- **Riociguat** (Adempas) is also contraindicated",
  "- **Alpha-blockers** such as tamsulosin or doxazosin: no special precautions are needed")
  under a heading about one drug claims that drug with the named one — when the line or its
  heading speaks of combining drugs. A question heading, a class as topic, a line that names
  both parties or combines with a non-drug ("can be combined with counseling") binds nothing.
* A label's clause ("Simvastatin and clarithromycin:") asserts nothing: the line's polarity is
  read from the body after the colon.
* "Contraindicated" is supported only by a contraindication; "avoid" by a contraindication or a
  major interaction; against a weaker fact the claim is unverifiable, naming the level.
"""

from __future__ import annotations

import pytest

SIL, SIM = "drug:sildenafil", "drug:simvastatin"
ALPHA, NITRATES = "drugclass:alpha-blockers", "drugclass:nitrates"

VIAGRA = """## Viagra (sildenafil): how to take it safely

### Drugs you must not combine
- **Nitrates** in any form — nitroglycerin, isosorbide mononitrate or dinitrate — can cause a dangerous drop in blood pressure.
- **Riociguat** (Adempas) is also contraindicated.

### Blood pressure medicines
- **Alpha-blockers** such as tamsulosin or doxazosin: no special precautions are needed; they're commonly combined without any dose change.
"""


def _pairs(res, subject=None):  # type: ignore[no-untyped-def]
    return {
        (c.subject, c.object): c.verdict
        for c in res.claims
        if c.predicate == "interactsWith" and (subject is None or c.subject == subject)
    }


def test_heading_drug_is_the_first_party(auditor_obj):
    pairs = _pairs(auditor_obj.audit(VIAGRA, domain="medical", as_of="2025-09-01"))
    assert pairs[(SIL, "drug:riociguat")] == "supported"
    assert pairs[(SIL, NITRATES)] == "supported"
    assert pairs[(SIL, "drug:nitroglycerin")] == "supported"
    # the denial of a labelled caution is contradicted, for the class and the member the label
    # names; tamsulosin is not named by the label: no verdict
    assert pairs[(SIL, ALPHA)] == "contradicted"
    assert pairs[(SIL, "drug:doxazosin")] == "contradicted"
    assert pairs[(SIL, "drug:tamsulosin")] == "unverifiable"
    # the class's examples are not paired with each other
    assert ("drug:tamsulosin", "drug:doxazosin") not in pairs


def test_the_pronoun_after_a_list_line_is_the_heading_drug(auditor_obj):
    text = "## Simvastatin\n\n### Interactions\n- Gemfibrozil — avoid.\n- It is safe to take with itraconazole.\n"
    pairs = _pairs(auditor_obj.audit(text, domain="medical", as_of="2025-09-01"))
    assert pairs[(SIM, "drug:gemfibrozil")] == "supported"
    assert pairs[(SIM, "drug:itraconazole")] == "contradicted"


@pytest.mark.parametrize(
    "text",
    [
        # the heading asks; it names both drugs across its sentences
        '## "I take Tikosyn. Can my doctor add hydrochlorothiazide?"\n\n### Other precautions\n'
        "- Many common drugs interact with verapamil.\n",
        # a class is not a topic
        "**An interaction that does matter (for a different statin)**\n"
        "That limit doesn't apply to clarithromycin when combined.\n",
        # the line combines with something that is not a drug
        "## Nicotine patches\n\nVarenicline or bupropion can be combined with counseling.\n",
        # the line and its heading say nothing of combining
        "## Warfarin\n\n### Pain relief\n- Acetaminophen is the preferred pain reliever.\n",
    ],
    ids=["question-heading", "class-topic", "combined-with-non-drug", "no-combining-words"],
)
def test_no_heading_party(auditor_obj, text: str):
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    assert not [c for c in res.claims if c.predicate == "interactsWith" and c.verdict != "unverifiable"
                and c.qualifiers.get("subject_from_context")]  # fmt: skip
    heading_drugs = {"drug:hydrochlorothiazide", "drug:nicotine", "drug:warfarin"}
    assert not [c for c in res.claims if c.predicate == "interactsWith"
                and c.subject in heading_drugs and c.qualifiers.get("subject_from_context")]  # fmt: skip


def test_a_label_asserts_through_its_body(auditor_obj):
    text = (
        "Simvastatin and clarithromycin: no special precautions are needed; they're commonly "
        "combined without any dose change."
    )
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    assert _pairs(res)[(SIM, "drug:clarithromycin")] == "contradicted"


LEVELS = [
    ("contraindicated-vs-major", "Simvastatin is contraindicated with amlodipine.", SIM,
     "drug:amlodipine", "unverifiable", "major"),
    ("contraindicated-vs-contraindicated", "Simvastatin is contraindicated with clarithromycin.",
     SIM, "drug:clarithromycin", "supported", None),
    ("avoid-vs-major", "You should avoid combining simvastatin with amlodipine.", SIM,
     "drug:amlodipine", "supported", None),
    ("avoid-vs-caution", "Avoid taking sildenafil with alpha-blockers.", SIL, ALPHA,
     "unverifiable", "caution"),
    ("interacts-vs-caution", "Sildenafil interacts with alpha-blockers.", SIL, ALPHA,
     "supported", None),
    ("caution-vs-caution", "Use caution when combining sildenafil with alpha-blockers.", SIL,
     ALPHA, "supported", None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "obj", "verdict", "named"), [r[1:] for r in LEVELS],
                         ids=[r[0] for r in LEVELS])  # fmt: skip
def test_claimed_level(auditor_obj, text: str, subject: str, obj: str, verdict: str, named):  # type: ignore[no-untyped-def]
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    mine = [c for c in res.claims if c.predicate == "interactsWith" and c.subject == subject
            and c.object == obj]  # fmt: skip
    assert mine, [(c.subject, c.object) for c in res.claims]
    assert mine[0].verdict == verdict, mine[0].reason
    if named:
        assert named in mine[0].reason
