"""Triton-vs-reference parity on one device, per dtype (the GPU check of `python -m measure.bench.kernels`).

On CUDA it runs fp16, bf16 and fp32; on CPU (TRITON_INTERPRET=1) only fp32 and fp16, since the
interpreter mishandles bf16. Shapes are moderate so it finishes in seconds on a GPU.
"""

from __future__ import annotations

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

__all__ = ["ParityResult", "run_parity"]

# max |triton − reference| allowed, relative to max |reference| (outputs are O(1) here)
_TOL = {torch.float32: 1e-4, torch.float16: 5e-3, torch.bfloat16: 3e-2}
_SAMPLE_MISMATCH_OK = 0.01  # exp() differs by ulps between torch and Triton on GPU


@dataclass
class ParityResult:
    name: str
    dtype: str
    error: float  # relative max error, or the fraction of differing tokens for sampling
    tolerance: float
    ok: bool


def _rel_err(actual: torch.Tensor, expected: torch.Tensor) -> float:
    scale = expected.float().abs().max().clamp(min=1e-6)
    return float((actual.float() - expected.float()).abs().max() / scale)


def _moe_checks(dtype: torch.dtype, dev: torch.device) -> list[tuple[str, float]]:
    out = []
    for t, d, f, e, k in [(1, 256, 512, 8, 2), (37, 256, 384, 16, 4), (200, 128, 256, 8, 1)]:
        x = torch.randn(t, d, device=dev).to(dtype)
        w13 = (torch.randn(e, 2 * f, d, device=dev) / d**0.5).to(dtype)
        w2 = (torch.randn(e, d, f, device=dev) / f**0.5).to(dtype)
        ids = torch.rand(t, e, device=dev).topk(k, dim=1).indices
        if t == 200:
            ids[:] = 3  # all tokens to one expert, the others get none
        weights = torch.softmax(torch.randn(t, k, device=dev), 1)
        args = (x, w13, w2, weights, ids)
        err = _rel_err(fused_moe(*args, backend="triton"), fused_moe(*args, backend="reference"))
        out.append((f"fused_moe T={t} D={d} F={f} E={e} K={k}", err))
    return out


def _attention_checks(dtype: torch.dtype, dev: torch.device) -> list[tuple[str, float]]:
    out = []
    lens = [1, 45, 300, 129]
    for kind in ("fp", "int8", "int4"):
        cache = KVCache.allocate(4, 2, 64, 320, kind=kind, dtype=dtype, device=dev)
        k = torch.randn(4, 2, 320, 64, device=dev)
        cache.append(k, torch.randn_like(k), lengths=lens)
        q = torch.randn(4, 8, 64, device=dev).to(dtype)
        starts = torch.tensor([0, 3, 0, 100], dtype=torch.int32, device=dev)
        ref = decode_attention(q, cache, seq_starts=starts, backend="reference")
        err = _rel_err(decode_attention(q, cache, seq_starts=starts, backend="triton"), ref)
        out.append((f"decode_attention {kind} GQA4 L={lens}", err))
    return out


def run_parity(device: torch.device, dtypes: list[torch.dtype] | None = None) -> list[ParityResult]:
    """Compare every Triton kernel with its reference on `device`."""
    if dtypes is None:
        dtypes = (
            [torch.float16, torch.bfloat16, torch.float32]
            if device.type == "cuda"
            else [torch.float32, torch.float16]
        )
    torch.manual_seed(0)
    results = []
    for dtype in dtypes:
        label = str(dtype).removeprefix("torch.")
        tol = _TOL[dtype]
        for name, err in _moe_checks(dtype, device) + _attention_checks(dtype, device):
            results.append(ParityResult(name, label, err, tol, err <= tol))
        logits = torch.randn(16, 5003, device=device).to(dtype) * 3
        allowed = torch.rand(16, 5003, device=device) < 0.4
        allowed[5] = False
        mask = pack_bool_mask(allowed)
        masked = apply_token_bitmask_(logits.clone(), mask, backend="triton")
        same = torch.equal(masked, apply_token_bitmask_(logits.clone(), mask, backend="reference"))
        results.append(
            ParityResult("apply_token_bitmask_ B=16 V=5003", label, 0.0 if same else 1.0, 0.0, same)
        )
        for kw in (
            {"temperature": 0.0},
            {"temperature": 0.9, "top_p": 0.9},
            {"temperature": 1.0, "top_k": 40},
        ):
            mismatches = 0
            for _ in range(8):
                u = torch.rand(16, device=device)
                args = {"bitmask": mask, "fallback_id": 0, **kw}
                got = sample_tokens(logits, u, backend="triton", **args)
                mismatches += int(
                    (got != sample_tokens(logits, u, backend="reference", **args)).sum()
                )
            frac = mismatches / (8 * 16)
            allowed_frac = 0.0 if kw["temperature"] == 0.0 else _SAMPLE_MISMATCH_OK
            name = "sample_tokens " + " ".join(f"{k}={v}" for k, v in kw.items())
            results.append(ParityResult(name, label, frac, allowed_frac, frac <= allowed_frac))
    return results
