"""Timed generation runs of the engine and of ``transformers`` on the same random prompt, the
loading of both backends in the bench dtype, and the engine's logit drift: the pieces
:mod:`measure.bench.engine` times in one process and :mod:`measure.bench.engine_memory` in a fresh one."""

from __future__ import annotations

import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

from engine.config import ModelConfig


@dataclass
class Run:
    ttft_s: float
    decode_tokens_per_s: float
    prefill_tokens_per_s: float
    step_s: float  # mean decode step, wall clock
    decode_tokens_per_cpu_s: float  # the same per second of this process's CPU time

    @classmethod
    def from_stamps(
        cls,
        start: tuple[float, float],
        stamps: list[tuple[float, float]],
        batch: int,
        prompt_tokens: int,
    ) -> Run:
        """Figures from (wall, cpu) clock readings at the call and at each new token."""
        (w0, _), (w1, c1), (wn, cn) = start, stamps[0], stamps[-1]
        steps = len(stamps) - 1
        return cls(
            ttft_s=w1 - w0,
            decode_tokens_per_s=batch * steps / (wn - w1),
            prefill_tokens_per_s=batch * prompt_tokens / (w1 - w0),
            step_s=(wn - w1) / steps,
            decode_tokens_per_cpu_s=batch * steps / max(cn - c1, 1e-9),
        )


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _prompt(cfg: ModelConfig, batch: int, prompt_tokens: int, device: torch.device) -> torch.Tensor:
    g = torch.Generator().manual_seed(batch * 1000 + prompt_tokens)
    return torch.randint(3, cfg.vocab_size, (batch, prompt_tokens), generator=g).to(device)


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


def load_engine(model_dir: Path, device: torch.device, weights: str = "fp") -> Any:
    """The engine model in the bench dtype, converted to ``weights`` (see quantize_weights_)."""
    from engine.loader import load_model
    from engine.model import quantize_weights_

    return quantize_weights_(load_model(model_dir, device=device, dtype=_dtype(device)), weights)


def logit_drift(
    reference: Any, candidate: Any, batch: int, prompt_tokens: int, new_tokens: int
) -> dict[str, float]:
    """How far ``candidate``'s logits move from ``reference``'s on the bench prompt and the
    reference's greedy continuation, both teacher-forced through prefill + decode steps."""
    from engine.generation import generate

    ids = _prompt(reference.config, batch, prompt_tokens, reference.device)
    tokens = generate(reference, ids, new_tokens, stop_token_ids=[])  # [B, N]
    ref = _teacher_forced_logits(reference, ids, tokens)  # [B, N, V]
    cand = _teacher_forced_logits(candidate, ids, tokens)
    diff = (cand - ref).abs()
    return {
        "max_abs_logit_drift": float(diff.max()),
        "mean_abs_logit_drift": float(diff.mean()),
        "top1_agreement": float((cand.argmax(-1) == ref.argmax(-1)).float().mean()),
        "reference_logit_std": float(ref.std()),
    }


def _teacher_forced_logits(model: Any, ids: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    """Logits [B, N, V] (fp32) predicting each of ``tokens`` [B, N] after the prompt ``ids``."""
    from engine.kv_factory import make_cache

    B, N = tokens.shape
    with torch.inference_mode():
        cache = make_cache(
            "fp", model.config, B, ids.shape[1] + N, dtype=model.dtype, device=model.device
        )
        out = [model(ids, cache=cache, last_only=True)[:, -1]]
        out += [model(tokens[:, t : t + 1], cache=cache)[:, -1] for t in range(N - 1)]
        return torch.stack(out, dim=1).float()


def run_engine(model: Any, batch: int, prompt_tokens: int, new_tokens: int, kv_cache: str) -> Run:
    from engine.generation import stream

    ids = _prompt(model.config, batch, prompt_tokens, model.device)
    _sync(model.device)
    start = _clock()
    stamps = []
    for _ in stream(model, ids, new_tokens, stop_token_ids=[], kv_cache=kv_cache):
        stamps.append(_clock())  # the step's tokens are on the host: the loop synchronised
    return Run.from_stamps(start, stamps, batch, prompt_tokens)


def run_transformers(
    hf: Any, cfg: ModelConfig, batch: int, prompt_tokens: int, new_tokens: int
) -> Run:
    from transformers.generation.streamers import BaseStreamer

    ids = _prompt(cfg, batch, prompt_tokens, hf.device)

    class Clock(BaseStreamer):  # generate() hands it the prompt, then each step's tokens
        def __init__(self) -> None:
            self.stamps: list[tuple[float, float]] = []

        def put(self, value: torch.Tensor) -> None:
            self.stamps.append(_clock())

        def end(self) -> None:
            pass

    clock = Clock()
    _sync(hf.device)
    start = _clock()
    with torch.inference_mode():
        hf.generate(
            ids,
            attention_mask=torch.ones_like(ids),
            max_new_tokens=new_tokens,
            min_new_tokens=new_tokens,
            do_sample=False,
            pad_token_id=0,
            streamer=clock,
        )
    return Run.from_stamps(start, clock.stamps[1:], batch, prompt_tokens)


def median_run(runs: list[Run]) -> Run:
    return Run(*(statistics.median(getattr(r, f) for r in runs) for f in asdict(runs[0])))


def _dtype(device: torch.device) -> torch.dtype:
    return torch.bfloat16 if device.type == "cuda" else torch.float32


def load_hf(model_dir: Path, device: torch.device) -> tuple[Any, ModelConfig]:
    from transformers import AutoModelForCausalLM

    from engine.hf_config import config_from_hf, read_hf_config

    hf = AutoModelForCausalLM.from_pretrained(model_dir, dtype=_dtype(device)).to(device).eval()
    return hf, config_from_hf(read_hf_config(model_dir))
