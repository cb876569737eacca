"""The KV cache of a named kind: ``fp`` (:mod:`engine.kv_cache`) or ``int8``/``int4``
(:mod:`engine.kv_quant`)."""

from __future__ import annotations

import torch

from engine.config import ModelConfig
from engine.kv_cache import KVCache
from engine.kv_quant import QuantizedKVCache
from kernels.kv_cache import KV_KINDS

__all__ = ["KV_KINDS", "make_cache"]


def make_cache(
    kind: str,
    cfg: ModelConfig,
    batch_size: int,
    max_len: int,
    *,
    dtype: torch.dtype,
    device: torch.device | str,
) -> KVCache:
    """A cache of ``kind`` (fp, int8 or int4) for ``batch_size`` rows of up to ``max_len`` tokens."""
    if kind == "fp":
        return KVCache(cfg, batch_size, max_len, dtype=dtype, device=device)
    if kind in ("int8", "int4"):
        return QuantizedKVCache(
            cfg, batch_size, max_len, dtype=dtype, device=device, bits=int(kind[3:])
        )
    raise ValueError(f"unknown KV-cache kind {kind!r}; choose one of {', '.join(KV_KINDS)}.")
