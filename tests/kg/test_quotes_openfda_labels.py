"""Issue 28: facts read in the full SPL label XMLs of the FDA/openfda repository.

Commit 2c152208aaa02323696d904e94a1d114e66247ec (CC0-1.0): LIPITOR (set id c6e131fe-...,
SPL version 11), HUMIRA (608d4f0d-..., version 1560), haloperidol tablets (0027b8a3-...,
version 1), TRIAMINIC Night Time Cold and Cough Drug Facts (00f66f25-..., version 1) and
VIAGRA (0b0be196-..., version 20). Each case names the fact, a fragment of the label sentence
stored as its quote, the set id and the section; every one of these sources is pinned.
"""

from __future__ import annotations

import pytest

from knowledge_graphs.builders.quotes import limit_role_error

LIPITOR = "c6e131fe-e7df-4876-83f7-9156fc4e8228"
HUMIRA = "608d4f0d-b19f-46d3-749a-7159aa5f933d"
HALOPERIDOL = "0027b8a3-73bf-4005-a7e3-b035f451a861"
TRIAMINIC = "00f66f25-3469-4c16-9baf-fba21e9628bd"
VIAGRA = "0b0be196-0c62-461c-94f4-9a35339b4501"

VERSIONS = {
    LIPITOR: "SPL version 11, effective 2014-01-13",
    HUMIRA: "SPL version 1560, effective 2013-09-30",
    HALOPERIDOL: "SPL version 1, effective 2010-07-28",
    TRIAMINIC: "SPL version 1, effective 2011-04-26",
    VIAGRA: "SPL version 20, effective 2017-11-07",
}

_CYP3A4 = "A starting dose of 25 mg of VIAGRA should be considered in patients taking erythromycin"
_PDE5 = "Therefore, the use of such combinations is not recommended."

