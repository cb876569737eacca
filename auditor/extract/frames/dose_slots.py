"""What a dose-like number is, the role its trigger gives it, and its qualifier slots.

* kind — a dose, or something that only looks like one: a tablet strength ("325 mg tablets"),
  a body weight ("≥50 kg"), a per-kg dose, a lab cut-off ("CrCl 30 mL/min"), one part of a
  combination ("3.75 mg/23 mg"), a dose used as a name ("the 2.5 mg vascular dose");
* role — from the words closest before the value in its clause, then right after it, then the
  line's label, the cell's column header, the row label, the list header and the heading;
* slots — population, OTC/Rx status, formulation, named strength, brand, indication and
  period, read from the value's clause first and then from its label, row and the headings
  nearest to it (a document's title heading qualifies nothing).
"""

from __future__ import annotations

import re

from auditor.extract.assertion import context_qualifiers, without_prior_therapy
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.extract.frames import dose_words as w
from auditor.extract.frames.common import value_clause
from auditor.types import Frame, Mention, Quantity

_CONNECTOR = re.compile(
    r"^[\s*_,;()/]*(?:(?:or|and|to|-|–|=|i\.e\.,?|which\s+is)\s*)?[\s*_(]*$", re.I
)
_QUALIFIED_CONNECTOR = re.compile(
    r"^\s*(?:for|in|with)\s+[^,;.:()\d]{1,50}?\s*,?\s*(?:and|or)\s*$", re.I
)
_DAILY = re.compile(r"\b(?:daily|per\s+day|a\s+day|/\s*day|each\s+day|every\s+day|24[- ]hours?|"
                    r"in\s+a\s+day|total\s+daily|at\s+bedtime|nightly|at\s+night|before\s+bed|"
                    r"each\s+night|every\s+night|once\s+a\s+night)\b", re.I)  # fmt: skip
_WEEKLY = re.compile(r"\b(?:weekly|per\s+week|a\s+week|/\s*week|each\s+week|every\s+week)\b", re.I)
_MONTHLY = re.compile(r"\b(?:monthly|per\s+month|a\s+month|every\s+month)\b", re.I)
_PER_DOSE = re.compile(
    r"\b(?:per\s+dose|single\s+dose|each\s+dose|at\s+a\s+time|at\s+once)\b", re.I
)
_ATTRIBUTIVE_BEFORE = re.compile(r"\b(?:the|a|an|its|their|this|that)\s*[*_]*$", re.I)
_ATTRIBUTIVE_AFTER = re.compile(
    r"^[*_]*\s*(?:[a-z-]+\s+){0,2}?(?:dose|dosage|tablets?|capsules?|strength|formulation|"
    r"regimen|products?|pills?|injections?|pens?|patch(?:es)?)\b",
    re.I,
)


# a mass said to be in each tablet: "(500 mg each)", "250 mg per capsule" — but not "each day"
_PER_UNIT_AFTER = re.compile(
    r"^\s*(?:each|apiece|per\s+(?:tablet|caplet|capsule|pill|softgel|gelcap|lozenge))\b"
    r"(?!\s+(?:day|night|time|dose|morning|evening|week|hour|\d))",
    re.I,
)


# "4,000 mg daily (the same as 8 extra strength tablets of 500 mg)": the amount restated in
# some product's units; the product named there is not the one the limit is for
_EQUIVALENCE = re.compile(
    r"\(\s*(?:(?:which\s+is\s+)?(?:the\s+same\s+as|equal\s+to|equivalent\s+to|"
    r"equivalent\s+of|about|roughly|or)\b|i\.\s?e\.|e\.\s?g\.|=)[^()]*\)",
    re.I,
)


