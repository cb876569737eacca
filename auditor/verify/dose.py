"""``kg_dose``: a stated maximum dose against the label's maximum-dose facts.

Only a complete ``max_dose`` frame reaches this verifier (the frame gate sends the rest to
``unverifiable``). The comparable facts are those of the drug, valid at the claim's date, whose
population, OTC/Rx status, formulation, strength, indication and co-medication agree with
what the text states (a slot the text leaves open accepts any fact). Then:

* supported — the value equals a comparable labelled maximum;
* contradicted — every slot resolved, and the value disagrees with every comparable maximum
  (a unit slip ×1000 is a ``unit_error``; a value that was right before a label change is
  ``outdated_fact``);
* contradicted also — no period stated, and a stated maximum above every comparable labelled
  maximum of every period (wrong read per dose and per day, the readings support uses);
* unverifiable — nothing comparable, the label gives only a usual range, the text states no
  period and the value matches nothing below a labelled maximum, or the value matches the
  label for another period.
A name reached only by fuzzy matching never yields support.
"""

from __future__ import annotations

import re
from dataclasses import replace

from auditor.extract.frames.dose_words import fact_population, fact_populations
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
from knowledge_graphs.store import KnowledgeBase
from rules.schema import Rule

_MASS_TO_MG = {"mg": 1.0, "mcg": 1e-3, "g": 1e3}
_FORM_WORDS = {
    "extended-release": ("extended-release", " er ", " xr", " xl", "sustained", " sr", " la)",
                         "controlled", " cr)", "long-acting"),
    "delayed-release": ("delayed-release", "enteric"),
    "immediate-release": ("immediate-release",),
    "intravenous": ("intravenous", "injection", "infusion"),
    "transdermal": ("patch", "transdermal"),
    "liquid": ("suspension", "solution", "liquid", "syrup"),
    "sublingual": ("sublingual",),
}  # fmt: skip
_NON_ORAL_TABLET = ("extended", "sustained", "delayed", "patch", "injection", "intravenous",
                    " xr", " xl", " er ", " sr", "suspension", "solution")  # fmt: skip


def verify_dose(claim: Claim, rule: Rule, ctx: Context) -> None:
    _verify_dose(claim, rule, ctx)
    if claim.verdict != "contradicted" or claim.frame is None:
        return
    conflicts = [e for e in claim.evidence if e.get("role") == "conflicts"]
    specific = [e for e in conflicts if (e.get("qualifiers") or {}).get("strength_specific")]
    slots = claim.frame.slots
    named = slots.get("unit_strength_mg") or slots.get("strength") or slots.get("brand")
    if conflicts and len(specific) == len(conflicts) and not named:
        # "aspirin, max 4,000 mg a day (OTC)": the 325 mg tablets' 3,900 mg is not the
        # 500 mg caplets' 4,000 mg — the text names no strength
        products = "; ".join(
            sorted({str((e.get("qualifiers") or {}).get("product")) for e in specific})
        )
        unverifiable(
            claim,
            f"the labelled maximum belongs to one strength ({products}); other strengths carry "
            "other maxima and the text names none",
        )


