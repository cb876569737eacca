"""The report as a PDF, with fpdf2 and the DejaVu fonts matplotlib ships (no system library).

Pages: 1 title and executive summary; 2-3 the five charts and the top failing rules;
then the worst audits with claim-level evidence; methodology, versions and sources; and
the audit-trail integrity statement. Every page's footer repeats the period and the
generation time.
"""

from __future__ import annotations

import io
import os
from typing import Any

from auditor.errors import UsageError
from auditor.report.charts import render_charts
from auditor.report.data import provenance_text
from auditor.report.fmt import (
    REVIEW_HEAD,
    RISK_HEAD,
    by_domain_rows,
    label,
    num,
    open_item_text,
    operating_point_rows,
    pct,
    review_line,
    review_rows,
    risk_line,
    scope_line,
    score,
    top_rule_rows,
    versions_rows,
)

FONT = "DejaVu"
TEXT_W = 180.0  # A4 width 210 mm minus 15 mm margins


def _fpdf() -> Any:
    try:
        from fpdf import FPDF
    except ModuleNotFoundError as exc:
        raise UsageError("PDF reports need the pdf extra: pip install 'kgaudit[pdf]'") from exc
    return FPDF


def _fonts_dir() -> str:
    import matplotlib

    return os.path.join(matplotlib.get_data_path(), "fonts", "ttf")


class _Doc:
    """A thin layer over fpdf2: headings, paragraphs, key/value tables, images."""

    def __init__(self, report: dict[str, Any]) -> None:
        fpdf_cls = _fpdf()
        p = report["parameters"]
        footer = (
            f"kgaudit compliance report · {p['from']} to {p['to']} · generated "
            f"{report['generated_at']}"
        )

        class Pdf(fpdf_cls):  # type: ignore[misc, valid-type]
            def footer(self) -> None:
                self.set_y(-12)
                self.set_font(FONT, size=7)
                self.set_text_color(110)
                self.cell(0, 5, f"{footer} · page {self.page_no()}/{{nb}}", align="C")

        self.pdf = Pdf(format="A4")
        self.pdf.set_margins(15, 15, 15)
        self.pdf.set_auto_page_break(True, margin=16)
        fonts = _fonts_dir()
        self.pdf.add_font(FONT, "", os.path.join(fonts, "DejaVuSans.ttf"))
        self.pdf.add_font(FONT, "B", os.path.join(fonts, "DejaVuSans-Bold.ttf"))
        self.pdf.set_title(report["title"])
        self.pdf.set_creator("kgaudit")
        self.pdf.add_page()

    def h1(self, text: str) -> None:
        self.pdf.set_font(FONT, "B", 18)
        self._lines(9, text)
        self.pdf.ln(1)

    def h2(self, text: str, *, new_page: bool = False) -> None:
        if new_page or self.pdf.get_y() > 250:
            self.pdf.add_page()
        self.pdf.ln(3)
        self.pdf.set_font(FONT, "B", 13)
        self._lines(7, text)
        self.pdf.ln(1)

    def h3(self, text: str) -> None:
        if self.pdf.get_y() > 262:
            self.pdf.add_page()
        self.pdf.set_font(FONT, "B", 10)
        self._lines(5.5, text)

    def para(self, text: str, *, size: float = 9, color: int = 0, indent: float = 0) -> None:
        self.pdf.set_font(FONT, size=size)
        self.pdf.set_text_color(color)
        self._lines(size * 0.5, text, indent)
        self.pdf.set_text_color(0)

    def link(self, text: str, url: str, *, size: float = 7.5, indent: float = 0) -> None:
        """``text`` as a clickable link to ``url`` (blue, underlined; a URI annotation)."""
        self.pdf.set_font(FONT, "U", size=size)
        self.pdf.set_text_color(20, 70, 170)
        self.pdf.set_x(15 + indent)
        self.pdf.multi_cell(
            TEXT_W - indent, size * 0.5, text, align="L", new_x="LMARGIN", new_y="NEXT", link=url
        )
        self.pdf.set_text_color(0)
        self.pdf.set_font(FONT, size=size)

    def _lines(self, height: float, text: str, indent: float = 0) -> None:
        self.pdf.set_x(15 + indent)
        self.pdf.multi_cell(TEXT_W - indent, height, text, align="L", new_x="LMARGIN", new_y="NEXT")

    def table(
        self,
        head: list[str],
        rows: list[list[str | tuple[str, str | None]]],
        widths: list[float] | None = None,
        size: float = 8,
    ) -> None:
        from fpdf.fonts import FontFace

        self.pdf.set_font(FONT, size=size)
        heading = FontFace(emphasis="BOLD", fill_color=(238, 238, 238))
        with self.pdf.table(
            col_widths=widths,
            line_height=size * 0.55,
            width=TEXT_W,
            headings_style=heading,
            first_row_as_headings=True,
        ) as t:
            r = t.row()
            for h in head:
                r.cell(h)
            for row in rows:
                r = t.row()
                for c in row:
                    if isinstance(c, tuple):  # (text, url): a clickable cell
                        r.cell(c[0], link=c[1] or None)
                    else:
                        r.cell(c)
        self.pdf.ln(2)

    def image(self, png: bytes, caption: str) -> None:
        height = TEXT_W * 3.2 / 7.0
        if self.pdf.get_y() + height > 280:
            self.pdf.add_page()
        self.pdf.image(io.BytesIO(png), x=15, w=TEXT_W, alt_text=caption)
        self.para(caption, size=7.5, color=90)

    def output(self) -> bytes:
        return bytes(self.pdf.output())