def value_kind(info: SentenceInfo, q: Quantity) -> str:
    """dose | strength | body_weight | per_weight | lab | combination | attributive."""
    base = info.sentence.start
    after = info.text[q.end - base : q.end - base + 30]
    before = info.text[max(0, q.start - base - 40) : q.start - base]
    if w.BODY_WEIGHT.search(q.text):
        return "body_weight"
    if w.PER_WEIGHT_AFTER.match(after) or "/kg" in q.text.lower():
        return "per_weight"
    if w.LAB_AFTER.match(after) or (q.per and "min" in q.per) or q.dimension == "volume":
        return "lab"  # "CrCl below 30 mL/min", "eGFR 30–45 mL/min/1.73 m²"
    if w.COMBINATION_AFTER.match(after) or w.COMBINATION_BEFORE.search(before):
        return "combination"
    if q.dimension in {"mass", "iu"} and (
        w.STRENGTH_AFTER.match(after) or w.STRENGTH_BEFORE.search(before)
    ):
        return "strength"
    if q.dimension in {"mass", "iu"} and _PER_UNIT_AFTER.match(after):
        return "strength"  # "6 caplets (500 mg each)", "250 mg per capsule": one unit's content
    m = re.search(
        r"(\d[\d,.]*\s*)?(?:strength|tablets?|caplets?|capsules?|formula)\s*\(\s*$", before, re.I
    )
    if q.dimension in {"mass", "iu"} and m is not None and m.group(1) is None:
        return "strength"  # "Regular Strength (325 mg)"; but "8 tablets (1,600 mg)" is a dose
    lay = info.layout
    if lay.kind == "table_row" and w.STRENGTH_COLUMN.search(lay.column_at(q.start)):
        return "strength"
    if _ATTRIBUTIVE_BEFORE.search(before) and _ATTRIBUTIVE_AFTER.match(after):
        return "attributive"  # "the 2.5 mg vascular dose", "a 325 mg tablet": a name, not a limit
    return "dose"


# "no single dose above 5 mg", "never more than": a bound, not a threshold
_NEGATED_BOUND = re.compile(r"\b(?:no|not|never)\b[^.;,]{0,30}$|n[’']t\b[^.;,]{0,30}$", re.I)


def role_of(
    info: SentenceInfo, q: Quantity, prev: tuple[str, str, int] | None
) -> tuple[str | None, str, str]:
    """(role, trigger words, where the role came from); ``prev`` is the role and end offset of
    the previous dose value in the sentence."""
    base = info.sentence.start
    a, b = value_clause(info, q)
    start = a
    if prev is not None and prev[2] - base > a:
        start = prev[2] - base
    lead = info.text[start : q.start - base]
    tail = info.text[q.end - base : b]
    if w.STUDIED.search(info.text[a:b]):
        return "studied", "studied", "clause"
    if m := w.APPOSED_MAXIMUM.match(info.text, q.end - base):
        return "maximum", m.group(0).strip(" ,;–—-"), "clause"
    if m := w.CHANGED_MAXIMUM.search(info.text, a, q.start - base):
        return ("maximum" if m.group("old") else "former"), m.group(0).strip(), "clause"
    if w.ABOVE_LEAD.search(lead) and (m := w.NOT_ADVISED_TAIL.match(tail)):
        return "maximum", m.group(0).strip(), "clause"  # "titration above 90 mg is not recommended"
    before = w.role_before(lead, info.text[a : q.start - base])
    after = w.role_after(tail)
    nxt = min((x.start - base for x in info.quantities if q.end <= x.start and x.start - base < b
               and x.dimension == q.dimension), default=None)  # fmt: skip
    if after and nxt is not None and w.role_before(info.text[q.end - base : nxt], ""):
        after = None  # "not at 4,000 mg, as the maximum is 2,000 mg": the next value's role
    if before and before[0] == "maximum":
        if before[1].lower() == "up to" and w.titration_target(info.text[q.end - base :][:60]):
            return "titration", before[1], "clause"  # "goes up to 50 mg after one week"
        return "maximum", before[1], "clause"
    if after and after[0] == "maximum":
        return "maximum", after[1], "clause"
    if before and before[0] == "permitted" and after and after[0] == "per_dose":
        return "per_dose", after[1], "clause"  # "may use 400-800 mg every 6 to 8 hours"
    if before:
        return before[0], before[1], "clause"
    if after:
        return after[0], after[1], "clause"
    if (
        prev is not None
        and prev[2] - base > a
        and (_CONNECTOR.match(lead) or _QUALIFIED_CONNECTOR.match(lead))
    ):
        # "500 mg twice a day or 850 mg once a day", "8 mg/d for over-the-counter use and
        # 16 mg/d for prescription use": the list goes on under the same role
        return prev[0], prev[1], "clause"
    if prev is not None and prev[2] - base > a:
        return None, "", ""  # another value's clause: its words are not this value's role
    if (above := w.ABOVE_LEAD.search(lead)) and not _NEGATED_BOUND.search(lead, 0, above.start()):
        # "| Label maximum | 40 mg per day; split doses above 15 mg |": a threshold the clause
        # gives a direction for, not the value the column (label, heading) names
        return "threshold", lead.strip(), "clause"
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


