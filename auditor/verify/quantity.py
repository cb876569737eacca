"""``kg_quantity``: a stated amount (dose, threshold, ratio, rate) against the graph's value.

The applicable facts are those of the claim's subject and relation, valid in the period the
claim is about, whose qualifiers do not contradict the claim's (OTC vs prescription,
population, product) and whose unit and period are comparable. The claim is supported when
its value (or range) equals one of them within the rule's tolerance, contradicted when it
equals none; the mismatch is classified (unit slip ×1000, outdated value, another entity's
value, plain numeric error).
"""

from __future__ import annotations

import re
from datetime import date

from auditor.types import Claim
from auditor.verify.common import (
    Context,
    claim_window,
    contradict,
    label_of,
    support,
    unverifiable,
    valid_during,
    value_text,
)
from knowledge_graphs.model import Fact
from rules.schema import Rule

_QUALIFIER_KEYS = ("status", "population", "product", "route")
_DAILY_WORDS = (
    "day", "daily", "24 hour", "24-hour", "a 24", "per 24", "each day", "at bedtime",
    "before bed", "nightly", "at night",
)  # fmt: skip


def verify_quantity(claim: Claim, rule: Rule, ctx: Context) -> None:
    kb, q = ctx.kb, claim.quantity
    if q is None and claim.subject is not None and claim.qualifiers.get("direction"):
        _verify_move(claim, rule, ctx)
        return
    if q is None or claim.subject is None:
        unverifiable(claim, "no value to check")
        return
    relation = rule.applies_to.relation or ""
    subjects = _subjects(claim.subject, relation, ctx)
    all_facts = [f for s in subjects for f in kb.facts_about(s, relation)]
    if not all_facts:
        unverifiable(claim, f"the graph has no {relation} fact for {label_of(kb, claim.subject)}")
        return
    first, last, explicit = claim_window(claim, ctx.as_of)
    beyond = _beyond_coverage(all_facts, first)
    if beyond:
        unverifiable(
            claim,
            f"the graph's {relation} data for {label_of(kb, claim.subject)} is "
            f"verified through {beyond}; nothing is known for {first}",
        )
        return
    current = [f for f in all_facts if valid_during(f, first, last)]
    if not current:
        unverifiable(claim, f"no {relation} fact valid at {first}", all_facts, kb)
        return
    comparable = [f for f in current if _same_unit_family(f, claim) and _qualifiers_fit(f, claim)]
    comparable = [f for f in comparable if _period_fits(f, claim)]
    if not comparable:
        if any(_unit_slip(f, claim) for f in current if _qualifiers_fit(f, claim)):
            bad = [f for f in current if _unit_slip(f, claim)]
            contradict(
                claim,
                bad,
                kb,
                f"the value is stated in the wrong unit ({q.text!r}); the graph "
                f"says {_fmt(bad[0])}",
                "unit_error",
                rule,
            )
            return
        unverifiable(claim, "no fact with a comparable unit, period and qualifiers", current, kb)
        return
    label_max = [
        f for f in comparable if f.qualifiers.get("kind", "label_maximum") == "label_maximum"
    ]
    if relation == "maxDose" and not label_max:
        if any(_matches(f, claim, rule) for f in comparable):
            support(
                claim,
                [f for f in comparable if _matches(f, claim, rule)],
                kb,
                "matches the labelled usual dose range",
            )
        else:
            unverifiable(
                claim,
                "the label sets no fixed maximum (dose is individualised / a usual range only)",
                comparable,
                kb,
            )
        return
    pool = label_max if relation == "maxDose" else comparable
    hits = [f for f in pool if _matches(f, claim, rule)]
    combined = None if hits else _combined_requirement(claim, kb)
    if combined is not None:
        # "the minimum total capital ratio is 10.5% including the conservation buffer": the
        # claim is about the minimum plus the buffer, which the graph holds as its own entity
        claim.subject, claim.subject_label = combined.id, combined.label
        pool = [f for f in kb.facts_about(combined.id, relation) if valid_during(f, first, last)]
        hits = [f for f in pool if _matches(f, claim, rule)]
        if not pool:
            unverifiable(claim, f"no {relation} fact for {combined.label} valid at {first}")
            return
    if claim.negated and "direction" not in claim.qualifiers:
        if hits:
            contradict(
                claim, hits, kb, f"the text denies {claim.object}, but the graph has it",
                "negation_flip", rule,
            )  # fmt: skip
        else:
            support(claim, pool, kb, f"the text denies {claim.object}; the graph has "
                    + "; ".join(_fmt(f) for f in pool[:3]))  # fmt: skip
        return
    if hits:
        support(claim, hits, kb, f"matches {len(hits)} graph fact(s)")
        return
    other_period = [
        f
        for f in current
        if f not in pool
        and _same_unit_family(f, claim)
        and _qualifiers_fit(f, claim)
        and not _period_fits(f, claim)
        and _matches(f, claim, rule)
    ]
    if other_period and "direction" not in claim.qualifiers:
        # "colchicine 1.8 mg per day for gout flares": 1.8 mg is the label's maximum over one
        # hour for a flare; the stated period differs, so the text cannot be judged either way
        f = other_period[0]
        unverifiable(
            claim,
            f"{claim.object} matches the graph's {_fmt(f)}, stated for another period; "
            "the text's period cannot be checked against it",
            other_period,
            kb,
        )
        return
    if "direction" in claim.qualifiers and explicit and not _direction_ok(claim, pool, ctx):
        contradict(
            claim, pool, kb, "the stated direction of the change is wrong", "wrong_relation", rule
        )
        return
    contradict(
        claim,
        pool,
        kb,
        _why(claim, pool),
        _classify(claim, pool, all_facts, relation, rule, ctx),
        rule,
    )


