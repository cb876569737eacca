"""A labelled benchmark generated from the graphs with a fixed seed.

Each :class:`Case` is a short answer made of claims verbalised from graph facts in several
phrasings, some of them turned into a typed hallucination (numeric perturbation, unit error,
wrong entity, wrong date, fabricated citation, impossible citation, outdated fact, negation
flip). The labels say, per claim, what a correct auditor must answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

from knowledge_graphs.store import KnowledgeBase

HALLUCINATION_KINDS = (
    "numeric_error",
    "unit_error",
    "wrong_entity",
    "wrong_date",
    "fabricated_citation",
    "impossible_citation",
    "outdated_fact",
    "negation_flip",
)
FILLERS = [
    "",
    "Sure! ",
    "Good question. ",
    "Here is what I found. ",
    "In short: ",
    "Based on current guidance, ",
]
CLOSINGS = [
    "",
    " Please consult a professional for advice specific to your situation.",
    " Let me know if you need more detail.",
    " This is general information, not advice.",
]


@dataclass
class ExpectedClaim:
    sentence: str
    verdict: str  # supported | contradicted | unverifiable
    kind: str | None  # hallucination kind when injected, else None
    flagged: bool  # the answer-level label this claim implies (a hallucination)


@dataclass
class Case:
    id: str
    domain: str
    as_of: str
    text: str
    claims: list[ExpectedClaim] = field(default_factory=list)

    @property
    def hallucinated(self) -> bool:
        return any(c.flagged for c in self.claims)

    @property
    def kinds(self) -> list[str]:
        return sorted({c.kind for c in self.claims if c.kind})

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "hallucinated": self.hallucinated, "kinds": self.kinds}


# A sentence maker returns (sentence, expected verdict, kind or None, flagged) or None when the
# drawn fact does not support that variant.
Maker = Callable[[random.Random, bool, str | None], tuple[str, str, str | None, bool] | None]


def compose(
    rng: random.Random,
    domain: str,
    idx: int,
    as_of: date,
    makers: list[tuple[str, Maker]],
    *,
    p_false: float = 0.5,
) -> Case:
    """An answer of 1–3 claims; with probability ``p_false`` one of them is a hallucination."""
    n = rng.choice([1, 2, 2, 3])
    bad_slot = rng.randrange(n) if rng.random() < p_false else -1
    claims: list[ExpectedClaim] = []
    sentences: list[str] = []
    attempts = 0
    while len(sentences) < n and attempts < 60:
        attempts += 1
        _, maker = rng.choice(makers)
        want_false = len(sentences) == bad_slot
        kind = None
        if want_false:
            kinds = getattr(maker, "kinds", ())
            if not kinds:
                continue
            kind = rng.choice(kinds)
        made = maker(rng, want_false, kind)
        if made is None or made[0] in sentences:
            continue
        sentence, verdict, k, flagged = made
        sentences.append(sentence)
        claims.append(ExpectedClaim(sentence, verdict, k, flagged))
    text = rng.choice(FILLERS) + " ".join(sentences) + rng.choice(CLOSINGS)
    return Case(f"{domain}-{idx:04d}", domain, as_of.isoformat(), text.strip(), claims)


def generate_benchmark(
    kb: KnowledgeBase,
    *,
    seed: int = 7,
    per_domain: int = 300,
    domains: tuple[str, ...] = ("finance", "medical", "legal"),
) -> list[Case]:
    """The benchmark: ``per_domain`` answers per domain, reproducible from ``seed``."""
    from auditor.evaluation import gen_finance, gen_legal, gen_medical

    factories = {
        "medical": gen_medical.makers,
        "finance": gen_finance.makers,
        "legal": gen_legal.makers,
    }
    cases: list[Case] = []
    for d in domains:
        rng = random.Random(f"{seed}-{d}")
        makers, as_of = factories[d](kb, rng)
        cases += [compose(rng, d, i, as_of, makers) for i in range(per_domain)]
    return cases


def kinds(*names: str) -> Callable[[Maker], Maker]:
    """Declare which hallucination kinds a maker can inject."""

    def deco(fn: Maker) -> Maker:
        fn.kinds = names  # type: ignore[attr-defined]
        return fn

    return deco


def fmt_num(v: float) -> str:
    if float(v).is_integer():
        return f"{int(v):,}"
    return f"{v:g}"
