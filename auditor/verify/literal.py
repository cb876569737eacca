"""``kg_literal`` (official identifiers), ``kg_frequency`` (dosing frequency) and
``brand_generic`` (a brand name paired with the wrong generic)."""

from __future__ import annotations

import itertools
import re
from typing import Any

from auditor.extract.classlike import is_class_mention
from auditor.extract.context import SentenceInfo
from auditor.extract.cues import find_frequencies
from auditor.extract.identifiers import norm_identifier, same_identifier
from auditor.types import Claim
from auditor.verify.common import Context, contradict, label_of, support, unverifiable
from knowledge_graphs.store import KnowledgeBase
from rules.schema import Rule


def verify_literal(claim: Claim, rule: Rule, ctx: Context) -> None:
    kb = ctx.kb
    rel = rule.applies_to.relation or ""
    facts = kb.facts_about(claim.subject or "", rel)
    if not facts:
        unverifiable(claim, f"the graph has no {rel} for {label_of(kb, claim.subject)}")
        return
    stated = norm_identifier(claim.object or "")
    hits = [f for f in facts if f.literal and norm_identifier(f.literal) == stated]
    if hits:
        support(claim, hits, kb, "the identifier matches")
        return
    part = [f for f in facts if f.literal and same_identifier(claim.object or "", f.literal)]
    if part:  # "Pub. L. 116-283" for the act recorded as "Pub. L. 116-283, division F, ..."
        support(claim, part, kb, f"{claim.object} is the public law of the graph's "
                f"identifier {part[0].literal!r} (the act or a part of it)")  # fmt: skip
        return
    owner = [
        f
        for f in kb.facts_with(rel)
        if f.literal and same_identifier(claim.object or "", f.literal)
    ]
    named = [
        f for f in owner if f.subject != claim.subject and _named_in(kb, f.subject, claim.text)
    ]
    if named:  # "| MiFID II / MiFIR | Directive 2014/65/EU; Regulation (EU) No 600/2014 |"
        unverifiable(claim, f"{claim.object} is the identifier of {label_of(kb, named[0].subject)}, "
                     "which the text names beside it", named, kb)  # fmt: skip
        return
    detail = f" (that is the identifier of {label_of(kb, owner[0].subject)})" if owner else ""
    contradict(
        claim,
        facts,
        kb,
        f"the text gives {claim.object!r} but the graph says {facts[0].literal!r}{detail}",
        rule.hallucination_type,
        rule,
    )


def _named_in(kb: KnowledgeBase, eid: str, text: str) -> bool:
    """The entity's label or one of its aliases occurs in ``text`` as whole words."""
    ent = kb.entity(eid)
    if ent is None:
        return False
    return any(
        len(n) >= 3
        and not re.search(r"\d", n)  # the identifier itself is not a name beside it
        and re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text, re.I)
        for n in ent.names()
    )


