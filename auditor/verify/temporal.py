"""``kg_date``: a stated date (decision, entry into force, application, adoption, withdrawal).

Dates are compared at the precision of the coarser side: "decided in 1954" matches the fact
1954-05-17; "entered into force in May 2016" matches 2016-05-24. The rule's
``check.date_role`` lists the relations a phrase may refer to (people say "came into force"
for both entry into force and application), and a claim matching any of them is supported.
"""

from __future__ import annotations

from datetime import date

from auditor.types import Claim
from auditor.verify.common import Context, contradict, label_of, support, unverifiable
from knowledge_graphs.model import Fact
from rules.schema import Rule


def verify_date(claim: Claim, rule: Rule, ctx: Context) -> None:
    kb = ctx.kb
    d = claim.date
    if d is None or claim.subject is None:
        unverifiable(claim, "no date to check")
        return
    roles = rule.check.date_role or [rule.applies_to.relation or ""]
    facts = [f for r in roles for f in kb.facts_about(claim.subject, r)]
    if not facts:
        unverifiable(
            claim, f"the graph has no {' / '.join(roles)} date for {label_of(kb, claim.subject)}"
        )
        return
    hits = [f for f in facts if _same(f, d.first, d.last, d.precision)]
    if hits:
        support(
            claim, hits, kb, f"the date matches ({', '.join(sorted({f.predicate for f in hits}))})"
        )
        return
    primary = [f for f in facts if f.predicate == roles[0]] or facts
    contradict(
        claim,
        primary,
        kb,
        f"the text says {d.text.strip()!r} but the graph says "
        f"{'; '.join(_shown(f) for f in primary[:3])}",
        rule.hallucination_type,
        rule,
    )


def _fact_day(f: Fact) -> tuple[date | None, str]:
    if f.date is not None:
        return f.date, f.qualifiers.get("precision", "day")
    if f.value is not None:  # decided: year only
        return date(int(f.value), 1, 1), "year"
    return None, "day"


def _same(f: Fact, first: date, last: date, precision: str) -> bool:
    day, fprec = _fact_day(f)
    if day is None:
        return False
    if fprec == "year" or precision == "year":
        return first.year <= day.year <= last.year
    if precision == "month":
        return (day.year, day.month) == (first.year, first.month)
    return first <= day <= last


def _shown(f: Fact) -> str:
    day, prec = _fact_day(f)
    if day is None:
        return "?"
    return f"{f.predicate} {day.year if prec == 'year' else day.isoformat()}"
