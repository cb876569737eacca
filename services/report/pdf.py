"""The report as a PDF, with fpdf2 and the DejaVu fonts matplotlib ships (no system library).

It lays out the section model of :mod:`services.report.sections` (the same sections, text and
tables as the HTML page). Pages: 1 title and executive summary; 2-3 the six charts and the
top failing rules; then the worst audits with claim-level evidence; the reviewer decisions
and the needs-review list; calibrated risk; methodology, versions and sources and the
audit-trail integrity statement. A link is clickable and printed with its URL on a line of
its own. Every page's footer repeats the period and the generation time.
"""

from __future__ import annotations

import io
import os
from typing import Any

from auditor.errors import UsageError
from services.report.sections import (
    Block,
    Definitions,
    Entries,
    Figure,
    Heading,
    Kpis,
    Link,
    Para,
    Run,
    Table,
    header,
    runs_text,
    sections,
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


NEW_PAGE = frozenset({"charts", "worst", "review", "risk", "methodology"})
COLOR = {"muted": 80, "bad": 150}


def _links(runs: tuple[Run, ...]) -> list[Link]:
    return [r for r in runs if isinstance(r, Link) and r.url]


def _para(
    d: _Doc,
    runs: tuple[Run, ...],
    *,
    style: str = "",
    size: float = 9,
    indent: float = 0,
    color: int = 0,
) -> None:
    """A paragraph, then each of its links on a line of its own (clickable, and readable on
    paper)."""
    d.para(runs_text(runs), size=size, color=COLOR.get(style, color), indent=indent)
    for x in _links(runs):
        d.link(f"{x.text}: {x.url}", x.url or "", size=min(size, 7.5), indent=indent + 3)


def _block(d: _Doc, b: Block) -> None:
    if isinstance(b, Heading):
        d.h3(b.text)
    elif isinstance(b, Para):
        _para(d, b.runs, style=b.style, size=8 if b.style == "muted" else 9)
    elif isinstance(b, Table):
        rows = [[(c.text, c.url) if isinstance(c, Link) else c for c in row] for row in b.rows]
        d.table(list(b.head), rows, list(b.widths) if b.widths else None, size=b.size or 8)
    elif isinstance(b, Kpis):
        d.table([k for k, _ in b.items], [[v for _, v in b.items]])
    elif isinstance(b, Figure):
        d.image(b.png, b.caption)
    elif isinstance(b, Entries):
        for e in b.items:
            d.para(f"{e.lead} {runs_text(e.text)}", size=8.5, indent=3)
            for line in e.lines:
                _para(d, line, size=8, indent=6)
            for sub in e.sub:
                _para(d, sub, size=7.5, color=60, indent=9)
        d.pdf.ln(2)
    elif isinstance(b, Definitions):
        for term, text in b.items:
            d.h3(term)
            d.para(text)


def render_pdf(report: dict[str, Any]) -> bytes:
    d = _Doc(report)
    title, subtitle = header(report)
    d.h1(title)
    d.para(subtitle, color=80)
    for sec in sections(report):
        d.h2(sec.title, new_page=sec.id in NEW_PAGE)
        for b in sec.blocks:
            _block(d, b)
    return d.output()


__all__ = ["render_pdf"]
