"""Issue 28, fifth quote pass: label sentences read in stored DailyMed / fda.report pages.

Each case names the fact, a fragment of the label sentence now stored as its quote and the
DailyMed set id the entry cites; pinned cases also carry the label version from
``sources.yaml``. Entries whose sentence turned out to be a recommended dose are no longer
label maxima (ezetimibe, vortioxetine).
"""

from __future__ import annotations

import pytest

from knowledge_graphs.builders.quotes import limit_role_error

MAXIMA = [
    # drug, max (per day), quote fragment, set id, pinned
    (
        "escitalopram",
        20,
        "the maximum recommended dosage of 20 mg once daily",
        "64af4d9f-1190-4217-824f-978f037e4810",
        False,
    ),
    (
        "bupropion",
        400,
        "A maximum of 400 mg/day, given as 200 mg twice daily",
        "dd4041cd-00e4-d10f-e053-2a95a90a5945",
        True,
    ),
    (
        "simvastatin",
        40,
        "The maximum recommended dosage is simvastatin tablets USP 40 mg once daily",
        "76ea62f3-4efb-4649-829d-3f0c28d5dae7",
        False,
    ),
    (
        "simvastatin",
        80,
        "An 80 mg daily dosage of simvastatin tablets USP is restricted to patients",
        "76ea62f3-4efb-4649-829d-3f0c28d5dae7",
        False,
    ),
    (
        "acetaminophen",
        3000,
        "more than 6 tablets in 24 hours, which is the maximum daily amount",
        "8f78bece-25fa-4a42-90f0-c899e6644d54",
        True,
    ),
    (
        "metformin",
        2550,
        "up to a maximum dose of 2550 mg per day",
        "fc466c46-abaa-4675-aef2-4b1a1adfd912",
        False,
    ),
    (
        "aspirin",
        3900,
        "not to exceed 12 tablets in 24 hours",
        "0fc3193d-af4e-ff3a-e063-6294a90a2743",
        False,
    ),
]


def _source_id(set_or_ndc: str) -> str:
    kind = "ndc" if set_or_ndc.count("-") <= 2 else "setid"
    return f"dailymed-{kind}:{set_or_ndc}"


@pytest.mark.parametrize(("drug", "value", "fragment", "label", "pinned"), MAXIMA)
def test_maximum_carries_its_label_sentence(kb, drug, value, fragment, label, pinned):
    facts = [
        f
        for f in kb.facts_about(f"drug:{drug}", "maxDose")
        if f.qualifiers.get("kind") == "label_maximum"
        and f.value == value
        and fragment in (f.qualifiers.get("quote") or "")
    ]
    assert len(facts) == 1, drug
    (f,) = facts
    assert limit_role_error(f.qualifiers["quote"]) is None
    assert label in f.source.document
    assert f.source.document_id == _source_id(label)
    assert bool(f.source.version) is pinned


def test_escitalopram_maximum_names_its_indication(kb):
    """The sentence read is 2.1 Major Depressive Disorder, Adults: the maximum is stated for
    MDD, so the fact names MDD rather than no indication."""
    (f,) = [
        f
        for f in kb.facts_about("drug:escitalopram", "maxDose")
        if f.qualifiers.get("kind") == "label_maximum"
    ]
    assert f.qualifiers["indication"] == "major depressive disorder"


def test_ezetimibe_recommended_dose_is_not_a_maximum(kb):
    """'The recommended dose of ezetimibe tablet is 10 mg orally once daily' — a single
    recommended dose; the label states no maximum, so it is not a label_maximum."""
    (f,) = kb.facts_about("drug:ezetimibe", "maxDose")
    assert f.qualifiers["kind"] == "usual_range"
    assert "The recommended dose of ezetimibe tablet is 10 mg" in f.qualifiers["quote"]
    assert limit_role_error(f.qualifiers["quote"]) is not None
    assert f.source.document_id == "dailymed-setid:55b18d8f-40e0-48ba-baf1-79a0d1bb2ee2"
    assert f.source.version


def test_vortioxetine_target_dose_is_not_a_maximum(kb):
    """The TRINTELLIX Highlights: 'The dose should then be increased to 20 mg/day, as
    tolerated' — a recommended target, not a labelled maximum (the flag of the fourth pass)."""
    (f,) = kb.facts_about("drug:vortioxetine", "maxDose")
    assert f.qualifiers["kind"] == "usual_range"
    assert "increased to 20 mg/day, as tolerated" in f.qualifiers["quote"]
    assert f.source.document_id == "dailymed-setid:e572a091-cad9-4ffa-a8eb-28181c0a8222"