def qualifier_parts(info: SentenceInfo, q: Quantity) -> tuple[str, list[str]]:
    """The value's own clause, and the texts around it nearest first: its label, column header,
    the header of the row label's column, row cells, list header and the headings above (not
    the document's title heading)."""
    base = info.sentence.start
    a, b = value_clause(info, q)
    lay = info.layout
    parts = [info.text[:a], lay.label]  # the sentence before the clause ("Lyrica CR is ...:")
    if lay.kind == "table_row":
        i = lay.cell_index(q.start)
        parts.append(lay.column_at(q.start))
        if i != 0 and lay.columns:  # "| Indication (adults) | ... |": the row label's header
            parts.append(lay.columns[0])
        # another value cell's words are that value's ("| 40 mg/day | 20 mg/day over age 60 |")
        parts += [
            info.text[x - base : y - base]
            for j, (x, y) in enumerate(lay.cells)
            if j != i
            and not (j and any(x <= o.start < y and o.dimension == q.dimension
                               for o in info.quantities))
        ]  # fmt: skip
    parts.append(lay.list_header)
    heads = list(reversed(lay.headings))
    parts += heads[:-1] if len(heads) > 1 else heads
    return info.text[a:b], [p for p in parts if p]


_SOLID_UNITS = re.compile(
    r"\b(?:tablets?|tabs?|caplets?|capsules?|pills?|softgels?|gelcaps?)\b", re.I
)


def unit_strength_mg(info: SentenceInfo, q: Quantity) -> float | None:
    """The strength of one tablet (caplet, capsule) when the sentence gives exactly one, for a
    dose counted in tablets ("Ibuprofen 200 mg tablets: ... do not exceed 6 tablets in 24
    hours" -> 200): the count times it is the dose in mg. None for any other quantity, for
    several strengths ("200 mg or 400 mg tablets") and for combination products."""
    if q.unit != "tablet" or not _SOLID_UNITS.search(q.text):
        return None
    others = [x for x in info.quantities if x is not q]
    if any(value_kind(info, x) == "combination" for x in others):
        return None
    found = {  # masses are in mg already (units.canonical)
        round(x.value, 6)
        for x in others
        if x.unit == "mg" and x.value_max is None and value_kind(info, x) == "strength"
    }
    return found.pop() if len(found) == 1 else None