def _summary(d: _Doc, r: dict[str, Any]) -> None:
    s, p = r["summary"], r["parameters"]
    d.h1(r["title"])
    d.para(
        f"Period {p['from']} to {p['to']} · {scope_line(p)} · generated {r['generated_at']}",
        color=80,
    )
    d.h2("Executive summary")
    c = s["counts"]
    d.table(
        [
            "audits",
            "claims",
            "pooled FER",
            "FER after review",
            "mean trust score",
            "coverage",
            "audits with a contradiction",
        ],
        [
            [
                num(s["audits"]),
                num(s["claims"]),
                pct(s["fer"]["pooled"]),
                pct(r["review"]["fer_after_review"]["pooled"]),
                score(s["trust_score"]["mean"]),
                pct(s["coverage"]["pooled"]),
                num(s["audits_with_contradictions"]),
            ]
        ],
    )
    d.para(
        f"Claims: {num(c['supported'])} supported, {num(c['contradicted'])} contradicted, "
        f"{num(c['unverifiable'])} unverifiable. Trust score p10 "
        f"{score(s['trust_score']['p10'])}, median {score(s['trust_score']['p50'])}. "
        f"Citation confidence mean {pct(s['citation_confidence']['mean'])} over "
        f"{num(s['citation_confidence']['audits_with_citations'])} audits with citations; "
        f"{num(s['citations']['contradicted'])} citations failed, "
        f"{num(s['citations']['could_not_be_checked'])} could not be checked "
        f"({num(s['citations']['audits_needing_review'])} audits need review)."
    )
    d.h3("FER distribution")
    f = s["fer"]
    d.table(
        ["mean", "p50", "p90", "p95", "max"],
        [[pct(f["mean"]), pct(f["p50"]), pct(f["p90"]), pct(f["p95"]), pct(f["max"])]],
    )
    d.table(
        [h["bin"] for h in f["histogram"]] + ["nothing verifiable"],
        [[num(h["audits"]) for h in f["histogram"]] + [num(f["audits_without_verifiable_claims"])]],
    )
    d.h3("By domain")
    d.table(
        ["domain", "audits", "FER", "mean trust score", "coverage"], by_domain_rows(s["by_domain"])
    )


def _charts(d: _Doc, r: dict[str, Any]) -> None:
    d.h2("Charts", new_page=True)
    for _, caption, png in render_charts(r):
        d.image(png, caption)
    if r["top_failing_rules"]:
        d.h3("Top failing rules")
        d.table(
            ["rule", "title", "contradicted", "claims", "audits"],
            top_rule_rows(r["top_failing_rules"]),
            widths=[30, 88, 24, 19, 19],
        )


