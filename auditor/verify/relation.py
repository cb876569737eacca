"""``kg_relation`` (two entities linked by a relation) and ``kg_status`` (still in force?).

Absence of a link is never a contradiction ("no interaction is recorded" does not mean the
combination is safe): a claim is contradicted only by a conflicting fact — the link exists
while the text denies it, or the relation is functional at a date (a country's currency, a
case's overruling decision, a complete FATF list) and the graph names something else.
"""

from __future__ import annotations

import re
from datetime import date

from auditor.types import Claim
from auditor.verify.common import (
    Context,
    claim_window,
    contradict,
    expand_class,
    ingredient_of,
    label_of,
    support,
    unverifiable,
    valid_during,
)
from auditor.verify.fatf_change import verify_list_change
from knowledge_graphs.model import Fact
from knowledge_graphs.store import KnowledgeBase
from rules.schema import Rule

# relations where one subject has one object at a time: another object contradicts
_FUNCTIONAL = {"currency", "overruledBy"}


def verify_relation(claim: Claim, rule: Rule, ctx: Context) -> None:
    kb = ctx.kb
    rel = rule.applies_to.relation or ""
    subj, obj = claim.subject, claim.object
    if rel == "overruledBy" and subj is not None and claim.qualifiers.get("overruler") == "unnamed":
        _verify_unnamed_overruling(claim, rule, ctx, subj)
        return
    if subj is None or obj is None:
        unverifiable(claim, "the claim names no object")
        return
    first, last, explicit = claim_window(claim, ctx.as_of)
    links = _links(subj, obj, rel, ctx)
    links_now = [f for f in links if valid_during(f, first, last)]
    if rel == "fatfListed" and (change := claim.qualifiers.get("list_change")):
        verify_list_change(claim, rule, ctx, change, first, last)
        return
    if (
        rel == "fatfListed"
        and claim.date is not None
        and claim.date.role == "since"
        and (not claim.negated)
    ):
        # "remains on the grey list, where it has been since June 2021": listed from then to now
        now = [f for f in links if valid_during(f, ctx.as_of, ctx.as_of)]
        if not now:
            _verify_fatf(claim, rule, ctx, now, ctx.as_of, ctx.as_of)
            if claim.verdict != "supported":
                return
        # "since June 2023": listed at the plenary of that month, so any day of it counts
        first, last = claim.date.first, claim.date.last
        links_now = [f for f in links if valid_during(f, first, last)]
    if rel == "fatfListed":
        _verify_fatf(claim, rule, ctx, links_now, first, last)
        return
    if claim.qualifiers.get("asserts") == "mitigated":
        _verify_mitigated(claim, rule, ctx, links_now)
        return
    if claim.negated:
        if links_now:
            contradict(
                claim,
                links_now,
                kb,
                f"the text denies that {label_of(kb, subj)} {rel} "
                f"{label_of(kb, obj)}, but the graph records it",
                "negation_flip",
                rule,
            )
        else:
            unverifiable(
                claim,
                f"no {rel} link between {label_of(kb, subj)} and {label_of(kb, obj)} is "
                "recorded; absence is not evidence",
            )
        return
    if links_now and rel == "interactsWith" and (weaker := _weaker_than_claimed(claim, links_now)):
        unverifiable(claim, weaker, links_now, kb)
        return
    if links_now:
        support(
            claim, links_now, kb, f"{label_of(kb, subj)} {rel} {label_of(kb, obj)} is in the graph"
        )
        return
    if links and claim.qualifiers.get("tense") == "past" and not explicit:
        support(
            claim, links, kb, f"{label_of(kb, subj)} {rel} {label_of(kb, obj)} held in the past"
        )
        return
    others = [f for f in kb.facts_about(subj, rel) if valid_during(f, first, last)]
    if rel in _FUNCTIONAL and others:
        htype = "outdated_fact" if links else "wrong_entity"
        contradict(
            claim,
            others,
            kb,
            f"at {first} the graph says {label_of(kb, subj)} {rel} "
            f"{', '.join(label_of(kb, f.object) for f in others)}",
            htype,
            rule,
        )
        return
    if links:
        unverifiable(claim, f"the link held only at other times than {first}", links, kb)
        return
    if rel == "overruledBy" and not kb.facts_about(subj, rel):
        theirs = kb.facts_pointing_to(obj, rel)
        if theirs and _curated_case(subj, kb):
            contradict(
                claim,
                theirs,
                kb,
                f"the graph records that {label_of(kb, obj)} overruled "
                f"{', '.join(label_of(kb, f.subject) for f in theirs)}, and no overruling of "
                f"{label_of(kb, subj)} (the curated case list records each case's overruling)",
                "wrong_entity",
                rule,
            )
            return
    unverifiable(
        claim, f"no {rel} link between {label_of(kb, subj)} and {label_of(kb, obj)} in the graph"
    )