def _verify_dose(claim: Claim, rule: Rule, ctx: Context) -> None:
    kb, q, frame = ctx.kb, claim.quantity, claim.frame
    if q is None or claim.subject is None or frame is None:
        unverifiable(claim, "no dose frame to check")
        return
    counted = None  # the strength of one tablet when the text counts tablets
    if q.unit == "tablet" and not frame.slots.get("unit_strength_mg"):
        ent = kb.entity(claim.subject)
        names = {w.lower() for n in (ent.names() if ent else ()) for w in n.split()}
        named = _named_product_strength(kb.facts_about(claim.subject, "maxDose"), claim.text, names)
        if named is not None:  # "8 tablets of Extra Strength Tylenol": that label's 500 mg
            frame.slots["unit_strength_mg"] = f"{named:g}"
            claim.qualifiers["strength_from"] = "the named product's label"
    if q.unit == "tablet" and (per := frame.slots.get("unit_strength_mg")):
        # "do not exceed 6 tablets in 24 hours" of "200 mg tablets": 1,200 mg in 24 hours
        mg = counted = float(per)
        total = f"{q.value * mg:g}" + ("" if q.value_max is None else f"–{q.value_max * mg:g}")
        q = claim.quantity = replace(q, value=q.value * mg, unit="mg", dimension="mass",
            value_max=None if q.value_max is None else q.value_max * mg,
            text=f"{q.text} ({total} mg at {per} mg each)")  # fmt: skip
        claim.qualifiers["counted_as"] = f"{claim.object} of {per} mg"
        claim.object = f"{q.value:g}{'' if q.value_max is None else f'–{q.value_max:g}'} mg" + (
            f" per {q.per}" if q.per else ""
        )
    drug = label_of(kb, claim.subject)
    all_facts = kb.facts_about(claim.subject, "maxDose")
    if not all_facts:
        unverifiable(claim, f"the graph has no maximum-dose fact for {drug}")
        return
    first, last, _ = claim_window(claim, ctx.as_of)
    current = [f for f in all_facts if valid_during(f, first, last)]
    if counted is not None:  # tablets: only oral labels of that strength, a brand only if named
        current = [f for f in current if _fits_tablets(f, counted, claim.text)]
    if not current:
        unverifiable(claim, f"no maximum-dose fact for {drug} valid at {first}", all_facts, kb)
        return
    slots = frame.slots
    comparable, excluded_by = _comparable(current, slots, claim)
    if comparable and slots.get("indication"):
        comparable, excluded_by = _for_indication(comparable, slots["indication"], claim, ctx)
    elif comparable and (heading := slots.get("heading_indication")):
        # a heading's condition binds the use only when it is one of this drug's
        bound, why = _for_indication(comparable, heading, claim, ctx)
        if bound:  # a heading too far to say treatment or prevention binds nothing
            comparable, excluded_by = bound, why
            slots["indication"] = heading
    if not comparable and excluded_by == USE_UNSAID:
        unverifiable(claim, f"the label's maximum for {drug} differs between treatment and "
                     "prevention, and the text does not say which is meant", current, kb)  # fmt: skip
        return
    if not comparable:
        unverifiable(claim, f"the graph has no maximum dose of {drug} for {excluded_by}",
                     current, kb)  # fmt: skip
        return
    comparable = _narrow_by_abbreviation(comparable, claim)
    same_unit = [f for f in comparable if _unit_family(f) == _claim_family(claim)]
    if not same_unit:
        slips = [f for f in comparable if _unit_slip(f, claim)]
        if slips and slots.get("period"):
            contradict(claim, slips, kb, f"the value is stated in the wrong unit ({q.text!r}); "
                       f"the label says {value_text(slips[0])}", "unit_error", rule)  # fmt: skip
            return
        unverifiable(claim, f"the graph states {drug}'s maximum in other units", comparable, kb)
        return
    labelled = [
        f for f in same_unit if f.qualifiers.get("kind", "label_maximum") == "label_maximum"
    ]
    period = slots.get("period")
    in_period = [f for f in labelled if _period_ok(f, period)]
    hits = [f for f in in_period if _matches(f, claim)]
    if "population" not in slots:
        # the text names no population: it speaks of adults in general, so a limit the label
        # sets only for renal impairment, older adults or children neither supports nor refutes
        general = [f for f in in_period if _general(f)]
        special = [f for f in hits if not _general(f)]
        hits = [f for f in hits if _general(f)]
        if not hits and special and not claim.negated:
            unverifiable(claim, f"{claim.object} is the label's maximum for "
                         f"{_population_words(fact_population(special[0].qualifiers.get('population')))}"
                         "; the text does not say the dose is for them", special, kb)  # fmt: skip
            return
        in_period = general or in_period
    if hits and not claim.negated:
        usable = [
            f for f in hits if _route_ok(f, slots.get("route")) and _level_ok(f, in_period, claim)
        ]
        if not usable:
            unverifiable(claim, f"{claim.object} matches only {_product_words(hits[0])}, "
                         + _not_that_product(hits[0], slots), hits, kb)  # fmt: skip
            return
        hits = usable
        if not slots.get("indication") and frame.role not in ("direction", "permitted"):
            one_use = [f for f in hits if _use_ok(f, in_period, claim, kb)]
            if not one_use:
                use = hits[0].qualifiers.get("indication")
                unverifiable(claim, f"{claim.object} is the label's maximum for {use}; the sentence "
                             "names no indication the graph links, and the label gives another maximum for "
                             "another use", hits, kb)  # fmt: skip
                return
            hits = one_use
    if claim.negated:
        _denied(claim, rule, ctx, hits, in_period)
        return
    if frame.role == "direction":
        _direction(claim, rule, ctx, in_period)
        return
    if hits:
        if frame.role == "permitted":
            unverifiable(claim, "a dose within the labelled maximum; the text does not state the "
                         "maximum itself", hits, kb)  # fmt: skip
            return
        support(claim, hits, kb, f"matches the labelled maximum ({value_text(hits[0])})")
        return
    if not labelled:
        unverifiable(claim, "the label gives a usual dose range, not a maximum "
                     f"({value_text(same_unit[0])})", same_unit, kb)  # fmt: skip
        return
    other_period = [f for f in labelled if not _period_ok(f, period) and _matches(f, claim)]
    longer = [f for f in other_period if (f.qualifiers.get("per") or "") in {"week", "month"}]
    if longer and period == "day":
        # "dulaglutide 4.5 mg once daily": the label's weekly maximum given as a daily dose
        contradict(claim, longer, kb, f"the label gives {value_text(longer[0])}; the text makes "
                   "it a daily dose", "numeric_error", rule)  # fmt: skip
        return
    if other_period:
        unverifiable(claim, f"{claim.object} matches the label's {value_text(other_period[0])}, "
                     "stated for another period", other_period, kb)  # fmt: skip
        return
    open_ended = [
        f for f in same_unit if f.qualifiers.get("kind", "label_maximum") != "label_maximum"
    ]
    if period is None:
        # no period stated: a matching value is supported as per dose or per day (above), so a
        # stated maximum above every comparable labelled maximum, of every period, is wrong
        # under the same readings ("Maximum: 9 mg" of a 3 mg/day label)
        if frame.role == "maximum" and not open_ended and all(_above(f, claim) for f in labelled):
            shown = "; ".join(value_text(f) for f in labelled[:3])
            contradict(claim, labelled, kb, f"the text gives {q.text!r} as the maximum, above "
                       f"every labelled maximum ({shown})", "numeric_error", rule)  # fmt: skip
            return
        unverifiable(claim, "the text does not say per dose or per day, so the value cannot "
                     "be compared", labelled, kb)  # fmt: skip
        return
    if open_ended and not slots.get("indication"):
        # lisinopril: 40 mg/day for heart failure, no labelled maximum for hypertension — a
        # value that names no indication may be the latter's and cannot be refuted
        unverifiable(claim, f"the label sets no maximum for every use of {drug} "
                     f"({value_text(open_ended[0])}); the text names no indication",
                     open_ended, kb)  # fmt: skip
        return
    if not in_period:
        unverifiable(claim, f"the graph has no {period} maximum of {drug}", labelled, kb)
        return
    if frame.role == "permitted" and not all(_above(f, claim) for f in in_period):
        unverifiable(claim, "a dose within the labelled maximum", in_period, kb)
        return
    htype = _classify(claim, in_period, all_facts, first, last)
    shown = "; ".join(value_text(f) for f in in_period[:3])
    contradict(claim, in_period, kb, f"the text says {q.text!r} but the label's maximum is "
               f"{shown}", htype, rule)  # fmt: skip


