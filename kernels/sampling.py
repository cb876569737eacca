"""Fused logits processing: bitmask + temperature + greedy / top-k / top-p sampling, one pass.

Sampling is deterministic given pre-drawn uniforms `u[B]` in [0, 1), so the Triton kernel and
the reference pick the same token for the same draws. The algorithm, per row (all in fp32):

1. Candidates: tokens allowed by the bitmask (if any) whose logit is > -inf (NaN never is).
   No candidate → `fallback_id` (ValueError when `fallback_id` is None).
2. temperature == 0 → greedy: the candidate with the largest logit, lowest id on ties.
3. z = logit / temperature, m = max candidate z, e = exp(z − m) (e = 1 where z == m), so the
   unnormalised probabilities e lie in [0, 1] and the most likely token has e == 1.
4. top-k (0 < k): τk = k-th largest candidate e (τk = 0 when k ≥ #candidates).
   Sk = Σ{e ≥ τk} e.
5. top-p (p < 1): τ = the largest candidate value t ≥ τk with Σ{e ≥ t} e ≥ p · Sk; else τ = τk.
   Ties at a threshold are all kept.
6. Inverse CDF in vocabulary order (no sort): kept = candidates with e ≥ τ, c = cumsum of kept e
   over token ids, pick the first id with c > u · c[-1]; if rounding leaves none, the last kept id.

The reference finds τk/τ by sorting; the kernel finds the same values by bisection over the
fp32 bit patterns (exact for non-negative floats). Both agree except when a partial sum lands
within float rounding of a threshold or of u · total.
"""

from __future__ import annotations

import torch

from kernels._triton import launch, tl, triton
from kernels.bitmask import _check_bitmask, unpack_bitmask
from kernels.block_sizes import sampling_block
from kernels.dispatch import use_triton

__all__ = ["sample_tokens", "sample_tokens_reference"]

_ONE_KEY_PLUS_1 = 0x3F800001  # bit pattern of 1.0f, plus one: an exclusive upper bound on keys
_NUM_BISECT = 31  # 2**31 > _ONE_KEY_PLUS_1, so 31 halvings pin the threshold exactly


def _row_param(
    value: float | int | torch.Tensor, b: int, dtype: torch.dtype, device: torch.device, name: str
) -> torch.Tensor:
    t = (
        value.to(device=device)
        if isinstance(value, torch.Tensor)
        else torch.tensor(value, device=device)
    )
    if t.dim() == 0:
        t = t.expand(b)
    if t.shape != (b,):
        raise ValueError(f"{name} must be a scalar or have shape [{b}]; got {tuple(t.shape)}.")
    return t.to(dtype).contiguous()


