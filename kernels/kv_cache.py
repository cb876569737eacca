"""Per-layer KV cache, preallocated for `max_seq_len`, in full precision or int8/int4 (KIVI-style).

Dimension legend: B sequences (batch slots), H KV heads, S max_seq_len (a multiple of Gk for
quantised kinds), D head dim, Gk key group (tokens), Gv value group (channels), Dc = D (int8)
or D/2 (int4, two codes per byte).

kind "fp":   k, v                      [B, H, S, D]  dtype
kind "int8"/"int4":
  k          key codes                 [B, H, S, Dc] uint8   per channel, groups of Gk tokens
  k_scale, k_min                       [B, H, S/Gk, D]  scale_dtype
  k_residual the open key group        [B, H, Gk, D]  dtype  (len % Gk most recent tokens)
  v          value codes               [B, H, S, Dc] uint8   per token, groups of Gv channels
  v_scale, v_min                       [B, H, S, D/Gv]  scale_dtype

Token p of sequence b is quantised when its key group is complete (p < (len_b // Gk) · Gk);
the newer keys live in `k_residual[b, :, p % Gk]` in full precision until the group fills up.
Values are quantised as they arrive. `scale_dtype` is fp32 for an fp32 cache, else fp16.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import torch

from kernels.kv_quant import dequantize_groups, pack_int4, quantize_groups, unpack_int4

__all__ = ["KV_KINDS", "KVCache"]

KV_KINDS = ("fp", "int8", "int4")


@dataclass
class KVCache:
    kind: str
    dtype: torch.dtype
    key_group: int
    value_group: int
    k: torch.Tensor
    v: torch.Tensor
    k_scale: torch.Tensor | None = None
    k_min: torch.Tensor | None = None
    k_residual: torch.Tensor | None = None
    v_scale: torch.Tensor | None = None
    v_min: torch.Tensor | None = None
    lengths: list[int] = field(default_factory=list)  # host copy of seq_lens
    seq_lens: torch.Tensor = field(default_factory=lambda: torch.zeros(0, dtype=torch.int32))

    @classmethod
    def allocate(
        cls,
        batch_size: int,
        num_kv_heads: int,
        head_dim: int,
        max_seq_len: int,
        *,
        kind: str = "fp",
        dtype: torch.dtype = torch.float32,
        device: torch.device | str = "cpu",
        key_group: int = 32,
        value_group: int | None = None,
    ) -> KVCache:
        """Allocate an empty cache for `batch_size` sequences of up to `max_seq_len` tokens."""
        if kind not in KV_KINDS:
            raise ValueError(f"kind must be one of {KV_KINDS}, got {kind!r}.")
        if min(batch_size, num_kv_heads, head_dim, max_seq_len) < 1:
            raise ValueError("batch_size, num_kv_heads, head_dim and max_seq_len must be ≥ 1.")
        if dtype not in (torch.float16, torch.bfloat16, torch.float32):
            raise ValueError(f"dtype must be fp16, bf16 or fp32, got {dtype}.")
        b, h, d = batch_size, num_kv_heads, head_dim
        lens = torch.zeros(b, dtype=torch.int32, device=device)
        if kind == "fp":
            k = torch.zeros(b, h, max_seq_len, d, dtype=dtype, device=device)
            return cls(kind, dtype, 1, 1, k, torch.zeros_like(k), lengths=[0] * b, seq_lens=lens)
        gv = value_group or min(32, d)
        if key_group < 1 or d % gv or (kind == "int4" and d % 2):
            raise ValueError(
                f"head_dim={d} must be a multiple of value_group={gv} (and even for int4); "
                f"key_group={key_group} must be ≥ 1."
            )
        s = -(-max_seq_len // key_group) * key_group
        dc = d // 2 if kind == "int4" else d
        sdt = torch.float32 if dtype == torch.float32 else torch.float16
        return cls(
            kind,
            dtype,
            key_group,
            gv,
            k=torch.zeros(b, h, s, dc, dtype=torch.uint8, device=device),
            v=torch.zeros(b, h, s, dc, dtype=torch.uint8, device=device),
            k_scale=torch.zeros(b, h, s // key_group, d, dtype=sdt, device=device),
            k_min=torch.zeros(b, h, s // key_group, d, dtype=sdt, device=device),
            k_residual=torch.zeros(b, h, key_group, d, dtype=dtype, device=device),
            v_scale=torch.zeros(b, h, s, d // gv, dtype=sdt, device=device),
            v_min=torch.zeros(b, h, s, d // gv, dtype=sdt, device=device),
            lengths=[0] * b,
            seq_lens=lens,
        )

    @property
    def batch_size(self) -> int:
        return self.k.shape[0]

    @property
    def num_kv_heads(self) -> int:
        return self.k.shape[1]

    @property
    def max_seq_len(self) -> int:
        return self.k.shape[2]

    @property
    def head_dim(self) -> int:
        return self.k_residual.shape[-1] if self.k_residual is not None else self.k.shape[-1]

    @property
    def bits(self) -> int:
        return {"fp": 8 * self.k.element_size(), "int8": 8, "int4": 4}[self.kind]

    @property
    def nbytes(self) -> int:
        parts = (
            self.k,
            self.v,
            self.k_scale,
            self.k_min,
            self.k_residual,
            self.v_scale,
            self.v_min,
        )
        return sum(t.numel() * t.element_size() for t in parts if t is not None)

    def reset(self, seq_ids: Sequence[int] | None = None) -> None:
        """Forget the listed sequences (all when None); storage is reused, not cleared."""
        for b in range(self.batch_size) if seq_ids is None else seq_ids:
            self.lengths[b] = 0
        self._sync_lengths()

    def append(
        self,
        k: torch.Tensor,  # [N, H, T, D]
        v: torch.Tensor,  # [N, H, T, D]
        *,
        seq_ids: Sequence[int] | None = None,
        lengths: Sequence[int] | None = None,
    ) -> None:
        """Append T tokens to each of N sequences (`seq_ids`, default 0..N-1).

        `lengths[i]` ≤ T tokens of row i are valid (right padding, e.g. a batched prefill of
        prompts of different lengths); default all T.
        """
        n, h, t, d = k.shape
        ids = list(range(n)) if seq_ids is None else [int(i) for i in seq_ids]
        counts = [t] * n if lengths is None else [int(c) for c in lengths]
        if v.shape != k.shape or h != self.num_kv_heads or d != self.head_dim:
            raise ValueError(
                f"k and v must both be [N, {self.num_kv_heads}, T, {self.head_dim}]; "
                f"got {tuple(k.shape)} and {tuple(v.shape)}."
            )
        if len(ids) != n or len(counts) != n or len(set(ids)) != n:
            raise ValueError(f"seq_ids and lengths need {n} entries and distinct ids.")
        for b, c in zip(ids, counts, strict=True):
            if not 0 <= b < self.batch_size or not 0 <= c <= t:
                raise ValueError(f"sequence {b} / length {c} is outside the cache or the input.")
            if self.lengths[b] + c > self.max_seq_len:
                raise ValueError(
                    f"sequence {b} would hold {self.lengths[b] + c} tokens; max_seq_len is "
                    f"{self.max_seq_len}."
                )
        k, v = k.to(self.dtype), v.to(self.dtype)
        if t == 1 and lengths is None:
            self._append_one(k[:, :, 0], v[:, :, 0], ids)
        else:
            for i, (b, c) in enumerate(zip(ids, counts, strict=True)):
                self._append_seq(b, k[i, :, :c], v[i, :, :c])
        self._sync_lengths()

    def _quantize_values(self, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        codes, scale, lo = quantize_groups(
            v, self.bits, dim=-1, group_size=self.value_group, scale_dtype=self.v_scale.dtype
        )
        return (pack_int4(codes) if self.kind == "int4" else codes), scale, lo

    def _store_key_groups(self, b: int, g0: int, keys: torch.Tensor) -> None:
        """Quantise whole key groups keys [H, n·Gk, D] into groups g0.. of sequence b."""
        codes, scale, lo = quantize_groups(
            keys, self.bits, dim=-2, group_size=self.key_group, scale_dtype=self.k_scale.dtype
        )
        n = scale.shape[1]
        self.k[b, :, g0 * self.key_group : (g0 + n) * self.key_group] = (
            pack_int4(codes) if self.kind == "int4" else codes
        )
        self.k_scale[b, :, g0 : g0 + n] = scale
        self.k_min[b, :, g0 : g0 + n] = lo

    def _append_one(self, k: torch.Tensor, v: torch.Tensor, ids: list[int]) -> None:
        """Decode step: one token ([N, H, D]) per sequence, vectorised over the batch."""
        dev = self.k.device
        rows = torch.tensor(ids, device=dev)
        pos = torch.tensor([self.lengths[b] for b in ids], device=dev)
        if self.kind == "fp":
            self.k[rows, :, pos] = k
            self.v[rows, :, pos] = v
        else:
            self.v[rows, :, pos], self.v_scale[rows, :, pos], self.v_min[rows, :, pos] = (
                self._quantize_values(v)
            )
            self.k_residual[rows, :, pos % self.key_group] = k
            for b in ids:
                if (self.lengths[b] + 1) % self.key_group == 0:
                    self._store_key_groups(b, self.lengths[b] // self.key_group, self.k_residual[b])
        for b in ids:
            self.lengths[b] += 1

    def _append_seq(self, b: int, k: torch.Tensor, v: torch.Tensor) -> None:
        """Append k, v [H, c, D] to sequence b (prefill, or ragged batches)."""
        start, c = self.lengths[b], k.shape[1]
        if c == 0:
            return
        if self.kind == "fp":
            self.k[b, :, start : start + c] = k
            self.v[b, :, start : start + c] = v
        else:
            codes, scale, lo = self._quantize_values(v)
            self.v[b, :, start : start + c] = codes
            self.v_scale[b, :, start : start + c] = scale
            self.v_min[b, :, start : start + c] = lo
            gk = self.key_group
            open_len = start % gk
            keys = torch.cat([self.k_residual[b, :, :open_len], k], dim=1)  # [H, open+c, D]
            full = keys.shape[1] // gk
            if full:
                self._store_key_groups(b, start // gk, keys[:, : full * gk])
            rest = keys[:, full * gk :]
            self.k_residual[b, :, : rest.shape[1]] = rest
        self.lengths[b] = start + c

    def _sync_lengths(self) -> None:
        self.seq_lens.copy_(torch.tensor(self.lengths, dtype=torch.int32))

    def dequantize(self, length: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Keys and values of every slot up to `length` (default the longest sequence), in
        fp32: ([B, H, L, D], [B, H, L, D]). Positions past a sequence's length are garbage;
        for an fp32 "fp" cache the result is a view of the storage."""
        length = max(self.lengths) if length is None else length
        if self.kind == "fp":
            return self.k[:, :, :length].float(), self.v[:, :, :length].float()
        gk = self.key_group
        padded = -(-length // gk) * gk
        kc, vc = self.k[:, :, :padded], self.v[:, :, :padded]
        if self.kind == "int4":
            kc, vc = unpack_int4(kc), unpack_int4(vc)
        keys = dequantize_groups(
            kc,
            self.k_scale[:, :, : padded // gk],
            self.k_min[:, :, : padded // gk],
            dim=-2,
            group_size=gk,
        )  # [B, H, Lp, D]
        for b, n in enumerate(self.lengths):  # the open group's keys: full precision
            first, end = n // gk * gk, min(n, padded)
            if first < end:
                keys[b, :, first:end] = self.k_residual[b, :, : end - first].float()
        values = dequantize_groups(
            vc,
            self.v_scale[:, :, :padded],
            self.v_min[:, :, :padded],
            dim=-1,
            group_size=self.value_group,
        )
        return keys[:, :, :length], values[:, :, :length]