def verify_frequency(claim: Claim, rule: Rule, ctx: Context) -> None:
    """A stated schedule against the label's. The label may give several regimens, each for its
    own strength ("70 mg once weekly (or 10 mg once daily)"): a schedule stated with an amount
    is checked against that amount's regimen, one stated without against all of them."""
    kb = ctx.kb
    facts = kb.facts_about(claim.subject or "", "dosingFrequency")
    if not facts:
        unverifiable(
            claim, f"the graph has no dosing-frequency fact for {label_of(kb, claim.subject)}"
        )
        return
    stated = claim.object or ""
    dose = claim.qualifiers.get("dose_mg")
    hits, conflicts, other_dose = [], [], []
    per_day: list[Any] = []  # conflicting facts with a several-times-a-day regimen for this dose
    for f in facts:
        literal = f.literal or ""
        canons = {x.canonical for x in find_frequencies(literal)}
        if not canons:
            continue
        if dose is not None:
            paired = _regimens(literal)
            if paired and not any(abs(a - float(dose)) < 1e-9 for a, _ in paired):
                other_dose.append(f)
                continue
            canons = {c for a, c in paired if abs(a - float(dose)) < 1e-9} or canons
        if stated in canons:  # "35 mg once weekly, or 150 mg once a month": either schedule
            hits.append(f)
        elif _indication_applies(f.qualifiers.get("indication"), claim, kb):
            conflicts.append(f)
            if any(c.endswith("daily") for c in canons):
                per_day.append(f)
    if claim.negated:  # "once a week, never every day": the text denies the schedule
        if hits:
            contradict(claim, hits, kb, f"the text denies {stated!r}, but the label gives it",
                       "negation_flip", rule)  # fmt: skip
        elif conflicts:
            support(claim, conflicts, kb, f"the text denies {stated!r}; the label says "
                    f"{conflicts[0].literal!r}")  # fmt: skip
        else:
            unverifiable(claim, "the denied schedule is for another indication or strength")
        return
    if claim.qualifiers.get("count") == "unstated" and per_day and not hits:
        # "take apixaban daily": every day, not necessarily once a day
        unverifiable(claim, "'daily' without a count says every day, not how many times a day",
                     per_day, kb)  # fmt: skip
        return
    if hits:
        support(claim, hits, kb, "the dosing frequency matches the label")
    elif conflicts:
        contradict(
            claim,
            conflicts,
            kb,
            f"the text says {stated!r}"
            + (f" for {dose} mg" if dose else "")
            + f" but the label says {conflicts[0].literal!r}",
            rule.hallucination_type,
            rule,
        )
    elif other_dose:
        unverifiable(claim, f"the label gives no schedule for {dose} mg", other_dose, kb)
    else:
        unverifiable(claim, "the labelled frequency is for another indication", facts, kb)


_REGIMEN = re.compile(r"(\d+(?:\.\d+)?)\s*(mg|mcg)\b([^,;()]*)", re.I)


def _regimens(literal: str) -> list[tuple[float, str]]:
    """(amount in mg, canonical schedule) pairs of a label's regimen text."""
    out = []
    for m in _REGIMEN.finditer(literal):
        found = find_frequencies(m.group(3))
        if found:
            amount = float(m.group(1)) * (1e-3 if m.group(2).lower() == "mcg" else 1.0)
            out.append((amount, found[0].canonical))
    return out


def _indication_applies(indication: str | None, claim: Claim, kb: KnowledgeBase) -> bool:
    """A frequency fact for one indication does not contradict a claim about another one."""
    conds = claim.qualifiers.get("conditions")
    if not indication or not conds:
        return True
    ind = indication.lower()
    for cid in conds.split("|"):
        ent = kb.entity(cid)
        names = [n.lower() for n in ent.names()] if ent else []
        if any(n in ind or ind in n for n in names):
            return True
    return False


_APPOSITION = re.compile(
    r"\s*(?:\((?:(?:brand(?:\s+name)?|generic(?:\s+name)?|i\.e\.|also\s+known\s+as|also\s+called|aka|or)"
    r"[:,]?\s*)?"
    r"|,?\s*(?:(?:is|was|are)\s+(?:(?:the|a|an)\s+(?:brand(?:\s+name)?\s+(?:of|for)|"
    r"(?:generic|chemical)\s+name\s+(?:of|for))\s+|(?:brand(?:\s+name)?\s+(?:of|for)|"
    r"marketed\s+as|sold\s+as)\s+)?"
    r"|(?:(?:is|was|are)\s+)?(?:also\s+|once\s+|formerly\s+|previously\s+)?"
    r"(?:known|sold|marketed|called)(?:\s+over\s+the\s+counter)?\s+as"
    r"|also\s+called|(?:which\s+)?contains|the\s+brand(?:\s+name)?\s+(?:of|for)"
    r"|brand(?:\s+name)?)\s*)",
    re.I,
)