def _prepare(
    logits: torch.Tensor,
    u: torch.Tensor | float,
    temperature: float | torch.Tensor,
    top_p: float | torch.Tensor,
    top_k: int | torch.Tensor,
    bitmask: torch.Tensor | None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Check shapes and ranges; return u, temperature, top_p (fp32) and top_k (int32), each [B]."""
    if logits.dim() != 2 or not logits.is_floating_point():
        raise ValueError(
            f"logits must be a float [B, V] tensor; got {logits.dtype} {tuple(logits.shape)}."
        )
    b, v = logits.shape
    if bitmask is not None:
        _check_bitmask(bitmask, v, rows=b)
    dev = logits.device
    u = _row_param(u, b, torch.float32, dev, "u")
    temp = _row_param(temperature, b, torch.float32, dev, "temperature")
    top_p = _row_param(top_p, b, torch.float32, dev, "top_p")
    top_k = _row_param(top_k, b, torch.int32, dev, "top_k")
    if bool((temp < 0).any()) or bool((top_k < 0).any()):
        raise ValueError("temperature and top_k must be non-negative.")
    if bool(((top_p < 0) | (top_p > 1)).any()) or bool(((u < 0) | (u >= 1)).any()):
        raise ValueError("top_p must lie in [0, 1] and u in [0, 1).")
    return u, temp, top_p, top_k


def _finish(ids: torch.Tensor, fallback_id: int | None) -> torch.Tensor:
    if fallback_id is None and bool((ids < 0).any()):
        rows = (ids < 0).nonzero().flatten().tolist()
        raise ValueError(
            f"rows {rows} allow no token (empty mask or all logits -inf); pass fallback_id."
        )
    return ids


def sample_tokens_reference(
    logits: torch.Tensor,  # [B, V]
    u: torch.Tensor | float,  # [B] uniforms in [0, 1)
    *,
    temperature: float | torch.Tensor = 0.0,
    top_p: float | torch.Tensor = 1.0,
    top_k: int | torch.Tensor = 0,
    bitmask: torch.Tensor | None = None,  # int32 [B, ceil(V/32)]
    fallback_id: int | None = None,
) -> torch.Tensor:  # int64 [B]
    """Reference of `sample_tokens` (the algorithm in this module's docstring)."""
    u, temp, top_p, top_k = _prepare(logits, u, temperature, top_p, top_k, bitmask)
    b, v = logits.shape
    x = logits.float()  # [B, V]
    cand = x > float("-inf")  # [B, V]
    if bitmask is not None:
        cand &= unpack_bitmask(bitmask, v)
    n_cand = cand.sum(1)  # [B]
    ids = torch.argmax(torch.where(cand, x, float("-inf")), dim=1)  # [B] greedy, first max
    stochastic = temp > 0
    if bool(stochastic.any()):
        z = torch.where(cand, x / torch.where(stochastic, temp, 1.0)[:, None], float("-inf"))
        m = z.max(dim=1, keepdim=True).values  # [B, 1]
        e = torch.where(cand, torch.where(z == m, 1.0, torch.exp(z - m)), -1.0)  # [B, V]
        tau = torch.zeros(b, 1, device=x.device)  # [B, 1]
        if bool(((top_k > 0) | (top_p < 1)).any()):
            srt = torch.sort(e, dim=1, descending=True).values  # [B, V]
            k = top_k.long()
            kth = srt.gather(1, (k - 1).clamp(0, v - 1)[:, None])
            tau = torch.where(((k > 0) & (k < n_cand))[:, None], kth, tau)
            mass = torch.cumsum(torch.where(srt >= tau, srt, 0.0), dim=1)  # [B, V]
            target = (top_p * mass[:, -1])[:, None]
            j = torch.searchsorted(mass, target).clamp(max=v - 1)  # first j: mass[j] >= target
            tau_p = torch.maximum(srt.gather(1, j), tau)
            tau = torch.where((top_p < 1)[:, None], tau_p, tau)
        kept = cand & (e >= tau)  # [B, V]
        c = torch.cumsum(torch.where(kept, e, 0.0), dim=1)  # [B, V]
        pick = torch.searchsorted(
            c, (u * c[:, -1])[:, None], right=True
        ).flatten()  # first c > u·total
        cols = torch.arange(v, device=x.device)
        last = torch.where(kept, cols, -1).max(dim=1).values
        pick = torch.where(pick >= v, last, pick)
        ids = torch.where(stochastic, pick, ids)
    ids = torch.where(n_cand > 0, ids, -1 if fallback_id is None else fallback_id)
    return _finish(ids.long(), fallback_id)


@triton.jit
def _sample_kernel(
    logits_ptr,  # [B, V]
    mask_ptr,  # int32 [B, W]
    u_ptr,  # fp32 [B]
    temp_ptr,  # fp32 [B]
    top_p_ptr,  # fp32 [B]
    top_k_ptr,  # int32 [B]
    e_ptr,  # fp32 [B, V] scratch: e, or -1 for non-candidates
    out_ptr,  # int64 [B]
    V,
    stride_l,
    stride_m,
    fallback,
    HAS_MASK: tl.constexpr,
    BLOCK_V: tl.constexpr,
    NUM_BISECT: tl.constexpr,
    KEY_HI: tl.constexpr,
):
    row = tl.program_id(0)
    temp = tl.load(temp_ptr + row)
    inv_t = 1.0 / tl.where(temp > 0.0, temp, 1.0)
    offs = tl.arange(0, BLOCK_V)  # [BLOCK_V]
    best_x = float("-inf")
    best_i = V
    m = float("-inf")
    for start in range(0, V, BLOCK_V):  # pass 1: greedy argmax and the max of z
        cols = start + offs
        x = tl.load(logits_ptr + row * stride_l + cols, mask=cols < V, other=float("-inf")).to(
            tl.float32
        )
        cand = x > float("-inf")
        if HAS_MASK:
            words = tl.load(mask_ptr + row * stride_m + cols // 32, mask=cols < V, other=0)
            cand = cand & (((words >> (cols % 32)) & 1) != 0)
        xm = tl.where(cand, x, float("-inf"))
        bmax = tl.max(xm, 0)
        bidx = tl.min(tl.where(cand & (xm == bmax), cols, V), 0)
        better = bmax > best_x
        best_i = tl.where(better, bidx, best_i)
        best_x = tl.where(better, bmax, best_x)
        m = tl.maximum(m, tl.max(tl.where(cand, x * inv_t, float("-inf")), 0))
    result = best_i
    if (best_i < V) & (temp > 0.0):
        for start in range(0, V, BLOCK_V):  # pass 2: e into the scratch row
            cols = start + offs
            x = tl.load(logits_ptr + row * stride_l + cols, mask=cols < V, other=float("-inf")).to(
                tl.float32
            )
            cand = x > float("-inf")
            if HAS_MASK:
                words = tl.load(mask_ptr + row * stride_m + cols // 32, mask=cols < V, other=0)
                cand = cand & (((words >> (cols % 32)) & 1) != 0)
            z = x * inv_t
            e = tl.where(cand, tl.where(z == m, 1.0, tl.exp(z - m)), -1.0)
            tl.store(e_ptr + row * V + cols, e, mask=cols < V)
        tl.debug_barrier()
        k = tl.load(top_k_ptr + row)
        lo = 0
        if k > 0:  # top-k threshold: largest key with count(e >= key) >= k
            hi = KEY_HI
            for _ in range(NUM_BISECT):
                mid = (lo + hi) // 2
                t = mid.to(tl.float32, bitcast=True)
                cnt = 0
                for start in range(0, V, BLOCK_V):
                    e = tl.load(e_ptr + row * V + start + offs, mask=start + offs < V, other=-1.0)
                    cnt += tl.sum((e >= t).to(tl.int32), 0)
                lo = tl.where(cnt >= k, mid, lo)
                hi = tl.where(cnt >= k, hi, mid)
        p = tl.load(top_p_ptr + row)
        if p < 1.0:  # top-p threshold: largest key >= tau_k with mass(e >= key) >= p * S_k
            tk = lo.to(tl.float32, bitcast=True)
            s_k = 0.0
            for start in range(0, V, BLOCK_V):
                e = tl.load(e_ptr + row * V + start + offs, mask=start + offs < V, other=-1.0)
                s_k += tl.sum(tl.where(e >= tk, e, 0.0), 0)
            target = p * s_k
            hi = KEY_HI
            for _ in range(NUM_BISECT):
                mid = (lo + hi) // 2
                t = mid.to(tl.float32, bitcast=True)
                mass = 0.0
                for start in range(0, V, BLOCK_V):
                    e = tl.load(e_ptr + row * V + start + offs, mask=start + offs < V, other=-1.0)
                    mass += tl.sum(tl.where(e >= t, e, 0.0), 0)
                lo = tl.where(mass >= target, mid, lo)
                hi = tl.where(mass >= target, hi, mid)
        tau = lo.to(tl.float32, bitcast=True)
        total = 0.0
        for start in range(0, V, BLOCK_V):
            e = tl.load(e_ptr + row * V + start + offs, mask=start + offs < V, other=-1.0)
            total += tl.sum(tl.where(e >= tau, e, 0.0), 0)
        target = tl.load(u_ptr + row) * total
        acc = 0.0
        chosen = V
        last = -1
        for start in range(0, V, BLOCK_V):  # inverse CDF in vocabulary order
            cols = start + offs
            e = tl.load(e_ptr + row * V + cols, mask=cols < V, other=-1.0)
            w = tl.where(e >= tau, e, 0.0)
            c = acc + tl.cumsum(w, 0)
            chosen = tl.minimum(chosen, tl.min(tl.where((c > target) & (cols < V), cols, V), 0))
            last = tl.maximum(last, tl.max(tl.where(e >= tau, cols, -1), 0))
            acc += tl.sum(w, 0)
        result = tl.where(chosen < V, chosen, last)
    result = tl.where(best_i < V, result, fallback)
    tl.store(out_ptr + row, result.to(tl.int64))


def sample_tokens_triton(
    logits: torch.Tensor,  # [B, V]
    u: torch.Tensor,  # fp32 [B]
    temp: torch.Tensor,  # fp32 [B]
    top_p: torch.Tensor,  # fp32 [B]
    top_k: torch.Tensor,  # int32 [B]
    bitmask: torch.Tensor | None,  # int32 [B, W]
    fallback_id: int | None,
) -> torch.Tensor:  # int64 [B], -1 for empty rows when fallback_id is None
    """Triton launcher for `sample_tokens` (parameters already normalised to [B] tensors)."""
    b, v = logits.shape
    if logits.stride(1) != 1 or (bitmask is not None and bitmask.stride(1) != 1):
        raise ValueError("logits and bitmask rows must be contiguous (stride 1 along the vocab).")
    out = torch.empty(b, dtype=torch.int64, device=logits.device)
    scratch = torch.empty(b, v, dtype=torch.float32, device=logits.device)
    mask = bitmask if bitmask is not None else top_k  # dummy pointer when HAS_MASK is False
    # fmt: off
    launch(
        _sample_kernel, (b,), not logits.is_cuda, logits, mask, u, temp, top_p, top_k, scratch,
        out, v, logits.stride(0), mask.stride(0), -1 if fallback_id is None else fallback_id,
        HAS_MASK=bitmask is not None, BLOCK_V=sampling_block(v), NUM_BISECT=_NUM_BISECT,
        KEY_HI=_ONE_KEY_PLUS_1,
    )
    # fmt: on
    return out


def sample_tokens(
    logits: torch.Tensor,  # [B, V]
    u: torch.Tensor | float,  # [B] uniforms in [0, 1)
    *,
    temperature: float | torch.Tensor = 0.0,
    top_p: float | torch.Tensor = 1.0,
    top_k: int | torch.Tensor = 0,
    bitmask: torch.Tensor | None = None,  # int32 [B, ceil(V/32)]
    fallback_id: int | None = None,
    backend: str | None = None,
) -> torch.Tensor:  # int64 [B]
    """Mask, scale and sample one token per row; see the module docstring for the algorithm.

    `temperature`, `top_p`, `top_k` and `u` are scalars or per-row [B] tensors. A row with no
    allowed token returns `fallback_id` (e.g. the EOS id), or raises ValueError when it is None.
    """
    tensors = [logits] + ([bitmask] if bitmask is not None else [])
    if not use_triton(backend, *tensors):
        return sample_tokens_reference(
            logits,
            u,
            temperature=temperature,
            top_p=top_p,
            top_k=top_k,
            bitmask=bitmask,
            fallback_id=fallback_id,
        )
    u_t, temp, p, k = _prepare(logits, u, temperature, top_p, top_k, bitmask)
    ids = sample_tokens_triton(logits, u_t, temp, p, k, bitmask, fallback_id)
    return _finish(ids, fallback_id)