def _verify_unnamed_overruling(claim: Claim, rule: Rule, ctx: Context, subj: str) -> None:
    """ "X was overturned [in 2022]" with no overruling decision named: X has an overruling
    on record (by the audit date), and — when the text dates it — one decided in that period.
    A case with no overruling on record stays unverifiable (absence is not evidence)."""
    kb = ctx.kb
    name = label_of(kb, subj)
    facts = [
        f
        for f in kb.facts_about(subj, "overruledBy")
        if f.valid_from is None or f.valid_from <= ctx.as_of
    ]
    if not facts:
        unverifiable(claim, f"the graph records no overruling of {name} by {ctx.as_of}")
        return

    def told(f: Fact) -> str:
        when = f" on {f.valid_from}" if f.valid_from else ""
        return f"{label_of(kb, f.object)}{when}"

    d = claim.date
    if d is None:
        support(claim, facts, kb, f"{name} was overruled by {'; '.join(told(f) for f in facts)}")
        return
    hits = [f for f in facts if f.valid_from is not None and d.first <= f.valid_from <= d.last]
    if hits:
        support(claim, hits, kb, f"{name} was overruled by {'; '.join(told(f) for f in hits)}")
        return
    if any(f.valid_from is None for f in facts):
        unverifiable(claim, f"the graph does not date the overruling of {name}", facts, kb)
        return
    contradict(
        claim,
        facts,
        kb,
        f"the text dates the overruling of {name} to {d.text.strip()!r}, but it was overruled "
        f"by {'; '.join(told(f) for f in facts)}",
        "wrong_date",
        rule,
    )


# the severities a claimed level needs ("contraindicated" only the label's Contraindications
# section; "avoid" a contraindication or a major interaction, not a labelled caution)
_LEVEL_NEEDS = {
    "contraindicated": frozenset({"contraindicated"}),
    "avoid": frozenset({"contraindicated", "major"}),
}


def _weaker_than_claimed(claim: Claim, links: list[Fact]) -> str | None:
    """Why the recorded interaction does not bear the text's level ("X is contraindicated with
    Y" against a major interaction; "avoid X with Y" against a labelled caution), or None."""
    level = claim.qualifiers.get("claimed_severity")
    needs = _LEVEL_NEEDS.get(level or "")
    if needs is None or any(f.qualifiers.get("severity") in needs for f in links):
        return None
    found = sorted({f.qualifiers.get("severity") or "unrated" for f in links})
    said = (
        "calls the combination contraindicated"
        if level == "contraindicated"
        else "says to avoid the combination"
    )
    return f"the text {said}; the graph records a {' / '.join(found)} interaction, not that level"


def _curated_case(cid: str, kb: KnowledgeBase) -> bool:
    """A case of the curated list (``legal/cases.yaml``), where every entry states whether and
    by what it was overruled: no overruledBy fact there means none."""
    ent = kb.entity(cid)
    return ent is not None and ent.type == "Case" and bool(kb.facts_about(cid, "decided"))


def _verify_mitigated(claim: Claim, rule: Rule, ctx: Context, links: list[Fact]) -> None:
    """ "Fine together if you just cut the dose in half": the text allows the combination
    with a precaution of its own. Against a contraindication that is a denial; against a
    major interaction the precaution may be the label's own management — not in the graph."""
    kb = ctx.kb
    pair = f"{label_of(kb, claim.subject)} and {label_of(kb, claim.object)}"
    banned = [f for f in links if f.qualifiers.get("severity") == "contraindicated"]
    if banned:
        contradict(claim, banned, kb, f"the text allows {pair} together with a precaution, but "
                   "the label contraindicates the combination", "negation_flip", rule)  # fmt: skip
    elif links:
        unverifiable(claim, f"the text allows {pair} together with a precaution; the graph "
                     "records the interaction, not how to manage it", links, kb)  # fmt: skip
    else:
        unverifiable(claim, f"no {rule.applies_to.relation} link between {pair} is recorded")


def _links(subj: str, obj: str, rel: str, ctx: Context) -> list[Fact]:
    kb = ctx.kb
    if rel == "interactsWith":
        objs = [x for e in expand_class(obj, kb) for x in (e, ingredient_of(e, kb)) if x]
        subs = [x for e in expand_class(subj, kb) for x in (e, ingredient_of(e, kb)) if x]
        return [f for s in subs for o in objs for f in kb.facts_between(s, o, rel)]
    if rel == "indicatedFor":
        return [
            f for f in kb.facts_about(subj, rel) if f.object and _icd_related(f.object, obj, kb)
        ]
    return [f for f in kb.facts_about(subj, rel) if f.object == obj]