_PARENTERAL = frozenset({"intravenous", "intramuscular"})


def _route_ok(f: Fact, want: str | None) -> bool:
    """The route the text implies (``oral``: "by mouth", "tablets"; ``taken``: "take", which
    never means an infusion; ``intravenous``) admits the fact's route."""
    have = f.qualifiers.get("route")
    if not want or not have:
        return True
    if want == "taken":
        return have not in _PARENTERAL
    return have == want


def _brands(f: Fact) -> set[str]:
    """Brand names a fact's product leads with ("TYLENOL Extra Strength 500 mg caplets"); a
    brand in parentheses names the label a form-level fact comes from ("... (AMBIEN)")."""
    product = re.sub(r"\([^)]*\)", " ", f.qualifiers.get("product") or "")
    return {b for b in re.findall(r"\b[A-Z][A-Z-]{2,}\b", product) if b not in _FORM_ABBREVIATIONS}


def _level_ok(f: Fact, pool: list[Fact], claim: Claim) -> bool:
    """One fact, one verdict: a claim that names no product is supported by a product's own
    label only when no other comparable product (same period and indication) gives another
    maximum."""
    brands = _brands(f)
    if not brands or _names_any(brands, claim.text):
        return True
    per = f.qualifiers.get("per") or "day"
    use = f.qualifiers.get("indication")
    return all(
        o.value_max == f.value_max and o.value == f.value
        for o in pool
        if (o.qualifiers.get("per") or "day") == per
        and _brands(o) != brands
        and o.qualifiers.get("indication") == use
    )


