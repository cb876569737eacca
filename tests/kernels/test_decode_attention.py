"""Split-KV decode attention: Triton (interpreter) vs the reference for fp/int8/int4 caches."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import torch
import torch.nn.functional as F

from kernels import KVCache, decode_attention, decode_attention_reference
from kernels.testing import assert_close

from .conftest import GRID_DTYPES


@dataclass(frozen=True)
class Case:
    lens: tuple[int, ...]
    hkv: int
    group: int  # Hq / Hkv
    d: int = 32


CASES = [
    pytest.param(Case((1,), 2, 1), id="seq1-gqa1"),
    pytest.param(Case((1, 5), 1, 4), id="seq1-gqa4"),
    pytest.param(Case((37, 1, 64), 2, 4), id="ragged-gqa4"),
    pytest.param(Case((16, 17), 2, 1), id="group-boundary-gqa1"),
    pytest.param(Case((20,), 1, 2, 48), id="head-dim-48"),
]
KINDS = [pytest.param(k, id=k) for k in ("fp", "int8", "int4")]


def build(
    case: Case, kind: str, dtype: torch.dtype, device: str = "cpu"
) -> tuple[torch.Tensor, KVCache]:
    """A query and a cache filled by a prefill and decode steps; the values are made on the
    CPU (the same for every device), then the query and the cache live on ``device``."""
    b, s = len(case.lens), max(case.lens)
    cache = KVCache.allocate(
        b,
        case.hkv,
        case.d,
        s + 3,
        kind=kind,
        dtype=dtype,
        device=device,
        key_group=16,
        value_group=16,
    )
    k, v = torch.randn(b, case.hkv, s, case.d), torch.randn(b, case.hkv, s, case.d)
    k, v = k.to(device), v.to(device)
    prompt = [max(n - 2, 0) for n in case.lens]
    cache.append(k, v, lengths=prompt)
    for row, (n, p) in enumerate(zip(case.lens, prompt, strict=True)):  # then decode steps
        for pos in range(p, n):
            cache.append(
                k[row : row + 1, :, pos : pos + 1],
                v[row : row + 1, :, pos : pos + 1],
                seq_ids=[row],
            )
    q = torch.randn(b, case.hkv * case.group, case.d).to(dtype)
    return q.to(device), cache


@pytest.mark.parametrize("dtype", GRID_DTYPES)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", CASES)
def test_triton_matches_reference(
    case: Case, kind: str, dtype: torch.dtype, device: str, triton_backend: str
) -> None:
    q, cache = build(case, kind, dtype)
    expected = decode_attention_reference(q, cache, cache.seq_lens, 0.3)
    torch.manual_seed(0)  # the same values again, on the device under test
    q_dev, cache_dev = build(case, kind, dtype, device)
    actual = decode_attention(q_dev, cache_dev, scale=0.3, backend=triton_backend)
    assert actual.shape == q.shape and actual.dtype == dtype and actual.device.type == device
    assert_close(actual.cpu(), expected, dtype)


@pytest.mark.parametrize("kind", KINDS)
def test_seq_starts_and_empty_rows(kind: str, device: str, triton_backend: str) -> None:
    q, cache = build(Case((9, 30, 4), 2, 2), kind, torch.float32)
    starts = torch.tensor([3, 17, 4], dtype=torch.int32)  # row 2 sees nothing
    expected = decode_attention_reference(q, cache, cache.seq_lens, 0.2, starts)
    torch.manual_seed(0)
    q_dev, cache_dev = build(Case((9, 30, 4), 2, 2), kind, torch.float32, device)
    actual = decode_attention(
        q_dev, cache_dev, scale=0.2, seq_starts=starts.to(device), backend=triton_backend
    ).cpu()
    assert_close(actual, expected, torch.float32)
    assert bool((expected[2] == 0).all())


def test_reference_matches_sdpa_on_fp_cache() -> None:
    q, cache = build(Case((12, 7), 2, 4), "fp", torch.float32)
    out = decode_attention(q, cache)
    for row, n in enumerate(cache.lengths):
        keys, values = cache.k[row : row + 1, :, :n], cache.v[row : row + 1, :, :n]
        ref = F.scaled_dot_product_attention(
            q[row : row + 1, :, None], keys, values, enable_gqa=True
        )
        torch.testing.assert_close(out[row], ref[0, :, 0], atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize(("kind", "tol"), [("int8", 0.02), ("int4", 0.25)], ids=["int8", "int4"])
def test_quantised_attention_stays_close_to_fp(kind: str, tol: float) -> None:
    torch.manual_seed(1)
    q, fp_cache = build(Case((40, 33), 2, 2), "fp", torch.float32)
    torch.manual_seed(1)
    _, q_cache = build(Case((40, 33), 2, 2), kind, torch.float32)
    diff = decode_attention(q, q_cache) - decode_attention(q, fp_cache)
    assert diff.abs().max() < tol


@pytest.mark.parametrize(
    ("q_shape", "message"),
    [
        ((2, 3, 32), "multiple of 2 heads"),
        ((2, 4, 16), "head dim 32"),
        ((5, 4, 32), "holds 2 sequences"),
    ],
    ids=["heads-not-multiple", "head-dim", "too-many-rows"],
)
def test_bad_query_raises(q_shape: tuple[int, ...], message: str) -> None:
    _, cache = build(Case((3, 4), 2, 2), "int8", torch.float32)
    with pytest.raises(ValueError, match=message):
        decode_attention(
            torch.randn(q_shape),
            cache,
            cache.seq_lens[: q_shape[0]].clone()
            if q_shape[0] <= 2
            else torch.ones(q_shape[0], dtype=torch.int32),
        )
