"""Held-out questions for the generation evaluation, generated from the graphs.

Each question asks for one fact of a relation the rule packs check, worded differently from
the training verbaliser (``knowledge_graphs/verbalise/templates.py`` asks "What is the maximum daily dose
of X for adults?"; here "How much X can adults take in one day at most?"), in the prompt
format the default model was trained on (``Q: ... A:``). Facts are drawn per relation with a
fixed seed, only among facts valid at the evaluation date, in fixed shares per domain.

>>> from knowledge_graphs.model import Entity, Fact, Source
>>> from knowledge_graphs.store import KnowledgeBase
>>> kb = KnowledgeBase([Entity("country:HR", "finance", "Country", "Croatia"),
...                     Entity("currency:EUR", "finance", "Currency", "Euro")],
...                    [Fact("f1", "finance", "country:HR", "currency", Source("x"),
...                          object="currency:EUR")], {"finance": "v"})
>>> [q.prompt for q in held_out_questions(kb, per_domain=1, domains=("finance",))]
['Q: Which currency is used in Croatia? A:']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any

from knowledge_graphs.model import Fact
from knowledge_graphs.store import KnowledgeBase

# Share of each domain's questions per relation (normalised per domain).
SHARES: dict[str, dict[str, float]] = {
    "medical": {
        "maxDose": 0.38,
        "interactsWith": 0.3,
        "indicatedFor": 0.2,
        "brandName": 0.08,
        "dosingFrequency": 0.03,
        "withdrawn": 0.01,
    },
    "finance": {
        "currency": 0.5,
        "adopted": 0.12,
        "officialIdentifier": 0.12,
        "applicationDate": 0.1,
        "reportingThreshold": 0.08,
        "minimumRatio": 0.05,
        "policyRate": 0.03,
    },
    "legal": {"citation": 0.38, "decided": 0.37, "overruledBy": 0.12, "statuteSubject": 0.13},
}


@dataclass(frozen=True)
class Question:
    id: str
    domain: str
    predicate: str
    fact_id: str
    subject: str
    question: str

    @property
    def prompt(self) -> str:
        return f"Q: {self.question} A:"

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "prompt": self.prompt}


Phrase = Callable[[Fact, Callable[[str | None], str], random.Random], str | None]


def _dose(f: Fact, n: Callable[[str | None], str], rng: random.Random) -> str | None:
    if f.value is None or not f.unit or f.qualifiers.get("kind") == "usual_range":
        return None  # a usual range answers no "at most" question (the auditor agrees)
    per = f.qualifiers.get("per") or "day"
    when = {"day": "in one day", "week": "in one week", "dose": "at one time"}.get(per, "")
    pop = f.qualifiers.get("population") or "adult"
    who = "adults" if pop == "adult" else pop
    return rng.choice(
        [
            f"How much {n(f.subject)} can {who} take {when} at most?",
            f"What is the most {n(f.subject)} {who} may take {when}?",
        ]
    )


def _pick(*options: str) -> Phrase:
    """Phrasings with {s} (subject) and {o} (object) placeholders; one is drawn per fact."""

    def phrase(f: Fact, n: Callable[[str | None], str], rng: random.Random) -> str | None:
        o = n(f.object) if f.object else ""
        return rng.choice(options).format(s=n(f.subject), o=o)

    return phrase


PHRASES: dict[str, Phrase] = {
    "maxDose": _dose,
    "interactsWith": _pick("Is it safe to combine {s} and {o}?", "Does {s} interact with {o}?"),
    "indicatedFor": _pick("What condition is {s} used for?", "What is {s} prescribed for?"),
    "dosingFrequency": _pick("How frequently should {s} be taken?"),
    "withdrawn": _pick("When was {s} taken off the market?"),
    "brandName": lambda f, n, rng: (
        f"Which drug is sold under the brand name {(f.literal or '').title()}?"
        if f.literal
        else None
    ),
    "policyRate": _pick("What level is the {s} at now?"),
    "reportingThreshold": _pick("Above what amount does the {s} apply?"),
    "minimumRatio": _pick("How high must the {s} be?"),
    "currency": _pick("Which currency is used in {s}?", "What money do people pay with in {s}?"),
    "adopted": _pick("On what date was {s} adopted?"),
    "applicationDate": _pick("From what date does {s} apply?"),
    "officialIdentifier": _pick("How is {s} officially cited?"),
    "citation": _pick("Where is {s} reported?", "What is the reporter citation for {s}?"),
    "decided": _pick("In what year was {s} decided?"),
    "overruledBy": _pick("What decision overruled {s}?"),
    "statuteSubject": _pick("What is {s} about?"),
}


def _quotas(shares: dict[str, float], n: int) -> dict[str, int]:
    """Split ``n`` questions by ``shares`` (largest remainders; small shares may get none)."""
    total = sum(shares.values()) or 1.0
    raw = {p: n * s / total for p, s in shares.items()}
    quotas = {p: int(x) for p, x in raw.items()}
    left = n - sum(quotas.values())
    for p in sorted(raw, key=lambda p: (int(raw[p]) - raw[p], p))[:left]:
        quotas[p] += 1
    return quotas


def held_out_questions(
    kb: KnowledgeBase,
    *,
    per_domain: int = 80,
    seed: int = 0,
    as_of: date | None = None,
    domains: Sequence[str] = ("medical", "finance", "legal"),
) -> list[Question]:
    """``per_domain`` questions per domain (fewer when the graph has fewer facts)."""
    from knowledge_graphs.verbalise import Names

    names = Names(kb.entities)
    day = as_of or date.today()
    out: list[Question] = []
    for domain in domains:
        for predicate, quota in _quotas(SHARES.get(domain, {}), per_domain).items():
            rng = random.Random(f"{seed}:{domain}:{predicate}")
            facts = sorted(
                (
                    f
                    for f in kb.facts_with(predicate)
                    if f.domain == domain
                    and f.valid_at(day)
                    and not f.qualifiers.get("co_medication")
                ),
                key=lambda f: f.id,
            )
            rng.shuffle(facts)
            taken = 0
            for f in facts:
                if taken >= quota:
                    break
                text = PHRASES[predicate](f, names, rng)
                if not text:
                    continue
                qid = f"{domain}-{predicate}-{taken:03d}"
                out.append(Question(qid, domain, predicate, f.id, f.subject, text))
                taken += 1
    return out
