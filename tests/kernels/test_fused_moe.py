"""Fused MoE: Triton (grouped and decode paths, interpreter) vs the reference, and the
reference vs a per-token loop."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import torch
import torch.nn.functional as F

from kernels import fused_moe, fused_moe_reference
from kernels.testing import assert_close

from .conftest import GRID_DTYPES


@dataclass(frozen=True)
class Case:
    t: int
    d: int
    f: int
    e: int
    k: int
    routing: str = "random"  # random | one_expert | skip_experts


CASES = [
    pytest.param(Case(1, 32, 48, 4, 2), id="T1-decode"),
    pytest.param(Case(1, 33, 17, 3, 1), id="T1-odd-sizes-k1"),
    pytest.param(Case(7, 32, 40, 5, 2), id="T7"),
    pytest.param(Case(20, 48, 16, 8, 3), id="T20-k3"),
    pytest.param(Case(9, 17, 33, 4, 2), id="odd-D-F"),
    pytest.param(Case(12, 32, 32, 6, 2, "skip_experts"), id="experts-without-tokens"),
    pytest.param(Case(10, 32, 32, 4, 1, "one_expert"), id="all-tokens-one-expert"),
    pytest.param(Case(40, 16, 16, 2, 2), id="groups-span-blocks"),
]


def make_inputs(c: Case, dtype: torch.dtype):
    x = torch.randn(c.t, c.d).to(dtype)  # [T, D]
    w13 = (torch.randn(c.e, 2 * c.f, c.d) / c.d**0.5).to(dtype)  # [E, 2F, D]
    w2 = (torch.randn(c.e, c.d, c.f) / c.f**0.5).to(dtype)  # [E, D, F]
    if c.routing == "one_expert":
        ids = torch.full((c.t, c.k), c.e - 1)
    elif c.routing == "skip_experts":  # only even experts are used
        ids = torch.stack([torch.randperm(c.e // 2)[: c.k] * 2 for _ in range(c.t)])
    else:
        ids = torch.stack([torch.randperm(c.e)[: c.k] for _ in range(c.t)])
    weights = torch.softmax(torch.randn(c.t, c.k), dim=-1)
    return x, w13, w2, weights, ids


def loop_oracle(x, w13, w2, weights, ids):
    f = w13.shape[1] // 2
    out = torch.zeros(x.shape, dtype=torch.float64)
    for t in range(x.shape[0]):
        for j in range(ids.shape[1]):
            e = int(ids[t, j])
            h = w13[e].double() @ x[t].double()
            out[t] += weights[t, j].double() * (w2[e].double() @ (F.silu(h[:f]) * h[f:]))
    return out


@pytest.mark.parametrize("dtype", GRID_DTYPES)
@pytest.mark.parametrize("case", CASES)
def test_triton_matches_reference(
    case: Case, dtype: torch.dtype, device: str, triton_backend: str
) -> None:
    inputs = make_inputs(case, dtype)
    expected = fused_moe_reference(*inputs)
    actual = fused_moe(*(t.to(device) for t in inputs), backend=triton_backend)
    assert actual.dtype == dtype and actual.shape == (case.t, case.d)
    assert actual.device.type == device
    assert_close(actual.cpu(), expected, dtype)


@pytest.mark.parametrize("dtype", GRID_DTYPES)
def test_decode_kernels_match_reference_for_t_above_one(
    dtype: torch.dtype, device: str, triton_backend: str
) -> None:
    from kernels.moe_decode import fused_moe_decode_triton

    inputs = make_inputs(Case(3, 32, 24, 4, 2), dtype)
    actual = fused_moe_decode_triton(*(t.to(device) for t in inputs))
    assert_close(actual.cpu(), fused_moe_reference(*inputs), dtype)


@pytest.mark.parametrize("case", CASES[:6])
def test_reference_matches_loop_oracle(case: Case) -> None:
    inputs = make_inputs(case, torch.float32)
    torch.testing.assert_close(
        fused_moe_reference(*inputs).double(), loop_oracle(*inputs), atol=1e-5, rtol=1e-5
    )


@pytest.mark.parametrize(
    ("t", "k", "e", "block_m"),
    [(1, 2, 4, 16), (10, 2, 4, 16), (33, 1, 2, 16), (5, 3, 64, 32)],
    ids=["T1", "T10", "one-expert-per-token", "many-experts"],
)
def test_align_block_size_invariants(t: int, k: int, e: int, block_m: int) -> None:
    from kernels.moe_grouped import moe_align_block_size

    ids = torch.randint(0, e, (t, k))
    sorted_ids, block_expert = moe_align_block_size(ids, e, block_m)
    p = t * k
    real = sorted_ids[sorted_ids < p]
    assert sorted(real.tolist()) == list(range(p))  # every pair exactly once
    blocks = sorted_ids.view(-1, block_m)
    for b, expert in enumerate(block_expert.tolist()):
        pairs = blocks[b][blocks[b] < p]
        if expert < 0:
            assert pairs.numel() == 0
        else:
            assert bool((ids.reshape(-1)[pairs.long()] == expert).all())


def test_gradients_flow_even_when_triton_is_forced() -> None:
    x, w13, w2, weights, ids = make_inputs(Case(6, 16, 8, 4, 2), torch.float32)
    for tensor in (x, w13, w2, weights):
        tensor.requires_grad_(True)
    fused_moe(x, w13, w2, weights, ids, backend="triton").square().sum().backward()
    assert all(t.grad is not None and t.grad.abs().sum() > 0 for t in (x, w13, w2, weights))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda a: {**a, "x": a["x"][None]}, "x must be"),
        (lambda a: {**a, "w2": a["w2"][:, :, :-1]}, "w2 must be"),
        (lambda a: {**a, "w13": a["w13"].half()}, "dtype"),
        (lambda a: {**a, "topk_ids": a["topk_ids"].float()}, "topk_ids must be int"),
        (lambda a: {**a, "topk_weights": a["topk_weights"][:, :1]}, "must match topk_ids"),
        (lambda a: {**a, "topk_ids": a["topk_ids"] + 10}, "lie in"),
    ],
    ids=["x-rank", "w2-shape", "weight-dtype", "ids-dtype", "weights-shape", "ids-range"],
)
def test_bad_inputs_raise_value_error(mutate, message: str) -> None:
    x, w13, w2, weights, ids = make_inputs(Case(4, 16, 8, 4, 2), torch.float32)
    args = {"x": x, "w13": w13, "w2": w2, "topk_weights": weights, "topk_ids": ids}
    with pytest.raises(ValueError, match=message):
        fused_moe(**mutate(args))
