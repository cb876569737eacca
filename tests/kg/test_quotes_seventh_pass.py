"""Issue 28, seventh quote pass: the suspect maxima still flagged after the sixth pass.

Two entries whose DailyMed sentence gives an effective or recommended dose are now
`usual_range`, quoted from the DailyMed page read (memantine XR 28 mg, finasteride 1 mg).
Twenty entries whose own note gives a recommended, target, studied or regimen dose, and whose
label sentence could not be read whole on a DailyMed page, are `usual_range` and stay
unquoted (the desloratadine precedent of the sixth pass). Lacosamide keeps its 400 mg/day
maximum: the DailyMed Highlights read state it as 200 mg twice daily.
"""

from __future__ import annotations

import pytest

from knowledge_graphs.builders.quotes import limit_role_error

QUOTED = [
    # drug, min, max (mg/day), quote fragment, DailyMed URL fragment (set id or NDC)
    (
        "memantine",
        28,
        28,
        "shown to be effective in a controlled clinical trial is 28 mg once daily.",
        "setid=f6ce7cca-d245-44f2-986c-2a8d85dbb5fb",
    ),
    (
        "finasteride",
        1,
        1,
        "The recommended dose of finasteride tablets is one tablet (1 mg) taken once daily.",
        "query=16729008915",
    ),
]

UNQUOTED = [
    # drug, a word of its indication or product, min, max (mg/day)
    ("linagliptin", None, 5, 5),
    ("liraglutide", "weight", 3, 3),
    ("fluvastatin", None, 20, 80),
    ("metoprolol", "tartrate|hypertension", 100, 450),
    ("metoprolol", "tartrate|angina", 100, 400),
    ("metoprolol", "succinate|hypertension", 25, 400),
    ("risperidone", "mania", 1, 6),
    ("topiramate", "epilepsy", 200, 400),
    ("topiramate", "migraine", 100, 100),
    ("perampanel", "partial-onset", 8, 12),
    ("valacyclovir", "zoster", 3000, 3000),
    ("valacyclovir", "cold sores", 4000, 4000),
    ("memantine", "immediate-release", 20, 20),
    # other label maxima whose own note gives a recommended, usual or studied dose
    ("pravastatin", None, 40, 80),
    ("azilsartan", None, 40, 80),
    ("cilostazol", None, 100, 200),
    ("pentoxifylline", None, 1200, 1200),
    ("nabumetone", None, 1000, 2000),
    ("torsemide", "heart failure", 10, 200),
    ("pantoprazole", "erosive esophagitis", 40, 40),
]


def _doses(kb, drug: str, words: str | None = None):
    facts = kb.facts_about(f"drug:{drug}", "maxDose")
    if words is None:
        return facts
    want = words.split("|")
    return [
        f
        for f in facts
        if all(
            w in f"{f.qualifiers.get('indication') or ''} {f.qualifiers.get('product') or ''}"
            for w in want
        )
    ]


@pytest.mark.parametrize(("drug", "low", "high", "fragment", "where"), QUOTED)
def test_effective_or_recommended_dose_is_quoted_as_usual_range(
    kb, drug, low, high, fragment, where
):
    """The DailyMed sentence gives the dose shown effective or recommended, no maximum."""
    (f,) = [f for f in _doses(kb, drug) if f.value_max == high and f.qualifiers.get("quote")]
    assert f.qualifiers["kind"] == "usual_range"
    assert (f.value, f.value_max) == (low, high)
    assert fragment in f.qualifiers["quote"]
    assert where in (f.source.url or "")
    assert "dailymed.nlm.nih.gov" in (f.source.url or "")


def test_memantine_xr_is_pinned_and_its_effective_dose_refused_as_a_maximum(kb):
    """Pinned by the page's "Updated April 14, 2025" (sources.yaml); the role check refuses an
    effective dose as a maximum ("shown to be effective ... is 28 mg once daily")."""
    (f,) = [f for f in _doses(kb, "memantine") if f.value_max == 28 and f.qualifiers.get("quote")]
    assert f.source.document_id == "dailymed-setid:f6ce7cca-d245-44f2-986c-2a8d85dbb5fb"
    assert f.source.version == "DailyMed label updated 2025-04-14"
    assert limit_role_error(f.qualifiers["quote"]) is not None


