"""Which drug a dose belongs to, and which other drugs it is conditioned on.

In order: a drug named in the value's own clause ("500 mg of metformin", "metformin ... up to
2,550 mg"); a drug named earlier in the sentence ("Eszopiclone: the most you should take is
3 mg"); the line's label ("- **Ibuprofen (Advil):** ..."); the table row's drug cell; the
nearest heading that names one drug; the topic of the previous sentence. Drugs introduced as
co-medication ("with amiodarone", "if you take ritonavir") — or named beside the subject in
its clause or label — are conditions of the dose, not its subject; several drugs listed
together make the subject ambiguous; a drug class is never a dose's subject.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from auditor.extract.classlike import is_class_mention
from auditor.extract.context import SentenceInfo
from auditor.extract.frames import dose_words as w
from auditor.extract.frames.common import respective, value_clause
from auditor.types import Mention, Quantity
from knowledge_graphs.store import KnowledgeBase

_DRUG = frozenset({"Drug"})
_LAB = re.compile(r"\s+(?:clearance|levels?|concentrations?)\b", re.I)
_OF = re.compile(r"\s*(?:per\s+\w+\s+)?(?:of|for)?\s*(?:the\s+)?", re.I)
_BRACKET_OPEN = re.compile(r"\s*[(\[]\s*")
_LIST_GAP = re.compile(r"\s*(?:,|/|and|or|&|,\s*(?:and|or))\s*", re.I)

_COMED_COLUMN = re.compile(  # "| Interacting drug | Recommendation |": the rows are co-medications
    r"\b(?:interact\w*|co-?medications?|concomitant|combined\s+with|taken\s+with|other\s+drugs?|"
    r"with\s+(?:this|these)\s+drugs?)\b",
    re.I,
)

Pair = tuple[Mention, str]


@dataclass
class Binding:
    subject: Pair | None
    source: str  # clause | sentence | label | row | heading | context
    ambiguous: tuple[str, ...] = ()  # labels of rival drugs
    conditions: tuple[str, ...] = ()  # other drugs (or drug classes) the dose is conditioned on
    combination: bool = False
    rival_ids: tuple[str, ...] = ()


def bind_subject(  # type: ignore[no-untyped-def]
    info: SentenceInfo, q: Quantity, subjects, kb: KnowledgeBase, from_context: bool
) -> Binding:
    base = info.sentence.start
    a, b = value_clause(info, q)
    drugs = [(m, e) for m, e in info.mentions_of(_DRUG) if not _LAB.match(_after(info, m))]
    singles = [(m, e) for m, e in drugs if not is_class_mention(m, kb)]
    in_clause = [(m, e) for m, e in singles if a <= m.start - base < b]
    conditioned = [(m, e) for m, e in in_clause if _conditioned(info, m, a)]
    own = [(m, e) for m, e in in_clause if not _conditioned(info, m, a)]
    lay = info.layout
    if (
        lay.kind == "table_row"
        and lay.columns
        and _COMED_COLUMN.search(lay.columns[0])
        and lay.cell_index(q.start) not in (None, 0)
    ):
        # "| Interacting drug | Recommendation |" / "| Clarithromycin | Do not exceed 20 mg |"
        # under "## Atorvastatin": the heading's drug, limited with the row's drugs
        return _row_subject(info, q, singles, kb)
    paired = respective(info, q, singles)
    if paired:  # "ibuprofen and naproxen ... 1,200 mg and 660 mg respectively": the k-th drug's
        others = tuple(e for _, e in singles if e != paired[1])
        binding = Binding(paired, "respectively", rival_ids=others)
    else:
        binding = _pick(info, q, own, singles, a, kb)
    if binding.subject is None:
        binding = _structural(info, q, singles, kb, subjects, from_context)
    if binding.subject is None:
        return binding
    subject_id = binding.subject[1]
    conditions = [_label(kb, e, m) for m, e in conditioned if e != subject_id]
    scope = [(m, e) for m, e in drugs if a <= m.start - base < b]
    if lay.label_end is not None:
        scope += [(m, e) for m, e in drugs if m.end <= lay.label_end]
    for m, e in scope:  # every other drug or class beside the subject conditions the dose
        if e != subject_id and e not in binding.rival_ids and not _is_brand_of(m, subject_id):
            if any(_describes(info, m, sm, kb) for sm, se in drugs if se == subject_id):
                continue  # "The antidepressant citalopram", "sertraline (an SSRI)": its class
            conditions.append(_label(kb, e, m))
    binding.conditions = tuple(dict.fromkeys([*binding.conditions, *conditions]))
    return binding


_APPOSED = re.compile(r"[\s,(*_]*(?:(?:an?|the)\s+)?[\s,(*_]*", re.I)


def _describes(info: SentenceInfo, m: Mention, subject: Mention, kb: KnowledgeBase) -> bool:
    """A class name right beside the subject, with at most an article or a bracket between,
    names the subject's class ("The antidepressant citalopram", "sertraline (an SSRI)")."""
    if not is_class_mention(m, kb):
        return False
    base = info.sentence.start
    lo, hi = (m.end, subject.start) if m.end <= subject.start else (subject.end, m.start)
    return 0 <= hi - lo <= 12 and bool(_APPOSED.fullmatch(info.text[lo - base : hi - base]))


