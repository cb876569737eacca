"""Fluency of generated answers: their likelihood under the unconstrained model.

Each answer is scored after its prompt by one full forward pass of the model (no cache, no
constraint, the model's own routing): the summed negative log-likelihood of the answer's
tokens (written with the leading space the model generates after "A:"), in nats, and their
count. Perplexity over a set of answers is ``exp(Σ nll / Σ tokens)``; empty answers have no
tokens and do not enter it. torch is imported by the caller's model only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any


def answer_nll(
    model: Any, prompts: Sequence[str], answers: Sequence[str]
) -> list[tuple[float, int]]:
    """(negative log-likelihood in nats, tokens) of each answer after its prompt."""
    import torch

    from engine.tokenizer import left_pad

    tok = model.tokenizer
    rows, spans = [], []
    for prompt, answer in zip(prompts, answers, strict=True):
        p = tok.encode(prompt)
        a = tok.encode(" " + answer, add_bos=False) if answer else []
        rows.append(p + a)
        spans.append(len(a))
    out: list[tuple[float, int]] = [(0.0, 0)] * len(rows)
    if not any(spans):
        return out
    ids, mask = left_pad(rows, tok.pad_id)  # [B, T]
    with torch.inference_mode():
        logp = torch.log_softmax(model(ids, mask).float(), dim=-1)  # [B, T, V]
    T = ids.shape[1]
    for b, n in enumerate(spans):
        if n:
            pos = torch.arange(T - n, T)
            nll = -logp[b, pos - 1, ids[b, pos]].sum().item()
            out[b] = (nll, n)
    return out


def perplexity(scores: Iterable[tuple[float, int]]) -> float | None:
    """exp(Σ nll / Σ tokens) over (nll, tokens) pairs; None without tokens.

    >>> round(perplexity([(math.log(4.0) * 2, 2), (0.0, 0)]), 6)
    4.0
    """
    nll = tokens = 0
    for s, n in scores:
        nll += s
        tokens += n
    return math.exp(nll / tokens) if tokens else None