def test_finasteride_recommended_dose_is_refused_as_a_maximum(kb):
    (f,) = [f for f in _doses(kb, "finasteride") if f.value_max == 1]
    assert limit_role_error(f.qualifiers["quote"]) is not None


@pytest.mark.parametrize(("drug", "words", "low", "high"), UNQUOTED)
def test_note_level_recommended_dose_is_an_unquoted_usual_range(kb, drug, words, low, high):
    """The entry's own note gives a recommended / target / studied dose or a regimen, and no
    DailyMed sentence stating a maximum was read: a usual range, still marked unquoted."""
    facts = _doses(kb, drug, words)
    assert facts, (drug, words)
    assert not [f for f in facts if f.qualifiers.get("kind") == "label_maximum"], drug
    (f,) = facts
    assert f.qualifiers["kind"] == "usual_range"
    assert (f.value, f.value_max) == (low, high)
    assert f.qualifiers.get("unquoted") == "true" and not f.qualifiers.get("quote")


def test_lacosamide_keeps_its_maximum_unquoted(kb):
    """The AvKARE Highlights (DailyMed, 'Updated January 10, 2024') read 'Maximum recommended
    dosage for monotherapy and adjunctive therapy is 200 mg twice daily (2.1)': a maximum the
    role check accepts, but of 200 mg per dose, so it is kept in the note, not as the quote of
    the 400 mg/day fact."""
    (f,) = _doses(kb, "lacosamide")
    assert f.qualifiers["kind"] == "label_maximum" and f.value == 400
    assert f.qualifiers.get("unquoted") == "true"
    assert "setid=e180f6b0-8b56-df64-e053-2995a90a70c2" in (f.source.url or "")
    sentence = "Maximum recommended dosage for monotherapy and adjunctive therapy is 200 mg twice"
    assert sentence in f.qualifiers["note"]
    assert limit_role_error(sentence) is None


@pytest.mark.parametrize(
    "claim",
    [
        "The maximum dose of linagliptin is 5 mg per day.",
        "The maximum dose of Saxenda is 3 mg per day.",
        "The maximum dose of fluvastatin is 80 mg per day.",
        "The maximum dose of metoprolol succinate for hypertension is 400 mg per day.",
        "The maximum dose of topiramate is 400 mg per day.",
        "The maximum dose of perampanel is 12 mg per day.",
        "The maximum dose of valacyclovir is 4000 mg per day.",
        "The maximum dose of memantine is 28 mg per day.",
        "The maximum dose of finasteride for hair loss is 1 mg a day.",
        "The maximum dose of pravastatin is 80 mg per day.",
        "The maximum dose of pentoxifylline is 1200 mg per day.",
    ],
)
def test_recommended_dose_claimed_as_maximum_is_unverifiable(auditor_obj, claim):
    """With the maximum gone, a claim that the recommended dose is the maximum is backed by
    no label_maximum fact: its dose claim is unverifiable, neither supported nor
    contradicted."""
    claims = auditor_obj.audit(claim, domain="medical").to_dict()["claims"]
    dose = [c for c in claims if "maxDose" in str(c.get("evidence"))]
    assert dose and {c["verdict"] for c in dose} == {"unverifiable"}, claims


def test_lacosamide_maximum_is_still_supported(auditor_obj):
    claims = auditor_obj.audit(
        "The maximum dose of lacosamide is 400 mg per day.", domain="medical"
    ).to_dict()["claims"]
    assert claims and {c["verdict"] for c in claims} == {"supported"}, claims


def test_zolpidem_elderly_maximum_kept_so_a_20_mg_step_is_contradicted(auditor_obj):
    """Left a label_maximum: as a usual range the elderly entry would read as a use with no
    maximum and a 20 mg dose, above every zolpidem label maximum, would go unchallenged."""
    claims = auditor_obj.audit(
        "Zolpidem: if 5 mg isn't enough, it can be increased in steps up to 20 mg at bedtime.",
        domain="medical",
    ).to_dict()["claims"]
    assert claims and {c["verdict"] for c in claims} == {"contradicted"}, claims