INTERACTIONS = [
    # a, b, severity, quote fragment, set id, section
    (
        "atorvastatin",
        "gemfibrozil",
        "major",
        "LIPITOR with gemfibrozil should be avoided",
        LIPITOR,
        "7.4 Gemfibrozil",
    ),
    (
        "atorvastatin",
        "tipranavir",
        "major",
        "concomitant use of LIPITOR should be avoided",
        LIPITOR,
        "7.1 Strong Inhibitors of CYP 3A4",
    ),
    (
        "atorvastatin",
        "telaprevir",
        "major",
        "concomitant use of LIPITOR should be avoided",
        LIPITOR,
        "7.1 Strong Inhibitors of CYP 3A4",
    ),
    (
        "atorvastatin",
        "nelfinavir",
        "major",
        "the dose of LIPITOR should not exceed 40 mg",
        LIPITOR,
        "7.1 Strong Inhibitors of CYP 3A4",
    ),
    (
        "atorvastatin",
        "boceprevir",
        "major",
        "the dose of LIPITOR should not exceed 40 mg",
        LIPITOR,
        "7.1 Strong Inhibitors of CYP 3A4",
    ),
    (
        "atorvastatin",
        "lopinavir",
        "caution",
        "lopinavir plus ritonavir, caution should be used when prescribing LIPITOR",
        LIPITOR,
        "7.1 Strong Inhibitors of CYP 3A4",
    ),
    (
        "atorvastatin",
        "fenofibrate",
        "caution",
        "LIPITOR should be administered with caution when used concomitantly with other fibrates",
        LIPITOR,
        "7.5 Other Fibrates",
    ),
    (
        "atorvastatin",
        "colchicine",
        "caution",
        "caution should be exercised when prescribing atorvastatin with colchicine",
        LIPITOR,
        "7.11 Colchicine",
    ),
    (
        "atorvastatin",
        "digoxin",
        "caution",
        "Patients taking digoxin should be monitored appropriately.",
        LIPITOR,
        "7.8 Digoxin",
    ),
    (
        "atorvastatin",
        "niacin",
        "caution",
        "lipid-modifying doses (≥1 g/day) of niacin increases the risk",
        LIPITOR,
        "Highlights: Drug Interactions",
    ),
    (
        "adalimumab",
        "anakinra",
        "major",
        "the combination of HUMIRA and anakinra is not recommended",
        HUMIRA,
        "5.7 Use with Anakinra",
    ),
    (
        "adalimumab",
        "abatacept",
        "major",
        "the combination of abatacept with TNF-blockers including HUMIRA is not recommended",
        HUMIRA,
        "5.11 Use with Abatacept",
    ),
    (
        "adalimumab",
        "yellow fever vaccine",
        "major",
        "Avoid the use of live vaccines with HUMIRA",
        HUMIRA,
        "7.3 Live Vaccines",
    ),
    (
        "adalimumab",
        "measles vaccine",
        "major",
        "Avoid the use of live vaccines with HUMIRA",
        HUMIRA,
        "7.3 Live Vaccines",
    ),
    (
        "haloperidol",
        "rifampin",
        "caution",
        "careful monitoring of clinical status is warranted when rifampin is administered",
        HALOPERIDOL,
        "Precautions",
    ),
    (
        "haloperidol",
        "ethanol",
        "major",
        "The use of alcohol with this drug should be avoided",
        HALOPERIDOL,
        "Warnings: General",
    ),
    (
        "haloperidol",
        "epinephrine",
        "major",
        "epinephrine should not be used since haloperidol may block its vasopressor activity",
        HALOPERIDOL,
        "Precautions",
    ),
    (
        "sildenafil",
        "riociguat",
        "contraindicated",
        "Do not use VIAGRA in patients who are using a GC stimulator, such as riociguat.",
        VIAGRA,
        "4.3 Concomitant Guanylate Cyclase (GC) Stimulators",
    ),
    (
        "sildenafil",
        "ritonavir",
        "major",
        "not to exceed a maximum single dose of 25 mg of VIAGRA in a 48 hour period",
        VIAGRA,
        "7.4 Ritonavir and other CYP3A4 inhibitors",
    ),
    ("sildenafil", "erythromycin", "caution", _CYP3A4, VIAGRA, "7.4 Ritonavir"),
    ("sildenafil", "saquinavir", "caution", _CYP3A4, VIAGRA, "7.4 Ritonavir"),
    ("sildenafil", "ketoconazole", "caution", _CYP3A4, VIAGRA, "7.4 Ritonavir"),
    ("sildenafil", "itraconazole", "caution", _CYP3A4, VIAGRA, "7.4 Ritonavir"),
    ("sildenafil", "tadalafil", "major", _PDE5, VIAGRA, "5.7 Combination with other PDE5"),
    ("sildenafil", "vardenafil", "major", _PDE5, VIAGRA, "5.7 Combination with other PDE5"),
    ("sildenafil", "avanafil", "major", _PDE5, VIAGRA, "5.7 Combination with other PDE5"),
]


def _pair(kb, a, b):
    lo, hi = sorted((f"drug:{a}", f"drug:{b}"))
    return [f for f in kb.facts_about(lo, "interactsWith") if f.object == hi]


def _pinned(f, set_id):
    assert set_id in f.source.document
    assert f.source.document_id == f"dailymed-setid:{set_id}"
    assert f.source.version == VERSIONS[set_id]
    assert f.source.url == f"https://dailymed.nlm.nih.gov/dailymed/lookup.cfm?setid={set_id}"


@pytest.mark.parametrize(("a", "b", "severity", "fragment", "set_id", "section"), INTERACTIONS)
def test_interaction_carries_its_label_sentence(kb, a, b, severity, fragment, set_id, section):
    facts = [f for f in _pair(kb, a, b) if fragment in (f.qualifiers.get("quote") or "")]
    assert len(facts) == 1, (a, b, [f.qualifiers for f in _pair(kb, a, b)])
    (f,) = facts
    assert f.qualifiers["severity"] == severity
    assert "unquoted" not in f.qualifiers
    assert 10 <= len(f.qualifiers["quote"]) <= 300
    assert (f.source.section or "").startswith(section)
    _pinned(f, set_id)


def test_conditions_are_kept(kb):
    """The niacin caution is the label's for lipid-modifying doses; the epinephrine warning is
    for a vasopressor needed in haloperidol-induced hypotension."""
    (niacin,) = _pair(kb, "atorvastatin", "niacin")
    assert "1 g/day" in niacin.qualifiers["condition"]
    (epi,) = _pair(kb, "haloperidol", "epinephrine")
    assert "vasopressor" in epi.qualifiers["condition"]


