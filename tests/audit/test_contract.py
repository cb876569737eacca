"""The public contract (DESIGN.md): ``audit(...)`` and the keys of ``AuditResult.to_dict()``."""

from __future__ import annotations

import json
from datetime import date

import pytest

from auditor.errors import UsageError

CLAIM_KEYS = {
    "text",
    "start",
    "end",
    "subject",
    "predicate",
    "object",
    "verdict",
    "evidence",
    "rule_id",
    "hallucination_type",
}
TOP_KEYS = {
    "domain",
    "as_of",
    "claims",
    "fer",
    "citation_confidence",
    "joint_score",
    "coverage",
    "counts",
    "kg_version",
    "rules_version",
    "auditor_version",
}


@pytest.mark.slow  # builds the process-wide auditor (a second one next to auditor_obj)
def test_module_level_audit_contract():
    from auditor import audit

    r = audit(
        "Adults should not take more than 8,000 mg of acetaminophen per day.",
        domain="medical",
        as_of="2025-01-15",
    )
    d = r.to_dict()
    assert set(d) >= TOP_KEYS
    assert set(d["counts"]) == {"supported", "contradicted", "unverifiable"}
    assert d["claims"] and all(set(c) >= CLAIM_KEYS for c in d["claims"])
    assert all(c["verdict"] in {"supported", "contradicted", "unverifiable"} for c in d["claims"])
    json.dumps(d)  # JSON-serialisable
    c = d["claims"][0]
    assert (
        d
        and c["verdict"] == "contradicted"
        and c["evidence"][0]["source"]["url"].startswith("https://")
    )
    text = "Adults should not take more than 8,000 mg of acetaminophen per day."
    assert text[c["start"] : c["end"]] == c["text"]


def test_as_of_accepts_date_and_defaults_to_today(auditor_obj):
    r1 = auditor_obj.audit("x", domain="legal", as_of=date(2020, 1, 2))
    assert r1.to_dict()["as_of"] == "2020-01-02"
    assert auditor_obj.audit("x", domain="legal").to_dict()["as_of"] == date.today().isoformat()


def test_as_of_is_parsed_once_per_audit(auditor_obj, monkeypatch):
    """Issue 29: ``Auditor.audit`` parses ``as_of``; the extract stage takes that date as it is."""
    from auditor import stages

    seen = []
    parse = stages.parse_as_of

    def counted(value):
        seen.append(value)
        return parse(value)

    monkeypatch.setattr(stages, "parse_as_of", counted)
    r = auditor_obj.audit("Ibuprofen is an NSAID.", domain="medical", as_of="2024-02-29")
    assert r.to_dict()["as_of"] == "2024-02-29" and seen == ["2024-02-29"]


def test_nothing_verifiable_gives_null_scores(auditor_obj):
    d = auditor_obj.audit("Hello! How can I help you today?", domain="medical").to_dict()
    assert d["claims"] == [] and d["fer"] is None and d["citation_confidence"] is None
    assert d["joint_score"] is None and d["coverage"] is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"domain": "astrology"}, "unknown domain"),
        ({"domain": "medical", "as_of": "2023-13-45"}, "invalid as_of"),
        ({"domain": "medical", "as_of": "yesterday"}, "invalid as_of"),
        ({"domain": "medical", "citations": "410 U.S. 113"}, "list of strings"),
    ],
    ids=["domain", "as_of-month", "as_of-word", "citations-str"],
)
def test_bad_arguments_raise_usage_errors(auditor_obj, kwargs, message):
    with pytest.raises(UsageError, match=message):
        auditor_obj.audit("text", **kwargs)


def test_text_over_the_limit_is_a_usage_error(auditor_obj):
    with pytest.raises(UsageError, match="limit"):
        auditor_obj.audit("a" * (auditor_obj.max_text_chars + 1), domain="medical")


def test_binary_garbage_gives_a_valid_result(auditor_obj):
    garbage = bytes(range(256)).decode("latin-1") * 20
    d = auditor_obj.audit(garbage, domain="auto", as_of="2025-01-15").to_dict()
    assert set(d) >= TOP_KEYS and d["as_of"] == "2025-01-15"
    assert set(d["counts"]) == {"supported", "contradicted", "unverifiable"}
    assert sum(d["counts"].values()) == len(d["claims"])
    for c in d["claims"]:  # whatever it finds is a well-formed claim on the input's characters
        assert set(c) >= CLAIM_KEYS
        assert c["verdict"] in {"supported", "contradicted", "unverifiable"}
        assert 0 <= c["start"] < c["end"] <= len(garbage)
        assert garbage[c["start"] : c["end"]] == c["text"]
    for key in ("fer", "citation_confidence", "joint_score", "coverage"):
        assert d[key] is None or 0.0 <= d[key] <= 1.0, (key, d[key])
    assert json.loads(json.dumps(d)) == d  # JSON round trip
    again = auditor_obj.audit(garbage, domain="auto", as_of="2025-01-15").to_dict()
    assert again == d  # and deterministic


def test_auto_picks_domains_from_entities(auditor_obj):
    r = auditor_obj.audit(
        "Miranda v. Arizona, 384 U.S. 436 (1966). Ibuprofen OTC max is 1,200 mg per day.",
        domain="auto",
        as_of="2025-01-01",
    )
    assert set(r.domains) == {"legal", "medical"}
    assert {c.rule_id for c in r.claims} >= {"LEG-CITE", "MED-DOSE-MAX"}