def _names_any(words: set[str], text: str) -> bool:
    """``text`` names one of ``words`` as a whole word, in any case."""
    return any(re.search(rf"\b{re.escape(w)}\b", text, re.I) for w in words)


def _use_ok(f: Fact, pool: list[Fact], claim: Claim, kb: KnowledgeBase) -> bool:
    """A maximum the label sets for one use ("40 mg once daily" of tadalafil for pulmonary
    arterial hypertension) supports a claim that names no use only when no other use, over the
    same period, has another labelled dosing (20 mg for erectile dysfunction; a usual regimen
    only) — or when the text names the product whose label that use is, or the answer names
    that use and no other."""
    use = f.qualifiers.get("indication")
    if not use:
        return True
    slots = claim.frame.slots if claim.frame else {}
    said = " ".join([claim.text, *slots.get("answer_brands", "").split("|")])
    if _names_any(_brands(f), said):
        return True
    per = f.qualifiers.get("per") or "day"
    # another use counts with any labelled dosing of its own — a maximum, or only a usual or
    # individualised regimen whose maximum the graph does not hold (REVATIO 20 mg three times
    # a day beside VIAGRA's 100 mg)
    regimens = [o for o in kb.facts_about(f.subject, "maxDose") if o not in pool]
    others = [
        o
        for o in [*pool, *regimens]
        if (o.qualifiers.get("per") or "day") == per
        and o.qualifiers.get("indication")  # another use; another product is _level_ok's
        and not _stems(o.qualifiers["indication"]) & _stems(use)
        and (o.value_max != f.value_max or o.value != f.value)
    ]
    if not others:
        return True
    named = _condition_stems(slots.get("answer_conditions", "").split("|"), kb)
    return bool(named & _stems(use)) and not any(
        named & _stems(o.qualifiers["indication"]) for o in others
    )


def _condition_stems(conds: list[str], kb: KnowledgeBase) -> set[str]:
    """Stems of every name of the condition entities ``conds``."""
    return {st for c in conds if c and (e := kb.entity(c)) for n in e.names() for st in _stems(n)}


