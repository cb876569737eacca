"""Fused sampling: Triton (interpreter) vs the reference on the same uniforms, plus checks of
the reference's distribution and edge cases."""

from __future__ import annotations

import pytest
import torch

from kernels import allowed_ids_to_bitmask, pack_bool_mask, sample_tokens, sample_tokens_reference

from .conftest import GRID_DTYPES

SETTINGS = [
    pytest.param({"temperature": 0.0}, id="greedy"),
    pytest.param({"temperature": 1.0}, id="temperature"),
    pytest.param({"temperature": 0.7, "top_k": 5}, id="top-k"),
    pytest.param({"temperature": 1.3, "top_p": 0.6}, id="top-p"),
    pytest.param({"temperature": 1.0, "top_p": 0.8, "top_k": 3}, id="top-k-and-top-p"),
    pytest.param({"temperature": 1.0, "top_p": 0.0}, id="top-p-zero"),
    pytest.param(
        {
            "temperature": torch.tensor([0.0, 1.0, 0.5, 2.0, 1.0]),
            "top_p": torch.tensor([1.0, 0.9, 0.5, 1.0, 0.3]),
            "top_k": torch.tensor([0, 0, 7, 2, 100]),
        },
        id="per-row",
    ),
]
VOCABS = [
    pytest.param(1, id="V1"),
    pytest.param(77, id="V77"),
    pytest.param(300, id="V300", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("dtype", GRID_DTYPES)
@pytest.mark.parametrize("vocab", VOCABS)
@pytest.mark.parametrize("settings", SETTINGS)
def test_triton_picks_the_reference_token(
    settings: dict, vocab: int, dtype: torch.dtype, device: str, triton_backend: str
) -> None:
    b = 5
    logits = (torch.randn(b, vocab) * 2).to(dtype)
    allowed = torch.rand(b, vocab) < 0.6
    allowed[:, 0] = True
    allowed[3] = False  # nothing allowed → fallback
    mask = pack_bool_mask(allowed)
    u = torch.rand(b)
    kwargs = {**settings, "bitmask": mask, "fallback_id": 7}
    expected = sample_tokens_reference(logits, u, **kwargs)
    moved = {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}
    actual = sample_tokens(logits.to(device), u.to(device), backend=triton_backend, **moved)
    assert actual.dtype == torch.int64 and actual.device.type == device
    assert actual.tolist() == expected.tolist()
    assert expected[3].item() == 7
    for row in (0, 1, 2, 4):
        assert allowed[row, expected[row]]


@pytest.mark.parametrize("backend", ["reference", pytest.param("triton", marks=pytest.mark.slow)])
def test_many_draws_without_mask(backend: str, triton_backend: str) -> None:
    logits = torch.randn(3, 200)
    for u in torch.linspace(0.0, 0.999, 9):
        got = sample_tokens(logits, u.item(), temperature=0.9, top_p=0.95, backend=backend)
        assert (
            got.tolist()
            == sample_tokens_reference(logits, u.item(), temperature=0.9, top_p=0.95).tolist()
        )


def test_reference_frequencies_follow_softmax() -> None:
    logits = torch.tensor([[2.0, 1.0, 0.0, -1.0, -30.0]]).expand(20000, 5)
    ids = sample_tokens_reference(logits, torch.rand(20000), temperature=1.0)
    freq = torch.bincount(ids, minlength=5).float() / 20000
    torch.testing.assert_close(freq, torch.softmax(logits[0], 0), atol=0.01, rtol=0)


def test_top_k_and_top_p_truncate() -> None:
    logits = torch.tensor([[3.0, 2.5, 2.0, 1.0, 0.0]]).expand(4000, 5)
    u = torch.rand(4000)
    assert set(sample_tokens_reference(logits, u, temperature=1.0, top_k=2).tolist()) == {0, 1}
    p = torch.softmax(logits[0], 0)  # 0.49, 0.30, 0.18, ...
    nucleus = sample_tokens_reference(logits, u, temperature=1.0, top_p=float(p[0] + p[1]) - 1e-3)
    assert set(nucleus.tolist()) == {0, 1}
    assert sample_tokens_reference(logits, u, temperature=1.0, top_k=1).eq(0).all()


def test_greedy_ties_take_lowest_id_and_respect_mask() -> None:
    logits = torch.tensor([[1.0, 5.0, 5.0, 5.0]])
    assert sample_tokens(logits, 0.5).item() == 1
    mask = allowed_ids_to_bitmask([[2, 3]], 4)
    assert sample_tokens(logits, 0.5, bitmask=mask).item() == 2


@pytest.mark.parametrize("backend", ["reference", "triton"])
def test_empty_row_without_fallback_raises(backend: str, triton_backend: str) -> None:
    mask = allowed_ids_to_bitmask([[1], []], 10)
    with pytest.raises(ValueError, match=r"rows \[1\] allow no token"):
        sample_tokens(
            torch.randn(2, 10), torch.rand(2), temperature=1.0, bitmask=mask, backend=backend
        )


@pytest.mark.parametrize("backend", ["reference", "triton"])
def test_all_minus_inf_logits_fall_back(backend: str, triton_backend: str) -> None:
    logits = torch.full((2, 50), float("-inf"))
    logits[0, 9] = 0.0
    ids = sample_tokens(logits, torch.rand(2), temperature=1.0, fallback_id=2, backend=backend)
    assert ids.tolist() == [9, 2]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"temperature": -1.0}, "non-negative"),
        ({"top_p": 1.5}, "top_p"),
        ({"top_k": torch.tensor([1, 2, 3])}, "top_k must be"),
    ],
    ids=["negative-temperature", "top-p-above-1", "top-k-wrong-shape"],
)
def test_bad_parameters_raise(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sample_tokens(torch.randn(2, 10), torch.rand(2), **kwargs)
