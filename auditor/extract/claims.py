"""Assemble claims ``(subject, predicate, object/value, qualifiers, span)`` from the rule packs.

A rule fires on a sentence when an entity of one of its subject types is mentioned (or was
the subject of one of the last sentences: "Ibuprofen is an NSAID. The OTC maximum is 1,200
mg a day."), one of its cues occurs (in the sentence or in the list header it belongs to),
and the kind of object it needs is present: a quantity of the right dimension, an entity of
the right type, a date, a frequency, a citation or an identifier.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.extract.cues import is_negated, rate_direction
from auditor.types import Claim, Mention, Quantity
from knowledge_graphs.store import KnowledgeBase

CONTEXT_WINDOW = 3  # sentences a subject stays "current" for pronoun-like references


class SubjectMemory:
    """The most recent subject of each entity type, for sentences that do not name one."""

    def __init__(self) -> None:
        self._last: dict[str, tuple[int, Mention, str]] = {}

    def remember(self, index: int, info: SentenceInfo) -> None:
        for m in info.mentions:
            for eid, typ in zip(m.candidates, m.types, strict=True):
                self._last[typ] = (index, m, eid)

    def recall(self, index: int, types: Iterable[str]) -> tuple[Mention, str] | None:
        best = None
        for t in types:
            hit = self._last.get(t)
            if hit and index - hit[0] <= CONTEXT_WINDOW and (best is None or hit[0] > best[0]):
                best = hit
        return (best[1], best[2]) if best else None


def claims_for_sentence(
    info: SentenceInfo,
    index: int,
    rules: list[CompiledRule],
    kb: KnowledgeBase,
    domain: str,
    memory: SubjectMemory,
) -> list[Claim]:
    out: list[Claim] = []
    # a sentence that names a subject of some rule talks about that subject, so no rule
    # borrows the previous sentences' subject for it
    all_subject_types = set().union(*(cr.subject_types for cr in rules)) if rules else set()
    names_a_subject = bool(info.mentions_of(all_subject_types))
    for cr in rules:
        kind = cr.rule.applies_to.object
        if kind in {"citation", "identifier"}:
            continue  # built by the citation stage
        subjects = info.mentions_of(cr.subject_types)
        from_context = False
        if not subjects:
            if names_a_subject:
                continue
            recalled = memory.recall(index, cr.subject_types)
            if recalled is None:
                continue
            subjects, from_context = [recalled], True
        if not cr.has_cue(info.cue_text):
            continue
        builder = _BUILDERS.get(kind)
        if builder is None:
            continue
        for claim in builder(info, cr, subjects, kb, domain):
            if from_context:
                claim.qualifiers["subject_from_context"] = "true"
            out.append(claim)
    return _dedupe(out)


def _base(
    info: SentenceInfo,
    cr: CompiledRule,
    subj: tuple[Mention, str],
    kb: KnowledgeBase,
    domain: str,
    obj: str | None,
    obj_label: str | None,
) -> Claim:
    mention, eid = subj
    ent = kb.entity(eid)
    quals = cr.qualifiers_in(info.cue_text)
    claim = Claim(
        text=info.text,
        start=info.sentence.start,
        end=info.sentence.end,
        domain=domain,
        rule_id=cr.rule.id,
        subject=eid,
        subject_label=ent.label if ent else mention.text,
        predicate=cr.rule.applies_to.relation or cr.rule.check.type,
        object=obj,
        object_label=obj_label,
        qualifiers=quals,
        severity=cr.rule.severity,
        fuzzy_score=mention.fuzzy_score,
    )
    if cr.asserts_absence(info.text):
        claim.negated = True
        claim.qualifiers["asserts"] = "absence"
    elif cr.rule.check.negation == "grammar" and cr.rule.check.type in {
        "kg_relation",
        "kg_status",
        "kg_date",
        "kg_frequency",
    }:
        claim.negated = is_negated(info.text)
    if mention.text != (ent.label if ent else mention.text):
        claim.qualifiers.setdefault("mention", mention.text)
    return claim


def _quantity_claims(info, cr, subjects, kb, domain):  # type: ignore[no-untyped-def]
    dims = set(cr.rule.applies_to.dimensions)
    units = set(cr.rule.applies_to.units)
    qs = [
        q
        for q in info.quantities
        if (not dims or q.dimension in dims)
        and (not units or q.unit in units)
        and q.start not in info.change_quantities
    ]
    if not qs:
        return []
    out = []
    for q in qs:
        subj = _nearest_subject(q.start, subjects, q.end)
        c = _base(info, cr, subj, kb, domain, _format_quantity(q), None)
        c.quantity = q
        c.date = _claim_date(info)
        if cr.rule.applies_to.relation == "policyRate" and "direction" not in c.qualifiers:
            d = rate_direction(info.text)
            if d:
                c.qualifiers["direction"] = d
        out.append(c)
    return out


def _entity_claims(info, cr, subjects, kb, domain):  # type: ignore[no-untyped-def]
    objects = info.mentions_of(set(cr.object_types))
    out = []
    subj_ids = {eid for _, eid in subjects}
    if cr.rule.applies_to.relation == "overruledBy":
        return _overrule_claims(info, cr, objects, kb, domain)
    hub = subjects[0]
    for om, oid in objects:
        if oid in subj_ids and oid == hub[1]:
            continue
        if om.start == hub[0].start and om.end == hub[0].end:
            continue
        c = _base(
            info, cr, hub, kb, domain, oid, kb.entity(oid).label if kb.entity(oid) else om.text
        )
        c.date = _claim_date(info)
        out.append(c)
    return out


def _overrule_claims(info, cr, cases, kb, domain):  # type: ignore[no-untyped-def]
    """ "A was overruled by B" / "B overruled A": the overruled case is the subject."""
    if len(cases) < 2:
        return []
    first, second = cases[0], cases[1]
    between = info.text[
        first[0].end - info.sentence.start : second[0].start - info.sentence.start
    ].lower()
    passive = " by " in f" {between} " or "overruled by" in between or "overturned by" in between
    overruled, overruling = (first, second) if passive else (second, first)
    c = _base(
        info,
        cr,
        overruled,
        kb,
        domain,
        overruling[1],
        kb.entity(overruling[1]).label if kb.entity(overruling[1]) else overruling[0].text,
    )
    return [c]


def _date_claims(info, cr, subjects, kb, domain):  # type: ignore[no-untyped-def]
    cited = [(c.start, c.end) for c in info.citations if c.kind == "case"]
    dates = [
        d
        for d in info.dates
        if d.role != "current" and not any(s <= d.start and d.end <= e for s, e in cited)
    ]
    if not dates:
        return []
    out = []
    for d in dates:
        subj = _nearest_subject(d.start, subjects, d.end)
        c = _base(
            info,
            cr,
            subj,
            kb,
            domain,
            d.first.isoformat() if d.precision == "day" else d.text,
            None,
        )
        c.date = d
        out.append(c)
    return out


def _frequency_claims(info, cr, subjects, kb, domain):  # type: ignore[no-untyped-def]
    out = []
    for f in info.frequencies:
        subj = _nearest_subject(f.start, subjects)
        c = _base(info, cr, subj, kb, domain, f.canonical, None)
        c.qualifiers["frequency_period"] = f.period
        conds = [eid for _, eid in info.mentions_of({"Condition"})]
        if conds:
            c.qualifiers["conditions"] = "|".join(conds)
        out.append(c)
    return out


def _status_claims(info, cr, subjects, kb, domain):  # type: ignore[no-untyped-def]
    m = cr.cue_match(info.cue_text)
    out = []
    for subj in subjects:
        c = _base(info, cr, subj, kb, domain, m.group(0).lower() if m else None, None)
        c.date = _claim_date(info)
        out.append(c)
    return out


def _literal_claims(info, cr, subjects, kb, domain):  # type: ignore[no-untyped-def]
    refs = [c for c in info.citations if c.kind == "regulation"]
    out = []
    for ref in refs:
        named = [s for s in subjects if not (s[0].start < ref.end and ref.start < s[0].end)]
        if not named:
            continue  # the identifier is the only mention: the citation check covers it
        subj = _nearest_subject(ref.start, named, ref.end)
        c = _base(info, cr, subj, kb, domain, ref.section, None)
        c.citation = ref
        out.append(c)
    return out


def _none_claims(info, cr, subjects, kb, domain):  # type: ignore[no-untyped-def]
    """Claims with no value, e.g. "the Fed cut rates in March 2020" (direction + date)."""
    if info.quantities:
        return []
    direction = rate_direction(info.text)
    dates = [d for d in info.dates if d.role != "current"]
    if not direction or not dates:
        return []
    subj = _nearest_subject(dates[0].start, subjects)
    c = _base(info, cr, subj, kb, domain, direction, None)
    c.qualifiers["direction"] = direction
    c.date = dates[0]
    return [c]


_BUILDERS = {
    "quantity": _quantity_claims,
    "entity": _entity_claims,
    "date": _date_claims,
    "frequency": _frequency_claims,
    "status": _status_claims,
    "literal": _literal_claims,
    "none": _none_claims,
}


_CHANGE = re.compile(
    r"\b(?:by|of)\s*$|\b(?:increase|decrease|rise|cut|hike|reduction)\s+of\s*$", re.I
)


_CHANGE_UNIT = re.compile(r"basis point|bps?\b|percentage point", re.I)
_LEVEL_OF = re.compile(r"\b(?:ratio|rate)\s+of\s*$", re.I)


def is_change(info: SentenceInfo, q: Quantity) -> bool:
    """ "raised rates by 25 bp", "an increase of 50 mg": the amount of a change, not a level."""
    base = info.sentence.start
    before = info.text[max(0, q.start - base - 20) : q.start - base]
    if _CHANGE_UNIT.search(q.text):
        return True
    return bool(_CHANGE.search(before)) and not _LEVEL_OF.search(before)


def _nearest_subject(
    pos: int, subjects: list[tuple[Mention, str]], end: int | None = None
) -> tuple[Mention, str]:
    """The subject mention closest to a value at ``pos``..``end`` (ties go to the one before it)."""
    stop = pos if end is None else end

    def gap(s: tuple[Mention, str]) -> tuple[int, int]:
        m = s[0]
        if m.end <= pos:
            return pos - m.end, 0
        if m.start >= stop:
            return m.start - stop, 1
        return 0, 0

    return min(subjects, key=gap)


def _claim_date(info: SentenceInfo):  # -> DateRef | None
    """The date a claim is about; a year inside a case citation dates the decision, not the claim."""
    cited = [(c.start, c.end) for c in info.citations if c.kind == "case"]
    dates = [d for d in info.dates if not any(s <= d.start and d.end <= e for s, e in cited)]
    points = [d for d in dates if d.role != "current"]
    if points:
        return points[0]
    return dates[0] if dates else None


def _format_quantity(q: Quantity) -> str:
    def num(v: float) -> str:
        return f"{v:g}" if abs(v) < 1e6 else f"{v:,.0f}"

    val = num(q.value) + (f"–{num(q.value_max)}" if q.value_max is not None else "")
    unit = {"percent": "%"}.get(q.unit or "", f" {q.unit}" if q.unit else "")
    per = f" per {q.per}" if q.per else ""
    return f"{val}{unit}{per}"


def _dedupe(claims: list[Claim]) -> list[Claim]:
    seen: set[tuple[object, ...]] = set()
    out = []
    for c in claims:
        key = (c.rule_id, c.subject, c.object, c.start, c.quantity.start if c.quantity else None)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