def _product_words(f: Fact) -> str:
    return f"the label's {value_text(f)}"


def _not_that_product(f: Fact, slots: dict[str, str]) -> str:
    want = slots.get("route")
    if want and not _route_ok(f, want):
        said = "intravenous" if want == "intravenous" else "oral"
        return f"and the text speaks of {said} use"
    return "and the text names no product; other products' labels give other maxima"


def _direction(claim: Claim, rule: Rule, ctx: Context, pool: list[Fact]) -> None:
    """A dosing direction ("400 mg twice daily") is wrong when its daily total exceeds every
    comparable labelled maximum; otherwise it is not judged (the graph holds maxima only)."""
    kb, q = ctx.kb, claim.quantity
    assert q is not None
    if not pool:
        unverifiable(claim, f"a dosing direction ({claim.object}); the graph has no daily "
                     f"maximum of {label_of(kb, claim.subject or '')} to compare it with")  # fmt: skip
        return
    if all(_above(f, claim) for f in pool):
        shown = "; ".join(value_text(f) for f in pool[:3])
        contradict(claim, pool, kb, f"the stated regimen gives {claim.object}, above the "
                   f"labelled maximum ({shown})", "numeric_error", rule)  # fmt: skip
    else:
        unverifiable(claim, f"a dosing direction ({claim.object}) within the labelled maximum; "
                     "the graph records maximum doses", pool, kb)  # fmt: skip


_ABBREVIATION = re.compile(r"\b(SR|XR|XL|ER|CR|LA|IR|DR|ODT)\b")


def _narrow_by_abbreviation(facts: list[Fact], claim: Claim) -> list[Fact]:
    """ "Wellbutrin SR": when the label names products by SR / XL, keep the one the text names."""
    frame = claim.frame
    text = " ".join(str(v) for v in (frame.slots if frame else {}).values()) + " " + claim.text
    named = set(_ABBREVIATION.findall(text))
    if not named:
        return facts
    keep = [
        f for f in facts if named & set(_ABBREVIATION.findall(f.qualifiers.get("product") or ""))
    ]
    return keep or facts


def _denied(claim: Claim, rule: Rule, ctx: Context, hits: list[Fact], pool: list[Fact]) -> None:
    kb = ctx.kb
    if hits:
        contradict(claim, hits, kb, f"the text denies {claim.object}, but the label has it",
                   "negation_flip", rule)  # fmt: skip
    elif pool:
        support(claim, pool, kb, f"the text denies {claim.object}; the label says "
                + "; ".join(value_text(f) for f in pool[:3]))  # fmt: skip
    else:
        unverifiable(claim, "nothing comparable to the denied value")


def _comparable(facts: list[Fact], slots: dict[str, str], claim: Claim) -> tuple[list[Fact], str]:
    """The facts whose qualifiers agree with the frame, and (if none) the slot that excluded
    them, for the reason."""
    # a cap the label sets only with another drug is compared only with a dose the text
    # conditions on that drug
    pool = [f for f in facts if slots.get("condition") or not f.qualifiers.get("co_medication")]
    checks = (
        ("population", _population_ok, lambda v: _population_words(v)),
        ("status", _status_ok, lambda v: "over-the-counter use" if v == "otc" else "prescription use"),
        ("formulation", _formulation_ok, lambda v: v.replace("|", " / ") + " products"),
        ("strength", _strength_ok, lambda v: f"the {v} product"),
        ("brand", _brand_ok, lambda v: f"the {v} product"),
        ("product_suffix", _suffix_ok, lambda v: f"the {v} product"),
        ("condition", _condition_ok, lambda v: f"use {v}"),
    )  # fmt: skip
    for key, ok, words in checks:
        want = slots.get(key)
        if not want:
            continue
        kept = [f for f in pool if ok(f, want)]
        if not kept:
            return [], words(want)
        pool = kept
    return pool, ""


