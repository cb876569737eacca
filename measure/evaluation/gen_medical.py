"""Medical benchmark sentences: maximum doses, interactions, indications, frequency, market status."""

from __future__ import annotations

import random
from datetime import date

from auditor.extract.cues import canonical_frequency, find_frequencies
from auditor.extract.frames.dose_words import fact_populations
from knowledge_graphs.model import Fact
from knowledge_graphs.store import KnowledgeBase
from measure.evaluation.cases import Maker, fmt_num, kinds

AS_OF = date(2025, 1, 15)

DOSE_TRUE = [
    "The maximum daily dose of {drug}{qual} is {v} mg.",
    "Adults should not take more than {v} mg of {drug}{qual} per day.",
    "Do not exceed {v} mg of {drug}{qual} in 24 hours.",
    "For adults, {drug}{qual} is limited to {v} mg a day.",
    "You can take up to {v} mg of {drug}{qual} per day.",
    "{Drug}{qual}: the most you should take is {v} mg per day.",
]
DOSE_POPULATION = [
    "The maximum daily dose of {drug}{qual} {pop} is {v} mg.",
    "{Pop}, do not exceed {v} mg of {drug}{qual} in 24 hours.",
    "{Pop}, the most {drug}{qual} you should take is {v} mg per day.",
]
POPULATION = {
    "elderly": ["for adults 65 and older", "in elderly patients", "for older adults"],
    "renal": ["in renal impairment", "for patients with kidney disease (CrCl below 30 mL/min)"],
    "hepatic": ["in hepatic impairment", "for patients with liver disease"],
    "pediatric": ["for children"],
}
STATUS = {
    "otc": [" (over the counter)", " sold over the counter", " OTC"],
    "rx": [" (prescription)", " by prescription", " at prescription strength"],
}
INTERACT_TRUE = [
    "Do not take {a} together with {b}.",
    "{A} should not be combined with {b}.",
    "{A} interacts with {b}, so avoid using them together.",
    "Avoid combining {a} and {b}.",
    "Taking {a} with {b} is contraindicated or requires close monitoring.",
]
INTERACT_FALSE = [
    "It is safe to take {a} with {b}.",
    "{A} and {b} can be taken together without any problem.",
    "There is no interaction between {a} and {b}.",
    "{A} does not interact with {b}.",
]
INDICATION_TRUE = [
    "{A} is used to treat {c}.",
    "{A} is indicated for {c}.",
    "Doctors prescribe {a} for {c}.",
]
INDICATION_FALSE = ["{A} is not used to treat {c}.", "{A} is not indicated for {c}."]


def _name(kb: KnowledgeBase, eid: str, rng: random.Random) -> str:
    ent = kb.entity(eid)
    assert ent is not None
    return ent.id.removeprefix("drug:") if rng.random() < 0.8 else ent.label.lower()


