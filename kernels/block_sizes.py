"""Block sizes for every kernel, chosen in one place.

These are untuned defaults, not timing-tuned tables: tuned sizes depend on shape, GPU and Triton
version (measure with `python -m measure.bench.kernels`). They were chosen so that every kernel compiles
for sm_90 without register spills in fp16/bf16 (`python -m kernels.compile_check` reports
ptxas' numbers). All `tl.dot` operand dimensions are ≥ 16, which the GPU compiler requires (the
interpreter would accept less).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "AttentionBlocks",
    "MoEBlocks",
    "attention_blocks",
    "bitmask_block",
    "moe_decode_blocks",
    "moe_grouped_blocks",
    "next_power_of_2",
    "sampling_block",
]

MIN_DOT = 16


def next_power_of_2(n: int) -> int:
    """Smallest power of two ≥ max(n, 1)."""
    return 1 << max(n - 1, 0).bit_length()


def bitmask_block(vocab_size: int) -> int:
    """Vocab tile of the mask kernel: a multiple of 32 so tiles hold whole mask words."""
    return max(32, min(1024, next_power_of_2(vocab_size)))


def sampling_block(vocab_size: int) -> int:
    """Vocab tile of the one-program-per-row sampling kernel."""
    return max(32, min(2048, next_power_of_2(vocab_size)))


@dataclass(frozen=True)
class MoEBlocks:
    block_m: int  # (token, k) pairs per tile; each expert group is padded to a multiple
    block_n: int  # output columns per tile
    block_k: int  # reduction step
    num_warps: int
    num_stages: int = 3


def moe_grouped_blocks(num_pairs: int, num_experts: int, d: int, f: int) -> MoEBlocks:
    """Tiles of the grouped GEMM; small M-blocks when few pairs per expert (less padding)."""
    pairs_per_expert = num_pairs / max(num_experts, 1)
    block_m = 16 if pairs_per_expert <= 16 else 32 if pairs_per_expert <= 64 else 64
    block_n = max(MIN_DOT, min(64, next_power_of_2(min(d, f))))
    block_k = max(MIN_DOT, min(32, next_power_of_2(min(d, f))))
    return MoEBlocks(block_m, block_n, block_k, num_warps=8)


def moe_decode_blocks(d: int, f: int) -> MoEBlocks:
    """Tiles of the batch-1 vector-matrix path (block_m unused): few rows, long contiguous
    row segments per step."""
    block_k = max(16, min(256, next_power_of_2(max(d, f))))
    return MoEBlocks(1, 16, block_k, num_warps=4)


@dataclass(frozen=True)
class AttentionBlocks:
    block_n: int  # KV tokens per tile
    block_h: int  # query heads per KV head, padded to ≥ 16 for tl.dot
    block_d: int  # head dim, padded to a power of two
    num_splits: int  # KV splits per sequence (flash-decoding)
    num_warps: int = 8
    num_stages: int = 2


def attention_blocks(
    max_seq_len: int, head_dim: int, group: int, batch_kv_heads: int, elem_bytes: int = 2
) -> AttentionBlocks:
    """Split-KV decode tiles: enough splits to fill the GPU, each split ≥ one tile; smaller
    tiles for fp32 caches and wide heads (register pressure)."""
    block_n = 32 if head_dim <= 128 and elem_bytes <= 2 else 16
    block_h = max(MIN_DOT, next_power_of_2(group))
    block_d = max(MIN_DOT, next_power_of_2(head_dim))
    tiles = -(-max(max_seq_len, 1) // block_n)
    want = max(1, 128 // max(batch_kv_heads, 1))  # ~128 programs in flight at least
    num_splits = max(1, min(tiles, want, 32))
    return AttentionBlocks(block_n, block_h, block_d, num_splits)