def _population_words(v: str) -> str:
    return {
        "pediatric": "children", "elderly": "older adults", "renal": "renal impairment",
        "hepatic": "hepatic impairment", "adult": "adults",
    }.get(v, f"patients {v.removeprefix('adult')}")  # fmt: skip


def _general(f: Fact) -> bool:
    return all(p.startswith("adult") for p in fact_populations(f.qualifiers.get("population")))


def _population_ok(f: Fact, want: str) -> bool:
    have = fact_populations(f.qualifiers.get("population"))
    if want == "adult":
        return any(p.startswith("adult") for p in have)
    return want in have


def _status_ok(f: Fact, want: str) -> bool:
    have = (f.qualifiers.get("status") or "").lower()
    return not have or have == want


def _product_text(f: Fact) -> str:
    q = f.qualifiers
    return f" {(q.get('product') or '')} {(q.get('route') or '')} ".lower()


def _formulation_ok(f: Fact, want: str) -> bool:
    text = _product_text(f)
    for form in want.split("|"):
        words = _FORM_WORDS.get(form, (form,))
        if any(wd in text for wd in words):
            continue
        if form == "immediate-release" and not any(x in text for x in _NON_ORAL_TABLET):
            continue  # a plain tablet fact is the immediate-release product
        return False
    return True


_FORM_ABBREVIATIONS = {
    "XR",
    "ER",
    "SR",
    "XL",
    "CR",
    "IR",
    "OTC",
    "DR",
    "HCL",
    "LA",
    "ODT",
    "IV",
    "PE",
}


def _brand_ok(f: Fact, want: str) -> bool:
    """A fact for a product sold under another brand ("WELLBUTRIN SR") does not hold for the
    brand the text names ("Zyban"); a fact naming no brand does."""
    product = f.qualifiers.get("product") or ""
    brands = {
        b for b in re.findall(r"\b[A-Z][A-Z-]{2,}\b", product) if b not in _FORM_ABBREVIATIONS
    }
    return not brands or any(b.lower() in want.lower() or want.lower() in b.lower() for b in brands)


def _suffix_ok(f: Fact, want: str) -> bool:
    """ "Wellbutrin SR" is the SR product, not the XL one (both extended-release)."""
    return bool(re.search(rf"\b{re.escape(want)}\b", f.qualifiers.get("product") or "", re.I))


def _for_indication(
    facts: list[Fact], wanted: str, claim: Claim, ctx: Context
) -> tuple[list[Fact], str]:
    """Facts for the indication the text names. A maximum the label sets for one indication
    does not hold for another; a drug-wide maximum holds for the drug's labelled uses only."""
    kb = ctx.kb
    conds = [c for c in wanted.split("|") if c]
    stems = _condition_stems(conds, kb)
    specific = [f for f in facts if f.qualifiers.get("indication")]
    hits = [f for f in specific if stems & _stems(f.qualifiers["indication"])]
    if hits:
        uses = {_use(f.qualifiers["indication"]) for f in hits}
        if len(uses) == 1:
            return hits, ""
        said = _use_said(claim.text)  # "prophylaxis of gout flares" and "treatment of ..."
        same = [f for f in hits if _use(f.qualifiers["indication"]) == said]
        if said is None or not same:
            return [], USE_UNSAID
        return same, ""
    labelled = [f.object or "" for f in kb.facts_about(claim.subject or "", "indicatedFor")]
    if not specific and any(_same_condition(a, b) for a in labelled for b in conds):
        return facts, ""
    if (
        not specific
        and stems
        and any(  # "depression" and "major depressive disorder"
            stems & {st for n in e.names() for st in _stems(n)}
            for a in labelled
            if (e := kb.entity(a))
        )
    ):
        return facts, ""
    what = label_of(kb, conds[0]) if conds else "that indication"
    return [], what