def _worst(d: _Doc, r: dict[str, Any]) -> None:
    d.h2(f"Worst audits ({len(r['worst_audits'])})", new_page=True)
    for w in r["worst_audits"]:
        d.h3(f"Audit {w['id']}")
        d.para(
            f"external id {w['external_id'] or '-'} · {w['domain']} · recorded "
            f"{w['created_at']} · as of {w['as_of']} · FER {pct(w['fer'])} · trust score "
            f"{score(w['joint_score'])}",
            size=8,
            color=80,
        )
        if w.get("context"):
            d.para(f"Question: {w['context']}", size=8)
        for c in w["claims"]:
            d.para(
                f"CONTRADICTED ({c['rule_id']}, {label(c['hallucination_type'])}) “{c['text']}”",
                size=8.5,
                indent=3,
            )
            d.para(f"why: {c['reason']}", size=8, indent=6)
            for e in c["evidence"]:
                src = (
                    (f" — source: {e['document']}" + (f", {e['section']}" if e["section"] else ""))
                    if e["document"]
                    else ""
                )
                d.para(f"{e['role']}: {e['statement']}{src}", size=7.5, color=60, indent=9)
                if e["url"]:
                    d.link(e["url"], e["url"], size=7.5, indent=12)
        if w["claims_not_shown"]:
            d.para(f"... and {w['claims_not_shown']} more contradicted claims", size=8)
        d.pdf.ln(2)


def _review(d: _Doc, r: dict[str, Any]) -> None:
    rv = r["review"]
    d.h2("Reviewer decisions", new_page=True)
    d.table(REVIEW_HEAD, review_rows(rv, r["summary"]["fer"]["pooled"]), size=7.5)
    d.para(review_line(rv))
    d.h3(f"Needs review ({num(rv['items']['open'])} open items)")
    for it in rv["open_items"]:
        d.para(f"{it['verdict']} {it['kind']} “{it['text']}”", size=8.5, indent=3)
        d.para(open_item_text(it), size=7.5, color=60, indent=6)
    if rv["open_items_not_shown"]:
        d.para(
            f"... and {num(rv['open_items_not_shown'])} more open items (the review queue lists "
            "them all)",
            size=8,
        )
    if not rv["open_items"]:
        d.para("No item is waiting for a reviewer.")


def _methodology(d: _Doc, r: dict[str, Any]) -> None:
    m, v = r["methodology"], r["versions"]
    d.h2("Methodology", new_page=True)
    for item in m["definitions"] + m["report"]:
        d.h3(item["term"])
        d.para(item["text"])
    d.h2("Versions and sources")
    d.table(["graphs (kg_version)", "rules", "auditor", "audits"], versions_rows(v["seen"]))
    if v["graphs"]:
        d.h3(f"Knowledge graphs loaded now ({v['graphs']['kg_version']})")
        for g in v["graphs"]["domains"]:
            d.para(
                f"{g['domain']} {g['version']}: {num(g['facts'])} facts, "
                f"{num(g['entities'])} entities, {num(g['sources'])} sources. Most used: "
                + "; ".join(f"{s['document']} ({num(s['facts'])})" for s in g["top_sources"])
                + ". "
                + provenance_text(g.get("provenance")),
                size=8,
            )
            for src in g["top_sources"]:
                if src.get("url"):
                    d.link(f"{src['document']}: {src['url']}", src["url"], size=7, indent=3)
    if v["rule_packs"]:
        d.h3(f"Rule packs ({v['rule_packs']['rules_version']})")
        d.table(
            ["pack", "rule", "title", "cites"],
            [
                [f"{p['pack']} {p['version']}", x["id"], x["title"], (x["citation"], x.get("url"))]
                for p in v["rule_packs"]["packs"]
                for x in p["rules"]
            ],
            widths=[22, 30, 58, 70],
            size=7,
        )


def _risk(d: _Doc, r: dict[str, Any]) -> None:
    risk = r.get("risk")
    if not risk:
        return
    d.h2("Calibrated risk and operating points", new_page=True)
    d.para(risk_line(risk))
    d.para(risk["statement"])
    rows = operating_point_rows(risk)
    if rows:
        d.table(RISK_HEAD, rows, widths=[22, 22, 28, 28, 28, 52], size=8)


def _integrity(d: _Doc, r: dict[str, Any]) -> None:
    i = r["integrity"]
    d.h2("Audit-trail integrity")
    d.para(i["statement"], color=0 if i["chain_verified"] else 150)
    d.para(f"Head hash: {i['head_hash']}", size=8)
    d.para(f"Report generated at {r['generated_at']} by kgaudit.", size=8, color=80)


def render_pdf(report: dict[str, Any]) -> bytes:
    d = _Doc(report)
    _summary(d, report)
    _charts(d, report)
    _worst(d, report)
    _review(d, report)
    _risk(d, report)
    _methodology(d, report)
    _integrity(d, report)
    return d.output()


__all__ = ["render_pdf"]
