"""The report's figures agree with the stored audits; selection, integrity, methodology."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from auditor.errors import UsageError
from services.report import build_report
from services.report.data import NoAudits

README = Path(__file__).resolve().parents[2] / "README.md"


def _stored(trail: Any) -> list[dict[str, Any]]:
    return list(trail.iter_audits(tenant="default"))


def test_summary_matches_the_trail(report_dict, report_trail) -> None:
    audits = _stored(report_trail)
    s = report_dict["summary"]
    assert s["audits"] == len(audits)
    con = sum(a["counts"]["contradicted"] for a in audits)
    sup = sum(a["counts"]["supported"] for a in audits)
    assert s["counts"]["contradicted"] == con and s["counts"]["supported"] == sup
    assert s["fer"]["pooled"] == pytest.approx(con / (con + sup))
    fers = [a["fer"] for a in audits if a["fer"] is not None]
    assert s["fer"]["mean"] == pytest.approx(sum(fers) / len(fers))
    assert sum(h["audits"] for h in s["fer"]["histogram"]) == len(fers)
    joints = [a["joint_score"] for a in audits if a["joint_score"] is not None]
    assert s["trust_score"]["mean"] == pytest.approx(sum(joints) / len(joints))
    assert sum(h["audits"] for h in s["trust_score"]["histogram"]) == len(joints)
    assert {d["domain"] for d in s["by_domain"]} == {"finance", "legal", "medical"}
    assert sum(d["audits"] for d in s["by_domain"]) == len(audits)


def test_sections(report_dict, report_trail) -> None:
    r = report_dict
    assert {p["domain"] for p in r["fer_over_time"]} == {"finance", "legal", "medical"}
    types = {t["type"]: t["claims"] for t in r["hallucination_types"]}
    assert sum(types.values()) == r["summary"]["counts"]["contradicted"]
    rules = r["top_failing_rules"]
    assert rules and all(x["title"] and x["citation"] for x in rules)
    assert [x["contradicted"] for x in rules] == sorted(
        (x["contradicted"] for x in rules), reverse=True
    )
    assert sum(o["citations"] for o in r["citation_outcomes"]) == sum(
        len(a["result"]["citations"]) for a in _stored(report_trail)
    )
    graphs, packs = r["versions"]["graphs"], r["versions"]["rule_packs"]
    assert {d["domain"] for d in graphs["domains"]} == {"finance", "legal", "medical"}
    assert all(d["top_sources"] for d in graphs["domains"])
    assert {p["domain"] for p in packs["packs"]} == {"finance", "legal", "medical"}
    assert r["versions"]["seen"][0]["audits"] == r["summary"]["audits"]


def test_risk_section_shows_the_operating_points_in_force(report_dict, report_trail) -> None:
    from auditor.risk import load_model

    risk, audits = report_dict["risk"], _stored(report_trail)
    flagged_at = [a["result"] for a in audits if a["result"].get("flag_fpr") is not None]
    assert flagged_at and len(flagged_at) < len(audits)
    in_force = risk["operating_points_in_force"]
    assert sum(p["audits"] for p in in_force) == len(flagged_at)
    assert sum(p["flagged"] for p in in_force) == sum(r["flagged"] for r in flagged_at)
    assert all(p["target_fpr"] == 0.05 for p in in_force)
    # evidence always flags: every contradicted audit that had a point applied is flagged
    assert all(r["flagged"] for r in flagged_at if r["counts"]["contradicted"])
    model = load_model()
    for p in in_force:
        assert p["threshold"] == model.operating_point(p["domain"], 0.05).threshold
    assert risk["model_version"] == model.version
    assert risk["audits_with_risk"] == sum(a["result"].get("risk") is not None for a in audits)
    assert {"finance", "legal", "medical", "all"} <= set(risk["calibration_curves"])
    assert {"finance", "legal", "medical"} <= set(risk["shipped_operating_points"])
    assert "always flagged" in risk["statement"]


def test_risk_section_without_a_risk_model_lists_no_shipped_points(monkeypatch) -> None:
    from services.report.aggregate import Aggregate
    from services.report.data import risk_section

    monkeypatch.setattr("auditor.risk.load_model", lambda *a, **k: None)
    risk = risk_section(Aggregate(), ["medical"])
    assert risk["model_version"] is None and risk["audits_with_risk"] == 0
    assert risk["calibration_curves"] == {} and risk["shipped_operating_points"] == {}
    assert risk["statement"].startswith("No audit in this period was flagged")


def test_worst_audits_carry_evidence_and_sources(report_dict) -> None:
    worst = report_dict["worst_audits"]
    assert len(worst) == 10
    keys = [(w["fer"], w["counts"]["contradicted"]) for w in worst]
    assert keys == sorted(keys, reverse=True)
    for w in worst:
        assert w["claims"] and all(c["verdict"] == "contradicted" for c in w["claims"])
        assert all(c["evidence"] for c in w["claims"])
    documents = [e["document"] for w in worst for c in w["claims"] for e in c["evidence"]]
    assert sum(bool(d) for d in documents) >= len(worst)


def test_integrity_statement(report_dict, report_trail) -> None:
    i = report_dict["integrity"]
    v = report_trail.verify()
    assert i["chain_verified"] is True and i["head_hash"] == v.head_hash
    # incremental: the records after the newest signed checkpoint, of every tenant
    assert i["records_checked"] == v.checked - i["verified_from_seq"]
    cp = i["latest_checkpoint"]
    assert cp["signature_valid"] is True and cp["seq"] == v.checked == i["verified_from_seq"]
    assert "every record and link intact" in i["statement"] and "valid" in i["statement"]


def test_methodology_reuses_the_readme_wording(report_dict) -> None:
    def norm(text: str) -> str:
        return re.sub(r"\s+", " ", re.sub(r"[`*]", "", text)).lower()

    readme = norm(README.read_text(encoding="utf-8"))
    for d in report_dict["methodology"]["definitions"]:
        text = norm(d["text"])
        assert text.removeprefix("the ") in readme, d["term"]


def test_tenant_and_domain_selection(report_trail, today: str) -> None:
    other = build_report(report_trail, start=today, end=today, tenant="other")
    assert other["summary"]["audits"] == 1
    legal = build_report(report_trail, start=today, end=today, domain="legal")
    assert {d["domain"] for d in legal["summary"]["by_domain"]} == {"legal"}


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"start": "2001-01-01", "end": "2001-01-31"}, NoAudits, "no audits were recorded"),
        ({"start": "2025-02-01", "end": "2025-01-01"}, UsageError, "is before --from"),
        ({"start": "01/02/2025", "end": "2025-01-01"}, UsageError, "is not a date"),
        (
            {"start": "2025-01-01", "end": "2025-01-02", "domain": "cardio"},
            UsageError,
            "unknown domain",
        ),
    ],
    ids=["empty-period", "reversed", "bad-date", "bad-domain"],
)
def test_bad_parameters(report_trail, kwargs, error, message) -> None:
    with pytest.raises(error, match=message):
        build_report(report_trail, **kwargs)
