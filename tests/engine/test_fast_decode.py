"""The CPU decode fast path (engine.cpu_decode) against the module path, and the exact greedy
head (engine.greedy_head) against a plain fp32 argmax."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from engine import generate  # noqa: E402
from engine.kv_factory import make_cache  # noqa: E402
from engine.model import fp16_weights_supported, quantize_weights_  # noqa: E402

ARCHS = ("mixtral", "qwen2_moe", "olmoe")


def decode_logits(model, ids, mask, steps: int, module_path: bool):
    """Prefill, then greedy decode steps; module_path passes an all-ones mask, which the fast
    path does not take."""
    B = ids.shape[0]
    out = []
    with torch.inference_mode():
        cache = make_cache(
            "fp", model.config, B, ids.shape[1] + steps, dtype=model.dtype, device=model.device
        )
        logits = model(ids, mask, cache=cache, last_only=True)[:, -1]
        for _ in range(steps):
            nxt = logits.argmax(-1)[:, None]
            ones = torch.ones_like(nxt)
            logits = (model(nxt, ones, cache=cache) if module_path else model(nxt, cache=cache))[
                :, -1
            ]
            out.append(logits)
    return torch.stack(out, 1)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize(
    "lengths", [[9], [9, 4, 7], [9, 9, 9, 9, 9]], ids=["b1", "b3-padded", "b5"]
)
def test_fast_decode_equals_module_path(arch, lengths, engine_models, left_padded):
    model = engine_models[arch]
    ids, mask = left_padded(lengths, 9, seed=2)
    fast = decode_logits(model, ids, mask, 6, module_path=False)
    slow = decode_logits(model, ids, mask, 6, module_path=True)
    assert (fast - slow).abs().max() < 1e-5


def test_fast_decode_restores_the_thread_count(engine_models, left_padded):
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        ids, _ = left_padded([5], 5)
        generate(engine_models["mixtral"], ids, 3, stop_token_ids=[])
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(threads)


@pytest.mark.skipif(not fp16_weights_supported(), reason="no fbgemm fp16 GEMM in this build")
def test_fast_decode_with_fp16_weights(hf_checkpoints, left_padded):
    from engine.loader import load_model

    model = quantize_weights_(load_model(hf_checkpoints["mixtral"][1]), "fp16")
    ids, mask = left_padded([8, 5], 8, seed=3)
    fast = decode_logits(model, ids, mask, 5, module_path=False)
    slow = decode_logits(model, ids, mask, 5, module_path=True)
    assert (fast - slow).abs().max() < 1e-5