def brand_claims(info: SentenceInfo, kb: KnowledgeBase, rule: Rule, domain: str) -> list[Claim]:
    """ "Tylenol (ibuprofen)", "ibuprofen (Advil)", "Zocor is a brand of simvastatin": two names
    put in apposition must denote the same drug (or one must be part of a combination).

    Only names of single drugs count: a class ("NSAIDs (ibuprofen, naproxen)") or a list of
    examples is not an apposition, and nothing is judged in a heading or a question."""
    out: list[Claim] = []
    if not info.layout.assertive:
        return out
    ms = [m for m in info.mentions if "Drug" in m.types and not is_class_mention(m, kb)]
    base = info.sentence.start
    for a, b in itertools.pairwise(ms):
        between = info.text[a.end - base : b.start - base]
        if not _APPOSITION.fullmatch(between) or ("(" in between and _opens_list(info, b)):
            continue
        ea, eb = a.candidates[0], b.candidates[0]
        generic, alias = (b, a) if _is_generic(a, kb) is False and _is_generic(b, kb) else (a, b)
        claim = Claim(
            text=info.text,
            start=info.sentence.start,
            end=info.sentence.end,
            domain=domain,
            rule_id=rule.id,
            subject=generic.candidates[0],
            subject_label=generic.text,
            predicate="brandName",
            object=alias.text,
            object_label=alias.text,
            severity=rule.severity,
        )
        ent_alias = kb.entity(alias.candidates[0])
        ev = [
            {
                "role": "context",
                "name": alias.text,
                "denotes": alias.candidates[0],
                "denotes_label": ent_alias.label if ent_alias else alias.candidates[0],
                "source": ent_alias.source.to_dict() if ent_alias and ent_alias.source else None,
            }
        ]
        if set(a.candidates) & set(b.candidates) or _combination(ea, eb, kb):
            support(claim, [], kb, f"{alias.text} is a name of {label_of(kb, alias.candidates[0])}")
            claim.evidence = [{**ev[0], "role": "supports"}]
        elif a.fuzzy_score is not None or b.fuzzy_score is not None:
            unverifiable(claim, "one of the two names was matched only approximately")
        elif not (kb.facts_about(ea) and kb.facts_about(eb)):
            # "bismuth subsalicylate (Pepto-Bismol)": the graph lists the brand as an entry of
            # its own without saying what it contains — no evidence either way
            unverifiable(claim, f"the graph lists {alias.text} without its active ingredient")
        else:
            contradict(
                claim,
                [],
                kb,
                f"{alias.text} is a name of {label_of(kb, alias.candidates[0])}, "
                f"not of {label_of(kb, generic.candidates[0])}",
                rule.hallucination_type,
                rule,
            )
            claim.evidence = [{**ev[0], "role": "conflicts"}, *claim.evidence]
        out.append(claim)
    return out


def _opens_list(info: SentenceInfo, b) -> bool:  # type: ignore[no-untyped-def]
    """ "(ibuprofen, naproxen)": the parenthesis lists examples, not another name."""
    base = info.sentence.start
    return bool(
        re.match(r"\s*(?:,|/|\bor\b|\band\b)\s*\w", info.text[b.end - base : b.end - base + 8])
    )


def _is_generic(m, kb: KnowledgeBase) -> bool:  # type: ignore[no-untyped-def]
    ent = kb.entity(m.candidates[0])
    return ent is not None and m.text.lower() in {ent.label.lower(), ent.id.removeprefix("drug:")}


def _combination(a: str, b: str, kb: KnowledgeBase) -> bool:
    """One name is a combination product holding the other, or both name the same
    components ("Naltrexone/bupropion" and "Naltrexone and Bupropion")."""
    pa, pb = _components(label_of(kb, a)), _components(label_of(kb, b))
    return pa <= pb or pb <= pa


def _components(label: str) -> frozenset[str]:
    parts = re.split(r"\s*(?:/|\+|,|;|\band\b|\bwith\b|-(?=[a-z]{4,}))\s*", label.lower())
    return frozenset(p.strip() for p in parts if p.strip())
