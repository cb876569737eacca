"""Issue 28, ninth quote pass: label text of the FDA-CV-DDI corpus (cardiovascular DailyMed
labels, May 2014) in github.com/dbmi-pitt/public-PDDI-analysis at commit 8199ee66, files named
by DailyMed set id. The corpus gives no SPL version, so these sources are not pinned. Three
fixed regimens read there as recommended doses are now usual ranges (XARELTO x2, ALDACTONE
heart failure)."""

from __future__ import annotations

import pytest

from knowledge_graphs.builders.quotes import limit_role_error

CORPUS = "FDA-CV-DDI corpus copy, May 2014"

DOSES = [
    # drug, a word of indication/product (or None), kind, min, max, quote fragment, set id
    (
        "irbesartan",
        None,
        "label_maximum",
        None,
        300,
        "maximum dose of 300 mg once daily",
        "7885b2a8",
    ),
    (
        "hydrochlorothiazide",
        "hypertension",
        "label_maximum",
        None,
        50,
        "greater than 50 mg are not recommended",
        "afbefaff",
    ),
    ("nebivolol", None, "label_maximum", None, 40, "up to 40 mg", "8b8ad213"),
    ("benazepril", "hypertension", "usual_range", 20, 40, "20-40 mg per day", "2abb091b"),
    ("candesartan", "hypertension", "usual_range", 8, 32, "from 8 mg to 32 mg", "48b021e4"),
    ("atenolol", "hypertension", "usual_range", 50, 100, "beyond 100 mg a day", "fcfc9676"),
    (
        "spironolactone",
        "heart failure",
        "usual_range",
        25,
        50,
        "increased to 50 mg once daily",
        "0fed2822",
    ),
    ("spironolactone", "edema", "usual_range", 25, 200, "from 25 to 200 mg daily", "0fed2822"),
    (
        "spironolactone",
        "hyperaldosteronism",
        "usual_range",
        100,
        400,
        "100 to 400 mg daily",
        "0fed2822",
    ),
    ("diltiazem", "angina", "usual_range", 180, 360, "180 to 360 mg/day", "461fe23f"),
    ("prazosin", "hypertension", "usual_range", 6, 15, "from 6 mg to 15 mg daily", "36c4da56"),
    (
        "rivaroxaban",
        "atrial fibrillation",
        "usual_range",
        20,
        20,
        "recommended dose of XARELTO is 20 mg",
        "10db92f9",
    ),
    (
        "rivaroxaban",
        "DVT/PE",
        "usual_range",
        30,
        30,
        "15 mg taken orally twice daily with food for the first 21 days",
        "10db92f9",
    ),
]

PAIRS = [
    # a, b, severity, quote fragment, set id
    ("ticagrelor", "rifampin", "major", "potent inducers of CYP3A", "f7b3f443"),
    ("ticagrelor", "phenytoin", "major", "potent inducers of CYP3A", "f7b3f443"),
    ("ticagrelor", "carbamazepine", "major", "potent inducers of CYP3A", "f7b3f443"),
    ("ticagrelor", "phenobarbital", "major", "potent inducers of CYP3A", "f7b3f443"),
    (
        "aliskiren",
        "lisinopril",
        "contraindicated",
        "ARBs or ACEIs in patients with diabetes",
        "833c7a0b",
    ),
    (
        "aliskiren",
        "losartan",
        "contraindicated",
        "ARBs or ACEIs in patients with diabetes",
        "833c7a0b",
    ),
    ("furosemide", "lithium", "major", "should not be given with diuretics", "eadfe464"),
    (
        "furosemide",
        "ethacrynic acid",
        "major",
        "should not be used concomitantly with ethacrynic acid",
        "eadfe464",
    ),
    ("dofetilide", "cimetidine", "contraindicated", "cimetidine is contraindicated", "02438044"),
    ("dofetilide", "verapamil", "contraindicated", "verapamil is contraindicated", "02438044"),
    (
        "dofetilide",
        "ketoconazole",
        "contraindicated",
        "ketoconazole is contraindicated",
        "02438044",
    ),
    (
        "dofetilide",
        "trimethoprim",
        "contraindicated",
        "trimethoprim alone or in combination",
        "02438044",
    ),
    (
        "dofetilide",
        "hydrochlorothiazide",
        "contraindicated",
        "HCTZ alone or in combination",
        "02438044",
    ),
]


