"""KV quantisation helpers and the cache's append / dequantise bookkeeping (reference only)."""

from __future__ import annotations

import pytest
import torch

from kernels import KVCache, dequantize_groups, pack_int4, quantize_groups, unpack_int4


@pytest.mark.parametrize("bits", [4, 8], ids=["int4", "int8"])
@pytest.mark.parametrize("dim", [-1, -2], ids=["groups-along-channels", "groups-along-tokens"])
def test_quantize_error_is_within_half_a_step(bits: int, dim: int) -> None:
    x = torch.randn(2, 3, 32, 16) * 3
    codes, scale, lo = quantize_groups(x, bits, dim=dim, group_size=8, scale_dtype=torch.float32)
    assert codes.dtype == torch.uint8 and int(codes.max()) <= 2**bits - 1
    back = dequantize_groups(codes, scale, lo, dim=dim, group_size=8)
    step = scale.repeat_interleave(8, dim=dim)
    assert bool(((back - x).abs() <= step / 2 + 1e-5).all())


def test_constant_group_dequantises_exactly() -> None:
    x = torch.full((4, 8), 1.25)
    codes, scale, lo = quantize_groups(x, 4, dim=-1, group_size=8)
    assert bool((scale == 0).all())
    assert torch.equal(dequantize_groups(codes, scale, lo, dim=-1, group_size=8), x)


def test_int4_pack_roundtrip_and_nibble_order() -> None:
    codes = torch.randint(0, 16, (3, 10), dtype=torch.uint8)
    assert torch.equal(unpack_int4(pack_int4(codes)), codes)
    assert pack_int4(torch.tensor([[1, 2]], dtype=torch.uint8)).item() == 0x21


def test_bad_group_size_raises() -> None:
    with pytest.raises(ValueError, match="multiple of group_size"):
        quantize_groups(torch.randn(4, 10), 8, dim=-1, group_size=4)


KINDS = [("fp", 0.0), ("int8", 0.05), ("int4", 0.8)]


@pytest.mark.parametrize(("kind", "tol"), KINDS, ids=[k for k, _ in KINDS])
def test_prefill_and_decode_appends_roundtrip(kind: str, tol: float) -> None:
    b, h, d, gk = 3, 2, 16, 8
    cache = KVCache.allocate(b, h, d, 40, kind=kind, key_group=gk, value_group=8)
    k, v = torch.randn(b, h, 30, d), torch.randn(b, h, 30, d)
    cache.append(k[:, :, :10], v[:, :, :10], lengths=[10, 3, 8])  # ragged prefill
    starts = [10, 3, 8]
    for step in range(12):  # decode, crossing key-group boundaries at different steps
        cache.append(k[:, :, 10 + step : 11 + step], v[:, :, 10 + step : 11 + step])
    assert cache.lengths == [22, 15, 20]
    assert cache.seq_lens.tolist() == [22, 15, 20]
    keys, values = cache.dequantize()
    for row, start in enumerate(starts):
        ref_k = torch.cat([k[row, :, :start], k[row, :, 10:22]], 1)
        ref_v = torch.cat([v[row, :, :start], v[row, :, 10:22]], 1)
        n = cache.lengths[row]
        assert (keys[row, :, :n] - ref_k).abs().max() <= tol
        assert (values[row, :, :n] - ref_v).abs().max() <= tol
        open_len = n % gk  # the newest keys are exact (full-precision residual window)
        if kind != "fp" and open_len:
            assert torch.equal(keys[row, :, n - open_len : n], ref_k[:, n - open_len :])


def test_append_to_chosen_rows_and_reset() -> None:
    cache = KVCache.allocate(4, 1, 8, 16, kind="int8", key_group=4)
    cache.append(torch.randn(2, 1, 5, 8), torch.randn(2, 1, 5, 8), seq_ids=[3, 1])
    assert cache.lengths == [0, 5, 0, 5]
    cache.reset([1])
    assert cache.seq_lens.tolist() == [0, 0, 0, 5]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda c: c.append(torch.randn(1, 2, 20, 16), torch.randn(1, 2, 20, 16)), "max_seq_len"),
        (lambda c: c.append(torch.randn(1, 3, 1, 16), torch.randn(1, 3, 1, 16)), "must both be"),
        (
            lambda c: c.append(torch.randn(2, 2, 1, 16), torch.randn(2, 2, 1, 16), seq_ids=[0, 0]),
            "distinct",
        ),
        (
            lambda c: KVCache.allocate(1, 1, 12, 8, kind="int4", value_group=8),
            "multiple of value_group",
        ),
        (lambda c: KVCache.allocate(1, 1, 8, 8, kind="int2"), "kind must be"),
    ],
    ids=["overflow", "wrong-heads", "duplicate-rows", "bad-value-group", "bad-kind"],
)
def test_cache_errors(call, message: str) -> None:
    cache = KVCache.allocate(2, 2, 16, 16, kind="int4", key_group=8)
    with pytest.raises(ValueError, match=message):
        call(cache)


def test_quantised_cache_is_smaller() -> None:
    sizes = {
        k: KVCache.allocate(1, 8, 128, 1024, kind=k, dtype=torch.float16).nbytes
        for k in ("fp", "int8", "int4")
    }
    assert sizes["int4"] < sizes["int8"] < sizes["fp"]
