"""Issue 28, eighth pass: facts read from the VIAGRA SPL (FDA/openfda@2c152208, set id
0b0be196-0c62-461c-94f4-9a35339b4501, version 20) and a recommended dose that was stored as a
maximum. The other labels of the pass are tested in test_quotes_openfda_labels.py."""

from __future__ import annotations

VIAGRA = "VIAGRA (sildenafil citrate) tablets prescribing information (DailyMed set id 0b0be196-0c62-461c-94f4-9a35339b4501)"


def test_sildenafil_alpha_blockers_is_a_quoted_pinned_caution(kb):
    facts = kb.facts_between("drug:sildenafil", "drug:doxazosin", "interactsWith")
    assert facts, "doxazosin is the member VIAGRA 12.2 names"
    f = facts[0]
    assert f.qualifiers["severity"] == "caution"
    assert f.qualifiers["quote"].startswith("Use caution when co-administering alpha-blockers")
    assert f.source.document == VIAGRA
    assert f.source.document_id == "dailymed-setid:0b0be196-0c62-461c-94f4-9a35339b4501"
    # the class holds only the member the label names
    members = {f.subject for f in kb.facts_pointing_to("drugclass:alpha-blockers", "memberOf")}
    assert members == {"drug:doxazosin"}


def test_viagra_maximum_is_quoted(kb):
    (f,) = [
        f
        for f in kb.facts_about("drug:sildenafil", "maxDose")
        if f.value == 100 and f.qualifiers.get("kind") == "label_maximum"
    ]
    assert "maximum recommended dose of 100 mg" in f.qualifiers["quote"]
    assert f.source.document == VIAGRA


def test_revatio_recommended_dose_is_not_a_maximum(kb, auditor_obj):
    revatio = [
        f
        for f in kb.facts_about("drug:sildenafil", "maxDose")
        if "REVATIO" in (f.qualifiers.get("product") or "")
    ]
    assert revatio and all(f.qualifiers["kind"] == "usual_range" for f in revatio)
    res = auditor_obj.audit(
        "For pulmonary arterial hypertension, the maximum dose of Revatio is 80 mg a day.",
        domain="medical",
        as_of="2025-09-01",
    )
    doses = [c for c in res.claims if c.predicate == "maxDose"]
    assert doses and all(c.verdict == "unverifiable" for c in doses), [c.reason for c in doses]
