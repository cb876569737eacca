"""Issue 28 item 2, interaction / washout quote pass: label sentences read in stored pages.

Each case names the pair, a fragment of the sentence now stored as its quote, the document
it cites and its section; the tramadol case reuses a label already pinned in
``sources.yaml`` (set id and openFDA SPL version), the others cite DailyMed pages or the FDA
page read, not yet pinned. No severity read on this pass contradicted a stored one.
"""

from __future__ import annotations

import pytest

MAOIS = ["phenelzine", "tranylcypromine", "isocarboxazid"]
TRAMADOL_LABEL = "855905c7-1481-4b2d-a318-3254ad8ed73c"


def _pair(kb, a, b):
    lo, hi = sorted((f"drug:{a}", f"drug:{b}"))
    return [f for f in kb.facts_about(lo, "interactsWith") if f.object == hi]


@pytest.mark.parametrize("maoi", MAOIS)
def test_tramadol_maoi_contraindication_quotes_its_contraindications_section(kb, maoi):
    """Tramadol label (set id 855905c7-..., openFDA SPL version 1), 4 Contraindications:
    'Concurrent use of monoamine oxidase inhibitors (MAOIs) or use within the last 14 days'.
    The entry cited ULTRAM (not read); it now cites the label read, already pinned."""
    facts = _pair(kb, maoi, "tramadol")
    assert facts, maoi
    for f in facts:
        assert f.qualifiers["quote"].startswith(
            "Concurrent use of monoamine oxidase inhibitors (MAOIs) or use within the last 14 days"
        )
        assert f.qualifiers["severity"] == "contraindicated"
        assert f.source.section == "4 Contraindications"
        assert f.source.document_id == f"dailymed-setid:{TRAMADOL_LABEL}"
        assert f.source.version == "openFDA SPL version 1, effective 2026-06-08"


@pytest.mark.parametrize("maoi", MAOIS)
def test_cyclobenzaprine_maoi_contraindication_quotes_its_label(kb, maoi):
    """Cyclobenzaprine tablets USP (DailyMed set id 30ca08c7-..., 'Updated March 20, 2025'),
    CONTRAINDICATIONS: 'Concomitant use of monoamine oxidase (MAO) inhibitors or within 14
    days after their discontinuation.' The entry cited FLEXERIL (not read)."""
    facts = _pair(kb, maoi, "cyclobenzaprine")
    assert facts, maoi
    for f in facts:
        assert f.qualifiers["quote"] == (
            "Concomitant use of monoamine oxidase (MAO) inhibitors or within 14 days after "
            "their discontinuation."
        )
        assert f.qualifiers["severity"] == "contraindicated"
        assert f.source.section == "Contraindications"
        assert "DailyMed set id 30ca08c7-4ee3-2f37-e063-6294a90ae31a" in f.source.document
        assert f.source.document_id == "dailymed-setid:30ca08c7-4ee3-2f37-e063-6294a90ae31a"
        assert f.source.version == "DailyMed label updated 2025-03-20"  # pinned (sources.yaml)


ALCOHOL = [
    # drug, quote fragment, document fragment, section fragment
    (
        "acetaminophen",
        "acetaminophen while drinking 3 or more alcoholic drinks every day",
        "FDA: Careful: Acetaminophen in pain relief medicines can cause liver damage",
        "Severe liver damage",
    ),
    (
        "cetirizine",
        "• avoid alcoholic drinks • alcohol, sedatives, and tranquilizers may increase drowsiness",
        "DailyMed set id 110adf3c-84ce-48a1-8a22-89ee3eec22d9",
        "When using this product",
    ),
    (
        "levocetirizine",
        "• avoid alcoholic drinks • alcohol, sedatives, and tranquilizers may increase drowsiness",
        "DailyMed set id 8ee69332-742d-4071-95df-84bc42e170e7",
        "When using this product",
    ),
]


@pytest.mark.parametrize(("drug", "fragment", "document", "section"), ALCOHOL)
def test_alcohol_warning_carries_its_sentence(kb, drug, fragment, document, section):
    """OTC warnings read on DailyMed Drug Facts pages and the FDA acetaminophen page: the
    label says to avoid alcohol or warns of serious harm, so `major` (not contraindicated:
    none of these is a Contraindications or 'Do not use' statement). The two DailyMed pages
    are pinned by their "Updated" date (sources.yaml); the FDA page shows none."""
    facts = _pair(kb, drug, "ethanol")
    assert len(facts) == 1, (drug, facts)
    (f,) = facts
    assert fragment in f.qualifiers["quote"]
    assert f.qualifiers["severity"] == "major"
    assert document in f.source.document
    assert section in (f.source.section or "")
    assert not f.qualifiers.get("unquoted")
    assert f.source.version == PINNED.get(drug)


PINNED = {
    "cetirizine": "DailyMed label updated 2025-06-01",
    "levocetirizine": "DailyMed label updated 2023-01-16",
}


def test_acetaminophen_alcohol_keeps_its_daily_drinking_condition(kb):
    """The sentence is conditioned on drinking '3 or more alcoholic drinks every day': the
    entry keeps that condition."""
    (f,) = _pair(kb, "acetaminophen", "ethanol")
    assert "3 or more alcoholic drinks every day" in f.qualifiers["condition"]
