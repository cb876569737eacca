"""Issue 28 item 2, fourth pass: label sentences read in stored DailyMed / fda.report pages.

Each case names the fact, a fragment of the label sentence now stored as its quote and the
DailyMed set id (or NDC) the entry cites; pinned cases also carry the label version from
``sources.yaml``. The vilazodone entry, whose sentence is a recommended target dosage, is no
longer a label maximum.
"""

from __future__ import annotations

import pytest

from knowledge_graphs.builders.quotes import limit_role_error

MAXIMA = [
    # drug, max (per day), quote fragment, set id, pinned
    (
        "rosuvastatin",
        40,
        "5 to 40 mg orally once daily",
        "11fabe2e-3d90-4d30-a12a-e9cda5a63cc3",
        True,
    ),
    (
        "loratadine",
        10,
        "not more than 1 tablet in 24 hours",
        "f0e77162-c601-1a0f-e053-2a95a90ab714",
        True,
    ),
    (
        "famotidine",
        40,
        "do not use more than 2 tablets in 24 hours",
        "5c6c6665-cb0a-41d1-af28-85b4f061bd1b",
        True,
    ),
    (
        "fexofenadine",
        180,
        "do not take more than 1 tablet in 24 hours",
        "f0ea471e-de9f-4048-a48c-cfe858774854",
        True,
    ),
    (
        "loperamide",
        8,
        "no more than 4 caplets in 24 hours",
        "e3d4f789-d41c-4965-975b-5af743d7b8e3",
        True,
    ),
    (
        "guaifenesin",
        2400,
        "Do not exceed 6 doses in 24 hours",
        "d1700952-d835-fa09-e053-2995a90ae617",
        True,
    ),
    ("mirtazapine", 45, "maximum recommended dose of 45 mg once daily", "63739-099", False),
    (
        "chlorpheniramine",
        24,
        "not to exceed 6 tablets in 24 hours",
        "4d974959-25fc-4707-9b72-9afbf47b76f1",
        True,
    ),
    (
        "phenylephrine",
        60,
        "do not take more than 6 tablets in 24 hours",
        "51d273c9-804e-4001-844b-ffa15e57265a",
        True,
    ),
    (
        "dextromethorphan",
        120,
        "do not take more than 8 capsules in any 24-hour period",
        "e2175017-6a0d-0155-e053-2995a90a65d6",
        True,
    ),
]

INTERACTIONS = [
    # a, b (graph entities of one pair), quote fragment, set id or NDC, section word
    (
        "potassium chloride",
        "triamterene",
        "contraindicated in patients on triamterene or amiloride",
        "8bae6f0f-58ca-490f-a725-8ec4bc6ba514",
        "Contraindications",
    ),
    (
        "potassium chloride",
        "amiloride",
        "contraindicated in patients on triamterene or amiloride",
        "8bae6f0f-58ca-490f-a725-8ec4bc6ba514",
        "Contraindications",
    ),
    (
        "spironolactone",
        "eplerenone",
        "Concomitant use of eplerenone",
        "3791d79c-d960-4790-b689-ea32ddf7226a",
        "Contraindications",
    ),
    (
        "tadalafil",
        "nitroglycerin",
        "any form of organic nitrate",
        "add6afb8-d38c-47a2-8c35-d5940667bb0c",
        "Nitrates",
    ),
    (
        "sacubitril",
        "lisinopril",
        "contraindicated with concomitant use of an angiotensin-converting enzyme (ACE) inhibitor",
        "0078-0696",
        "General Considerations",
    ),
    (
        "trazodone",
        "phenelzine",
        "within 14 days of stopping, monoamine oxidase inhibitors (MAOIs)",
        "f89ad429-0056-e4d6-e053-6294a90a7ab1",
        "Contraindications",
    ),
    (
        "mirtazapine",
        "tranylcypromine",
        "Taking, or within 14 days of stopping, MAOIs",
        "8b2a08f7-4803-42fa-a2b5-5ea51f8ef7e4",
        "Contraindications",
    ),
    (
        "vilazodone",
        "isocarboxazid",
        "use within 14 days of stopping MAOIs",
        "0968b18d-2f1c-4fc1-8161-dd079c2cf129",
        "Contraindications",
    ),
    (
        "febuxostat",
        "azathioprine",
        "being treated with azathioprine or mercaptopurine",
        "3f5600cd-1f2f-410a-8c55-b8363d4fc492",
        "Contraindications",
    ),
    (
        "phenelzine",
        "pseudoephedrine",
        "or for 2 weeks after stopping the MAOI drug",
        "78faa497-6743-b85b-e053-2a91aa0ae822",
        "Do not use",
    ),
    (
        "tranylcypromine",
        "phenylephrine",
        "or for 2 weeks after stopping the MAOI drug",
        "51d273c9-804e-4001-844b-ffa15e57265a",
        "Do not use",
    ),
]