def _verify_move(claim: Claim, rule: Rule, ctx: Context) -> None:
    """ "The Fed cut rates in March 2020": a change in the stated direction within the period."""
    kb = ctx.kb
    relation = rule.applies_to.relation or ""
    facts = [
        f
        for s in _subjects(claim.subject or "", relation, ctx)
        for f in kb.facts_about(s, relation)
    ]
    first, last, explicit = claim_window(claim, ctx.as_of)
    if not facts or not explicit:
        unverifiable(claim, "no dated change to compare")
        return
    beyond = _beyond_coverage(facts, last)
    if beyond:
        unverifiable(claim, f"the graph's data is verified through {beyond}")
        return
    starts: list[date] = [f.valid_from for f in facts if f.valid_from is not None]
    if starts and first <= min(starts):
        unverifiable(claim, f"the graph's series starts on {min(starts)}; earlier moves are not "
                     "recorded")  # fmt: skip
        return
    moves: list[tuple[str, Fact, Fact]] = []
    for f in facts:
        announced = f.qualifiers.get("announced")
        decided = date.fromisoformat(announced) if announced else f.valid_from
        if f.valid_from and (
            first <= f.valid_from <= last or (decided and first <= decided <= last)
        ):
            prev = [p for p in facts if p.subject == f.subject and p.valid_to == f.valid_from]
            if prev and prev[0].value is not None and f.value is not None:
                moved = (
                    "up"
                    if f.value > prev[0].value
                    else "down"
                    if f.value < prev[0].value
                    else "hold"
                )
                moves.append((moved, f, prev[0]))
    want = claim.qualifiers["direction"]
    hits = [f for moved, f, _ in moves if moved == want]
    if claim.negated:  # "The Fed did not raise rates in 2020"
        if hits:
            contradict(claim, hits, kb, f"the text says the rate did not move {want}, but it did",
                       "negation_flip", rule)  # fmt: skip
        else:
            held = [f for _, f, _ in moves] or [f for f in facts if valid_during(f, first, last)]
            support(claim, held, kb, f"the rate did not move {want} in that period")
        return
    size = claim.qualifiers.get("size_bp")
    if hits and size is not None and len({f.valid_from for f in hits}) == 1:
        # one decision in the period (any of a bank's series may carry the stated size)
        sizes = {round(_step(f, prev)) for moved, f, prev in moves if moved == want}
        if round(float(size)) not in sizes:
            contradict(claim, hits, kb, f"the text says the rate moved {want} by {size} bp, but "
                       f"the move was {' / '.join(f'{s} bp' for s in sorted(sizes))}",
                       "numeric_error", rule)  # fmt: skip
            return
    if hits:
        support(claim, hits, kb, f"the rate moved {want} in that period")
    elif moves:
        contradict(
            claim,
            [f for _, f, _ in moves],
            kb,
            f"the text says the rate moved {want}, but it moved {moves[0][0]} in that period",
            rule.hallucination_type,
            rule,
        )
    elif want in {"up", "down"}:
        held = [f for f in facts if valid_during(f, first, last)]
        contradict(
            claim,
            held,
            kb,
            f"no change of the rate between {first} and {last}",
            rule.hallucination_type,
            rule,
        )
    else:
        support(
            claim, [f for f in facts if valid_during(f, first, last)], kb, "the rate did not change"
        )