def makers(kb: KnowledgeBase, rng: random.Random) -> tuple[list[tuple[str, Maker]], date]:
    doses = [
        f
        for f in kb.facts
        if f.predicate == "maxDose"
        and f.unit == "mg"
        and f.qualifiers.get("per") == "day"
        and f.qualifiers.get("kind") == "label_maximum"
        and not f.qualifiers.get("product")
        and not f.qualifiers.get("indication")
        and not f.qualifiers.get("co_medication")
        and f.value
        and f.value >= 1
    ]
    by_drug: dict[str, list[Fact]] = {}
    for f in kb.facts:
        if f.predicate == "maxDose" and not f.qualifiers.get("co_medication"):
            by_drug.setdefault(f.subject, []).append(f)
    inter = [
        f for f in kb.facts if f.predicate == "interactsWith" and not f.qualifiers.get("via_class")
    ]
    indic = [f for f in kb.facts if f.predicate == "indicatedFor"]
    freq = [f for f in kb.facts if f.predicate == "dosingFrequency"]

    def status_phrase(f: Fact) -> str:
        statuses = {
            g.qualifiers.get("status")
            for g in by_drug[f.subject]
            if g.qualifiers.get("per") == "day" and g.qualifiers.get("kind") == "label_maximum"
        }
        if len(statuses) < 2:
            return ""
        return rng.choice(STATUS[f.qualifiers.get("status", "rx")])

    def known_values(drug: str) -> set[float]:
        return {v for f in by_drug[drug] for v in (f.value, f.value_max) if v}

    @kinds("numeric_error", "unit_error", "wrong_entity")
    def dose(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        f = rng.choice(doses)
        drug = _name(kb, f.subject, rng)
        v = f.value or 0.0
        pops = sorted(fact_populations(f.qualifiers.get("population")) & POPULATION.keys())
        pop = POPULATION[pops[0]] if pops else None
        if pop:  # a limit for a population: the sentence says for whom
            phrase = rng.choice(pop)
            tpl = rng.choice(DOSE_POPULATION).replace("{pop}", phrase)
            tpl = tpl.replace("{Pop}", phrase[0].upper() + phrase[1:])
        else:
            tpl = rng.choice(DOSE_TRUE)
        qual = status_phrase(f)
        if not false:
            s = tpl.format(drug=drug, Drug=drug.capitalize(), v=fmt_num(v), qual=qual)
            return s, "supported", None, False
        if kind == "numeric_error":
            for factor in rng.sample([2.0, 3.0, 0.5, 1.5, 4.0, 0.25], 6):
                nv = round(v * factor, 2)
                if nv not in known_values(f.subject) and nv >= 1:
                    s = tpl.format(drug=drug, Drug=drug.capitalize(), v=fmt_num(nv), qual=qual)
                    return s, "contradicted", kind, True
            return None
        if kind == "unit_error":
            if v < 1000 or v % 1000:
                return None
            s = tpl.format(drug=drug, Drug=drug.capitalize(), v=fmt_num(v), qual=qual).replace(
                f"{fmt_num(v)} mg", f"{fmt_num(v)} g"
            )
            return s, "contradicted", kind, True
        other = rng.choice(doses)
        if (
            other.subject == f.subject
            or (other.value in known_values(f.subject))
            or (f.value in known_values(other.subject))
            or len(by_drug[other.subject]) != 1
        ):
            return None
        od = _name(kb, other.subject, rng)
        tpl = rng.choice(DOSE_TRUE)  # the other drug's sentence names no population
        s = tpl.format(drug=od, Drug=od.capitalize(), v=fmt_num(v), qual="")
        return s, "contradicted", kind, True

    @kinds("negation_flip")
    def interaction(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        f = rng.choice(inter)
        a, b = (f.subject, f.object) if rng.random() < 0.5 else (f.object, f.subject)
        an, bn = _name(kb, a, rng), _name(kb, b or "", rng)
        tpl = rng.choice(INTERACT_FALSE if false else INTERACT_TRUE)
        s = tpl.format(a=an, A=an.capitalize(), b=bn)
        return (s, "contradicted", kind, True) if false else (s, "supported", None, False)

    @kinds("negation_flip")
    def indication(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        f = rng.choice(indic)
        cond = kb.entity(f.object or "")
        if cond is None or not cond.aliases:
            return None
        c = rng.choice(cond.aliases)
        an = _name(kb, f.subject, rng)
        tpl = rng.choice(INDICATION_FALSE if false else INDICATION_TRUE)
        s = tpl.format(a=an, A=an.capitalize(), c=c)
        return (s, "contradicted", kind, True) if false else (s, "supported", None, False)

    @kinds("numeric_error")
    def frequency(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        f = rng.choice(freq)
        canon = canonical_frequency(f.literal or "")
        if canon is None or len(kb.facts_about(f.subject, "dosingFrequency")) > 1:
            return None
        an = _name(kb, f.subject, rng)
        ind = f.qualifiers.get("indication")
        where = f" for {ind}" if ind else ""
        schedules = {x.canonical for x in find_frequencies(f.literal or "")}
        wrong = next(w for w, c in (("once daily", "daily"), ("once monthly", "monthly"),
                                    ("twice daily", "twice daily")) if c not in schedules)  # fmt: skip
        word = wrong if false else canon.text
        s = rng.choice(["{A}{w} is taken {x}.", "{A}{w} should be dosed {x}."]).format(
            A=an.capitalize(), w=where, x=word
        )
        return (s, "contradicted", kind, True) if false else (s, "supported", None, False)

    @kinds("outdated_fact")
    def market(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        withdrawn = [f for f in kb.facts if f.predicate == "withdrawn"]
        if not false or not withdrawn:
            return None
        f = rng.choice(withdrawn)
        an = _name(kb, f.subject, rng)
        return (
            f"{an.capitalize()} is still widely available for purchase.",
            "contradicted",
            kind,
            True,
        )

    return [
        ("dose", dose),
        ("dose", dose),
        ("dose", dose),
        ("interaction", interaction),
        ("interaction", interaction),
        ("indication", indication),
        ("frequency", frequency),
        ("market", market),
    ], AS_OF
