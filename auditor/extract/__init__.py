"""Stage 1 — extraction: text → sentences with mentions, quantities, dates, citations → claims.

>>> from auditor.extract import extract_claims                      # doctest: +SKIP
>>> ex = extract_claims("Do not exceed 4,000 mg of acetaminophen a day.", domain="medical",
...                     kb=kb, rules=rules, linker=linker)           # doctest: +SKIP
>>> [(c.subject, c.predicate, c.object) for c in ex.claims]          # doctest: +SKIP
[('drug:acetaminophen', 'maxDose', '4000 mg per day')]
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from auditor.deadline import check as check_deadline
from auditor.extract.case_names import drop_partial_case_names, later_short_forms
from auditor.extract.citations import find_citations
from auditor.extract.claims import SubjectMemory, claims_for_sentence
from auditor.extract.context import SentenceInfo, compile_rule
from auditor.extract.cues import find_frequencies
from auditor.extract.dates import find_dates
from auditor.extract.identifiers import find_identifiers
from auditor.extract.layout import layout_sentences
from auditor.extract.linker import Linker
from auditor.extract.quantities import find_quantities
from auditor.extract.segment import Sentence, split_sentences
from auditor.types import CitationRef, Claim, Mention, Quantity
from knowledge_graphs.store import KnowledgeBase
from rules.schema import Rule

_DAILY_COLUMN = re.compile(r"\b(?:daily|per day|a day|/\s*day|24[- ]hours?)\b", re.I)


def _per_from_column(q: Quantity, sentence: Sentence, columns: list[str]) -> Quantity:
    """A dose in a column headed "Max daily dose" is per day."""
    col = sentence.text[: q.start - sentence.start].strip().lstrip("|").count("|")
    if col < len(columns) and _DAILY_COLUMN.search(columns[col]):
        return replace(q, per="day")
    return q


@dataclass
class Extraction:
    sentences: list[SentenceInfo]
    claims: list[Claim]


def extract_claims(
    text: str,
    *,
    domain: str,
    kb: KnowledgeBase,
    rules: Sequence[Rule],
    linker: Linker,
    fallback_linker: Callable[[str, list[Mention]], list[Mention]] | None = None,
    resolve_case: Callable[[CitationRef], str | None] | None = None,
    case_name_ok: Callable[[str, str], bool] | None = None,
) -> Extraction:
    """Sentences with everything found in them, and the claims the rules assemble from them.

    ``fallback_linker`` (e.g. fuzzy matching) receives the text and the exact mentions and
    returns additional mentions for spans the exact linker missed. ``resolve_case`` maps a
    case citation to the case entity it denotes, so "Chevron U.S.A. v. NRDC, 467 U.S. 837"
    counts as a mention of that case even when the name is abbreviated. ``case_name_ok(name,
    case_id)`` says whether a full case name can denote a case: a short name linked inside
    another case's name ("Brown" in "Brown v. Plata") is then dropped.
    """
    sentences = split_sentences(text)
    mentions = linker.link(text, domains=[domain])
    if fallback_linker is not None:
        mentions = sorted([*mentions, *fallback_linker(text, mentions)], key=lambda m: m.start)
    if case_name_ok is not None:
        mentions = drop_partial_case_names(text, mentions, case_name_ok)
    if domain == "legal":  # "Swift v. Tyson ... Erie overruled Swift"
        mentions = sorted([*mentions, *later_short_forms(text, mentions)], key=lambda m: m.start)
    infos = _bucket(text, sentences, mentions)
    if resolve_case is not None:
        for info in infos:
            _add_cited_cases(info, resolve_case, kb)
    compiled = [compile_rule(r) for r in rules]
    memory = SubjectMemory()
    claims: list[Claim] = []
    for i, info in enumerate(infos):
        check_deadline()
        claims += claims_for_sentence(info, i, compiled, kb, domain, memory)
    return Extraction(infos, claims)


def _bucket(text: str, sentences: list[Sentence], mentions: list[Mention]) -> list[SentenceInfo]:
    starts = [s.start for s in sentences]
    infos: list[SentenceInfo] = []
    row_columns: dict[int, list[str]] = {}
    for k, (s, lay) in enumerate(zip(sentences, layout_sentences(text, sentences), strict=True)):
        if lay.kind == "table_row" and lay.columns:
            # a row of a table: its cells are read under the column headers
            # ("| Ibuprofen | 1,200 mg |" under "| Drug | Max daily dose (OTC) |")
            infos.append(SentenceInfo(s, " ".join(lay.columns) + ":", layout=lay))
            row_columns[k] = list(lay.columns)
        elif lay.kind == "list_item":
            infos.append(SentenceInfo(s, lay.list_header, layout=lay))
        else:
            infos.append(SentenceInfo(s, "", layout=lay))

    def index(pos: int) -> int:
        return max(0, bisect.bisect_right(starts, pos) - 1)

    def inside(i: int, start: int, end: int) -> bool:
        s = sentences[i]
        return s.start <= start and end <= s.end

    for m in mentions:
        i = index(m.start)
        if inside(i, m.start, m.end):
            infos[i].mentions.append(m)
    for k, info in enumerate(infos):
        info.document_mentions = mentions  # shared, not copied
        if k and "\n\n" not in text[sentences[k - 1].end : sentences[k].start]:
            info.previous_text = sentences[k - 1].text
        if k and infos[k - 1].layout.question and not info.layout.question:
            info.asked = infos[k - 1].layout.title or sentences[k - 1].text
            info.asked_mentions = infos[k - 1].mentions
    for q in find_quantities(text):
        i = index(q.start)
        if inside(i, q.start, q.end):
            if i in row_columns and q.per is None:
                q = _per_from_column(q, sentences[i], row_columns[i])
            infos[i].quantities.append(q)
    for d in find_dates(text):
        i = index(d.start)
        if inside(i, d.start, d.end):
            infos[i].dates.append(d)
    for f in find_frequencies(text):
        i = index(f.start)
        if inside(i, f.start, f.end):
            infos[i].frequencies.append(f)
    heading_mentions: dict[str, list[Mention]] = {}
    heading_asks: dict[str, bool] = {}
    heading_end: dict[str, int] = {}
    for info in infos:
        check_deadline()
        s = info.sentence
        info.citations = find_citations(s.text, s.start)
        if info.layout.kind == "table_row" and info.citations:
            info.citations = _named_in_row(info)
        info.identifiers = find_identifiers(s.text, s.start)
        if info.layout.kind == "heading":
            # a heading line split into sentences ("## "I take Tikosyn. Can my doctor add
            # hydrochlorothiazide?"") names what all its sentences name, and asks if one does
            title = info.layout.title
            end = heading_end.get(title)
            same = end is not None and "\n" not in text[end : s.start]
            before = heading_mentions.get(title, []) if same else []
            heading_mentions[title] = [*before, *info.mentions]
            asked = heading_asks.get(title, False) and same
            heading_asks[title] = asked or info.layout.question or "?" in s.text
            heading_end[title] = s.end
        info.heading_mentions = [
            heading_mentions.get(h, []) for h in reversed(info.layout.headings)
        ]
        info.heading_questions = [
            heading_asks.get(h, False) for h in reversed(info.layout.headings)
        ]
    return infos


_CASE_CELL = re.compile(r"^[\s*_]*(?P<name>[^|]*?\S\s+vs?\.\s+[^|]*?\S)[\s*_]*$")


def _named_in_row(info: SentenceInfo) -> list[CitationRef]:
    """A case citation alone in its cell takes the case name from the row's one cell that
    holds a case name ("| *Obergefell v. Hodges* | 576 U.S. 644 | June 26, 2015 |")."""
    lay = info.layout
    names = []
    for (a, b), cell in zip(lay.cells, lay.cell_texts, strict=False):
        m = _CASE_CELL.match(cell)
        if m and not any(a <= c.start < b for c in info.citations):
            names.append((a + m.start("name"), a + m.end("name"), m.group("name")))
    if len(names) != 1:
        return info.citations
    start, end, name = names[0]
    out = []
    for ref in info.citations:
        if ref.kind == "case" and ref.case_name is None and ref.form == "full":
            ref = replace(ref, case_name=name.strip("*_ "), name_span=(start, end))
        out.append(ref)
    return out


def _add_cited_cases(
    info: SentenceInfo, resolve: Callable[[CitationRef], str | None], kb: KnowledgeBase
) -> None:
    for ref in info.citations:
        if ref.kind != "case":
            continue
        cid = resolve(ref)
        if cid is None:
            continue
        start, end = ref.name_span or (ref.start, ref.end)
        overlapping = [m for m in info.mentions if m.start < end and start < m.end]
        if any(cid in m.candidates and m.start <= start and end <= m.end for m in overlapping):
            continue  # the whole written name is already a mention of that case
        # else the citation's name is the mention, also over a short form linked inside it
        # ("Chevron" of "Chevron U.S.A. v. NRDC, 467 U.S. 837 (1984)")
        info.mentions = [m for m in info.mentions if m not in overlapping]
        info.mentions.append(
            Mention(
                start,
                end,
                info.text[start - info.sentence.start : end - info.sentence.start],
                (cid,),
                ("Case",),
            )
        )
        info.mentions.sort(key=lambda m: m.start)


__all__ = ["Extraction", "SentenceInfo", "extract_claims"]
