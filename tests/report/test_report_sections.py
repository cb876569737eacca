"""HTML and PDF lay out one section model: the same sections, in the same order, with every
sentence, table cell and list entry of the model, and nothing written by only one of them."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from services.report import render
from services.report.sections import (
    Definitions,
    Entries,
    Figure,
    Heading,
    Kpis,
    Link,
    Para,
    Section,
    Table,
    runs_text,
    sections,
)


def _texts(sec: Section) -> list[str]:
    """Every piece of text the model gives a section."""
    out = [sec.title]
    for b in sec.blocks:
        if isinstance(b, Heading):
            out.append(b.text)
        elif isinstance(b, Para):
            out.append(runs_text(b.runs))
        elif isinstance(b, Table):
            out += list(b.head)
            out += [c.text if isinstance(c, Link) else c for row in b.rows for c in row]
        elif isinstance(b, Kpis):
            out += [x for kv in b.items for x in kv]
        elif isinstance(b, Figure):
            out.append(b.caption)
        elif isinstance(b, Entries):
            for e in b.items:
                out.append(f"{e.lead} {runs_text(e.text)}")
                out += [runs_text(x) for x in (*e.lines, *e.sub)]
        elif isinstance(b, Definitions):
            out += [x for kv in b.items for x in kv]
    return [t for t in out if t]


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.h2: list[str] = []
        self._in_h2 = False
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self._in_h2, self._in_style = tag == "h2", tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_h2 = self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            return
        self.parts.append(data)
        if self._in_h2:
            self.h2.append(data.strip())


@pytest.fixture(scope="module")
def model(report_dict: dict[str, Any]) -> list[Section]:
    return sections(report_dict)


@pytest.fixture(scope="module")
def html(report_dict: dict[str, Any]) -> _Text:
    page = _Text()
    page.feed(render(report_dict, "html").decode("utf-8"))
    return page


@pytest.fixture(scope="module")
def pdf_text(report_dict: dict[str, Any]) -> str:
    pdfium = pytest.importorskip("pypdfium2")
    doc = pdfium.PdfDocument(render(report_dict, "pdf"))
    text = "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    # the page footers, which can fall in the middle of a paragraph
    return re.sub(r"kgaudit compliance report · [^\n]*· page \d+/\d+", "", text)


def test_the_model_has_every_section(model: list[Section]) -> None:
    assert [s.id for s in model] == [
        "summary",
        "charts",
        "worst",
        "review",
        "risk",
        "methodology",
        "versions",
        "integrity",
    ]
    assert sum(isinstance(b, Figure) for s in model for b in s.blocks) == 6


def test_html_sections_are_the_models_in_order(model, html) -> None:
    assert html.h2 == [s.title for s in model]


def test_pdf_sections_are_the_models_in_order(model, pdf_text) -> None:
    flat = _squash(pdf_text)
    positions = [flat.find(_squash(s.title)) for s in model]
    assert -1 not in positions and positions == sorted(positions), positions


@pytest.mark.parametrize("fmt", ["html", "pdf"])
def test_every_text_of_the_model_is_rendered(model, html, pdf_text, fmt) -> None:
    flat = _squash("".join(html.parts) if fmt == "html" else pdf_text)
    missing = [t for s in model for t in _texts(s) if _squash(t) not in flat]
    assert not missing, missing[:5]
