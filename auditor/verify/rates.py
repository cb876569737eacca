"""``kg_policy_rate``: a stated policy-rate level against the series it names, at its date.

The facts compared depend on the date's role:

* ``decided`` — "On September 18, 2024 the Fed cut to 4.75–5.00 %": the decisions announced in
  the period (the FOMC decides on the last day of a meeting and the range takes effect the
  next day; the ECB announces on a Thursday and applies from the following Wednesday); with no
  decision in the period, the value in force;
* ``since`` — "unchanged since July 2023": in the present tense the value in force now, which
  must have been in force at the end of that period; in the past tense the value that took
  effect (or was in force) then;
* otherwise the values in force at some point of the period, plus decisions announced in it.

A value matching one of them is supported. A mismatch is contradicted only when the series is
resolved (the ECB without a series name could mean any of its three rates) and the graph's
series is verified through the date.
"""

from __future__ import annotations

from datetime import date, timedelta

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


def verify_rate(claim: Claim, rule: Rule, ctx: Context) -> None:
    kb, q, frame = ctx.kb, claim.quantity, claim.frame
    if q is None or frame is None:
        unverifiable(claim, "no rate frame to check")
        return
    series = [s for s in frame.slots.get("series", "").split("|") if s]
    facts = [f for s in series for f in kb.facts_about(s, "policyRate")]
    if not facts:
        unverifiable(
            claim, f"the graph has no policy-rate series for {label_of(kb, claim.subject)}"
        )
        return
    first, last, _ = claim_window(claim, ctx.as_of)
    role = frame.slots.get("date_role", "point")
    if role == "since" and claim.date is not None:
        first, last = claim.date.first, claim.date.last  # the whole month of "since July 2023"
        if frame.slots.get("tense") == "present":
            # "from 5 February" written on 30 January: the level that applies from that day
            first = last = max(ctx.as_of, claim.date.first)
    for f in facts:
        through = f.qualifiers.get("verified_through")
        if through and f.valid_to is None and last.isoformat() > through:
            unverifiable(claim, f"the graph's {label_of(kb, f.subject)} data is verified through "
                         f"{through}; nothing is known for {last}")  # fmt: skip
            return
    pool = _pool(facts, first, last, role, frame.slots.get("move"), claim)
    names = " / ".join(label_of(kb, s) for s in series)
    if not pool:
        unverifiable(claim, f"no {names} value is recorded for {first}", facts, kb)
        return
    if frame.slots.get("extreme"):
        _verify_extreme(claim, rule, ctx, pool, series, names, first, last)
        return
    hits = [f for f in pool if _matches(f, claim)]
    if hits and frame.slots.get("span") == "whole" and len(series) == 1 and len(hits) < len(pool):
        # "held at 4.25%-4.50% throughout 2025": the level changed within the period
        others = [f for f in pool if f not in hits]
        contradict(claim, others, kb, f"the text says {q.text!r} held for the whole of "
                   f"{first} – {last}, but the {names} was also "
                   + "; ".join(value_text(f) for f in others[:3]), rule.hallucination_type, rule)  # fmt: skip
        return
    if hits and (wrong := _wrong_step(claim, hits, facts, first, last)) is not None:
        contradict(claim, [wrong[0], wrong[1]], kb, wrong[2], "numeric_error", rule)
        return
    if hits and (set_on := _set_earlier(claim, hits, facts, first, last)) is not None:
        contradict(claim, [set_on], kb, f"the level is right ({value_text(set_on)}), but the "
                   f"move to it was announced on {_announced(set_on)}; the {names} did not "
                   f"change on {first}", "wrong_date", rule)  # fmt: skip
        return
    if hits:
        support(claim, hits, kb, f"matches the {label_of(kb, hits[0].subject)} "
                f"({value_text(hits[0])})")  # fmt: skip
        return
    if len(series) > 1:
        unverifiable(claim, f"the text does not say which of {names} it means, and the value "
                     "matches none of them at that date", pool, kb)  # fmt: skip
        return
    htype = "outdated_fact" if any(_matches(f, claim) for f in facts if f not in pool) else (
        rule.hallucination_type)  # fmt: skip
    when = first.isoformat() if first == last else f"{first} – {last}"
    contradict(claim, pool, kb, f"the text says {q.text!r} but the {names} was "
               + "; ".join(value_text(f) for f in pool[:3]) + f" ({when})", htype, rule)  # fmt: skip


