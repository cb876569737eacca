"""Issue 28: the facts found wrong are fixed, and every quoted-kind fact carries a quote
(or an explicit ``unquoted`` marker) that the builder checks against the fact's role."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from auditor.verify.common import evidence
from knowledge_graphs.builders.curated import DoseIn, InteractionIn, WashoutIn
from knowledge_graphs.builders.quotes import (
    check_dose_role,
    check_interaction_section,
    limit_role_error,
    require_quote,
)
from knowledge_graphs.errors import DataError
from knowledge_graphs.model import Fact, Source
from knowledge_graphs.quote_counts import quote_counts

SRC = {"document": "X (x) prescribing information", "section": "2 Dosage and Administration"}


def _doses(kb, drug):
    return kb.facts_about(f"drug:{drug}", "maxDose")


def _pair(kb, a, b):
    lo, hi = sorted((f"drug:{a}", f"drug:{b}"))
    return [f for f in kb.facts_about(lo, "interactsWith") if f.object == hi]


# --- the facts the re-check found wrong or missing a qualifier ----------------------------


@pytest.mark.parametrize("other", ["triamterene", "amiloride"])
def test_potassium_chloride_with_potassium_sparing_diuretic_is_contraindicated(kb, other):
    facts = _pair(kb, "potassium chloride", other)
    assert facts and all(f.qualifiers["severity"] == "contraindicated" for f in facts)
    assert all("contraindication" in (f.source.section or "").lower() for f in facts)


@pytest.mark.parametrize(
    ("drug", "indication"),
    [("desvenlafaxine", "major depressive disorder"), ("lithium", "acute mania")],
)
def test_a_recommended_or_usual_dose_is_not_a_label_maximum(kb, drug, indication):
    facts = [f for f in _doses(kb, drug) if f.qualifiers.get("indication") == indication]
    assert facts
    assert all(f.qualifiers["kind"] != "label_maximum" for f in facts)


def test_evolocumab_regimens_are_not_maxima_and_name_their_indication(kb):
    facts = _doses(kb, "evolocumab")
    assert facts and all(f.qualifiers["kind"] == "usual_range" for f in facts)
    assert all(f.qualifiers.get("indication") for f in facts)
    (freq,) = kb.facts_about("drug:evolocumab", "dosingFrequency")
    assert freq.qualifiers.get("indication")


def test_nirmatrelvir_colchicine_contraindication_is_conditional(kb):
    (f,) = _pair(kb, "nirmatrelvir", "colchicine")
    assert "renal" in f.qualifiers["condition"] and "hepatic" in f.qualifiers["condition"]


def test_no_per_dose_potassium_chloride_maximum_for_the_generic_product(kb):
    assert not [f for f in _doses(kb, "potassium chloride") if f.qualifiers["per"] == "dose"]


def test_clopidogrel_frequency_names_only_the_labelled_loading_dose(kb):
    (f,) = kb.facts_about("drug:clopidogrel", "dosingFrequency")
    assert "600" not in (f.literal or "") and "300 mg" in (f.literal or "")


def test_edoxaban_weight_rule_is_limited_to_dvt_pe(kb):
    (f,) = kb.facts_about("drug:edoxaban", "dosingFrequency")
    assert "DVT/PE" in (f.literal or "")


def test_diabetic_neuropathy_is_not_an_alias_of_e11_42(kb):
    ent = kb.entity("condition:E11.42")
    assert ent is not None and "diabetic neuropathy" not in [a.lower() for a in ent.aliases]


@pytest.mark.parametrize("drug", ["duloxetine", "pregabalin"])
def test_dpnp_indication_is_not_limited_to_type_2(kb, drug):
    codes = {f.object for f in kb.facts_about(f"drug:{drug}", "indicatedFor")}
    assert {"condition:E10.42", "condition:E11.42"} <= codes


@pytest.mark.parametrize("drug", ["butorphanol", "pentazocine"])
def test_schedule_iv_opioid_agonist_antagonists_cite_other_substances(kb, drug):
    (f,) = kb.facts_about(f"drug:{drug}", "controlledSchedule")
    assert f.literal == "IV" and "narcotic" not in (f.source.section or "")
    assert "other substances" in (f.source.section or "")


@pytest.mark.parametrize(
    ("label", "paragraph"),
    [
        ("US Tier 1 leverage ratio minimum", "217.10(a)(1)(iv)"),
        ("US supplementary leverage ratio minimum", "217.10(a)(1)(v)"),
    ],
)
def test_us_leverage_minima_cite_their_paragraph(kb, label, paragraph):
    ents = [e for e in kb.entities.values() if e.label.startswith(label)]
    assert ents
    facts = [f for e in ents for f in kb.facts if f.subject == e.id and f.source.section]
    assert facts and all(paragraph in (f.source.section or "") for f in facts)


# --- quotes: required, role-checked, carried as evidence ----------------------------------


def _dose(**kw):
    base = {"drug": "x", "max": 50, "unit": "mg", "source": SRC}
    return DoseIn.model_validate({**base, **kw})


def test_a_quoted_kind_without_quote_or_marker_is_refused():
    with pytest.raises(DataError, match="quote") as exc:
        require_quote(_dose(), "maxDose", "medical/doses.yaml: entry 3 (x)")
    assert "medical/doses.yaml: entry 3 (x)" in str(exc.value)
    require_quote(_dose(unquoted=True), "maxDose", "w")
    require_quote(_dose(quote="Do not exceed 50 mg in 24 hours."), "maxDose", "w")
    w = {"stop": "a", "start": "b", "min": 14, "unit": "day", "source": SRC}
    with pytest.raises(DataError):
        require_quote(WashoutIn.model_validate(w), "washout", "w")


def test_quote_and_unquoted_exclude_each_other_and_quote_is_bounded():
    with pytest.raises(ValueError):
        _dose(quote="Do not exceed 50 mg daily.", unquoted=True)
    with pytest.raises(ValueError):
        _dose(quote="x" * 301)


@pytest.mark.parametrize(
    ("quote", "fires"),
    [
        ("The recommended dose is 50 mg once daily.", True),
        ("Optimal patient response usually can be established with 600 mg t.i.d.", True),
        ("The usual dosage is 300 mg three times a day.", True),
        ("Doses up to 400 mg/day were studied; no additional benefit was seen.", True),
        ("Do not exceed 4,000 mg in 24 hours.", False),
        ("The maximum recommended dose is 20 mg per day.", False),
        ("The total daily dose should not exceed 200 mEq.", False),
        ("Do not take more than 6 tablets in 24 hours.", False),
        # maximum wordings that also say "recommended" (issue 28): each is a limit
        ("It is recommended that the drug should not be given at doses above 40 mg/day.", False),
        ("Doses above 20 mg/day are not recommended.", False),
        ("Doses above 60 mg once daily in the elderly are not recommended.", False),
        ("Do not take more than the recommended dose.", False),
        ("Do not use more than directed; the recommended dose is 2 tablets.", False),
        ("The recommended dose is 10 mg, not to exceed 20 mg in 24 hours.", False),
        ("The maximum recommended dose is 200 mg per day.", False),
        ("The dose should not exceed the recommended 8 mg per day.", False),
        ("Increase as recommended, up to a maximum of 40 mg daily.", False),
        ("Do not administer at a dose exceeding the recommended 400 mg per day.", False),
        # a recommended / usual dose alone stays refused
        ("The recommended dose is 40 mg once daily.", True),
        ("The recommended dose is 20 mg; doses above 20 mg were studied.", True),
        ("Doses above 40 mg are recommended for some patients.", True),
        ("The usual dose should be given at doses divided twice daily.", True),
        # an effective or target dose is not a limit either (memantine XR, seventh pass)
        (
            "The dosage shown to be effective in a controlled clinical trial is 28 mg once daily.",
            True,
        ),
        ("The target dose is 200 mg once daily.", True),
        ("The maximum effective dose is 20 mg per day.", False),
    ],
)
def test_label_maximum_role_check(quote, fires):
    assert (limit_role_error(quote) is not None) is fires
    d = _dose(quote=quote)
    if fires:
        with pytest.raises(DataError, match="label_maximum rejected"):
            check_dose_role(d, "w")
    else:
        check_dose_role(d, "w")
    check_dose_role(_dose(quote=quote, kind="usual_range", min=50), "w")


@pytest.mark.parametrize(
    ("severity", "section", "fires"),
    [
        ("major", "4 Contraindications", True),
        ("major", "CONTRAINDICATIONS", True),
        ("contraindicated", "4 Contraindications", False),
        ("major", "5 Warnings and Precautions", False),
    ],
)
def test_severity_must_match_a_contraindications_section(severity, section, fires):
    it = InteractionIn.model_validate(
        {
            "a": "x",
            "b": "y",
            "severity": severity,
            "unquoted": True,
            "source": {**SRC, "section": section},
        }
    )
    if fires:
        with pytest.raises(DataError, match="contraindicated"):
            check_interaction_section(it, "w")
    else:
        check_interaction_section(it, "w")


def _fact(**q):
    return Fact(
        "medical:maxDose:1",
        "medical",
        "drug:x",
        "maxDose",
        Source("D"),
        value=1.0,
        unit="mg",
        qualifiers={"kind": "label_maximum", **q},
    )


def test_evidence_carries_the_quote_or_says_the_fact_is_unquoted():
    ev = evidence(_fact(quote="Do not exceed 1 mg."), "match")
    assert ev["quote"] == "Do not exceed 1 mg." and "quote" not in ev["qualifiers"]
    assert "unquoted" not in ev
    ev = evidence(_fact(unquoted="true"), "match")
    assert "quote" not in ev and "no source sentence" in ev["unquoted"]
    assert "unquoted" not in ev["qualifiers"]


def test_every_dose_interaction_and_washout_fact_is_quoted_or_marked(kb):
    counts = quote_counts(kb.facts)
    for rel in ("maxDose", "interactsWith", "washoutBefore"):
        assert counts[rel]["facts"] > 0 and counts[rel]["neither"] == 0, rel


def test_stored_quotes_are_bounded_and_reach_the_evidence(kb):
    quoted = [f for f in kb.facts if f.qualifiers.get("quote")]
    assert quoted and all(len(f.qualifiers["quote"]) <= 300 for f in quoted)
    (f,) = _pair(kb, "sildenafil", "nitroglycerin")
    assert "organic nitrates" in evidence(f, "match", kb)["quote"]


# --- quoted washouts state their own interval -----------------------------------------------

_NUMBER_WORDS = {
    2: "two",
    5: "five",
    7: "seven",
    14: "fourteen",
    21: "twenty-one",
    36: "thirty-six",
    48: "forty-eight",
}


def test_every_quoted_washout_states_its_interval():
    """A washout's quote is the label sentence that gives the interval: the number (in
    digits or words) and its unit both appear in it, so a quote can never back a
    different interval than the fact stores."""
    path = Path(__file__).resolve().parents[2] / "knowledge_graphs/curated/medical/washouts.yaml"
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))["entries"]
    quoted = [e for e in entries if e.get("quote")]
    assert len(quoted) >= 5
    for e in quoted:
        text = e["quote"].lower()
        number = e["min"]
        assert str(number) in text or _NUMBER_WORDS.get(number, "\0") in text, e
        assert e["unit"] in text, e


# --- quoted maxima state their own number --------------------------------------------------

_UNIT_COUNT = re.compile(r"\b\d+\s+(?:tablets?|capsules?|caplets?|gelcaps?|softgels?)\b", re.I)


def test_every_quoted_label_maximum_states_its_number():
    """A label maximum's quote gives the number the fact stores (digits, thousands
    separators ignored), or, for a product-specific entry, a count of dosage units
    ("do not exceed 6 tablets in 24 hours" for the 200 mg tablet)."""
    path = Path(__file__).resolve().parents[2] / "knowledge_graphs/curated/medical/doses.yaml"
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))["entries"]
    quoted = [e for e in entries if e.get("quote") and e["kind"] == "label_maximum"]
    assert len(quoted) >= 5
    for e in quoted:
        text = e["quote"].replace(",", "")
        number = f"{e['max']:g}"
        states = re.search(rf"(?<![\d.]){re.escape(number)}(?!\d)", text)
        assert states or (e.get("product") and _UNIT_COUNT.search(text)), e


def test_citalopram_40_mg_maximum_carries_the_label_sentence(kb):
    """'should not be given at doses above 40 mg/day' is a maximum the role check accepts."""
    facts = [
        f
        for f in _doses(kb, "citalopram")
        if f.qualifiers.get("population") == "adult" and f.qualifiers["kind"] == "label_maximum"
    ]
    assert facts
    (f,) = facts
    assert "doses above 40 mg/day" in f.qualifiers["quote"]
    assert limit_role_error(f.qualifiers["quote"]) is None
