"""kgaudit kernels: Triton kernels with a plain-PyTorch reference for each.

Every public op dispatches to Triton for CUDA tensors (when triton is installed) and to its
reference otherwise; force either with `backend="reference"|"triton"` or the `KGAUDIT_KERNELS`
environment variable (see `kernels.dispatch`). See kernels/README.md for shapes, the sampling
algorithm and the KV-cache format.

Attributes load lazily: `import kernels` (and `measure.bench.kernels`, which the CLI imports) does not
import torch or triton; the first use of an op does. Triton is never required.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS: dict[str, str] = {
    "HAS_TRITON": "kernels._triton",
    "allowed_ids_to_bitmask": "kernels.bitmask",
    "apply_token_bitmask_": "kernels.bitmask",
    "apply_token_bitmask_reference_": "kernels.bitmask",
    "bitmask_width": "kernels.bitmask",
    "pack_bool_mask": "kernels.bitmask",
    "unpack_bitmask": "kernels.bitmask",
    "decode_attention": "kernels.decode_attention",
    "decode_attention_reference": "kernels.decode_attention",
    "resolve_backend": "kernels.dispatch",
    "fused_moe": "kernels.fused_moe",
    "fused_moe_reference": "kernels.fused_moe",
    "KV_KINDS": "kernels.kv_cache",
    "KVCache": "kernels.kv_cache",
    "dequantize_groups": "kernels.kv_quant",
    "pack_int4": "kernels.kv_quant",
    "quantize_groups": "kernels.kv_quant",
    "unpack_int4": "kernels.kv_quant",
    "sample_tokens": "kernels.sampling",
    "sample_tokens_reference": "kernels.sampling",
}

__all__ = [
    "HAS_TRITON",
    "KV_KINDS",
    "KVCache",
    "allowed_ids_to_bitmask",
    "apply_token_bitmask_",
    "apply_token_bitmask_reference_",
    "bitmask_width",
    "decode_attention",
    "decode_attention_reference",
    "dequantize_groups",
    "fused_moe",
    "fused_moe_reference",
    "pack_bool_mask",
    "pack_int4",
    "quantize_groups",
    "resolve_backend",
    "sample_tokens",
    "sample_tokens_reference",
    "unpack_bitmask",
    "unpack_int4",
]

if TYPE_CHECKING:
    from kernels._triton import HAS_TRITON
    from kernels.bitmask import (
        allowed_ids_to_bitmask,
        apply_token_bitmask_,
        apply_token_bitmask_reference_,
        bitmask_width,
        pack_bool_mask,
        unpack_bitmask,
    )
    from kernels.decode_attention import decode_attention, decode_attention_reference
    from kernels.dispatch import resolve_backend
    from kernels.fused_moe import fused_moe, fused_moe_reference
    from kernels.kv_cache import KV_KINDS, KVCache
    from kernels.kv_quant import dequantize_groups, pack_int4, quantize_groups, unpack_int4
    from kernels.sampling import sample_tokens, sample_tokens_reference


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'kernels' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
