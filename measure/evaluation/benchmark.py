"""A labelled benchmark generated from the graphs with a fixed seed.

Each :class:`Case` is a short answer made of claims verbalised from graph facts in several
phrasings, some of them turned into a typed hallucination (numeric perturbation, unit error,
wrong entity, wrong date, fabricated citation, impossible citation, outdated fact, negation
flip). The labels say, per claim, what a correct auditor must answer.
"""

from __future__ import annotations

import random
from datetime import date

from knowledge_graphs.store import KnowledgeBase
from measure.evaluation import gen_finance, gen_legal, gen_medical
from measure.evaluation.cases import Case, ExpectedClaim, Maker

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
