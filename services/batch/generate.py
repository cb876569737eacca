"""Synthetic chatbot transcripts for benchmarks and examples (deterministic for a seed).

Each transcript is one conversation in the OpenAI chat format — a system prompt, a user
question, an assistant answer — in one domain. The answer strings together sentences of
that domain's rule-pack examples (statements that the rules must flag and statements they
must pass, so answers mix correct and hallucinated claims) with the small talk real answers
carry. Answers average about 80 words, like the answers in ``examples/``.

>>> t = next(iter(transcripts(1, seed=3)))
>>> [m["role"] for m in t["messages"]], t["id"]
(['system', 'user', 'assistant'], 'gen-000000')
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

QUESTIONS = {
    "medical": [
        "What should I know about my medications?",
        "Is this dose safe for me?",
        "Can you summarise the guidance on these drugs?",
    ],
    "finance": [
        "Can you explain the current rules?",
        "What are the key numbers here?",
        "Summarise the regulation for me, please.",
    ],
    "legal": [
        "Which cases support this argument?",
        "Is this precedent still good law?",
        "Give me the key authorities.",
    ],
}
OPENERS = [
    "Great question! Here's a quick rundown.",
    "Sure — here is what you need to know.",
    "Here's a short summary.",
    "Happy to help with that.",
]
CLOSERS = [
    "Let me know if you have other questions.",
    "Please check with a qualified professional before acting on this.",
    "I hope this helps!",
    "Rules change, so confirm the details with the source.",
]
AS_OF = "2025-01-15"


def sentence_bank() -> dict[str, list[tuple[str, str | None]]]:
    """Per domain: ``(sentence, as_of)`` from every rule's fires/passes examples."""
    from rules.loader import load_rules

    bank: dict[str, list[tuple[str, str | None]]] = {}
    for pack in load_rules().packs:
        for rule in pack.rules:
            for s in (*rule.examples.fires, *rule.examples.passes):
                bank.setdefault(pack.domain, []).append((s, rule.examples.as_of))
    return bank


def transcripts(
    n: int, *, seed: int = 0, min_sentences: int = 5, max_sentences: int = 9
) -> Iterator[dict[str, Any]]:
    """``n`` conversations ``{id, domain, as_of, messages}``."""
    rng = random.Random(seed)
    bank = sentence_bank()
    domains = sorted(bank)
    for i in range(n):
        domain = domains[i % len(domains)]
        picked = rng.sample(
            bank[domain], k=min(len(bank[domain]), rng.randint(min_sentences, max_sentences))
        )
        as_of = next((a for _, a in picked if a), AS_OF)
        body = " ".join(s for s, _ in picked)
        answer = f"{rng.choice(OPENERS)} {body} {rng.choice(CLOSERS)}"
        yield {
            "id": f"gen-{i:06d}",
            "domain": domain,
            "as_of": as_of,
            "messages": [
                {"role": "system", "content": f"You are a helpful {domain} assistant."},
                {"role": "user", "content": rng.choice(QUESTIONS[domain])},
                {"role": "assistant", "content": answer},
            ],
        }


def write_transcripts(path: Path, n: int, *, seed: int = 0) -> Path:
    with path.open("wb") as f:
        for t in transcripts(n, seed=seed):
            f.write(orjson.dumps(t) + b"\n")
    return path


__all__ = ["sentence_bank", "transcripts", "write_transcripts"]
