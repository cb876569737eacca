"""engine.greedy_head: the fp16-screened greedy head returns the fp32 argmax."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from engine import generate  # noqa: E402
from engine import greedy_head as gh  # noqa: E402
from engine.model import fp16_weights_supported  # noqa: E402

pytestmark = pytest.mark.skipif(not fp16_weights_supported(), reason="needs fbgemm fp16 GEMM")


def fp64_best(x, w):
    """The float64 logits' maximum per row, and each row's logits."""
    exact = x.double() @ w.double().t()
    return exact.max(-1).values, exact


@pytest.mark.parametrize("rows", [1, 3, 8])
@pytest.mark.parametrize("scale", [0.1, 1.0, 30.0])
def test_equals_fp32_argmax(rows, scale):
    g = torch.Generator().manual_seed(rows)
    w = torch.randn(5003, 64, generator=g) * 0.05
    head = gh.GreedyHead(w)
    for _ in range(10):
        x = torch.randn(rows, 64, generator=g) * scale
        assert torch.equal(head(x), (x @ w.t()).argmax(-1))


def test_near_ties_pick_a_maximum_and_exact_ties_the_lowest_id():
    g = torch.Generator().manual_seed(0)
    w = torch.randn(3000, 32, generator=g) * 0.05
    w[900] = w[17] * (1 + 1e-6)  # within fp16 rounding of each other: both candidates
    w[1200] = w[40]  # an exact duplicate
    head = gh.GreedyHead(w)
    x = torch.stack([w[17] * 40, w[40] * 40, -w[17] * 40])
    got = head(x)
    best, exact = fp64_best(x, w)
    picked = exact.gather(1, got[:, None]).squeeze(1)
    assert (picked >= best - 1e-6 * best.abs()).all()
    assert got[1].item() == 40


def test_falls_back_to_fp32_when_many_tokens_can_win():
    w = torch.zeros(2000, 16)
    w[:, 0] = 1.0  # every token has the same logit
    x = torch.randn(2, 16)
    assert torch.equal(gh.GreedyHead(w)(x), torch.zeros(2, dtype=torch.long))
    x[0, 0] = float("nan")
    assert gh.GreedyHead(w)(x)[1].item() == 0


def test_generation_with_and_without_the_head(engine_models, left_padded, monkeypatch):
    model = engine_models["mixtral"]
    ids, mask = left_padded([12, 5, 8], 12, seed=5)
    plain = generate(model, ids, 32, attention_mask=mask, stop_token_ids=[])
    assert gh.greedy_head(model) is None  # the tiny model's head is under MIN_HEAD_BYTES
    monkeypatch.setattr(gh, "MIN_HEAD_BYTES", 0)
    assert gh.greedy_head(model) is not None
    assert torch.equal(generate(model, ids, 32, attention_mask=mask, stop_token_ids=[]), plain)