def _pick(info, q, own, singles, a, kb) -> Binding:  # type: ignore[no-untyped-def]
    base = info.sentence.start
    opened = [  # "with clarithromycin (500 mg twice daily)": the bracketed dose is the drug's
        (m, e) for m, e in singles
        if m.end <= q.start and _BRACKET_OPEN.fullmatch(info.text[m.end - base : q.start - base])
    ]  # fmt: skip
    if opened:
        return _one(info, opened[-1:], "clause", kb)
    adjacent = [  # "co-packaged with ritonavir 100 mg": the amount written right after a drug
        (m, e) for m, e in singles
        if m.end <= q.start and re.fullmatch(r"[\s*_]*", info.text[m.end - base : q.start - base])
    ]  # fmt: skip
    if adjacent and adjacent[-1] not in own:
        return _one(info, adjacent[-1:], "clause", kb)
    after_of = [
        (m, e) for m, e in own
        if m.start >= q.end and _OF.fullmatch(info.text[q.end - base : m.start - base])
    ]  # fmt: skip
    if after_of:
        return _one(info, [after_of[0]], "clause", kb)
    before = [(m, e) for m, e in own if m.end <= q.start]
    if before:
        return _one(info, _listed_with(info, before), "clause", kb)
    if own:
        return _one(info, own[:1], "clause", kb)
    lead = [(m, e) for m, e in singles if m.end - base <= a and not _conditioned(info, m, 0)]
    if lead:  # "Eszopiclone: the most you should take is 3 mg", "X is ..., but do not exceed"
        return _one(info, _listed_with(info, lead), "sentence", kb)
    return Binding(None, "")


def _structural(info, q, singles, kb, subjects, from_context) -> Binding:  # type: ignore[no-untyped-def]
    lay = info.layout
    if lay.label_end is not None:
        labelled = [(m, e) for m, e in singles if m.end <= lay.label_end]
        if labelled:
            return _one(info, labelled, "label", kb)
    if lay.kind == "table_row":
        return _row_subject(info, q, singles, kb)
    heading = heading_drug(info, kb)
    if heading is not None:
        return Binding(heading, "heading")
    if from_context and subjects:
        return Binding(subjects[0], "context")
    return Binding(None, "")


def _row_subject(info: SentenceInfo, q: Quantity, drugs, kb: KnowledgeBase) -> Binding:  # type: ignore[no-untyped-def]
    lay = info.layout
    i = lay.cell_index(q.start)
    row = [(m, e) for m, e in drugs if lay.cell_index(m.start) not in (None, i)]
    heading = heading_drug(info, kb)
    first_col = lay.columns[0] if lay.columns else ""
    if row:
        ids = {e for _, e in row}
        if (
            heading is not None
            and heading[1] not in ids
            and (not w.DRUG_COLUMN.search(first_col) or _COMED_COLUMN.search(first_col))
        ):
            # "| Amiodarone, amlodipine | 20 mg/day |" under "### Simvastatin dose limits":
            # the row names the other drugs the heading's drug is limited with
            names = tuple(dict.fromkeys(_label(kb, e, m) for m, e in row))
            return Binding(heading, "heading", conditions=names)
        return _one(info, row, "row", kb)
    column = _column_drug(info, q, kb)
    if column is not None:  # "| | Citalopram | Escitalopram |": the column names the drug
        return Binding(column, "column")
    if heading is not None:
        return Binding(heading, "heading")
    return Binding(None, "")


