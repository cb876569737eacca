"""Packed allowed-token bitmasks (XGrammar layout) and applying them to logits in place.

Layout: `int32[B, W]` with W = ceil(V / 32); token i of row b is allowed iff bit (i % 32) of
`bitmask[b, i // 32]` is 1 (least-significant bit first). V is the *logit width* (the model's
lm_head rows), not the tokenizer's vocabulary size. Words may be wider than needed (W ≥
ceil(V/32)); bits past V are ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import torch

from kernels._triton import launch, tl, triton
from kernels.block_sizes import bitmask_block
from kernels.dispatch import use_triton

__all__ = [
    "allowed_ids_to_bitmask",
    "apply_token_bitmask_",
    "apply_token_bitmask_reference_",
    "bitmask_width",
    "pack_bool_mask",
    "unpack_bitmask",
]


def bitmask_width(vocab_size: int) -> int:
    """Number of int32 words that hold one row of `vocab_size` bits."""
    if vocab_size < 0:
        raise ValueError(f"vocab_size must be non-negative, got {vocab_size}.")
    return (vocab_size + 31) // 32


def pack_bool_mask(allowed: torch.Tensor) -> torch.Tensor:
    """bool[B, V] (True = allowed) → int32[B, ceil(V/32)] packed bitmask."""
    if allowed.dim() != 2 or allowed.dtype != torch.bool:
        raise ValueError(
            f"allowed must be a bool [B, V] tensor; got {allowed.dtype} {tuple(allowed.shape)}."
        )
    b, v = allowed.shape
    w = bitmask_width(v)
    padded = torch.zeros(b, w * 32, dtype=torch.int64, device=allowed.device)  # [B, W*32]
    padded[:, :v] = allowed.long()
    shifts = torch.arange(32, device=allowed.device, dtype=torch.int64)  # [32]
    words = (padded.view(b, w, 32) << shifts).sum(-1)  # [B, W] in [0, 2^32)
    words = torch.where(words >= 2**31, words - 2**32, words)
    return words.to(torch.int32)


def unpack_bitmask(bitmask: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """int32[B, W] packed bitmask → bool[B, vocab_size]."""
    _check_bitmask(bitmask, vocab_size)
    shifts = torch.arange(32, device=bitmask.device, dtype=torch.int32)  # [32]
    bits = (bitmask.unsqueeze(-1) >> shifts) & 1  # [B, W, 32]
    return bits.reshape(bitmask.shape[0], -1)[:, :vocab_size].bool()


def allowed_ids_to_bitmask(
    allowed: Sequence[Iterable[int] | torch.Tensor],
    vocab_size: int,
    *,
    device: torch.device | str | None = None,
) -> torch.Tensor:
    """One iterable of allowed token ids per row → int32[B, ceil(V/32)] bitmask.

    Ids outside [0, vocab_size) raise ValueError. An empty iterable gives an all-zero row.
    """
    rows = torch.zeros(len(allowed), vocab_size, dtype=torch.bool)
    for b, ids in enumerate(allowed):
        idx = (
            ids.detach().cpu().long().reshape(-1)
            if isinstance(ids, torch.Tensor)
            else torch.tensor(list(ids), dtype=torch.long)
        )
        if idx.numel() and (int(idx.min()) < 0 or int(idx.max()) >= vocab_size):
            raise ValueError(f"row {b} has token ids outside [0, {vocab_size}).")
        rows[b, idx] = True
    return pack_bool_mask(rows).to(device) if device is not None else pack_bool_mask(rows)


def _check_bitmask(bitmask: torch.Tensor, vocab_size: int, rows: int | None = None) -> None:
    if bitmask.dim() != 2 or bitmask.dtype != torch.int32:
        raise ValueError(
            f"bitmask must be int32[B, W]; got {bitmask.dtype} {tuple(bitmask.shape)}."
        )
    if bitmask.shape[1] < bitmask_width(vocab_size):
        raise ValueError(
            f"bitmask has {bitmask.shape[1]} words per row but the logit width {vocab_size} "
            f"needs {bitmask_width(vocab_size)}; size the mask to the model's logits."
        )
    if rows is not None and bitmask.shape[0] != rows:
        raise ValueError(f"bitmask has {bitmask.shape[0]} rows but logits have {rows}.")


def apply_token_bitmask_reference_(logits: torch.Tensor, bitmask: torch.Tensor) -> torch.Tensor:
    """Reference: set disallowed logits to -inf in place; returns `logits`."""
    allowed = unpack_bitmask(bitmask, logits.shape[1])  # [B, V]
    logits.masked_fill_(~allowed, float("-inf"))
    return logits


@triton.jit
def _apply_bitmask_kernel(
    logits_ptr,  # [B, V]
    mask_ptr,  # int32 [B, W]
    V,
    stride_lb,
    stride_mb,
    BLOCK_V: tl.constexpr,
):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_V + tl.arange(0, BLOCK_V)  # [BLOCK_V]
    in_row = cols < V
    words = tl.load(mask_ptr + row * stride_mb + cols // 32, mask=in_row, other=0)
    allowed = ((words >> (cols % 32)) & 1) != 0
    minus_inf = tl.full([BLOCK_V], float("-inf"), logits_ptr.dtype.element_ty)
    tl.store(logits_ptr + row * stride_lb + cols, minus_inf, mask=in_row & ~allowed)  # write only


def apply_token_bitmask_triton_(logits: torch.Tensor, bitmask: torch.Tensor) -> torch.Tensor:
    """Triton launcher for `apply_token_bitmask_` (inputs already checked)."""
    b, v = logits.shape
    block = bitmask_block(v)
    grid = (b, triton.cdiv(v, block))
    # fmt: off
    launch(
        _apply_bitmask_kernel, grid, not logits.is_cuda, logits, bitmask, v, logits.stride(0),
        bitmask.stride(0), BLOCK_V=block,
    )
    # fmt: on
    return logits


def apply_token_bitmask_(
    logits: torch.Tensor,  # [B, V] float
    bitmask: torch.Tensor,  # int32 [B, W]
    *,
    backend: str | None = None,
) -> torch.Tensor:
    """Set logits of disallowed tokens to -inf, in place; returns `logits`.

    A row whose mask allows nothing becomes all -inf; `sample_tokens` handles that row.
    """
    if logits.dim() != 2 or not logits.is_floating_point():
        raise ValueError(
            f"logits must be a float [B, V] tensor; got {logits.dtype} {tuple(logits.shape)}."
        )
    _check_bitmask(bitmask, logits.shape[1], rows=logits.shape[0])
    if bitmask.device != logits.device:
        raise ValueError(f"bitmask is on {bitmask.device} but logits are on {logits.device}.")
    if not use_triton(backend, logits, bitmask):
        return apply_token_bitmask_reference_(logits, bitmask)
    if logits.stride(1) != 1 or bitmask.stride(1) != 1:
        raise ValueError("logits and bitmask rows must be contiguous (stride 1 along the vocab).")
    return apply_token_bitmask_triton_(logits, bitmask)