def fill_slots(
    frame: Frame, cr: CompiledRule, info: SentenceInfo, q: Quantity, subject: tuple[Mention, str]
) -> None:
    """Population, status, formulation, strength, brand, indication and period."""
    local, around = qualifier_parts(info, q)
    earlier = _earlier_value_clause(info, q)
    # the words that are the value's own first: "40 mg for adults under 60, ... 20 mg for
    # patients over 60", "2,550 mg for immediate-release and 2,000 mg for extended-release"
    for text in (*_own_segments(info, q), local, *around):
        if "population" not in frame.slots and (pop := w.population_of(text)):
            frame.slots["population"] = pop
        if earlier is not None and text == earlier:
            continue  # "the label's 3,000 mg; the general ceiling is 4,000 mg": its own product
        quals = {**context_qualifiers(text), **cr.qualifiers_in(text)}
        for key in ("status", "route"):
            if key in quals and key not in frame.slots:
                frame.slots[key] = quals[key]
        forms = w.formulations_of(without_prior_therapy(text))
        if forms and "formulation" not in frame.slots:
            frame.slots["formulation"] = _form_of_subject(info, subject[0], forms)
        named = w.NAMED_STRENGTH.search(_EQUIVALENCE.sub("", text))
        if named and "strength" not in frame.slots:
            frame.slots["strength"] = " ".join(named.group(0).lower().split())
        if w.CO_MEDICATION.search(text) and "co_medication" not in frame.slots:
            frame.slots["co_medication"] = w.CO_MEDICATION.search(text).group(0)  # type: ignore[union-attr]
    _brand_and_indication(frame, info, q, subject)
    if (mg := unit_strength_mg(info, q)) is not None:
        frame.slots["unit_strength_mg"] = f"{mg:g}"
    period = _period(q, local, around)
    if period:
        frame.slots["period"] = period


def _own_segments(info: SentenceInfo, q: Quantity) -> list[str]:
    """With other doses in the value's clause, the words that are the value's alone: after it
    up to the next dose, then before it back to the previous one. Empty when it stands alone."""
    base = info.sentence.start
    a, b = value_clause(info, q)
    doses = [x for x in info.quantities if x.dimension == q.dimension and a <= x.start - base < b]
    if len(doses) < 2:
        return []
    after = [x.start - base for x in doses if x.start > q.start]
    before = [x.end - base for x in doses if x.end <= q.start]
    tail = info.text[q.end - base : min(after, default=b)]
    lead = info.text[max(before, default=a) : q.start - base]
    # an aside the next (or previous) dose sits in is not the value's own: "4,000 mg daily (the
    # same as 8 extra strength tablets of 500 mg ...)"
    if (o := tail.find("(")) >= 0 and ")" not in tail[o:]:
        tail = tail[:o]
    if (c := lead.rfind(")")) >= 0 and "(" not in lead[:c]:
        lead = lead[c + 1 :]
    return [tail, lead]


def _earlier_value_clause(info: SentenceInfo, q: Quantity) -> str | None:
    """The sentence before the value's clause when it holds a dose of its own: its product,
    status and route words describe that dose, not this one."""
    base = info.sentence.start
    a, _ = value_clause(info, q)
    if a == 0 or not any(
        x.start - base < a and x.dimension in {"mass", "count", "iu"} for x in info.quantities
    ):
        return None
    return info.text[:a]


_FORM_NEAR = 24  # characters between a release-form word and the drug name it modifies


def _form_of_subject(info: SentenceInfo, subject: Mention, forms: set[str]) -> str:
    """One form when the text names several and one modifies the drug's own name ("Like the
    immediate-release form, ER metformin ..." is about the extended-release product)."""
    base = info.sentence.start
    a, b = subject.start - base, subject.end - base
    if len(forms) > 1 and a >= 0:
        gaps = [
            (a - end if end <= a else start - b, name)
            for name, start, end in w.formulation_spans(info.text)
            if name in forms and (end <= a or start >= b)
        ]
        near = sorted(g for g in gaps if g[0] <= _FORM_NEAR)
        if near and (len(near) == 1 or near[0][0] < near[1][0]):
            return near[0][1]
    return "|".join(sorted(forms))


