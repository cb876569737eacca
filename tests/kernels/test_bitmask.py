"""Packed token bitmasks: helpers, the in-place mask kernel vs the reference and vs XGrammar."""

from __future__ import annotations

import pytest
import torch

from kernels import (
    allowed_ids_to_bitmask,
    apply_token_bitmask_,
    apply_token_bitmask_reference_,
    bitmask_width,
    pack_bool_mask,
    unpack_bitmask,
)

from .conftest import GRID_DTYPES

VOCABS = [
    pytest.param(1, id="V1"),
    pytest.param(31, id="V31"),
    pytest.param(32, id="V32"),
    pytest.param(33, id="V33"),
    pytest.param(1000, id="V1000-not-multiple-of-32"),
    pytest.param(1023, id="V1023"),
]


@pytest.mark.parametrize("vocab", VOCABS)
def test_pack_unpack_roundtrip(vocab: int) -> None:
    allowed = torch.rand(3, vocab) < 0.5
    allowed[0] = True  # bit 31 set → negative int32 words
    packed = pack_bool_mask(allowed)
    assert packed.dtype == torch.int32 and packed.shape == (3, bitmask_width(vocab))
    assert torch.equal(unpack_bitmask(packed, vocab), allowed)


def test_layout_is_lsb_first_like_xgrammar() -> None:
    mask = allowed_ids_to_bitmask([[0, 2], [31], [32, 33]], 40)
    assert mask.tolist() == [[5, 0], [-(2**31), 0], [0, 3]]


def test_allowed_ids_rejects_out_of_range() -> None:
    with pytest.raises(ValueError, match="outside"):
        allowed_ids_to_bitmask([[5, 40]], 40)


@pytest.mark.parametrize("dtype", GRID_DTYPES)
@pytest.mark.parametrize("vocab", VOCABS)
def test_triton_mask_matches_reference(
    vocab: int, dtype: torch.dtype, device: str, triton_backend: str
) -> None:
    logits = torch.randn(4, vocab).to(dtype)
    allowed = torch.rand(4, vocab) < 0.3
    allowed[1] = False  # all-zero row
    mask = pack_bool_mask(allowed)
    expected = apply_token_bitmask_reference_(logits.clone(), mask)
    on_device = logits.to(device)
    assert apply_token_bitmask_(on_device, mask.to(device), backend=triton_backend) is on_device
    actual = on_device.cpu()
    assert torch.equal(actual, expected)
    assert bool(torch.isneginf(actual[1]).all())
    assert torch.equal(actual[allowed], logits[allowed])


def test_reference_matches_xgrammar() -> None:
    xgr = pytest.importorskip("xgrammar")
    logits = torch.randn(3, 1000)
    mask = pack_bool_mask(torch.rand(3, 1000) < 0.5)
    expected = logits.clone()
    xgr.apply_token_bitmask_inplace(expected, mask)
    assert torch.equal(apply_token_bitmask_(logits, mask), expected)


def test_wider_mask_is_accepted_and_narrow_mask_rejected() -> None:
    logits = torch.randn(2, 40)
    wide = torch.cat(
        [allowed_ids_to_bitmask([[1], [2]], 40), torch.full((2, 3), -1, dtype=torch.int32)], 1
    )
    apply_token_bitmask_(logits, wide)
    assert torch.isfinite(logits).sum().item() == 2
    with pytest.raises(ValueError, match="logit width"):
        apply_token_bitmask_(torch.randn(2, 40), torch.zeros(2, 1, dtype=torch.int32))