def _doses(kb, drug, words):
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


def _pair(kb, a, b):
    lo, hi = sorted((f"drug:{a}", f"drug:{b}"))
    return [f for f in kb.facts_about(lo, "interactsWith") if f.object == hi]


@pytest.mark.parametrize(("drug", "words", "kind", "low", "high", "fragment", "setid"), DOSES)
def test_dose_is_quoted_from_the_corpus_label(kb, drug, words, kind, low, high, fragment, setid):
    facts = [f for f in _doses(kb, drug, words) if f.qualifiers.get("quote")]
    facts = [f for f in facts if CORPUS in f.source.document]
    assert len(facts) == 1, (drug, words, facts)
    (f,) = facts
    assert f.qualifiers["kind"] == kind
    assert (f.value_max or f.value) == high
    if low is not None:
        assert f.value == low
    assert fragment in f.qualifiers["quote"]
    assert setid in (f.source.document_id or "")
    assert not f.source.version, "the corpus gives no label version: not pinned"
    if kind == "label_maximum":
        assert limit_role_error(f.qualifiers["quote"]) is None
        assert f"{high:g}" in f.qualifiers["quote"]


@pytest.mark.parametrize(
    "drug_words",
    [
        ("rivaroxaban", "atrial fibrillation"),
        ("rivaroxaban", "DVT/PE"),
        ("spironolactone", "heart failure"),
    ],
)
def test_recommended_regimens_are_no_longer_maxima(kb, drug_words):
    """The label sentence read gives a recommended dose or a titration step, no maximum."""
    facts = _doses(kb, *drug_words)
    assert facts and all(f.qualifiers["kind"] == "usual_range" for f in facts)
    for f in facts:
        assert (
            limit_role_error(f.qualifiers["quote"]) is not None
            or "increased to" in f.qualifiers["quote"]
        )


@pytest.mark.parametrize(("a", "b", "severity", "fragment", "setid"), PAIRS)
def test_interaction_is_quoted_from_the_corpus_label(kb, a, b, severity, fragment, setid):
    facts = [f for f in _pair(kb, a, b) if CORPUS in f.source.document]
    assert facts, (a, b)
    for f in facts:
        assert f.qualifiers["severity"] == severity
        assert fragment in f.qualifiers["quote"]
        assert setid in (f.source.document_id or "")
        assert len(f.qualifiers["quote"]) <= 300


@pytest.mark.parametrize(
    ("drug", "words"),
    [
        ("metoprolol", "tartrate|hypertension"),
        ("metoprolol", "tartrate|angina"),
        ("azilsartan", None),
    ],
)
def test_seventh_pass_unquoted_usual_ranges_are_left_unquoted(kb, drug, words):
    """LOPRESSOR ("The effective dosage range of Lopressor tablets is 100-450 mg per day.",
    "... 100-400 mg per day.") and EDARBI ("The recommended dose in adults is 80 mg taken
    orally once daily.") were read in the corpus, but test_quotes_seventh_pass.py pins these
    three usual ranges as unquoted; they are left for the lead (OMITTED.md, ninth pass)."""
    (f,) = _doses(kb, drug, words)
    assert f.qualifiers["kind"] == "usual_range" and f.qualifiers.get("unquoted") == "true"


def test_ticagrelor_quote_names_each_inducer(kb):
    for other in ("rifampin", "phenytoin", "carbamazepine", "phenobarbital"):
        (f,) = [f for f in _pair(kb, "ticagrelor", other) if CORPUS in f.source.document]
        assert other in f.qualifiers["quote"]
