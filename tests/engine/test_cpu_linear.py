"""engine.cpu_linear: oneDNN projections agree with nn.Linear, keep names, fall back for autograd."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from torch import nn  # noqa: E402

from engine.cpu_linear import ONEDNN_MIN_ROWS, CpuLinear, onednn_available, use_onednn_  # noqa: E402

pytestmark = pytest.mark.skipif(not onednn_available(), reason="no oneDNN in this torch build")


@pytest.mark.parametrize("rows", [1, ONEDNN_MIN_ROWS - 1, ONEDNN_MIN_ROWS, 8, 33])
@pytest.mark.parametrize("bias", [False, True], ids=["no-bias", "bias"])
def test_matches_nn_linear(rows: int, bias: bool) -> None:
    torch.manual_seed(rows)
    ref = nn.Linear(64, 37, bias=bias)
    fast = CpuLinear(64, 37, bias=bias)
    fast.load_state_dict(ref.state_dict())
    x = torch.randn(rows, 64)
    with torch.inference_mode():
        assert torch.allclose(fast(x), ref(x), atol=1e-5, rtol=1e-5)


def test_repacks_when_the_weight_changes_and_keeps_autograd() -> None:
    lin = CpuLinear(16, 8)
    x = torch.randn(8, 16)
    with torch.inference_mode():
        first = lin(x)
    with torch.no_grad():
        lin.weight.mul_(2)
    with torch.inference_mode():
        assert not torch.allclose(lin(x), first)
        assert torch.allclose(lin(x), x @ lin.weight.T + lin.bias, atol=1e-5)
    y = lin(torch.randn(8, 16, requires_grad=True)).sum()
    y.backward()
    assert lin.weight.grad is not None


def test_use_onednn_keeps_parameter_names_and_skips_routers() -> None:
    from engine.config import named_config
    from engine.model import Transformer

    model = Transformer(named_config("tiny"))
    names = [n for n, _ in model.named_parameters()]
    use_onednn_(model)
    assert [n for n, _ in model.named_parameters()] == names
    assert isinstance(model.lm_head, CpuLinear) and isinstance(model.layers[0].attn.wqkv, CpuLinear)
    assert all(type(m.gate) is nn.Linear for m in model.modules() if hasattr(m, "route"))