def _step(f: Fact, prev: Fact) -> float:
    """A move's size in basis points, on the upper bound of a range."""
    a = prev.value_max if prev.value_max is not None else prev.value
    b = f.value_max if f.value_max is not None else f.value
    return abs(float(b or 0) - float(a or 0)) * 100


_INCLUDING = re.compile(r"\b(?:includ\w*|incl\.?|plus|on top of|with(?:out)?)\b|\+", re.I)


def _combined_requirement(claim: Claim, kb):  # type: ignore[no-untyped-def]
    """The graph's "<requirement> minimum plus <buffer>" entity when the claim's sentence
    says the stated ratio includes that buffer; None otherwise (or for "without")."""
    subj = kb.entity(claim.subject or "")
    if subj is None or " minimum" not in subj.label:
        return None
    text = claim.text.lower()
    m = _INCLUDING.search(text)
    if m is None or m.group(0).lower() == "without":
        return None
    stem = subj.label.split(" minimum", 1)[0].lower() + " minimum plus "
    for e in kb.entities_of_type(subj.type):
        if e.id == subj.id or not e.label.lower().startswith(stem):
            continue
        part = e.label.lower()[len(stem) :]
        for other in kb.entities_of_type(subj.type):
            names = (other.label, *other.aliases)
            if other.label.lower().split(" (")[0] == part and any(
                re.search(rf"\b{re.escape(n.lower())}\b", text) for n in names
            ):
                return e
    return None


def _subjects(subject: str, relation: str, ctx: Context) -> list[str]:
    """A central bank stands for the policy rates it sets."""
    if subject.startswith("bank:"):
        return [f.object for f in ctx.kb.facts_about(subject, "setsRate") if f.object]
    return [subject]


def _beyond_coverage(facts: list[Fact], first) -> str | None:  # type: ignore[no-untyped-def]
    for f in facts:
        vt = f.qualifiers.get("verified_through")
        if vt and f.valid_to is None and first.isoformat() > vt:
            return vt
    return None


def _same_unit_family(f: Fact, c: Claim) -> bool:
    q = c.quantity
    assert q is not None
    if q.unit == "percentage_points":
        return False
    return f.unit == q.unit or (f.unit in {"mg", "g", "mcg"} and q.unit == "mg")


def _unit_slip(f: Fact, c: Claim) -> bool:
    """The number matches but the unit is off by 1000 (mg vs g, mg vs mcg) or a wrong currency."""
    q = c.quantity
    assert q is not None
    if f.value is None:
        return False
    if q.dimension == "mass" and f.unit in _MASS_TO_MG:
        fv = f.value * _MASS_TO_MG[f.unit]
        return any(abs(q.value * k - fv) <= 1e-9 * max(1.0, fv) for k in (1e3, 1e-3, 1e6, 1e-6))
    if q.dimension == "currency" and f.unit and q.unit != f.unit:
        return abs(q.value - f.value) <= 1e-9 * max(1.0, f.value)
    return False


