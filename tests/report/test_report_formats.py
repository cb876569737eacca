"""Every format carries the figures of the JSON report; the PDF is rendered to check it."""

from __future__ import annotations

import base64
import csv
import io
import re
from typing import Any

import orjson
import pytest

from services.report import render
from services.report.fmt import num, pct, score


def _figures(r: dict[str, Any]) -> list[str]:
    """The figures a reader must find in the HTML and the PDF, formatted as they print."""
    s = r["summary"]
    out = [
        num(s["audits"]),
        num(s["claims"]),
        pct(s["fer"]["pooled"]),
        score(s["trust_score"]["mean"]),
        pct(s["coverage"]["pooled"]),
        pct(s["fer"]["p90"]),
        pct(s["fer"]["mean"]),
        r["generated_at"],
        r["integrity"]["head_hash"],
        r["versions"]["seen"][0]["kg_version"],
    ]
    out += [f"{d['domain']}" for d in s["by_domain"]] + [pct(d["fer"]) for d in s["by_domain"]]
    out += [w["id"] for w in r["worst_audits"]]
    out += [x["rule_id"] for x in r["top_failing_rules"]]
    risk = r["risk"]
    out += [pct(risk["mean"]), risk["model_version"]]
    out += [
        f"{p['flagged']} / {p['audits']}" if p["audits"] < 1000 else num(p["audits"])
        for p in risk["operating_points_in_force"]
    ]
    out += [
        f"{p['threshold']:.3f}"
        for points in risk["shipped_operating_points"].values()
        for p in points
        if p["threshold"] is not None
    ]
    return out


@pytest.fixture(scope="module")
def rendered(report_dict: dict[str, Any]) -> dict[str, bytes]:
    return {fmt: render(report_dict, fmt) for fmt in ("json", "csv", "html", "pdf")}


def test_json_is_the_report(rendered, report_dict) -> None:
    assert orjson.loads(rendered["json"]) == report_dict


def test_csv_has_every_figure(rendered, report_dict) -> None:
    rows = list(csv.DictReader(io.StringIO(rendered["csv"].decode("utf-8"))))
    got = {(r["section"], r["metric"], r["domain"], r["key"]): r["value"] for r in rows}
    s = report_dict["summary"]
    assert got[("summary", "audits", "", "")] == str(s["audits"])
    assert float(got[("fer", "pooled", "", "")]) == pytest.approx(s["fer"]["pooled"])
    assert float(got[("trust_score", "mean", "", "")]) == pytest.approx(s["trust_score"]["mean"])
    for d in s["by_domain"]:
        assert float(got[("by_domain", "fer", d["domain"], "")]) == pytest.approx(d["fer"])
    for h in s["fer"]["histogram"]:
        assert got[("fer", "histogram", "", h["bin"])] == str(h["audits"])
    for w in report_dict["worst_audits"]:
        assert float(got[("worst_audits", "fer", w["domain"], w["id"])]) == pytest.approx(w["fer"])
    for t in report_dict["hallucination_types"]:
        assert got[("hallucination_types", "claims", "", t["type"])] == str(t["claims"])
    assert got[("integrity", "head_hash", "", "")] == report_dict["integrity"]["head_hash"]
    assert got[("integrity", "chain_verified", "", "")] == "True"


def test_csv_has_a_claims_table(rendered, report_dict) -> None:
    rows = list(csv.DictReader(io.StringIO(rendered["csv"].decode("utf-8"))))
    table: dict[str, dict[str, str]] = {}
    for r in rows:
        if r["section"] == "claims":
            table.setdefault(r["key"], {})[r["metric"]] = r["value"]
    shown = [(w, i, c) for w in report_dict["worst_audits"] for i, c in enumerate(w["claims"])]
    assert shown and len(table) == len(shown)
    for w, i, c in shown:
        row = table[f"{w['id']}#{i}"]
        assert row["text"] == c["text"] and row["verdict"] == "contradicted"
        assert row["span"] == f"{c['start']}-{c['end']}" and row["rule_id"] == (c["rule_id"] or "")
        docs = [e["document"] for e in c["evidence"] if e["role"] != "rule" and e["document"]]
        assert all(d in row["source"] for d in docs)


def test_html_is_self_contained_with_the_figures(rendered, report_dict) -> None:
    html = rendered["html"].decode("utf-8")
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(images) == 6
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)
    assert not re.search(r'(src|href)="(?!data:|https?://|#)', html)  # nothing local to fetch
    assert "<link" not in html and "<script" not in html
    for figure in _figures(report_dict):
        assert figure in html, figure
    for section in (
        "Executive summary",
        "Charts",
        "Worst audits",
        "Calibrated risk and operating points",
        "Methodology",
        "Audit-trail integrity",
    ):
        assert section in html


def test_pdf_renders_and_shows_the_json_figures(rendered, report_dict) -> None:
    pdfium = pytest.importorskip("pypdfium2")
    doc = pdfium.PdfDocument(rendered["pdf"])
    pages = [doc[i] for i in range(len(doc))]
    assert len(pages) >= 5
    text = "\n".join(p.get_textpage().get_text_range() for p in pages)
    flat = re.sub(r"\s+", " ", text)
    for figure in _figures(report_dict):
        assert figure in flat, figure
    for section in (
        "Executive summary",
        "Charts",
        "Worst audits",
        "Calibrated risk and operating points",
        "Methodology",
        "Versions and sources",
        "Audit-trail integrity",
    ):
        assert section in flat
    assert report_dict["integrity"]["statement"][:60] in flat
    images = [o for p in pages for o in p.get_objects() if o.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]
    assert len(images) == 6  # the six charts
    for page in pages[:2]:  # rendered: real ink on the summary and the first chart page
        img = page.render(scale=0.5).to_pil().convert("L")
        dark = sum(img.histogram()[:128])
        assert dark > 0.002 * img.width * img.height
    assert f"page 1/{len(pages)}" in flat
