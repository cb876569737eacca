"""The dose frame: which drug a number is a dose of, in what role, per what, for whom.

A value is bound to its trigger through the clause, the list item's label, the table cell's
column header and row label, and the headings above — never by proximity to any drug name
(:mod:`dose_slots`, :mod:`dose_subject`). Only a ``maximum`` frame can be checked against the
graph's maxDose facts; every other role (starting, usual, titration, per-dose direction, ...)
becomes an ``unverifiable`` claim whose reason names the role, so a reviewer sees the number
was read and why it was not judged.

"Start sertraline at 50 mg daily; the maximum is 200 mg." gives two frames: 50 mg with role
``start`` (unverifiable: "a starting dose; the graph records maximum doses") and 200 mg with
role ``maximum`` (checked against the label).
"""

from __future__ import annotations

import re
from dataclasses import replace

from auditor.extract.assertion import non_assertion
from auditor.extract.claim_base import DENIED_VALUE, base_claim, claim_date, format_quantity
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.extract.frames import dose_words as w
from auditor.extract.frames.common import value_clause
from auditor.extract.frames.dose_slots import fill_slots, role_of, value_kind
from auditor.extract.frames.dose_subject import Binding, bind_subject
from auditor.types import Claim, Frame, Quantity
from knowledge_graphs.store import KnowledgeBase


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
        if value_kind(info, q) != "dose":
            continue
        role, trigger, _source = role_of(info, q, prev_role)
        prev_role = (role, trigger, q.end) if role else None
        if role is None or role == "purchase_limit":
            continue
        binding = bind_subject(info, q, subjects, kb, from_context)
        if binding.subject is None:
            continue
        out.append(_claim(info, cr, q, role, trigger, binding, kb, domain))
    return out


def _claim(
    info: SentenceInfo,
    cr: CompiledRule,
    q: Quantity,
    role: str,
    trigger: str,
    b: Binding,
    kb: KnowledgeBase,
    domain: str,
) -> Claim:
    assert b.subject is not None
    base = info.sentence.start
    frame = Frame("max_dose", role=role, trigger=trigger)
    frame.slots["bound_by"] = b.source
    fill_slots(frame, cr, info, q, b.subject)
    if (role in _DIRECTIONS or role == "permitted") and q.per is None:
        n = w.doses_per_day(info.text[q.end - base : q.end - base + 48])
        if n is not None:  # "400 mg twice daily": checked only against the daily maximum
            role = frame.role = "direction"
    if (every := _repeated_every(info, q, role, trigger)) is not None:
        role = frame.role = "direction"
        q = _interval_total(q, every, frame)
    q = _daily_total(info, q, role, frame)
    claim = base_claim(info, cr, b.subject, kb, domain, format_quantity(q), None, q.start)
    claim.quantity = q
    claim.date = claim_date(info, q.start)
    if DENIED_VALUE.search(info.text, max(0, q.start - base - 30), q.start - base):
        claim.negated = True  # "the maximum dose is not 8,000 mg"
    missing: list[str] = []
    if role not in {"maximum", "permitted", "direction"}:
        missing.append(w.ROLE_REASON.get(role, f"a {role} dose; the graph records maximum doses"))
    if b.ambiguous:
        missing.append("which drug the dose belongs to (" + " or ".join(b.ambiguous) + ")")
    if b.combination:
        missing.append("a dose of a combination product, not of one drug")
    if b.conditions:
        frame.slots["condition"] = "with " + ", ".join(b.conditions)
    elif "co_medication" in frame.slots:
        frame.slots["condition"] = frame.slots["co_medication"]
    frame.slots.pop("co_medication", None)
    a, _ = value_clause(info, q)
    frame.not_asserted = (
        non_assertion(
            info.layout,
            info.text,
            q.start - base,
            paragraph_lead=info.layout.paragraph_lead,
            clause=info.text[a : q.start - base],
        )
        or non_assertion(info.layout, info.text, q.start - base)  # "If you were on X, ..."
        or claim.frame.not_asserted  # type: ignore[union-attr]
    )
    frame.missing = tuple(missing)
    claim.frame = frame
    claim.qualifiers.update({k: v for k, v in frame.slots.items() if k != "bound_by"})
    return claim


