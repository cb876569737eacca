"""The dose frame: which drug a number is a dose of, in what role, per what, for whom.

A value is bound to its trigger through the clause, the list item's label, the table cell's
column header and row label, and the headings above — never by proximity to any drug name.
Only a ``maximum`` frame can be checked against the graph's maxDose facts; every other role
(starting, usual, titration, per-dose direction, ...) becomes an ``unverifiable`` claim whose
reason names the role, so a reviewer sees the number was read and why it was not judged.

>>> # "Start sertraline at 50 mg daily; the maximum is 200 mg." gives two frames:
>>> # 50 mg → role start (unverifiable), 200 mg → role maximum (checked).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from auditor.extract.assertion import non_assertion
from auditor.extract.claim_base import DENIED_VALUE, base_claim, claim_date, format_quantity
from auditor.extract.classlike import is_class_mention
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.extract.frames import dose_words as w
from auditor.extract.frames.common import value_clause
from auditor.types import Claim, Frame, Mention, Quantity
from knowledge_graphs.store import KnowledgeBase

_DRUG = frozenset({"Drug"})
_CLASS = frozenset({"DrugClass"})
_CONNECTOR = re.compile(
    r"^[\s*_,;()/]*(?:(?:or|and|to|-|–|=|i\.e\.,?|which\s+is)\s*)?[\s*_(]*$", re.I
)
_DAILY = re.compile(r"\b(?:daily|per\s+day|a\s+day|/\s*day|each\s+day|every\s+day|24[- ]hours?|"
                    r"in\s+a\s+day|total\s+daily|at\s+bedtime|nightly|at\s+night|before\s+bed|"
                    r"each\s+night|every\s+night|once\s+a\s+night)\b", re.I)  # fmt: skip
_WEEKLY = re.compile(r"\b(?:weekly|per\s+week|a\s+week|/\s*week|each\s+week|every\s+week|once\s+a\s+week)\b", re.I)  # fmt: skip
_MONTHLY = re.compile(r"\b(?:monthly|per\s+month|a\s+month|every\s+month)\b", re.I)
_PER_DOSE = re.compile(
    r"\b(?:per\s+dose|single\s+dose|each\s+dose|at\s+a\s+time|at\s+once)\b", re.I
)
_ONCE_DAILY_AFTER = re.compile(
    r"^\s*(?:once\s+(?:a\s+)?daily|once\s+a\s+day|a\s+day|daily)\b", re.I
)


@dataclass
class _Binding:
    subject: tuple[Mention, str] | None
    source: str  # clause | label | row | heading | context
    ambiguous: tuple[str, ...] = ()  # labels of rival drugs
    conditions: tuple[str, ...] = ()  # other drugs the dose is conditioned on
    combination: bool = False


def dose_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, subjects, kb: KnowledgeBase, domain: str, from_context
) -> list[Claim]:
    """One claim per dose-like value in the sentence that has a drug and a role."""
    dims = set(cr.rule.applies_to.dimensions) or {"mass", "count", "iu", "volume"}
    out: list[Claim] = []
    prev_role: tuple[str, str, int] | None = None  # role, trigger, end of the previous value
    for q in info.quantities:
        if q.dimension not in dims or q.start in info.change_quantities:
            continue
        kind = _value_kind(info, q)
        if kind != "dose":
            continue
        role, trigger, source = _role(info, q, prev_role)
        prev_role = (role, trigger, q.end) if role else None
        if role is None or role == "purchase_limit":
            continue
        binding = _subject(info, q, subjects, kb, from_context)
        if binding.subject is None:
            continue
        out.append(_claim(info, cr, q, role, trigger, source, binding, kb, domain))
    return out


def _claim(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, q: Quantity, role: str, trigger: str, source: str,
    b: _Binding, kb: KnowledgeBase, domain: str,
) -> Claim:  # fmt: skip
    assert b.subject is not None
    claim = base_claim(info, cr, b.subject, kb, domain, format_quantity(q), None, q.start)
    claim.quantity = q
    claim.date = claim_date(info, q.start)
    base = info.sentence.start
    if DENIED_VALUE.search(info.text, max(0, q.start - base - 30), q.start - base):
        claim.negated = True  # "the maximum dose is not 8,000 mg"
    frame = Frame("max_dose", role=role, trigger=trigger)
    frame.slots["bound_by"] = b.source
    local, context = _qualifier_texts(info, q)
    _slots(frame, cr, local, context, q)
    missing: list[str] = []
    if role != "maximum" and role != "permitted":
        missing.append(w.ROLE_REASON.get(role, f"a {role} dose; the graph records maximum doses"))
    if b.ambiguous:
        missing.append("which drug the dose belongs to (" + " or ".join(b.ambiguous) + ")")
    if b.combination:
        missing.append("a dose of a combination product, not of one drug")
    if b.conditions:
        frame.slots["condition"] = "with " + ", ".join(b.conditions)
    lead = info.text[: q.start - base]
    frame.not_asserted = non_assertion(
        info.layout, info.text, q.start - base, paragraph_lead=info.layout.paragraph_lead,
        clause=_clause_lead(info, q),
    )  # fmt: skip
    if frame.not_asserted is None and info.layout.kind == "heading":
        frame.not_asserted = "a heading, not an assertion"
    frame.missing = tuple(missing)
    claim.frame = frame
    claim.qualifiers.update({k: v for k, v in frame.slots.items() if k != "bound_by"})
    if lead.rstrip().endswith("?"):
        frame.not_asserted = "a question, not an assertion"
    return claim


def _value_kind(info: SentenceInfo, q: Quantity) -> str:
    """dose | strength | body_weight | per_weight | lab | combination."""
    base = info.sentence.start
    after = info.text[q.end - base : q.end - base + 30]
    before = info.text[max(0, q.start - base - 40) : q.start - base]
    if w.BODY_WEIGHT.search(q.text):
        return "body_weight"
    if w.PER_WEIGHT_AFTER.match(after) or "/kg" in q.text.lower():
        return "per_weight"
    if w.LAB_AFTER.match(after) or (q.per and "min" in q.per) or q.dimension == "volume":
        return "lab"
    if w.COMBINATION_AFTER.match(after) or w.COMBINATION_BEFORE.search(before):
        return "combination"
    if q.dimension in {"mass", "iu"} and (
        w.STRENGTH_AFTER.match(after) or w.STRENGTH_BEFORE.search(before)
    ):
        return "strength"
    if q.dimension in {"mass", "iu"} and _inside_product_parens(info, q):
        return "strength"
    lay = info.layout
    if lay.kind == "table_row" and w.STRENGTH_COLUMN.search(lay.column_at(q.start)):
        return "strength"
    if re.search(r"\b(?:the|a|an|its|their|this|that)\s*[*_]*$", before, re.I) and re.match(
        r"^[*_]*\s*(?:[a-z-]+\s+){0,2}?(?:dose|dosage|tablets?|capsules?|strength|formulation|"
        r"regimen|products?|pills?|injections?|pens?|patch(?:es)?)\b",
        after,
        re.I,
    ):
        return "attributive"  # "the 2.5 mg vascular dose", "a 325 mg tablet": a name, not a limit
    return "dose"


def _inside_product_parens(info: SentenceInfo, q: Quantity) -> bool:
    """ "Regular Strength (325 mg)", "Tylenol Extra Strength (500 mg)": a strength in a name."""
    base = info.sentence.start
    before = info.text[max(0, q.start - base - 30) : q.start - base]
    m = re.search(
        r"(\d[\d,.]*\s*)?(?:strength|tablets?|caplets?|capsules?|formula)\s*\(\s*$", before, re.I
    )
    return m is not None and m.group(1) is None  # "8 tablets (1,600 mg)" restates a dose


def _clause_lead(info: SentenceInfo, q: Quantity) -> str:
    a, _ = value_clause(info, q)
    return info.text[a : q.start - info.sentence.start]


def _role(
    info: SentenceInfo, q: Quantity, prev: tuple[str, str, int] | None
) -> tuple[str | None, str, str]:
    """(role, trigger words, where the role came from)."""
    base = info.sentence.start
    a, b = value_clause(info, q)
    start = a
    if prev is not None and prev[2] - base > a:
        start = prev[2] - base
    lead = info.text[start : q.start - base]
    tail = info.text[q.end - base : b]
    before = w.role_before(lead, info.text[a : q.start - base])
    after = w.role_after(tail)
    if before and before[0] == "maximum":
        return "maximum", before[1], "clause"
    if after and after[0] == "maximum":
        return "maximum", after[1], "clause"
    if before and before[0] == "permitted" and after and after[0] == "per_dose":
        return "per_dose", after[1], "clause"  # "may use 400-800 mg every 6 to 8 hours"
    if before:
        return before[0], before[1], "clause"
    if after:
        return after[0], after[1], "clause"
    if prev is not None and prev[2] - base > a and _CONNECTOR.match(lead):
        return prev[0], prev[1], "clause"  # "500 mg twice a day or 850 mg once a day"
    if prev is not None and prev[2] - base > a:
        return None, "", ""  # another value's clause: its words are not this value's role
    lay = info.layout
    for source, text in (
        ("label", lay.label),
        ("row", lay.column_at(q.start)),
        ("row", lay.row_label if lay.kind == "table_row" else ""),
        ("label", lay.list_header),
        ("heading", lay.headings[-1] if lay.headings else ""),
    ):
        if text and (found := w.role_in_label(text)):
            return found[0], found[1], source
    return None, "", ""


def _qualifier_texts(info: SentenceInfo, q: Quantity) -> tuple[str, str]:
    """(the value's own clause and cell, the surrounding labels/row/headings)."""
    base = info.sentence.start
    a, b = value_clause(info, q)
    local = info.text[a:b]
    lay = info.layout
    parts = [lay.label, lay.list_header]
    if lay.kind == "table_row":
        i = lay.cell_index(q.start)
        parts.append(lay.column_at(q.start))
        parts += [info.text[x - base : y - base] for j, (x, y) in enumerate(lay.cells) if j != i]
    parts += list(reversed(lay.headings))
    return local, " | ".join(p for p in parts if p)


def _slots(frame: Frame, cr: CompiledRule, local: str, context: str, q: Quantity) -> None:
    """Population, status, formulation, strength and period: the clause first, then context."""
    for text in (local, context):
        pop = w.population_of(text)
        if pop and "population" not in frame.slots:
            frame.slots["population"] = pop
        quals = cr.qualifiers_in(text)
        if "status" in quals and "status" not in frame.slots:
            frame.slots["status"] = quals["status"]
        forms = w.formulations_of(text)
        if forms and "formulation" not in frame.slots:
            frame.slots["formulation"] = "|".join(sorted(forms))
        named = w.NAMED_STRENGTH.search(text)
        if named and "strength" not in frame.slots:
            frame.slots["strength"] = " ".join(named.group(0).lower().split())
    period = _period(q, local, context)
    if period:
        frame.slots["period"] = period


def _period(q: Quantity, local: str, context: str) -> str | None:
    if q.per:
        return {"24 hours": "day", "1 day": "day"}.get(q.per, q.per)
    for text in (local, context):
        if _PER_DOSE.search(text):
            return "dose"
        if _WEEKLY.search(text):
            return "week"
        if _MONTHLY.search(text):
            return "month"
        if _DAILY.search(text):
            return "day"
    return None


def _subject(  # type: ignore[no-untyped-def]
    info: SentenceInfo, q: Quantity, subjects, kb: KnowledgeBase, from_context: bool
) -> _Binding:
    base = info.sentence.start
    a, b = value_clause(info, q)
    drugs = info.mentions_of(_DRUG)
    in_clause = [(m, e) for m, e in drugs if a <= m.start - base < b]
    conditions = tuple(_label(kb, e, m) for m, e in in_clause if _conditioned(info, m, a))
    own = [(m, e) for m, e in in_clause if not _conditioned(info, m, a)]
    after_of = [
        (m, e) for m, e in own
        if m.start >= q.end and re.fullmatch(
            r"\s*(?:per\s+\w+\s+)?(?:of|for)?\s*(?:the\s+)?", info.text[q.end - base : m.start - base], re.I
        )
    ]  # fmt: skip
    if after_of:
        return _one(info, [after_of[0]], "clause", conditions, kb)
    before = [(m, e) for m, e in own if m.end <= q.start]
    if before:
        return _one(info, _listed_with(info, before), "clause", conditions, kb)
    if own:
        return _one(info, own[:1], "clause", conditions, kb)
    lead = [
        (m, e) for m, e in drugs
        if m.end - base <= a and not _conditioned(info, m, 0) and not _is_class(m, kb)
    ]  # fmt: skip
    if lead:  # "Eszopiclone: the most you should take is 3 mg", "X is ..., but do not exceed"
        return _one(info, _listed_with(info, lead), "sentence", conditions, kb)
    lay = info.layout
    if lay.label_end is not None:
        labelled = [(m, e) for m, e in drugs if m.end <= lay.label_end]
        if labelled:
            return _one(info, labelled, "label", conditions, kb)
    if lay.kind == "table_row":
        return _row_subject(info, q, drugs, conditions, kb)
    heading = _heading_drug(info, kb)
    if heading is not None:
        return _Binding(heading, "heading", conditions=conditions)
    if from_context and subjects:
        return _Binding(subjects[0], "context", conditions=conditions)
    return _Binding(None, "")


def _row_subject(  # type: ignore[no-untyped-def]
    info: SentenceInfo, q: Quantity, drugs, conditions: tuple[str, ...], kb: KnowledgeBase
) -> _Binding:
    lay = info.layout
    i = lay.cell_index(q.start)
    row = [
        (m, e) for m, e in drugs
        if lay.cell_index(m.start) not in (None, i)
        and not re.match(r"\s+(?:clearance|levels?)\b", info.text[m.end - info.sentence.start :], re.I)
    ]  # fmt: skip
    heading = _heading_drug(info, kb)
    first_col = lay.columns[0] if lay.columns else ""
    if row:
        ids = {e for _, e in row}
        if heading is not None and heading[1] not in ids and not w.DRUG_COLUMN.search(first_col):
            # "| Amiodarone, amlodipine | 20 mg/day |" under "### Simvastatin dose limits":
            # the row names the other drugs the heading's drug is limited with
            names = tuple(dict.fromkeys(_label(kb, e, m) for m, e in row))
            return _Binding(heading, "heading", conditions=conditions + names)
        return _one(info, row, "row", conditions, kb)
    if heading is not None:
        return _Binding(heading, "heading", conditions=conditions)
    return _Binding(None, "")


def _one(info: SentenceInfo, cands, source: str, conditions, kb: KnowledgeBase) -> _Binding:  # type: ignore[no-untyped-def]
    ids = list(dict.fromkeys(e for _, e in cands))
    first = cands[0]
    combination = _combination(info, first[0])
    if len(ids) > 1:
        return _Binding(first, source, tuple(_label(kb, e, m) for m, e in cands), conditions,
                        combination)  # fmt: skip
    return _Binding(first, source, (), conditions, combination)


def _listed_with(info: SentenceInfo, before):  # type: ignore[no-untyped-def]
    """The closest drug before the value, and the drugs listed with it ("ibuprofen or
    naproxen up to ..."): several means the dose's drug is ambiguous."""
    base = info.sentence.start
    group = [before[-1]]
    for m, e in reversed(before[:-1]):
        gap = info.text[m.end - base : group[-1][0].start - base]
        if re.fullmatch(r"\s*(?:,|/|and|or|&|,\s*(?:and|or))\s*", gap, re.I) and e != group[-1][1]:
            group.append((m, e))
        else:
            break
    return list(reversed(group)) if len(group) > 1 else group


def _is_class(m: Mention, kb: KnowledgeBase) -> bool:
    return is_class_mention(m, kb)


def _conditioned(info: SentenceInfo, m: Mention, clause_start: int) -> bool:
    base = info.sentence.start
    if re.match(r"\s+(?:clearance|levels?|concentrations?)\b", info.text[m.end - base :], re.I):
        return False  # "creatinine clearance": a lab value, not a co-medication
    lead = info.text[max(clause_start, m.start - base - 40) : m.start - base]
    return bool(w.CONDITION_LEAD.search(lead))


def _combination(info: SentenceInfo, m: Mention) -> bool:
    """ "phentermine/topiramate", "sacubitril-valsartan": one part of a combination product."""
    base = info.sentence.start
    s, e = m.start - base, m.end - base
    return bool(
        re.match(r"\s*(?:/|-|\+|\band\b)\s*[A-Za-z]", info.text[e : e + 6])
        and re.match(r"[/+-]", info.text[e : e + 2].strip() or " ")
    ) or bool(re.search(r"[A-Za-z]\s*[/+]\s*$", info.text[max(0, s - 4) : s]))


def _heading_drug(info: SentenceInfo, kb: KnowledgeBase) -> tuple[Mention, str] | None:
    """The one drug the nearest heading that names a drug is about."""
    for mentions in info.heading_mentions:
        drugs = [(m, eid) for m in mentions if (eid := m.of_type(_DRUG))]
        if drugs:
            return drugs[0] if len({e for _, e in drugs}) == 1 else None
    return None


def _label(kb: KnowledgeBase, eid: str, m: Mention) -> str:
    ent = kb.entity(eid)
    return ent.label if ent else m.text


__all__ = ["dose_claims"]
