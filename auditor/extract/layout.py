"""Where a sentence sits in the document: heading, list item, table row, prose.

Real answers are markdown. A value is bound to what it claims through that structure, not by
proximity: a table cell is read under its column header and beside its row label, a list item
under its bold label and the list header before it, and every line under the headings above
it ("### Children 10 years and older" qualifies the doses below it). Headings and questions
are not assertions.

>>> text = "## Dosing\\n| Step | Dose |\\n|---|---|\\n| Maximum | 2,000 mg/day |"
>>> from auditor.extract.segment import split_sentences
>>> rows = layout_sentences(text, split_sentences(text))
>>> [r.kind for r in rows]
['heading', 'table_header', 'table_rule', 'table_row']
>>> rows[3].columns, rows[3].row_label, rows[3].headings
(('Step', 'Dose'), 'Maximum', ('Dosing',))
>>> rows[3].column_at(text.index("2,000"))
'Dose'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from auditor.extract.segment import Sentence

Kind = Literal["heading", "table_header", "table_rule", "table_row", "list_item", "prose"]

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_NUMBERED_TITLE = re.compile(r"^\s*\d{1,2}(?:\.\d{1,2}){0,3}\.?\s+[A-Z][^.!?:;]{3,140}$")
# "**3. Clopidogrel (Plavix)** — for comparison": a short aside after the bold run still heads
_BOLD_LINE = re.compile(
    r"^\s*(?:\*\*|__)([^*_\n]{2,120}?)(?:\*\*|__)\s*(?::|\s[\u2014\u2013-]\s*[^.!?\n*_:]{1,40})?\s*$"
)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,2}[.)]|[a-z][.)])\s")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_LABEL = re.compile(
    r"^\s*(?:[-*+\u2022]\s+|\d{1,2}[.)]\s+|[a-z][.)]\s+)?[*_]{0,2}"
    r"(?P<label>[^:\n]{1,100}?)[*_]{0,2}\s*:(?:[*_]{0,2})\s+"
)
_MARKUP = re.compile(r"[*_`>#]+")


@dataclass(frozen=True)
class Layout:
    """The structural context of one sentence (offsets are absolute in the text)."""

    kind: Kind
    headings: tuple[str, ...] = ()  # enclosing markdown headings, outermost first
    list_header: str = ""  # "Maximum daily doses:" — the line a list item hangs from
    label: str = ""  # a line's own label before its colon ("**Maximum:** 2,550 mg")
    label_end: int | None = None  # absolute offset just after the label's colon
    columns: tuple[str, ...] = ()  # header cells of the table a row belongs to
    cells: tuple[tuple[int, int], ...] = field(default=())  # absolute spans of a row's cells
    cell_texts: tuple[str, ...] = ()
    question: bool = False  # the sentence asks rather than asserts
    paragraph_lead: str = ""  # the first sentence of the paragraph or list item
    title: str = ""  # a heading's own text (without markup)

    @property
    def assertive(self) -> bool:
        return self.kind not in {"heading", "table_header", "table_rule"} and not self.question

    @property
    def row_label(self) -> str:
        return _clean(self.cell_texts[0]) if self.cell_texts else ""

    def cell_index(self, pos: int) -> int | None:
        for i, (a, b) in enumerate(self.cells):
            if a <= pos < b:
                return i
        return None

    def column_at(self, pos: int) -> str:
        i = self.cell_index(pos)
        if i is None or i >= len(self.columns):
            return ""
        return _clean(self.columns[i])


def _clean(s: str) -> str:
    return " ".join(_MARKUP.sub(" ", s).split())


def is_question(text: str) -> bool:
    body = _clean(text).rstrip()
    return body.endswith("?")


def layout_sentences(text: str, sentences: list[Sentence]) -> list[Layout]:
    """One :class:`Layout` per sentence, in order. A sentence that continues a line (the
    second sentence of a list item) shares that line's layout."""
    out: list[Layout] = []
    heads: list[tuple[int, str]] = []  # (level, text) of the open headings
    list_header = ""
    columns: tuple[str, ...] = ()
    line: Layout | None = None
    lead = ""
    for k, s in enumerate(sentences):
        line_start = text.rfind("\n", 0, s.start) + 1
        starts_line = not text[line_start : s.start].strip()
        if not starts_line and line is not None:
            own = _LABEL.match(s.text)  # "... 24 hours. Acetaminophen 325 mg tablets: ..."
            if own and line.kind in ("prose", "list_item"):  # its own label, not the line's
                out.append(replace(line, question=is_question(s.text),
                                   label=_clean(own.group("label")),
                                   label_end=s.start + own.end()))  # fmt: skip
            else:
                out.append(replace(line, question=is_question(s.text)))
            continue
        new_paragraph = line is None or _blank_line_before(text, line_start)
        h = _HEADING.match(s.text) if starts_line else None
        bold = _BOLD_LINE.match(s.text) if starts_line and not h else None
        if starts_line and not h and not bold and _NUMBERED_TITLE.match(s.text):
            bold = _NUMBERED_TITLE.match(s.text)  # "2.2 Heterozygous FH in Pediatric Patients"
        whole_line = False
        if starts_line and not h and not bold and s.text.startswith(("**", "__")):
            # "**Q: I use rizatriptan (Maxalt). What's my limit?**": a bold line of several
            # sentences heads what follows it as one title
            end = text.find("\n", s.start)
            bold = _BOLD_LINE.match(text[s.start : end if end >= 0 else len(text)])
            whole_line = bold is not None
        headings = tuple(t for _, t in heads)
        if h or (bold and (whole_line or _ends_line(text, s.end))):
            level = len(h.group(1)) if h else 7  # a bold line heads what follows it
            title = _clean(h.group(2) if h else (bold.group(1) if bold.groups() else bold.group(0)))  # type: ignore[union-attr]
            heads = [(lv, t) for lv, t in heads if lv < level]
            line = Layout("heading", headings, question=is_question(title), title=title)
            out.append(line)
            heads.append((level, title))
            list_header, columns, lead = "", (), ""
            continue
        if _TABLE_ROW.match(s.text):
            nxt = sentences[k + 1].text if k + 1 < len(sentences) else ""
            if _TABLE_RULE.match(s.text):
                line = Layout("table_rule", headings)
            elif _TABLE_RULE.match(nxt):
                columns = tuple(_cells(s.text))
                line = Layout("table_header", headings)
            else:
                spans = _cell_spans(s)
                line = Layout(
                    "table_row",
                    headings,
                    list_header,
                    columns=columns,
                    cells=spans,
                    cell_texts=tuple(text[a:b] for a, b in spans),
                )
            out.append(line)
            continue
        columns = ()
        label_m = _LABEL.match(s.text)
        label = _clean(label_m.group("label")) if label_m else ""
        label_end = s.start + label_m.end() if label_m else None
        if _LIST_ITEM.match(s.text):
            lead = s.text
            line = Layout(
                "list_item", headings, list_header, label, label_end,
                question=is_question(s.text), paragraph_lead=lead,
            )  # fmt: skip
            out.append(line)
            continue
        if new_paragraph or not lead:
            lead = s.text
        line = Layout(
            "prose", headings, "", label, label_end,
            question=is_question(s.text), paragraph_lead=lead,
        )  # fmt: skip
        out.append(line)
        list_header = s.text if s.text.rstrip().endswith(":") else ""
    return out


def _blank_line_before(text: str, line_start: int) -> bool:
    prev = text.rfind("\n", 0, max(0, line_start - 1))
    return not text[prev + 1 : max(0, line_start - 1)].strip()


def _ends_line(text: str, end: int) -> bool:
    nl = text.find("\n", end)
    return not text[end : nl if nl >= 0 else len(text)].strip()


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def _cell_spans(s: Sentence) -> tuple[tuple[int, int], ...]:
    body = s.text
    first = body.index("|")
    last = body.rindex("|")
    spans = []
    pos = first + 1
    while pos <= last:
        nxt = body.find("|", pos)
        if nxt < 0:
            break
        a, b = pos, nxt
        while a < b and body[a].isspace():
            a += 1
        while b > a and body[b - 1].isspace():
            b -= 1
        spans.append((s.start + a, s.start + b))
        pos = nxt + 1
    return tuple(spans)


__all__ = ["Layout", "is_question", "layout_sentences"]