def test_lisinopril_hypertension_titration_stays_a_usual_range(kb):
    """'Titrate up to 40 mg daily based on blood pressure response' names no maximum; the
    hypertension fact stays a usual range, now quoted from the current label."""
    (f,) = [
        f
        for f in kb.facts_about("drug:lisinopril", "maxDose")
        if f.qualifiers.get("indication") == "hypertension"
    ]
    assert f.qualifiers["kind"] == "usual_range"
    assert f.qualifiers["quote"] == "Titrate up to 40 mg daily based on blood pressure response."


@pytest.mark.parametrize(
    ("drug", "fragment", "label"),
    [
        (
            "sitagliptin",
            "The recommended dosage of Sitagliptin Tablets is 100 mg orally once daily",
            "e5ac97e8-3a0b-4750-8e3f-337412570746",
        ),
        (
            "finasteride",
            "The recommended dose of finasteride is one tablet (5 mg) taken once a day",
            "23aa3ad8-93f9-4cbb-9979-e0c38b7f7c84",
        ),
    ],
)
def test_single_recommended_dose_is_not_a_maximum(kb, drug, fragment, label):
    """A label whose only dose sentence is 'the recommended dose is N' sets no maximum: the
    fact is a usual range, and the builder would refuse the quote for a label_maximum."""
    facts = [
        f
        for f in kb.facts_about(f"drug:{drug}", "maxDose")
        if fragment in (f.qualifiers.get("quote") or "")
    ]
    assert len(facts) == 1, drug
    (f,) = facts
    assert f.qualifiers["kind"] == "usual_range"
    assert limit_role_error(f.qualifiers["quote"]) is not None
    assert f.source.document_id == f"dailymed-setid:{label}"


def test_disulfiram_washout_and_interaction_carry_the_metronidazole_sentence(kb):
    """'Do not administer metronidazole to patients who have taken disulfiram within the last
    two weeks' (Contraindications) backs both the 2-week washout and the contraindication."""
    fragment = "who have taken disulfiram within the last two weeks"
    (w,) = [
        f
        for f in kb.facts_about("drug:disulfiram", "washoutBefore")
        if f.object == "drug:metronidazole"
    ]
    assert fragment in w.qualifiers["quote"]
    pair = sorted(("drug:disulfiram", "drug:metronidazole"))
    facts = [f for f in kb.facts_about(pair[0], "interactsWith") if f.object == pair[1]]
    assert facts and all(fragment in f.qualifiers.get("quote", "") for f in facts)
    assert all(f.qualifiers["severity"] == "contraindicated" for f in facts)


@pytest.mark.parametrize(
    ("drug", "fragment"),
    [
        ("warfarin", "must be individualized for each patient according to the patient"),
        ("doxycycline", "The usual dose of oral doxycycline is 200 mg on the first day"),
        ("naproxen", "the dose may be increased to naproxen 1500 mg/ day for up to 6 months"),
    ],
)
def test_openfda_seed_record_sentences(kb, drug, fragment):
    facts = [
        f
        for f in kb.facts_about(f"drug:{drug}", "maxDose")
        if fragment in (f.qualifiers.get("quote") or "")
    ]
    assert len(facts) == 1, drug
    assert "openFDA record" in facts[0].source.document
    assert not facts[0].source.version


@pytest.mark.parametrize(
    ("drug", "fragment"),
    [
        ("montelukast", "15 years and older: one 10-mg tablet."),
        ("acyclovir", "800 mg every 4 hours orally, 5 times daily for 7 to 10 days"),
        ("oseltamivir", "75 mg twice daily"),
    ],
)
def test_regimen_or_recommended_dose_is_not_a_maximum(kb, drug, fragment):
    """The label sentence is the regimen (or the dose introduced as 'recommended'), not a
    limit: the fact is a usual range, as for evolocumab and desvenlafaxine on the re-check."""
    facts = [
        f
        for f in kb.facts_about(f"drug:{drug}", "maxDose")
        if fragment in (f.qualifiers.get("quote") or "")
    ]
    assert len(facts) == 1, drug
    assert facts[0].qualifiers["kind"] == "usual_range"
    assert "openFDA record" in facts[0].source.document


def test_diazepam_usual_anxiety_dose_is_quoted(kb):
    (f,) = [
        f
        for f in kb.facts_about("drug:diazepam", "maxDose")
        if "2 mg to 10 mg, 2 to 4 times daily" in (f.qualifiers.get("quote") or "")
    ]
    assert f.qualifiers["kind"] == "usual_range"


def test_thioridazine_fluoxetine_quotes_the_fluoxetine_contraindication(kb):
    pair = sorted(("drug:thioridazine", "drug:fluoxetine"))
    facts = [f for f in kb.facts_about(pair[0], "interactsWith") if f.object == pair[1]]
    assert facts
    for f in facts:
        assert f.qualifiers["quote"].startswith("Thioridazine: Do not use.")
        assert f.qualifiers["severity"] == "contraindicated"
        assert "Contraindications" in f.source.section
