"""Helpers shared by the verifiers: evidence records, verdict setters, the date a claim is about."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from auditor.types import Claim
from knowledge_graphs.model import Fact
from knowledge_graphs.store import KnowledgeBase
from rules.schema import Rule


@dataclass(frozen=True)
class Context:
    kb: KnowledgeBase
    as_of: date


def evidence(fact: Fact, role: str, kb: KnowledgeBase | None = None) -> dict[str, Any]:
    """A fact as evidence: the triple, its validity, its qualifiers and its source."""
    out: dict[str, Any] = {
        "role": role,
        "fact": fact.id,
        "relation": fact.predicate,
        "subject": fact.subject,
    }
    d = fact.to_dict()
    for k in (
        "object",
        "value",
        "value_max",
        "unit",
        "literal",
        "date",
        "qualifiers",
        "valid_from",
        "valid_to",
        "source",
    ):
        if k in d and d[k] is not None:
            out[k] = d[k]
    quals: dict[str, Any] = dict(out.get("qualifiers") or {})
    # the source's own sentence travels as evidence, not as a qualifier
    if quote := quals.pop("quote", None):
        out["quote"] = quote
    if quals.pop("unquoted", None):
        out["unquoted"] = "no source sentence recorded for this fact"
    if "qualifiers" in out:
        out["qualifiers"] = quals
    if kb is not None:
        subj = kb.entity(fact.subject)
        out["subject_label"] = subj.label if subj else fact.subject
        if fact.object:
            obj = kb.entity(fact.object)
            out["object_label"] = obj.label if obj else fact.object
    out["statement"] = statement(fact, kb)
    return out


def rule_evidence(rule: Rule, detail: str) -> dict[str, Any]:
    return {
        "role": "rule",
        "rule": rule.id,
        "title": rule.title,
        "detail": detail,
        "citation": rule.citation.model_dump(),
    }


def value_text(fact: Fact, kb: KnowledgeBase | None = None) -> str:
    """The value part of a fact for people: '1,200 mg per day (otc)', '5.25–5.5%', 'Euro'."""
    if fact.object is not None:
        e = kb.entity(fact.object) if kb else None
        value = e.label if e else fact.object
    elif fact.value is not None:

        def num(v: float) -> str:
            return f"{v:,.10g}"

        value = num(fact.value) + (
            f"–{num(fact.value_max)}" if fact.value_max not in (None, fact.value) else ""
        )
        value += "%" if fact.unit == "percent" else (f" {fact.unit}" if fact.unit else "")
        if fact.qualifiers.get("per"):
            value += f" per {fact.qualifiers['per']}"
    elif fact.literal is not None:
        value = fact.literal
    elif fact.date is not None:
        value = fact.date.isoformat()
    elif fact.predicate == "decided" and fact.value is not None:
        value = str(int(fact.value))
    else:
        value = ""
    extra = [
        fact.qualifiers[k]
        for k in ("status", "population", "product", "indication", "severity")
        if fact.qualifiers.get(k) and fact.qualifiers.get(k) != "adult"
    ]
    tail = f" ({', '.join(extra)})" if extra else ""
    when = ""
    if fact.valid_from or fact.valid_to:
        when = f" [{fact.valid_from or '…'} – {fact.valid_to or 'now'})"
    return f"{value}{tail}{when}".strip()


def statement(fact: Fact, kb: KnowledgeBase | None) -> str:
    """A one-line human reading of a fact, e.g. 'Ibuprofen maxDose 1,200 mg per day (otc)'."""
    subj = kb.entity(fact.subject) if kb else None
    return f"{subj.label if subj else fact.subject} {fact.predicate} {value_text(fact, kb)}".strip()


def support(claim: Claim, facts: list[Fact], kb: KnowledgeBase, reason: str) -> None:
    claim.verdict = "supported"
    claim.reason = reason
    claim.hallucination_type = None
    claim.evidence = [evidence(f, "supports", kb) for f in facts[:5]]


def contradict(
    claim: Claim,
    facts: list[Fact],
    kb: KnowledgeBase,
    reason: str,
    htype: str,
    rule: Rule | None = None,
) -> None:
    claim.verdict = "contradicted"
    claim.reason = reason
    claim.hallucination_type = htype
    claim.evidence = [evidence(f, "conflicts", kb) for f in facts[:5]]
    if rule is not None:
        claim.evidence.append(rule_evidence(rule, reason))


def unverifiable(
    claim: Claim, reason: str, facts: list[Fact] | None = None, kb: KnowledgeBase | None = None
) -> None:
    claim.verdict = "unverifiable"
    claim.reason = reason
    claim.hallucination_type = None
    claim.evidence = [evidence(f, "context", kb) for f in (facts or [])[:5]]


def claim_window(claim: Claim, as_of: date) -> tuple[date, date, bool]:
    """``(first, last, explicit)``: the period the claim is about (``as_of`` if it names none)."""
    d = claim.date
    if d is None or d.precision == "now" or d.role == "current":
        return as_of, as_of, False
    if d.role == "since":
        return d.first, d.first, True
    if d.role == "by":  # "by December 2022 the range had reached ...": the end of the period
        return d.last, d.last, True
    if d.role == "until":
        day = d.first - timedelta(days=1)
        return day, day, True
    return d.first, d.last, True


def valid_during(fact: Fact, first: date, last: date) -> bool:
    """True when the fact held on at least one day in ``[first, last]``."""
    if fact.valid_from is not None and fact.valid_from > last:
        return False
    return not (fact.valid_to is not None and fact.valid_to <= first)


_PRODUCT_FORM = re.compile(
    r"\s+(?:(?:sublingual|nasal|oral|topical|transdermal|extended-release|delayed-release)\s+)?"
    r"(?:spray|sprays|patch|patches|tablets?|capsules?|injections?|inhalers?|ointment|cream|"
    r"gel|solution|drops)$",
    re.I,
)


def ingredient_of(eid: str, kb: KnowledgeBase) -> str | None:
    """The ingredient a product-form entry names ("Nitroglycerin Spray" → nitroglycerin), when
    the graph has it: an interaction between ingredients holds for each of their products."""
    ent = kb.entity(eid)
    if ent is None or not eid.startswith("drug:"):
        return None
    base = _PRODUCT_FORM.sub("", ent.label)
    if base == ent.label:
        return None
    other = "drug:" + base.lower()
    return other if other != eid and kb.entity(other) is not None else None


def expand_class(eid: str, kb: KnowledgeBase) -> list[str]:
    """A drug class stands for its member drugs; any other entity for itself."""
    if eid.startswith("drugclass:"):
        return [f.subject for f in kb.facts_pointing_to(eid, "memberOf")]
    return [eid]


def label_of(kb: KnowledgeBase, eid: str | None) -> str:
    if eid is None:
        return "?"
    e = kb.entity(eid)
    return e.label if e else eid