def _qualifiers_fit(f: Fact, c: Claim) -> bool:
    for key in _QUALIFIER_KEYS:
        want = c.qualifiers.get(key)
        have = f.qualifiers.get(key)
        if want and have and want.lower() not in have.lower():
            return False
    return True


def _period_fits(f: Fact, c: Claim) -> bool:
    per = f.qualifiers.get("per")
    if per is None:
        return True
    q = c.quantity
    assert q is not None
    if q.per is not None:
        return _norm_per(q.per) == _norm_per(per)
    if per == "day":  # "up to 800 mg" without a period may be a single dose: do not compare
        return any(w in c.text.lower() for w in _DAILY_WORDS)
    return per in c.text.lower()


def _norm_per(per: str) -> str:
    p = per.strip().lower()
    return {"24 hours": "day", "1 day": "day", "1 week": "week", "7 days": "week"}.get(p, p)


_MASS_TO_MG = {"mg": 1.0, "mcg": 1e-3, "g": 1e3}


def _matches(f: Fact, c: Claim, rule: Rule) -> bool:
    q = c.quantity
    assert q is not None
    if f.value is None:
        return False
    scale = _MASS_TO_MG.get(f.unit or "", 1.0)
    lo = f.value * scale
    hi = (f.value_max if f.value_max is not None else f.value) * scale
    tol = rule.check.tolerance

    def close(a: float, b: float) -> bool:
        return abs(a - b) <= max(tol.absolute, tol.relative * abs(b), 1e-9 * max(1.0, abs(b)))

    if q.value_max is not None:
        return close(q.value, lo) and close(q.value_max, hi)
    if lo == hi:
        return close(q.value, lo)
    # a single number against a range: the range's bounds, or inside it for rate ranges
    if close(q.value, lo) or close(q.value, hi):
        return True
    return f.predicate == "policyRate" and lo - 1e-9 <= q.value <= hi + 1e-9


def _direction_ok(c: Claim, pool: list[Fact], ctx: Context) -> bool:
    direction = c.qualifiers.get("direction")
    first, last, _ = claim_window(c, ctx.as_of)
    for f in pool:
        if f.valid_from and first <= f.valid_from <= last:
            prev = [
                p for p in ctx.kb.facts_about(f.subject, f.predicate) if p.valid_to == f.valid_from
            ]
            if prev and prev[0].value is not None and f.value is not None:
                moved = (
                    "up"
                    if f.value > prev[0].value
                    else "down"
                    if f.value < prev[0].value
                    else "hold"
                )
                if moved == direction:
                    return True
    return not any(f.valid_from and first <= f.valid_from <= last for f in pool)


def _classify(
    c: Claim, pool: list[Fact], all_facts: list[Fact], relation: str, rule: Rule, ctx: Context
) -> str:
    first, last, _ = claim_window(c, ctx.as_of)
    if any(
        _matches(f, c, rule)
        for f in all_facts
        if f not in pool and not valid_during(f, first, last)
    ):
        return "outdated_fact"
    if any(_unit_slip(f, c) for f in pool):
        return "unit_error"
    # another entity's value: only meaningful where values are distinctive (doses repeat a lot)
    if relation in {"minimumRatio", "reportingThreshold"}:
        for other in ctx.kb.facts_with(relation):
            if (
                other.subject != c.subject
                and _matches(other, c, rule)
                and other.unit == pool[0].unit
            ):
                return "wrong_entity"
    return rule.hallucination_type


def _fmt(f: Fact) -> str:
    return value_text(f)


def _why(c: Claim, pool: list[Fact]) -> str:
    q = c.quantity
    assert q is not None
    shown = "; ".join(_fmt(f) for f in pool[:3])
    return f"the text says {q.text!r} but the graph says {shown}"