WASHOUTS = [
    # stopped, started, days, quote fragment, set id, pinned
    (
        "phenelzine",
        "mirtazapine",
        14,
        "within 14 days of stopping, MAOIs",
        "8b2a08f7-4803-42fa-a2b5-5ea51f8ef7e4",
        True,
    ),
    (
        "phenelzine",
        "trazodone",
        14,
        "within 14 days of stopping, monoamine oxidase inhibitors",
        "f89ad429-0056-e4d6-e053-6294a90a7ab1",
        True,
    ),
    (
        "phenelzine",
        "vilazodone",
        14,
        "use within 14 days of stopping MAOIs",
        "0968b18d-2f1c-4fc1-8161-dd079c2cf129",
        False,
    ),
    (
        "escitalopram",
        "phenelzine",
        14,
        "within 14 days of stopping treatment with escitalopram",
        "266f9bd0-3ffc-9c37-e063-6394a90a19e2",
        True,
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
        and f.qualifiers.get("quote")
        and fragment in f.qualifiers["quote"]
    ]
    assert len(facts) == 1, drug
    (f,) = facts
    assert limit_role_error(f.qualifiers["quote"]) is None
    assert label in f.source.document
    assert f.source.document_id == _source_id(label)
    assert bool(f.source.version) is pinned


def _pair(kb, a, b):
    lo, hi = sorted((f"drug:{a}", f"drug:{b}"))
    return [f for f in kb.facts_about(lo, "interactsWith") if f.object == hi]


@pytest.mark.parametrize(("a", "b", "fragment", "label", "section"), INTERACTIONS)
def test_contraindication_carries_its_label_sentence(kb, a, b, fragment, label, section):
    facts = [f for f in _pair(kb, a, b) if fragment in (f.qualifiers.get("quote") or "")]
    assert facts, (a, b, [f.qualifiers for f in _pair(kb, a, b)])
    for f in facts:
        assert f.qualifiers["severity"] == "contraindicated"
        assert label in f.source.document and section in (f.source.section or "")


@pytest.mark.parametrize(("stop", "start", "days", "fragment", "label", "pinned"), WASHOUTS)
def test_washout_carries_its_label_sentence(kb, stop, start, days, fragment, label, pinned):
    facts = [
        f
        for f in kb.facts_about(f"drug:{stop}", "washoutBefore")
        if f.object == f"drug:{start}" and fragment in (f.qualifiers.get("quote") or "")
    ]
    assert len(facts) == 1, (stop, start)
    (f,) = facts
    assert f.value == days and f"{days} days" in f.qualifiers["quote"]
    assert label in f.source.document and bool(f.source.version) is pinned


def test_vilazodone_recommended_target_dosage_is_not_a_maximum(kb):
    """'The recommended target dosage ... is 20 mg to 40 mg' (the label allows up to 80 mg with
    strong CYP3A4 inducers): a usual range, so the builder would refuse it as a maximum."""
    (f,) = kb.facts_about("drug:vilazodone", "maxDose")
    assert f.qualifiers["kind"] == "usual_range" and "20 mg to 40 mg" in f.qualifiers["quote"]
    assert "recommended target dosage" in f.qualifiers["quote"]
    assert limit_role_error(f.qualifiers["quote"]) is not None


def test_readme_knowledge_table_matches_the_graph(kb):
    """The README's 'Source sentences of medical facts' table is the output of
    ``python -m knowledge_graphs.review --quotes``; a quote pass that changes the counts
    updates it."""
    import re
    from pathlib import Path

    from knowledge_graphs.quote_counts import quote_counts

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    counts = quote_counts(kb.facts)
    rows = {"maximum dose": "maxDose", "interaction": "interactsWith", "washout": "washoutBefore"}
    for label, rel in rows.items():
        m = re.search(rf"^\| {label} \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", readme, re.M)
        assert m, label
        c = counts[rel]
        expected = (c["facts"], c["quoted"], c["unquoted"], c["pinned"])
        assert tuple(int(g) for g in m.groups()) == expected, label