def _brand_and_indication(
    frame: Frame, info: SentenceInfo, q: Quantity, subject: tuple[Mention, str]
) -> None:
    """A brand name of the subject ("Zyban") and the conditions named with the dose ("for
    smoking cessation") in its clause, label, row or nearest heading."""
    base = info.sentence.start
    a, b = value_clause(info, q)
    lay = info.layout
    near = [m for m in info.mentions if a <= m.start - base < b]
    if lay.label_end is not None:
        near += [m for m in info.mentions if m.end <= lay.label_end]
    if lay.kind == "table_row":  # the row label, not the other value cells
        near += [m for m in info.mentions if lay.cell_index(m.start) == 0]
    near += info.heading_mentions[0] if info.heading_mentions else []
    eid = subject[1]
    brands = [m.text for m in near if eid in m.candidates and _is_brand(m, eid)]
    if brands:
        frame.slots["brand"] = brands[0]
        # "Wellbutrin SR" / "Wellbutrin XL": the product, not just the brand
        places = (info.text[a:b], lay.label, *(lay.headings[-1:] if info.heading_mentions else ()))
        for text in places:
            m = re.search(rf"\b{re.escape(brands[0])}\s+({_SUFFIXES})\b", text or "")
            if m:
                frame.slots["product_suffix"] = m.group(1).upper()
                break
    conds = [c for m in near if (c := m.of_type(_CONDITION)) and not _effect_named(info, m)]
    if conds:
        frame.slots["indication"] = "|".join(dict.fromkeys(conds))
        return
    # "## Treating a gout flare / ### First-line options / - Take 1.2 mg ...": the nearest
    # heading above that names a condition may be the use the list under it is about — or
    # another drug's ("## Amlodipine for hypertension / - Simvastatin: ..."), so the verifier
    # reads it only when it is one of the subject's labelled uses
    for heading in info.heading_mentions[1:]:
        if outer := [c for m in heading if (c := m.of_type(_CONDITION))]:
            frame.slots["heading_indication"] = "|".join(dict.fromkeys(outer))
            break
    # nothing bound in the clause: what the whole answer names ("Sildenafil is used for erectile
    # dysfunction. The usual maximum is 100 mg") — read only to choose between uses whose
    # labelled maxima differ, never to narrow the facts compared
    named = [c for m in info.document_mentions if (c := m.of_type(_CONDITION))]
    if named:
        frame.slots["answer_conditions"] = "|".join(dict.fromkeys(named))
    said = [m.text for m in info.document_mentions if eid in m.candidates and _is_brand(m, eid)]
    if said and "brand" not in frame.slots:
        frame.slots["answer_brands"] = "|".join(dict.fromkeys(said))


_CONDITION = frozenset({"Condition"})
# "until ... you develop diarrhea", "can cause nausea", "the risk of bleeding": a condition the
# dose may bring about, not the use it is given for
_EFFECT_LEAD = re.compile(
    r"\buntil\b[^.;:]{0,50}$|\b(?:(?:can|may|could|will|might)\s+cause|causing|lead(?:s|ing)?\s+to|"
    r"side[- ]effects?|adverse|toxicity|overdose)\b(?:\s+\w+){0,3}?\s*$",
    re.I,
)


def _effect_named(info: SentenceInfo, m: Mention) -> bool:
    """The condition ``m`` is named as an effect of the drug, not as its use."""
    start = m.start - info.sentence.start
    return bool(_EFFECT_LEAD.search(info.text, max(0, start - 40), start))


_SUFFIXES = "SR|XL|XR|ER|CR|LA|ODT|DR|IR|CD|ES"


def _is_brand(m: Mention, eid: str) -> bool:
    name = m.text.lower()
    generic = eid.removeprefix("drug:")
    return name != generic and generic not in name and m.text[:1].isupper()


def _period(q: Quantity, local: str, around: list[str]) -> str | None:
    if q.per:
        return {"24 hours": "day", "1 day": "day"}.get(q.per, q.per)
    for text in (local, *around):
        if _PER_DOSE.search(text):
            return "dose"
        if _WEEKLY.search(text):
            return "week"
        if _MONTHLY.search(text):
            return "month"
        if _DAILY.search(text):
            return "day"
    return None


__all__ = ["fill_slots", "qualifier_parts", "role_of", "value_kind"]