_EFFECT_LAG = timedelta(days=8)  # an ECB decision applies from the next Wednesday but one


def _wrong_step(
    claim: Claim, hits: list[Fact], facts: list[Fact], first: date, last: date
) -> tuple[Fact, Fact, str] | None:
    """ "+75 bp to 4.25%-4.50%" on 14 December 2022: the level is right, but the move that set
    it was 50 bp. Only for one series whose level took effect in the claim's period (or the
    days a decision takes to apply), with the level before it in the graph."""
    size = claim.qualifiers.get("size_bp")
    if size is None or len({f.subject for f in hits}) != 1:
        return None
    new = [
        f for f in hits if f.valid_from is not None and first <= f.valid_from <= last + _EFFECT_LAG
    ]
    if len(new) != 1:
        return None
    f = new[0]
    prev = [p for p in facts if p.subject == f.subject and p.valid_to == f.valid_from]
    if len(prev) != 1:
        return None
    a = prev[0].value_max if prev[0].value_max is not None else prev[0].value
    b = f.value_max if f.value_max is not None else f.value
    step = round(abs(float(b or 0) - float(a or 0)) * 100)
    if step == round(float(size)):
        return None
    return (f, prev[0], f"the level is right ({value_text(f)}), but the move to it was {step} bp "
            f"from {value_text(prev[0])}, not {float(size):g} bp")  # fmt: skip


def _set_earlier(
    claim: Claim, hits: list[Fact], facts: list[Fact], first: date, last: date
) -> Fact | None:
    """ "| June 14, 2023 | +25 bp | 5.00%–5.25% |": a move of a stated size dated to one day,
    whose level the graph shows set by an earlier decision and no decision of the series
    announced that day — the level held, the move did not happen then."""
    if claim.qualifiers.get("size_bp") is None or claim.date is None or first != last:
        return None
    if len(hits) != 1 or (f := hits[0]).valid_from is None or f.valid_from + _EFFECT_LAG >= first:
        return None
    if any(g.subject == f.subject and _announced(g) == first for g in facts):
        return None  # the series moved that day
    return f


def _verify_extreme(  # type: ignore[no-untyped-def]
    claim: Claim, rule: Rule, ctx: Context, pool: list[Fact], series, names, first, last
) -> None:
    """ "Peaked at 5.25%-5.50% in 2023": the highest (or lowest) level in force or decided
    over the dated period, of the one series the text means."""
    kb = ctx.kb
    if len(series) > 1:
        unverifiable(claim, f"the text does not say which of {names} peaked", pool, kb)
        return
    valued = [f for f in pool if f.value is not None]
    if not valued:
        unverifiable(claim, f"no {names} value is recorded for {first}", pool, kb)
        return
    top = claim.frame is not None and claim.frame.slots.get("extreme") == "max"

    def level(f: Fact) -> float:
        v = f.value_max if f.value_max is not None and top else f.value
        return float(v)  # type: ignore[arg-type]

    best = (max if top else min)(level(f) for f in valued)
    extreme = [f for f in valued if abs(level(f) - best) < 1e-9]
    when = f"on {first}" if first == last else f"in {first} – {last}"
    word = "highest" if top else "lowest"
    if any(_matches(f, claim) for f in extreme):
        support(claim, extreme, kb, f"the {word} {names} level {when} ({value_text(extreme[0])})")
        return
    contradict(claim, extreme, kb, f"the text gives {claim.quantity.text!r} as the {word} level, "  # type: ignore[union-attr]
               f"but the {word} {names} level {when} was {value_text(extreme[0])}",
               rule.hallucination_type, rule)  # fmt: skip


