"""Benchmark cases: each kernel on realistic shapes (GPU) or small ones (CPU), with the bytes
it must move at least, for the roofline. Imported lazily by `measure.bench.kernels`."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import torch

from kernels import (
    KVCache,
    apply_token_bitmask_,
    decode_attention,
    fused_moe,
    pack_bool_mask,
    sample_tokens,
)

__all__ = ["BenchCase", "make_cases", "time_ms"]


@dataclass
class BenchCase:
    name: str
    shape: str
    run: Callable[[str], object]  # backend -> result
    nbytes: int  # minimum bytes read + written by one call


def time_ms(fn: Callable[[], object], device: torch.device, budget_s: float = 0.5) -> float:
    """Median milliseconds per call (Triton's do_bench on CUDA, wall clock on CPU)."""
    if device.type == "cuda":
        from triton.testing import do_bench

        return float(do_bench(fn, warmup=25, rep=100))
    fn()
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < 3 or (time.perf_counter() - start < budget_s and len(times) < 50):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1e3 * sorted(times)[len(times) // 2]


def _moe(
    t: int, d: int, f: int, e: int, k: int, dtype: torch.dtype, dev: torch.device
) -> BenchCase:
    x = torch.randn(t, d, dtype=dtype, device=dev)
    w13 = torch.randn(e, 2 * f, d, dtype=dtype, device=dev) / d**0.5
    w2 = torch.randn(e, d, f, dtype=dtype, device=dev) / f**0.5
    ids = torch.rand(t, e, device=dev).topk(k, dim=1).indices
    weights = torch.softmax(torch.randn(t, k, device=dev), dim=1)
    used = int(ids.unique().numel())
    nbytes = used * 3 * d * f * x.element_size() + 2 * t * d * x.element_size()
    return BenchCase(
        "fused_moe",
        f"T={t} D={d} F={f} E={e} K={k}",
        lambda backend: fused_moe(x, w13, w2, weights, ids, backend=backend),
        nbytes,
    )


def _mask(b: int, v: int, dtype: torch.dtype, dev: torch.device) -> BenchCase:
    logits = torch.randn(b, v, dtype=dtype, device=dev)
    mask = pack_bool_mask(torch.rand(b, v, device=dev) < 0.5)
    nbytes = logits.numel() * logits.element_size() + mask.numel() * 4  # masked writes only
    return BenchCase(
        "apply_token_bitmask_",
        f"B={b} V={v}",
        lambda backend: apply_token_bitmask_(logits, mask, backend=backend),
        nbytes,
    )


def _sample(b: int, v: int, dtype: torch.dtype, dev: torch.device, **kw: float) -> BenchCase:
    logits = torch.randn(b, v, dtype=dtype, device=dev) * 3
    mask = pack_bool_mask(torch.rand(b, v, device=dev) < 0.5)
    u = torch.rand(b, device=dev)
    label = " ".join(f"{k}={val}" for k, val in kw.items())
    nbytes = logits.numel() * logits.element_size() + mask.numel() * 4
    return BenchCase(
        "sample_tokens",
        f"B={b} V={v} {label}",
        lambda backend: sample_tokens(
            logits, u, bitmask=mask, fallback_id=0, backend=backend, **kw
        ),
        nbytes,
    )


def _attention(
    b: int, hq: int, hkv: int, d: int, n: int, kind: str, dtype: torch.dtype, dev: torch.device
) -> BenchCase:
    cache = KVCache.allocate(b, hkv, d, n, kind=kind, dtype=dtype, device=dev)
    cache.append(
        torch.randn(b, hkv, n, d, dtype=dtype, device=dev),
        torch.randn(b, hkv, n, d, dtype=dtype, device=dev),
    )
    q = torch.randn(b, hq, d, dtype=dtype, device=dev)
    per_token = cache.nbytes / cache.max_seq_len  # all rows are full
    nbytes = int(per_token * n) + 2 * q.numel() * q.element_size()
    return BenchCase(
        "decode_attention",
        f"B={b} Hq={hq} Hkv={hkv} D={d} L={n} {kind}",
        lambda backend: decode_attention(q, cache, max_len=n, backend=backend),
        nbytes,
    )


def make_cases(device: torch.device, dtype: torch.dtype, quick: bool = False) -> list[BenchCase]:
    """Realistic shapes on CUDA (Mixtral / OLMoE-sized MoE, 32k–152k vocab, 4k context);
    small ones on CPU so the reference timings finish in seconds."""
    if device.type == "cuda":
        cases = [
            _moe(1, 4096, 14336, 8, 2, dtype, device),
            _moe(1, 2048, 1024, 64, 8, dtype, device),
            _moe(32, 2048, 1024, 64, 8, dtype, device),
            _moe(512, 2048, 1024, 64, 8, dtype, device),
            _mask(64, 152064, torch.float32, device),
            _sample(8, 152064, torch.float32, device, temperature=0.0),
            _sample(8, 32000, torch.float32, device, temperature=0.8, top_p=0.9),
            _attention(16, 32, 8, 128, 4096, "fp", dtype, device),
            _attention(16, 32, 8, 128, 4096, "int8", dtype, device),
            _attention(16, 32, 8, 128, 4096, "int4", dtype, device),
        ]
        if not quick:
            cases += [
                _moe(32, 4096, 14336, 8, 2, dtype, device),
                _sample(64, 32000, torch.float32, device, temperature=1.0, top_k=50, top_p=0.95),
                _attention(1, 32, 8, 128, 32768, "int4", dtype, device),
            ]
        return cases
    return [
        _moe(1, 512, 1024, 16, 2, dtype, device),
        _moe(32, 512, 1024, 16, 2, dtype, device),
        _mask(8, 32000, torch.float32, device),
        _sample(8, 32000, torch.float32, device, temperature=0.0),
        _sample(8, 32000, torch.float32, device, temperature=0.8, top_p=0.9),
        _attention(4, 8, 2, 64, 512, "fp", dtype, device),
        _attention(4, 8, 2, 64, 512, "int4", dtype, device),
    ]