def _icd_related(fact_code: str, claim_code: str, kb: KnowledgeBase) -> bool:
    """E11 (fact) covers E11.9 (claim) and vice versa: same category family — unless the more
    specific code is a condition of its own that answers name (it has curated lay names):
    "type 2 diabetes" (E11) is not "diabetic nerve pain" (E11.42), "shingles" (B02) is not
    "postherpetic neuralgia" (B02.29)."""
    a = fact_code.removeprefix("condition:")
    b = claim_code.removeprefix("condition:")
    if a == b:
        return True
    if not (a.startswith(b) or b.startswith(a)):
        return False
    narrower = fact_code if len(a) > len(b) else claim_code
    ent = kb.entity(narrower)
    return not (ent is not None and ent.aliases)


def _verify_fatf(claim: Claim, rule: Rule, ctx: Context, member: list[Fact], first, last) -> None:  # type: ignore[no-untyped-def]
    kb = ctx.kb
    snaps = [
        f
        for f in kb.facts_pointing_to(claim.object or "", "fatfListed")
        if valid_during(f, first, last)
    ]
    complete = any(f.qualifiers.get("complete") == "true" for f in snaps)
    who, lst = label_of(kb, claim.subject), label_of(kb, claim.object)
    if claim.negated:
        if member:
            contradict(
                claim, member, kb, f"{who} is on the {lst} at {first}", "negation_flip", rule
            )
        elif complete:
            support(
                claim,
                snaps[:1],
                kb,
                f"{who} is not on the complete {lst} snapshot valid at {first}",
            )
        else:
            unverifiable(claim, f"no complete snapshot of the {lst} at {first}")
        return
    if member:
        support(claim, member, kb, f"{who} is on the {lst} at {first}")
    elif complete:
        contradict(
            claim,
            snaps[:3],
            kb,
            f"{who} is not on the {lst} valid at {first}",
            "outdated_fact"
            if kb.facts_between(claim.subject or "", claim.object or "", "fatfListed")
            else "wrong_entity",
            rule,
        )
    else:
        unverifiable(claim, f"no complete snapshot of the {lst} at {first}")


def verify_status(claim: Claim, rule: Rule, ctx: Context) -> None:
    """ "X is still good law / still available / in force" against overruling, withdrawal, repeal."""
    kb = ctx.kb
    subj = claim.subject
    if subj is None:
        unverifiable(claim, "no subject")
        return
    first, _, _ = claim_window(claim, ctx.as_of)
    ended = [
        f
        for f in kb.facts_about(subj)
        if f.predicate in {"overruledBy", "withdrawn", "repealed"}
        and (eff := _effective(f)) is not None
        and eff <= first
    ]
    what = label_of(kb, subj)
    if claim.negated:  # "X is no longer good law"
        if ended:
            support(claim, ended, kb, f"{what} stopped being in force on {_effective(ended[0])}")
        else:
            unverifiable(claim, f"the graph records no overruling, withdrawal or repeal of {what}")
        return
    if (
        ended
        and all((f.qualifiers or {}).get("extent") == "part" for f in ended)
        and (_A_PART.search(claim.text))
    ):
        note = next((f.qualifiers.get("note") for f in ended if f.qualifiers.get("note")), "")
        unverifiable(
            claim,
            f"the graph records {what} as overruled only in part ({note}); it does not say "
            "whether the part the text calls good law is the part that survives",
        )
        return
    if ended:
        contradict(
            claim,
            ended,
            kb,
            f"{what} is described as still in force at {first}, but the graph "
            f"records {ended[0].predicate} on {_effective(ended[0])}",
            "outdated_fact",
            rule,
        )
        return
    unverifiable(
        claim,
        f"the graph records no overruling, withdrawal or repeal of {what}; that is not "
        "proof it is in force",
    )


# "this part of Booth remains binding", "what survives of Booth", "to the extent it ...": a
# good-law statement about part of a case's holdings
_A_PART = re.compile(
    r"\b(?:(?:this|that|the\s+(?:remaining|surviving|rest|other))\s+(?:part|portion|holding|"
    r"aspect)s?|part\s+of|portion\s+of|surviv\w*|remainder|to\s+the\s+extent|insofar\s+as|"
    r"in\s+part|the\s+rest\s+of|what\s+(?:is\s+)?left\s+of)\b",
    re.I,
)


def _effective(f: Fact) -> date | None:
    return f.valid_from or f.date
