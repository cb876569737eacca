"""PDF reports have clickable links: evidence source URLs, graph sources, rule citations."""

from __future__ import annotations

from typing import Any

import pytest

from services.report import render


def _link_uris(pdf: bytes) -> list[tuple[int, str]]:
    """(page index, URI) of every link annotation, read back with PDFium."""
    pdfium = pytest.importorskip("pypdfium2")
    raw = pdfium.raw
    import ctypes

    doc = pdfium.PdfDocument(pdf)
    out = []
    for i in range(len(doc)):
        page = doc[i]
        for j in range(raw.FPDFPage_GetAnnotCount(page.raw)):
            annot = raw.FPDFPage_GetAnnot(page.raw, j)
            try:
                if raw.FPDFAnnot_GetSubtype(annot) != raw.FPDF_ANNOT_LINK:
                    continue
                link = raw.FPDFAnnot_GetLink(annot)
                action = raw.FPDFLink_GetAction(link)
                if not action or raw.FPDFAction_GetType(action) != raw.PDFACTION_URI:
                    continue
                n = raw.FPDFAction_GetURIPath(doc.raw, action, None, 0)
                buf = ctypes.create_string_buffer(n)
                raw.FPDFAction_GetURIPath(doc.raw, action, buf, n)
                out.append((i, buf.value.decode("utf-8")))
            finally:
                raw.FPDFPage_CloseAnnot(annot)
    return out


@pytest.fixture(scope="module")
def links(report_dict: dict[str, Any]) -> list[tuple[int, str]]:
    pytest.importorskip("fpdf")
    return _link_uris(render(report_dict, "pdf"))


def _expected(report_dict: dict[str, Any]) -> dict[str, set[str]]:
    evidence = {
        e["url"]
        for w in report_dict["worst_audits"]
        for c in w["claims"]
        for e in c["evidence"]
        if e["url"]
    }
    v = report_dict["versions"]
    sources = {s["url"] for g in v["graphs"]["domains"] for s in g["top_sources"] if s.get("url")}
    rules = {x["url"] for p in v["rule_packs"]["packs"] for x in p["rules"] if x.get("url")}
    return {"evidence": evidence, "sources": sources, "rules": rules}


def test_every_evidence_source_url_is_a_link(report_dict, links) -> None:
    want = _expected(report_dict)
    assert want["evidence"], "the report fixture has no evidence with a source URL"
    got = {uri for _, uri in links}
    assert want["evidence"] <= got, sorted(want["evidence"] - got)


def test_graph_sources_and_rule_citations_are_links(report_dict, links) -> None:
    want = _expected(report_dict)
    got = {uri for _, uri in links}
    assert want["sources"] and want["sources"] <= got, sorted(want["sources"] - got)
    assert want["rules"] and want["rules"] <= got, sorted(want["rules"] - got)


def test_links_are_web_urls(links) -> None:
    assert links
    assert all(uri.startswith(("https://", "http://")) for _, uri in links), links
