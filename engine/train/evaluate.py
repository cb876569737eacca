"""Figures for a trained model: held-out perplexity, facts reproduced, expert load, and the
quality cost of a quantized KV cache (logit drift and perplexity against the fp cache).

Shapes: B batch, T tokens, V vocabulary, E experts, K experts per token.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor

from engine.generation import generate
from engine.kv_factory import KV_KINDS, make_cache
from engine.model import Transformer
from engine.tokenizer import Tokenizer, left_pad
from engine.train.corpus import Corpus
from knowledge_graphs.verbalise import Verbalisation


def _batches(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


@torch.inference_mode()
def perplexity(
    model: Transformer, tokenizer: Tokenizer, texts: Sequence[str], batch: int = 64
) -> float:
    """Token-level perplexity of ``<s> text </s>`` documents (every token after <s> is scored)."""
    nll, count = 0.0, 0
    for chunk in _batches(texts, batch):
        ids, mask = left_pad([tokenizer.encode(t, add_eos=True) for t in chunk], tokenizer.pad_id)
        logits = model(ids, mask).float()  # [B, T, V]
        target, valid = ids[:, 1:], mask[:, 1:].bool()
        loss = F.cross_entropy(logits[:, :-1].transpose(1, 2), target, reduction="none")  # [B, T-1]
        nll += float(loss[valid].sum())
        count += int(valid.sum())
    return math.exp(nll / max(count, 1))


def fact_reproduction(
    model: Transformer, tokenizer: Tokenizer, items: Sequence[Verbalisation], batch: int = 128
) -> dict[str, Any]:
    """Greedy-decode from each prompt; an item counts when its completion contains the key."""
    hits: dict[str, list[bool]] = defaultdict(list)
    lengths = {v: len(tokenizer.encode(v.completion, add_bos=False)) for v in items}
    ordered = sorted(items, key=lambda v: (lengths[v], len(v.prompt)))  # similar lengths together
    for chunk in _batches(ordered, batch):
        ids, mask = left_pad([tokenizer.encode(v.prompt) for v in chunk], tokenizer.pad_id)
        budget = max(lengths[v] for v in chunk) + 2
        out = generate(model, ids, budget, attention_mask=mask, tokenizer=tokenizer)
        for v, row in zip(chunk, out.tolist(), strict=True):
            ok = v.key in tokenizer.decode(row)
            hits[v.kind].append(ok)
            hits[f"{v.kind}:{v.predicate}"].append(ok)
    share = {k: round(sum(v) / len(v), 4) for k, v in sorted(hits.items())}
    return {"share": share, "items": {k: len(v) for k, v in sorted(hits.items()) if ":" not in k}}


@torch.inference_mode()
def expert_load(
    model: Transformer, tokenizer: Tokenizer, texts: Sequence[str], batch: int = 64
) -> dict[str, Any]:
    """Share of top-k routing slots each expert receives, per MoE layer (ideal: 1/E each)."""
    cfg = model.config
    counts: list[Tensor] = []
    for chunk in _batches(texts, batch):
        ids, mask = left_pad([tokenizer.encode(t) for t in chunk], tokenizer.pad_id)
        router_logits: list[Tensor] = []
        model(ids, mask, router_logits=router_logits)
        valid = mask.flatten().bool()  # [N]
        for i, logits in enumerate(router_logits):  # [N, E]
            chosen = torch.topk(logits[valid], cfg.top_k, dim=-1).indices.flatten()
            c = torch.bincount(chosen, minlength=cfg.n_experts).float()
            if len(counts) <= i:
                counts.append(torch.zeros(cfg.n_experts))
            counts[i] += c
    shares = [c / c.sum() for c in counts]  # [E] per layer
    ideal = 1.0 / cfg.n_experts
    return {
        "per_layer": [[round(float(s), 4) for s in layer] for layer in shares],
        "max_share_over_ideal": round(max(float(s.max()) for s in shares) / ideal, 3),
        "min_share_over_ideal": round(min(float(s.min()) for s in shares) / ideal, 3),
        "coefficient_of_variation": round(
            sum(float(s.std() / s.mean()) for s in shares) / len(shares), 4
        ),
    }


@torch.inference_mode()
def teacher_forced_logits(model: Transformer, ids: Tensor, kind: str, prefill: int) -> Tensor:
    """Logits [B, T - prefill, V] predicting ids[:, prefill:], decoding one token at a time
    through a ``kind`` KV cache after a prefill of the first ``prefill`` tokens."""
    B, T = ids.shape
    cache = make_cache(kind, model.config, B, T, dtype=model.dtype, device=model.device)
    out = [model(ids[:, :prefill], cache=cache, last_only=True)[:, -1]]
    for t in range(prefill, T - 1):
        out.append(model(ids[:, t : t + 1], cache=cache)[:, -1])
    return torch.stack(out, dim=1).float()


def kv_cache_quality(
    model: Transformer,
    tokenizer: Tokenizer,
    texts: Sequence[str],
    *,
    rows: int = 8,
    length: int | None = None,
    prefill: int = 16,
) -> dict[str, Any]:
    """Perplexity and logit drift of int8/int4 caches against the fp cache, on packed text."""
    length = min(length or model.config.max_seq_len, model.config.max_seq_len)
    stream: list[int] = []
    for t in texts:
        stream += tokenizer.encode(t, add_eos=True)
        if len(stream) >= rows * length:
            break
    rows = min(rows, len(stream) // length)
    if rows == 0:
        return {}
    ids = torch.tensor(stream[: rows * length]).view(rows, length)  # [B, T]
    target = ids[:, prefill:]
    ref = teacher_forced_logits(model, ids, "fp", prefill)
    report: dict[str, Any] = {"rows": rows, "tokens_per_row": length, "prefill": prefill}
    for kind in KV_KINDS:
        logits = ref if kind == "fp" else teacher_forced_logits(model, ids, kind, prefill)
        drift = (logits - ref).abs()
        cache = make_cache(kind, model.config, 1, length, dtype=model.dtype, device="cpu")
        report[kind] = {
            "perplexity": round(
                math.exp(float(F.cross_entropy(logits.transpose(1, 2), target))), 4
            ),
            "max_abs_logit_drift": round(float(drift.max()), 5),
            "mean_abs_logit_drift": round(float(drift.mean()), 5),
            "top1_agreement": round(float((logits.argmax(-1) == ref.argmax(-1)).float().mean()), 4),
            "cache_bytes_per_token": round(cache.nbytes() / length, 1),
        }
    return report


def evaluate(
    model: Transformer,
    tokenizer: Tokenizer,
    corpus: Corpus,
    *,
    max_statements: int = 200,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """All figures of the training report, on the train and held-out splits of ``corpus``.

    Facts reproduced: every question-answer pair of the training split (one per fact) and a
    fixed sample of ``max_statements`` training statements; and every held-out phrasing.
    """
    held = [v.text for v in corpus.held_out]
    train_texts = [v.text for v in corpus.train]
    report: dict[str, Any] = {
        "held_out_perplexity": round(perplexity(model, tokenizer, held), 4) if held else None,
        "train_perplexity": round(perplexity(model, tokenizer, train_texts), 4),
    }
    log(f"perplexity: held-out {report['held_out_perplexity']}, train {report['train_perplexity']}")
    qa = [v for v in corpus.train if v.kind == "qa"]
    statements = [v for v in corpus.train if v.kind == "statement"]
    statements = random.Random(0).sample(statements, min(len(statements), max_statements))
    report["fact_reproduction"] = fact_reproduction(model, tokenizer, qa + statements)
    report["fact_reproduction_held_out_phrasings"] = fact_reproduction(
        model, tokenizer, corpus.held_out
    )
    log(f"facts reproduced: {report['fact_reproduction']['share']}")
    report["expert_load"] = expert_load(model, tokenizer, held or train_texts)
    report["kv_cache_quality"] = kv_cache_quality(
        model, tokenizer, held + train_texts, rows=4, length=192
    )
    return report
