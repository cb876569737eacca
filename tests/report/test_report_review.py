"""Reviewer-adjusted figures: FER after review, items by state, time to review, the open items
by name. Three audits and eight decisions whose figures are worked out by hand below."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
import pytest

from services.report import build_report, render
from services.report.review import ReviewTally
from trail import Trail
from trail.reviews import Decision, append_reviews

CASE = "Smith v. Jones, 900 F.3d 1234 (11th Cir. 2020)"
HOSTILE_CASE = "<script>alert(1)</script> Doe v. Roe, 1 F.4th 2"


def _result(
    claims: list[tuple[str, str]], *, risk: float, cites: tuple[str, ...] = ()
) -> dict[str, Any]:
    text = " ".join(t for t, _ in claims) + " " + " ".join(cites)
    out_claims = []
    for t, verdict in claims:
        start = text.index(t)
        out_claims.append(
            {
                "text": t,
                "start": start,
                "end": start + len(t),
                "subject": "ent:x",
                "predicate": "p",
                "object": "o",
                "verdict": verdict,
                "reason": f"reason for {t}",
                "evidence": [],
                "rule_id": "MED-DOSE" if verdict == "contradicted" else None,
                "hallucination_type": "numeric_mismatch" if verdict == "contradicted" else None,
            }
        )
    counts = {
        k: sum(v == k for _, v in claims) for k in ("supported", "contradicted", "unverifiable")
    }
    checked = counts["supported"] + counts["contradicted"]
    return {
        "domain": "legal",
        "domains": ["legal"],
        "as_of": "2026-06-01",
        "claims": out_claims,
        "citations": [
            {
                "text": c,
                "start": text.index(c),
                "end": text.index(c) + len(c),
                "kind": "case",
                "outcome": "unverified",
                "reason": "not_in_index",
                "score": 0.6,
                "detail": "well-formed citation that no source here holds",
            }
            for c in cites
        ],
        "fer": counts["contradicted"] / checked if checked else None,
        "citation_confidence": 0.6 if cites else None,
        "joint_score": None,
        "coverage": checked / len(claims),
        "counts": counts,
        "hallucination_types": {},
        "kg_version": "kg-test",
        "rules_version": "rules-test",
        "auditor_version": "kgaudit-auditor/test",
        "risk": risk,
    }


# A: three contradicted claims, a supported one, an unverifiable one in a risky answer (0.8 >=
# the 0.5 threshold: it needs review) and an unverified citation.
A = _result(
    [
        ("Dose A0 is 9 g.", "contradicted"),
        ("Dose A1 is 8 g.", "contradicted"),
        ("Fact A2 holds.", "supported"),
        ("Claim A3 is vague.", "unverifiable"),
        ("Dose A4 is 7 g.", "contradicted"),
    ],
    risk=0.8,
    cites=(CASE,),
)
# B: three supported claims and an unverifiable one of a low-risk answer (needs no review).
B = _result(
    [
        ("Fact B0 holds.", "supported"),
        ("Fact B1 holds.", "supported"),
        ("Fact B2 holds.", "supported"),
        ("Claim B3 is vague.", "unverifiable"),
    ],
    risk=0.2,
)
C = _result([("Dose C0 is 6 g.", "contradicted")], risk=0.9)
# (audit, item, decision, reason, minutes after the first audit was recorded at 10:00)
DECISIONS = [
    ("A", "claim:0", "overturn", "the label agrees", 1),
    ("A", "claim:1", "confirm", None, 5),
    ("A", "claim:3", "note", "asked the pharmacist", 6),
    ("A", "claim:4", "overturn", "a typo in the graph", 30),
    ("B", "claim:3", "overturn", "the register has it", 120),
    ("C", "claim:0", "overturn", "misread", 130),
    ("C", "claim:0", "confirm", "on second reading it is wrong", 150),
    ("B", "claim:0", "overturn", "withdrawn last month", 180),
]
RECORDED = {"A": 0, "B": 60, "C": 120}  # minutes after 10:00

# Worked out by hand:
# machine:  A con 3 / checked 4, B 0 / 3, C 1 / 1              -> 4 / 8 = 0.5
# reviewed: A c0, c4 overturned -> supported: 1 / 4; B claim 0 (supported) overturned -> an
#           error: 1 / 3; B claim 3 (unverifiable) stays outside; C confirmed: 1 / 1
#           pooled 3 / 8, mean (1/4 + 1/3 + 1) / 3, 3 audits with a contradiction
# items needing review: A c0 c1 c3 c4 citation:0, C c0 = 6
# open: A claim:3 (a note keeps it open), A citation:0 = 2; confirmed: A c1, C c0 = 2;
# overturned: A c0, A c4, B c0, B c3 = 4; noted: A c3 = 1
# first decision minus recorded (s): A c0 60, c1 300, c4 1800; B c3 3600, c0 7200;
# C c0 600 (its overturn, later confirmed)  -> median of 60 300 600 1800 3600 7200 = 1200
EXPECTED_ITEMS = {
    "needing_review": 6,
    "open": 2,
    "confirmed": 2,
    "overturned": 4,
    "noted": 1,
}
EXPECTED_OVERTURNED = [
    {"kind": "claim", "verdict": "contradicted", "items": 2},
    {"kind": "claim", "verdict": "supported", "items": 1},
    {"kind": "claim", "verdict": "unverifiable", "items": 1},
]


def _at(minutes: int) -> str:
    t = datetime(2026, 6, 1, 10, 0, tzinfo=UTC) + timedelta(minutes=minutes)
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def test_tally_by_hand() -> None:
    results = {"A": A, "B": B, "C": C}
    tally = ReviewTally(risk_threshold=0.5)
    for name in ("A", "B", "C"):
        audit = {
            "id": f"audit-{name}",
            "external_id": None,
            "domain": "legal",
            "created_at": _at(RECORDED[name]),
            "counts": results[name]["counts"],
            "result": results[name],
        }
        reviews = [
            {"item": item, "decision": d, "reason": why, "created_at": _at(m)}
            for a, item, d, why, m in DECISIONS
            if a == name
        ]
        tally.add(audit, reviews)
    s = tally.section()
    assert s["items"] == EXPECTED_ITEMS
    assert s["overturned"] == EXPECTED_OVERTURNED
    f = s["fer_after_review"]
    assert (f["contradicted"], f["checked"], f["audits_with_contradictions"]) == (3, 8, 3)
    assert f["pooled"] == pytest.approx(3 / 8)
    assert f["mean"] == pytest.approx((1 / 4 + 1 / 3 + 1) / 3)
    assert s["time_to_review"] == {"median_s": 1200.0, "items": 6}
    assert (s["events"], s["audits_reviewed"]) == (8, 3)
    assert [(i["audit_id"], i["item"], i["text"]) for i in s["open_items"]] == [
        ("audit-A", "claim:3", "Claim A3 is vague."),
        ("audit-A", "citation:0", CASE),
    ]
    assert s["open_items"][0]["notes"] == 1


def test_a_later_threshold_opens_the_low_risk_unverifiable_claim() -> None:
    tally = ReviewTally(risk_threshold=0.1)  # B's risk 0.2 is now above it
    tally.add({"id": "b", "created_at": _at(0), "counts": B["counts"], "result": B}, [])
    assert tally.section()["items"]["open"] == 1
    assert tally.section()["open_items"][0]["text"] == "Claim B3 is vague."


@pytest.fixture
def reviewed_trail(trail: Trail) -> tuple[Trail, dict[str, str]]:
    """The three audits in a trail (and another tenant's), the decisions appended to it."""
    ids = {n: trail.record(r, text=n, tenant="acme").id for n, r in (("A", A), ("B", B), ("C", C))}
    hostile = _result([("Dose H0 is 1 g.", "supported")], risk=0.9, cites=(HOSTILE_CASE,))
    ids["H"] = trail.record(hostile, text="H", tenant="beta").id
    for a, item, d, why, _ in DECISIONS:
        append_reviews(trail, [Decision(ids[a], item, d, why)], tenant="acme", reviewer="key:r")
    append_reviews(
        trail, [Decision(ids["H"], "claim:0", "overturn", "x")], tenant="beta", reviewer="key:b"
    )
    return trail, ids


def test_report_figures_from_the_trail(reviewed_trail) -> None:
    trail, ids = reviewed_trail
    today = datetime.now(UTC).date().isoformat()
    r = build_report(trail, start=today, end=today, tenant="acme")
    rv = r["review"]
    assert r["summary"]["fer"]["pooled"] == pytest.approx(4 / 8)  # the machine's figure
    assert rv["items"] == EXPECTED_ITEMS and rv["overturned"] == EXPECTED_OVERTURNED
    assert rv["fer_after_review"]["pooled"] == pytest.approx(3 / 8)
    assert (rv["events"], rv["audits_reviewed"]) == (8, 3)  # beta's decision is not counted
    # decided moments after recording, in the order of DECISIONS
    assert rv["time_to_review"]["items"] == 6 and 0 <= rv["time_to_review"]["median_s"] < 60
    assert [(i["audit_id"], i["item"], i["text"]) for i in rv["open_items"]] == [
        (ids["A"], "claim:3", "Claim A3 is vague."),
        (ids["A"], "citation:0", CASE),
    ]
    # a stricter threshold given to build_report opens B's unverifiable claim
    low = build_report(trail, start=today, end=today, tenant="acme", review_risk_threshold=0.1)
    assert low["review"]["items"]["needing_review"] == 7
    assert low["review"]["items"]["overturned"] == 4  # B claim 3 was overturned: not open

    html = render(r, "html").decode("utf-8")
    needs = html[html.index('id="needs-review"') :]
    assert CASE in needs and ids["A"] in needs and "Claim A3 is vague." in needs
    assert "37.5%" in html and "Reviewer decisions" in html
    rows = list(csv.DictReader(io.StringIO(render(r, "csv").decode("utf-8"))))
    got = {(x["section"], x["metric"], x["key"]): x["value"] for x in rows}
    assert float(got[("fer_after_review", "pooled", "")]) == pytest.approx(3 / 8)
    assert got[("review", "items", "open")] == "2"
    assert got[("needs_review", "text", f"{ids['A']}#citation:0")] == CASE


def test_hostile_case_name_in_needs_review_is_text(reviewed_trail) -> None:
    trail, _ = reviewed_trail
    today = datetime.now(UTC).date().isoformat()
    r = build_report(trail, start=today, end=today, tenant="beta")
    assert [i["text"] for i in r["review"]["open_items"]] == [HOSTILE_CASE]
    html = render(r, "html").decode("utf-8")
    assert "<script" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Doe v. Roe" in html
    # beta's one claim was supported and overturned: an error after review
    assert r["review"]["fer_after_review"]["pooled"] == 1.0
    assert r["summary"]["fer"]["pooled"] == 0.0


@pytest.mark.parametrize(("threshold", "needing"), [("0.1", 1), ("0.3", 0)])
def test_the_cli_reads_the_review_risk_threshold(
    capsys, monkeypatch, db_url: str, tmp_path, threshold: str, needing: int
) -> None:
    from auditor.settings import get_settings
    from services.cli.main import main

    trail = Trail(db_url)
    trail.record(B, text="B")  # risk 0.2, one unverifiable claim
    trail.close()
    today = datetime.now(UTC).date().isoformat()
    monkeypatch.setenv("KGAUDIT_REVIEW_RISK_THRESHOLD", threshold)
    get_settings.cache_clear()
    try:
        out = tmp_path / "r.json"
        args = ["report", "--from", today, "--to", today, "--db", db_url, "--out", str(out)]
        assert main(args) == 0, capsys.readouterr().err
    finally:
        get_settings.cache_clear()
    review = orjson.loads(out.read_bytes())["review"]
    assert review["risk_threshold"] == float(threshold)
    assert review["items"]["needing_review"] == review["items"]["open"] == needing


def test_the_api_reads_the_review_risk_threshold(db_url: str, tmp_path) -> None:
    from fastapi.testclient import TestClient

    from auditor.settings import Settings
    from services.api.app import create_app
    from services.api.keys import KeyStore

    trail = Trail(db_url)
    trail.record(B, text="B")  # risk 0.2, one unverifiable claim
    app = create_app(
        Settings(home=tmp_path, database_url=db_url, review_risk_threshold=0.1), trail=trail
    )
    _, token = KeyStore(trail).create(tenant="default", role="viewer")
    today = datetime.now(UTC).date().isoformat()
    with TestClient(app) as c:
        r = c.get(
            "/v1/reports",
            params={"from": today, "to": today},
            headers={"Authorization": f"Bearer {token}"},
        )
    trail.close()
    assert r.status_code == 200, r.text
    review = r.json()["review"]
    assert review["risk_threshold"] == 0.1 and review["items"]["open"] == 1
    assert review["open_items"][0]["text"] == "Claim B3 is vague."


@pytest.mark.slow
def test_pdf_lists_the_open_items(reviewed_trail) -> None:
    pdfium = pytest.importorskip("pypdfium2")
    trail, ids = reviewed_trail
    today = datetime.now(UTC).date().isoformat()
    doc = pdfium.PdfDocument(
        render(build_report(trail, start=today, end=today, tenant="acme"), "pdf")
    )
    flat = re.sub(
        r"\s+", " ", " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    )
    assert "Reviewer decisions" in flat and "Needs review (2 open items)" in flat
    assert CASE in flat and ids["A"] in flat