def _column_drug(info: SentenceInfo, q: Quantity, kb: KnowledgeBase) -> Pair | None:
    """The one drug a value cell's column header names, read from the header row's mentions
    (a comparison table with a drug per column and the dose role per row)."""
    header = info.layout.column_at(q.start).strip(" *_")
    if not header:
        return None
    # "| Tadalafil (Cialis) |": the drug with its brand (or a form) in brackets
    names = {header.lower(), re.sub(r"\s*\([^()]*\)", "", header).strip(" *_").lower()}
    named = {
        (m.text, eid)
        for m in info.document_mentions
        if m.end <= info.sentence.start
        and m.text.strip(" *_").lower() in names
        and (eid := m.of_type(_DRUG))
        and not is_class_mention(m, kb)
    }
    if len({e for _, e in named}) != 1:
        return None
    eid = next(iter(named))[1]
    mention = next(m for m in info.document_mentions if m.of_type(_DRUG) == eid)
    return mention, eid


def _one(info: SentenceInfo, cands, source: str, kb: KnowledgeBase) -> Binding:  # type: ignore[no-untyped-def]
    ids = list(dict.fromkeys(e for _, e in cands))
    first = cands[0]
    rivals = tuple(_label(kb, e, m) for m, e in cands) if len(ids) > 1 else ()
    return Binding(first, source, rivals, (), _combination(info, first[0]), tuple(ids[1:]))


def _listed_with(info: SentenceInfo, before):  # type: ignore[no-untyped-def]
    """The closest drug before the value, and the drugs listed with it ("ibuprofen or
    naproxen up to ..."): several means the dose's drug is ambiguous."""
    base = info.sentence.start
    group = [before[-1]]
    for m, e in reversed(before[:-1]):
        gap = info.text[m.end - base : group[-1][0].start - base]
        if _LIST_GAP.fullmatch(gap) and e != group[-1][1]:
            group.append((m, e))
        else:
            break
    return list(reversed(group)) if len(group) > 1 else group


def _after(info: SentenceInfo, m: Mention) -> str:
    return info.text[m.end - info.sentence.start :]


# "Take ibuprofen 400 mg ...", "You can take colchicine ...": the dosing verb's own object is
# the drug dosed, not a co-medication ("if you take warfarin", "while taking clarithromycin")
_DOSED_OBJECT = re.compile(
    r"^[\s*_>•-]*(?:\d+[.)]\s*)?(?:(?:you|patients|adults|children|most\s+people)\s+"
    r"(?:can|may|should|could|would|will|must)\s+(?:usually\s+|typically\s+|generally\s+)?|"
    r"(?:usually|typically|generally|simply)\s+)?(?:take|use|give)\s+$",
    re.I,
)


def _conditioned(info: SentenceInfo, m: Mention, clause_start: int) -> bool:
    base = info.sentence.start
    lead = info.text[max(clause_start, m.start - base - 40) : m.start - base]
    if not w.CONDITION_LEAD.search(lead):
        return False
    return not _DOSED_OBJECT.match(info.text[: m.start - base])


def _is_brand_of(m: Mention, eid: str) -> bool:
    return eid in m.candidates


def _combination(info: SentenceInfo, m: Mention) -> bool:
    """ "phentermine/topiramate", "sacubitril-valsartan": one part of a combination product."""
    base = info.sentence.start
    s, e = m.start - base, m.end - base
    return bool(
        re.match(r"\s*(?:/|-|\+|\band\b)\s*[A-Za-z]", info.text[e : e + 6])
        and re.match(r"[/+-]", info.text[e : e + 2].strip() or " ")
    ) or bool(re.search(r"[A-Za-z]\s*[/+]\s*$", info.text[max(0, s - 4) : s]))


def heading_drug(info: SentenceInfo, kb: KnowledgeBase) -> Pair | None:
    """The one drug the nearest heading that names a drug is about."""
    for mentions in info.heading_mentions:
        drugs = [(m, eid) for m in mentions if (eid := m.of_type(_DRUG))]
        drugs = [(m, e) for m, e in drugs if not is_class_mention(m, kb)]
        if drugs:
            return drugs[0] if len({e for _, e in drugs}) == 1 else None
    return None


def _label(kb: KnowledgeBase, eid: str, m: Mention) -> str:
    ent = kb.entity(eid)
    return ent.label if ent else m.text


__all__ = ["Binding", "bind_subject", "heading_drug"]
