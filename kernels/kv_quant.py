"""Asymmetric group quantisation used by the KV cache (reference implementations).

A group of `group_size` consecutive entries along one axis shares a scale and a minimum:

    scale = (max − min) / (2^bits − 1),  code = clamp(round((x − min) / scale), 0, 2^bits − 1)
    x̂ = code · scale + min

`scale` and `min` are rounded to `scale_dtype` *before* the codes are computed, so dequantising
with the stored values is exactly what the kernels do. A constant group has scale 0 (codes 0,
x̂ = min). Codes are uint8; 4-bit codes are packed two per byte along the last axis, the even
index in the low nibble.
"""

from __future__ import annotations

import torch

__all__ = ["dequantize_groups", "pack_int4", "quantize_groups", "unpack_int4"]


def _check_groups(x: torch.Tensor, dim: int, group_size: int) -> int:
    dim = dim % x.dim()
    if group_size < 1 or x.shape[dim] % group_size:
        raise ValueError(
            f"axis {dim} of size {x.shape[dim]} must be a multiple of group_size={group_size}."
        )
    return dim


def quantize_groups(
    x: torch.Tensor,
    bits: int,
    *,
    dim: int,
    group_size: int,
    scale_dtype: torch.dtype = torch.float16,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Quantise groups along `dim`; returns (codes uint8 like x, scale, min) where scale/min have
    x's shape with `dim` shrunk to `x.shape[dim] // group_size`."""
    if bits not in (4, 8):
        raise ValueError(f"bits must be 4 or 8, got {bits}.")
    dim = _check_groups(x, dim, group_size)
    g = _grouped(x.float(), dim, group_size)  # [..., N/G, G, ...]
    qmax = 2**bits - 1
    lo = g.amin(dim + 1, keepdim=True).to(scale_dtype)  # [..., N/G, 1, ...]
    scale = ((g.amax(dim + 1, keepdim=True) - lo.float()) / qmax).to(scale_dtype)
    divisor = torch.where(scale.float() > 0, scale.float(), 1.0)
    codes = torch.round((g - lo.float()) / divisor).clamp_(0, qmax).to(torch.uint8)
    return codes.reshape(x.shape), scale.squeeze(dim + 1), lo.squeeze(dim + 1)


def _grouped(x: torch.Tensor, dim: int, group_size: int) -> torch.Tensor:
    """View x with axis `dim` split into (N / group_size, group_size)."""
    shape = (*x.shape[:dim], x.shape[dim] // group_size, group_size, *x.shape[dim + 1 :])
    return x.reshape(shape)


def dequantize_groups(
    codes: torch.Tensor,
    scale: torch.Tensor,
    lo: torch.Tensor,
    *,
    dim: int,
    group_size: int,
    dtype: torch.dtype = torch.float32,
) -> torch.Tensor:
    """Inverse of `quantize_groups` (up to rounding): code · scale + min, in `dtype`."""
    dim = _check_groups(codes, dim, group_size)
    g = _grouped(codes, dim, group_size).float()  # [..., N/G, G, ...]
    out = g * scale.float().unsqueeze(dim + 1) + lo.float().unsqueeze(dim + 1)
    return out.reshape(codes.shape).to(dtype)


def pack_int4(codes: torch.Tensor) -> torch.Tensor:
    """uint8 codes in [0, 15], [..., N] with N even → packed uint8 [..., N/2]."""
    if codes.dtype != torch.uint8 or codes.shape[-1] % 2:
        raise ValueError(
            f"pack_int4 needs uint8 codes with an even last axis; got {codes.dtype} {tuple(codes.shape)}."
        )
    return codes[..., 0::2] | (codes[..., 1::2] << 4)


def unpack_int4(packed: torch.Tensor) -> torch.Tensor:
    """Packed uint8 [..., N/2] → uint8 codes [..., N]."""
    if packed.dtype != torch.uint8:
        raise ValueError(f"unpack_int4 needs uint8 input; got {packed.dtype}.")
    return torch.stack((packed & 15, packed >> 4), dim=-1).reshape(*packed.shape[:-1], -1)