def verify_effective(claim: Claim, rule: Rule, ctx: Context) -> None:
    """ "The increases took effect on 21 July 2022": the day a decision took effect against the
    series' change days. Another change day within ten days (the decision announced that
    day and effective a few days later, or the day after) is the decision meant."""
    kb, frame, day = ctx.kb, claim.frame, claim.date
    if frame is None or day is None:
        unverifiable(claim, "no effective-date frame to check")
        return
    series = [s for s in frame.slots.get("series", "").split("|") if s]
    facts = [f for s in series for f in kb.facts_about(s, "policyRate") if f.valid_from]
    names = " / ".join(label_of(kb, s) for s in series)
    if not facts:
        unverifiable(
            claim, f"the graph has no policy-rate series for {label_of(kb, claim.subject)}"
        )
        return
    d = day.first
    exact = [f for f in facts if f.valid_from == d]
    if exact:
        support(claim, exact, kb, f"a {names} change took effect on {d}")
        return
    near = [f for f in facts if abs((f.valid_from - d).days) <= 10]  # type: ignore[operator]
    if not near:
        unverifiable(claim, f"the graph records no {names} change within ten days of {d}",
                     facts[-1:], kb)  # fmt: skip
        return
    f = min(near, key=lambda x: abs((x.valid_from - d).days))  # type: ignore[operator]
    said = _announced(f)
    how = f" (announced {said})" if said and said != f.valid_from else ""
    contradict(claim, [f], kb, f"the text says the change took effect on {d}, but the {names} "
               f"change{how} took effect on {f.valid_from}", "wrong_date", rule)  # fmt: skip


def _announced(f: Fact) -> date | None:
    a = f.qualifiers.get("announced")
    return date.fromisoformat(a) if a else f.valid_from


def _pool(facts: list[Fact], first: date, last: date, role: str, move: str | None,
          claim: Claim) -> list[Fact]:  # fmt: skip
    decided = [f for f in facts if (d := _announced(f)) is not None and first <= d <= last]
    in_force = [f for f in facts if valid_during(f, first, last)]
    if role == "decided" and move in {"up", "down"}:
        moved = [f for f in decided if _moved(f, facts) == move]
        return moved or decided or in_force
    if role == "since":
        if claim.frame is not None and claim.frame.slots.get("tense") == "present":
            return in_force
        started = [f for f in facts if f.valid_from and first <= f.valid_from <= last]
        return started + decided + [f for f in facts if valid_during(f, last, last)]
    if role == "effective":
        return [f for f in facts if valid_during(f, first, last)]
    if role == "previous":  # "cut from 4.00% to 3.75%": the level before the decision
        before = [f for f in facts if f.valid_to is not None and first <= f.valid_to
                  and (_announced_after(f, facts) or f.valid_to) <= last + timedelta(days=14)]  # fmt: skip
        return before + [f for f in in_force if f not in before]
    return in_force + [f for f in decided if f not in in_force]


def _announced_after(f: Fact, facts: list[Fact]) -> date | None:
    """When the decision that ended ``f`` was announced."""
    nxt = [g for g in facts if g.subject == f.subject and g.valid_from == f.valid_to]
    return _announced(nxt[0]) if nxt else None


def _moved(f: Fact, facts: list[Fact]) -> str | None:
    prev = [p for p in facts if p.subject == f.subject and p.valid_to == f.valid_from]
    if not prev or prev[0].value is None or f.value is None:
        return None
    return "up" if f.value > prev[0].value else "down" if f.value < prev[0].value else "hold"


def _matches(f: Fact, c: Claim) -> bool:
    q = c.quantity
    assert q is not None
    if f.value is None:
        return False
    lo = f.value
    hi = f.value_max if f.value_max is not None else f.value

    def close(a: float, b: float) -> bool:
        return abs(a - b) <= 0.001

    if q.value_max is not None:
        return close(q.value, lo) and close(q.value_max, hi)
    return close(q.value, lo) or close(q.value, hi) or lo - 1e-9 <= q.value <= hi + 1e-9


__all__ = ["verify_effective", "verify_rate"]