USE_UNSAID = "?use"  # the label's maximum differs between treatment and prevention
_PREVENTION = re.compile(
    r"\b(?:prophyla\w*|prevent\w*|preventive|to\s+avoid|reduc\w+\s+(?:the\s+)?risk|"
    r"suppressive|long-term\s+(?:use|therapy|treatment)|maintenance)\b",
    re.I,
)
_TREATMENT = re.compile(
    r"\b(?:treat\w*|acute|attacks?|flares?|episodes?|active|established|symptomatic)\b", re.I
)


def _use(indication: str) -> str:
    """A labelled indication is a prevention ("prophylaxis of gout flares") or a treatment."""
    return "prevention" if _PREVENTION.search(indication) else "treatment"


def _use_said(text: str) -> str | None:
    """The use a sentence names: prevention if it says so ("to prevent gout flares"), else
    treatment if it says that ("at the first sign of a flare"), else None."""
    if _PREVENTION.search(text):
        return "prevention"
    return "treatment" if _TREATMENT.search(text) else None


_GENERIC_WORDS = frozenset({"disord", "unspec", "condit", "diseas", "syndro", "chroni", "acute",
                            "other", "primar", "second", "severe", "modera", "associ", "relief",
                            "treatm", "manage", "adults", "childr", "patien", "episod"})  # fmt: skip


def _stems(text: str) -> set[str]:
    """Six-letter stems of the significant words ("depression" and "depressive" meet); a
    four-letter word is its own stem ("gout", "acne"), unless it says nothing of the use."""
    words = re.findall(r"[a-z]{4,}", text.lower())
    return {w[:6] for w in words if len(w) > 4 or w not in _SHORT_GENERIC} - _GENERIC_WORDS


_SHORT_GENERIC = frozenset({"pain", "type", "mild", "high", "with", "from", "care", "term",
                            "long", "dose", "oral", "only", "form", "both", "each", "when",
                            "than", "that", "this", "used", "uses", "once", "twice", "days",
                            "week", "year", "ages", "aged", "over", "under", "upon"})  # fmt: skip


def _same_condition(a: str, b: str) -> bool:
    x, y = a.removeprefix("condition:"), b.removeprefix("condition:")
    return x == y or x.startswith(y) or y.startswith(x)


def _strength_ok(f: Fact, want: str) -> bool:
    return want.split()[0] in _product_text(f)


def _condition_ok(f: Fact, want: str) -> bool:
    """ "with Verapamil", "If you take amlodipine": every drug named is one the fact's
    co-medication (or other qualifier wording) names."""
    text = " ".join(str(v) for v in f.qualifiers.values() if v).lower()
    names = _CONDITION_LEAD.sub("", want).split(",")
    return all(name.strip().lower() in text for name in names if name.strip())


_CONDITION_LEAD = re.compile(
    r"^\s*(?:with|if\s+(?:you(?:'re|\s+are)?\s+)?(?:also\s+)?(?:take|taking|tak\w+|using|on))\s+",
    re.I,
)


def _period_ok(f: Fact, period: str | None) -> bool:
    per = (f.qualifiers.get("per") or "day").lower()
    if period is None:
        return True
    return {"24 hours": "day"}.get(per, per) == period


_PRODUCT_STRENGTH = re.compile(r"(\d+(?:\.\d+)?)\s*(mg|mcg|g)\b")
_NOT_TABLETS = re.compile(r"inject|infusion|inhal|patch|solution|suspension|gel\b|%", re.I)


_FORM_NOUN = re.compile(r"^(?:tablets?|caplets?|capsules?|softgels?|gelcaps?|geltabs?|mg|mcg|g)$",
                        re.I)  # fmt: skip