_DIRECTIONS = frozenset({"usual", "per_dose", "maintenance"})

# "1,000 mg every 2 hours", "0.6 mg every hour until the pain goes away", "q4h": a dose
# repeated at a fixed interval of hours (a range's longer interval: "every 4 to 6 hours" is
# read as every 6, the fewest doses it allows)
_EVERY_HOURS = re.compile(
    r"[\s*_,)]*(?:of\s+\w+\s+)?(?:(?:every|each)\s+(?:(?P<n>\d{1,2})(?:\s*(?:to|-|–|or)\s*"
    r"(?P<m>\d{1,2}))?\s*|(?P<one>one\s+)?)(?:h|hrs?|hours?)\b|q\s*(?P<q>\d{1,2})\s*h\b|"
    r"(?P<hourly>hourly)\b)",
    re.I,
)
# the sentence bounds the repeats itself: a maximum, a count of doses, a daily total
_BOUNDED = re.compile(
    rf"(?<!\w)(?:{w._MAX})|\b(?:\d+|one|two|three|four|five|six|eight)\s+(?:doses|times)\b|"
    r"\b(?:in|per|within|over)\s+(?:a|any|one)?\s*24[\s-]*hours?|\b(?:per|a|each)\s+day\b|\bdaily\b|/\s*day\b|\bx\s*\d|\bfor\s+(?:up\s+to\s+)?"
    r"(?:\d+|one|two|three|a)\s+(?:doses?|hours?)\b",
    re.I,
)


def _repeated_every(info: SentenceInfo, q: Quantity, role: str, trigger: str) -> int | None:
    """The interval in hours (one that divides a day) at which the text repeats a dose — a
    direction or permission with no bound of its own in the sentence — or None. "Adults can
    take 1,000 mg every 2 hours" gives 12 doses, 12,000 mg, in 24 hours."""
    if not (
        role in _DIRECTIONS
        or role == "permitted"
        or (role == "titration" and trigger.lower() == "then")
    ):
        return None
    base = info.sentence.start
    m = _EVERY_HOURS.match(info.text, q.end - base - _period_len(info, q))
    if m is None:
        return None
    hours = int(m.group("m") or m.group("n") or m.group("q") or 1)
    if hours < 1 or 24 % hours:
        return None
    rest = info.text[: q.start - base] + " " + info.text[m.end() :]
    if _BOUNDED.search(rest):
        return None
    return hours


def _period_len(info: SentenceInfo, q: Quantity) -> int:
    """How much of the quantity's own text is its period ("every 2 hours" read into it)."""
    if q.per is None:
        return 0
    base = info.sentence.start
    own = info.text[q.start - base : q.end - base]
    m = re.search(r"\s*(?:every|each|per|/|q)\b.*$|\s*q\d.*$", own, re.I)
    return len(own) - m.start() if m else 0


def _interval_total(q: Quantity, hours: int, frame: Frame) -> Quantity:
    n = 24 // hours
    frame.slots["period"] = "day"
    frame.slots["doses_per_day"] = str(n)
    frame.slots["interval"] = f"every {hours} hour{'s' if hours > 1 else ''}"
    return replace(
        q,
        value=q.value * n,
        value_max=q.value_max * n if q.value_max is not None else None,
        per="day",
    )


def _daily_total(info: SentenceInfo, q: Quantity, role: str, frame: Frame) -> Quantity:
    """ "the top dose is 15 mg twice daily" states 30 mg a day: a maximum (or a dosing
    direction) given per dose with its daily frequency is compared as the daily total."""
    if role not in {"maximum", "direction"} or q.per is not None:
        return q
    base = info.sentence.start
    n = w.doses_per_day(info.text[q.end - base : q.end - base + 48])
    if n is None:
        return q
    frame.slots["period"] = "day"
    if n == 1:
        return replace(q, per="day")
    frame.slots["doses_per_day"] = str(n)
    return replace(
        q,
        value=q.value * n,
        value_max=q.value_max * n if q.value_max is not None else None,
        per="day",
    )


__all__ = ["dose_claims"]