def test_humira_interactions_are_no_longer_unquoted(kb):
    for b in ("anakinra", "abatacept"):
        facts = _pair(kb, "adalimumab", b)
        assert facts and all(f.qualifiers.get("quote") for f in facts), b
        assert all("unquoted" not in f.qualifiers for f in facts), b


def _maxima(kb, drug, value):
    return [
        f
        for f in kb.facts_about(f"drug:{drug}", "maxDose")
        if f.qualifiers.get("kind") == "label_maximum" and f.value == value
    ]


def test_atorvastatin_boceprevir_cap(kb):
    (f,) = [
        f
        for f in _maxima(kb, "atorvastatin", 40)
        if "boceprevir" in f.qualifiers.get("co_medication", "")
    ]
    assert "the dose of LIPITOR should not exceed 40 mg" in f.qualifiers["quote"]
    assert limit_role_error(f.qualifiers["quote"]) is None
    assert f.source.section == "7.1 Strong Inhibitors of CYP 3A4"
    _pinned(f, LIPITOR)


def test_atorvastatin_pediatric_maximum(kb):
    (f,) = [f for f in _maxima(kb, "atorvastatin", 20) if "co_medication" not in f.qualifiers]
    assert "the maximum recommended dose is 20 mg/day" in f.qualifiers["quote"]
    assert limit_role_error(f.qualifiers["quote"]) is None
    assert f.qualifiers["population"] == "pediatric 10 to 17 years"
    assert f.qualifiers["indication"] == "heterozygous familial hypercholesterolemia"
    assert f.source.section.startswith("2.2 Heterozygous Familial Hypercholesterolemia")
    _pinned(f, LIPITOR)


@pytest.mark.parametrize("maoi", ["phenelzine", "tranylcypromine", "isocarboxazid"])
def test_maoi_to_phenylephrine_washout(kb, maoi):
    facts = [
        f
        for f in kb.facts_about(f"drug:{maoi}", "washoutBefore")
        if f.object == "drug:phenylephrine"
    ]
    assert len(facts) == 1, maoi
    (f,) = facts
    assert (f.value, f.unit) == (2, "week")
    assert "or for 2 weeks after stopping the MAOI drug." in f.qualifiers["quote"]
    assert f.source.section == "Drug Facts: Warnings: Do not use"
    _pinned(f, TRIAMINIC)


def _verdicts(auditor_obj, text):
    claims = auditor_obj.audit(text, domain="medical", as_of="2025-09-01").to_dict()["claims"]
    return claims, {c["verdict"] for c in claims}


@pytest.mark.parametrize(
    "text",
    [
        "Atorvastatin and gemfibrozil do not interact.",
        "Atorvastatin can be safely combined with colchicine without any precautions.",
        "Sildenafil and riociguat can be taken together safely.",
        "Sildenafil and ritonavir do not interact.",
        "Sildenafil and tadalafil can be taken together safely.",
        "Adalimumab and anakinra can be combined safely.",
        "In patients taking boceprevir, atorvastatin can be given up to 80 mg daily.",
        "You can take phenylephrine 3 days after stopping an MAOI.",
    ],
)
def test_denial_or_excess_is_contradicted(auditor_obj, text):
    claims, verdicts = _verdicts(auditor_obj, text)
    assert verdicts == {"contradicted"}, claims


@pytest.mark.parametrize(
    "text",
    [
        "Concomitant use of atorvastatin with gemfibrozil should be avoided.",
        "Sildenafil is contraindicated with riociguat.",
        "Do not take sildenafil together with tadalafil.",
        "In patients taking boceprevir, the dose of atorvastatin should not exceed 40 mg daily.",
        "After stopping an MAOI, wait at least 2 weeks before taking phenylephrine.",
        "The maximum dose of atorvastatin is 80 mg per day.",
    ],
)
def test_correct_statement_is_supported(auditor_obj, text):
    claims, verdicts = _verdicts(auditor_obj, text)
    assert verdicts == {"supported"}, claims


def test_pediatric_maximum_does_not_contradict_the_adult_maximum(auditor_obj):
    """The 20 mg pediatric maximum is the label's for children 10-17 with heterozygous FH: a
    text that names no population is not contradicted by it."""
    claims, verdicts = _verdicts(auditor_obj, "The maximum dose of atorvastatin is 20 mg per day.")
    assert "contradicted" not in verdicts, claims