def _named_product_strength(facts: list[Fact], text: str, drug_names: set[str]) -> float | None:
    """The one tablet strength of the oral products the text names by every word of the
    product's name besides the drug's own names ("Extra Strength Tylenol" is "acetaminophen
    500 mg extra strength caplets"); None when the text names no such product, or names
    several of different strengths."""
    found: set[float] = set()
    for f in facts:
        product = f.qualifiers.get("product") or ""
        strengths = {float(v) * _MASS_TO_MG[u] for v, u in _PRODUCT_STRENGTH.findall(product)}
        if (
            len(strengths) != 1
            or _NOT_TABLETS.search(product)
            or f.qualifiers.get("route")
            not in (
                None,
                "oral",
            )
        ):
            continue
        words = [w for w in re.findall(r"[A-Za-z][\w-]*", _PRODUCT_STRENGTH.sub(" ", product))
                 if not _FORM_NOUN.match(w) and w.lower() not in drug_names]  # fmt: skip
        if words and all(re.search(rf"\b{re.escape(w)}\b", text, re.I) for w in words):
            found |= strengths
    return found.pop() if len(found) == 1 else None


def _fits_tablets(f: Fact, mg: float, text: str) -> bool:
    """A maximum that a count of ``mg`` tablets can be compared with: an oral label (no
    injection, inhaler, patch, liquid), of that strength if the product names one, and of a
    brand the product names only when the text names it too ("TYLENOL Extra Strength 500 mg
    caplets" says nothing about another maker's 500 mg tablets)."""
    route = f.qualifiers.get("route")
    product = f.qualifiers.get("product") or ""
    if route not in (None, "oral") or _NOT_TABLETS.search(product):
        return False
    strengths = {float(v) * _MASS_TO_MG[u] for v, u in _PRODUCT_STRENGTH.findall(product)}
    if strengths and not any(abs(x - mg) < 1e-9 for x in strengths):
        return False
    brands = [w for w in re.findall(r"\b[A-Z][A-Z-]{2,}\b", product)]
    return all(re.search(rf"\b{re.escape(b)}\b", text, re.I) for b in brands)


def _unit_family(f: Fact) -> str:
    return "mass" if f.unit in _MASS_TO_MG else (f.unit or "")


def _claim_family(c: Claim) -> str:
    q = c.quantity
    assert q is not None
    return "mass" if q.dimension == "mass" else (q.unit or "")


def _bounds(f: Fact) -> tuple[float, float]:
    scale = _MASS_TO_MG.get(f.unit or "", 1.0)
    assert f.value is not None
    hi = f.value_max if f.value_max is not None else f.value
    return f.value * scale, hi * scale


def _matches(f: Fact, c: Claim) -> bool:
    q = c.quantity
    assert q is not None
    if f.value is None:
        return False
    lo, hi = _bounds(f)

    def close(a: float, b: float) -> bool:
        return abs(a - b) <= 1e-9 * max(1.0, abs(b))

    if q.value_max is not None:
        return close(q.value_max, hi) and (close(q.value, lo) or q.value <= hi)
    return close(q.value, hi) or (lo != hi and close(q.value, lo) and f.predicate != "maxDose")


def _above(f: Fact, c: Claim) -> bool:
    q = c.quantity
    assert q is not None
    return f.value is not None and (q.value_max or q.value) > _bounds(f)[1] * (1 + 1e-9)


def _unit_slip(f: Fact, c: Claim) -> bool:
    q = c.quantity
    assert q is not None
    if f.value is None or q.dimension != "mass" or f.unit not in _MASS_TO_MG:
        return False
    hi = _bounds(f)[1]
    return any(abs(q.value * k - hi) <= 1e-9 * max(1.0, hi) for k in (1e3, 1e-3, 1e6, 1e-6))


def _classify(c: Claim, pool: list[Fact], all_facts: list[Fact], first, last) -> str:  # type: ignore[no-untyped-def]
    if any(_matches(f, c) for f in all_facts if f not in pool and not valid_during(f, first, last)):
        return "outdated_fact"
    if any(_unit_slip(f, c) for f in pool):
        return "unit_error"
    return "numeric_error"


__all__ = ["verify_dose"]
