"""The generation loop: cache vs full forward, batching, sampling options, stops, streaming."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from engine import generate, stream  # noqa: E402
from engine.errors import EngineInputError  # noqa: E402
from engine.kv_factory import make_cache  # noqa: E402


@pytest.fixture(scope="module")
def model(engine_models):
    return engine_models["mixtral"]


def greedy_without_cache(model, ids: list[int], n: int) -> list[int]:
    out = list(ids)
    with torch.no_grad():
        for _ in range(n):
            out.append(int(model(torch.tensor([out]))[0, -1].argmax()))
    return out[len(ids) :]


def test_cached_greedy_equals_full_forward_greedy(model, left_padded):
    ids, _ = left_padded([10], 10, seed=1)
    assert generate(model, ids, 24, stop_token_ids=[])[0].tolist() == greedy_without_cache(
        model, ids[0].tolist(), 24
    )


def test_each_row_of_a_left_padded_batch_matches_its_own_run(model, left_padded):
    ids, mask = left_padded([11, 3, 7], 11, seed=2)
    batch = generate(model, ids, 20, attention_mask=mask, stop_token_ids=[])
    for i in range(3):
        alone = ids[i : i + 1, mask[i].bool()]
        assert torch.equal(batch[i], generate(model, alone, 20, stop_token_ids=[])[0])


@pytest.mark.parametrize("kind", ["fp", "int8", "int4"])
def test_prefill_then_decode_logits_track_full_forward(model, left_padded, kind):
    ids, mask = left_padded([40, 33], 40, seed=3)
    with torch.no_grad():
        full = model(ids, mask)  # [B, T, V]
        cache = make_cache(kind, model.config, 2, 40, dtype=torch.float32, device="cpu")
        steps = [model(ids[:, :8], mask[:, :8], cache=cache)]
        steps += [model(ids[:, t : t + 1], cache=cache) for t in range(8, 40)]
    cached = torch.cat(steps, dim=1)
    drift = (cached - full).abs()[mask.bool()]
    tolerance = {"fp": 1e-4, "int8": 0.1, "int4": 1.0}[kind]
    assert drift.max() < tolerance
    assert torch.isfinite(cached[mask.bool()]).all()


def test_sampling_is_reproducible_with_a_seed_and_varies_without(model, left_padded):
    ids, _ = left_padded([6, 6], 6, seed=4)
    a = generate(model, ids, 16, temperature=1.0, seed=7, stop_token_ids=[])
    b = generate(model, ids, 16, temperature=1.0, seed=7, stop_token_ids=[])
    c = generate(model, ids, 16, temperature=1.0, seed=8, stop_token_ids=[])
    assert torch.equal(a, b)
    assert not torch.equal(a, c)


@pytest.mark.parametrize(
    "options",
    [dict(temperature=0.8, top_k=1), dict(temperature=0.8, top_p=1e-6), dict(temperature=1e-4)],
    ids=["top_k=1", "tiny top_p", "tiny temperature"],
)
def test_degenerate_sampling_equals_greedy(model, left_padded, options):
    ids, _ = left_padded([9], 9, seed=5)
    greedy = generate(model, ids, 12, stop_token_ids=[])
    assert torch.equal(generate(model, ids, 12, seed=0, stop_token_ids=[], **options), greedy)


def test_repetition_penalty_discourages_repeats(model, left_padded):
    ids, _ = left_padded([4], 4, seed=6)
    plain = generate(model, ids, 48, stop_token_ids=[])[0].tolist()
    penalised = generate(model, ids, 48, repetition_penalty=5.0, stop_token_ids=[])[0].tolist()
    assert len(set(penalised)) > len(set(plain))


def test_stop_tokens_end_rows_independently_and_pad_them(model, left_padded):
    ids, mask = left_padded([8, 5], 8, seed=7)
    free = generate(model, ids, 30, attention_mask=mask, stop_token_ids=[])
    stop = int(free[0, 3])  # the 4th token of row 0 becomes a stop token
    out, stats = generate(
        model, ids, 30, attention_mask=mask, stop_token_ids=[stop], return_stats=True
    )
    first = free[0].tolist().index(stop)
    assert stats[0].new_tokens == first + 1 and stats[0].stop_reason == "stop_token"
    assert torch.equal(out[0, : first + 1], free[0, : first + 1])
    if stop not in free[1].tolist():
        assert stats[1].stop_reason == "length" and stats[1].new_tokens == out.shape[1]


def test_generation_ends_early_when_every_row_stopped(model, left_padded):
    ids, _ = left_padded([5], 5, seed=8)
    first = int(generate(model, ids, 1, stop_token_ids=[])[0, 0])
    assert generate(model, ids, 30, stop_token_ids=[first]).shape == (1, 1)


def test_stream_yields_the_tokens_generate_returns(model, left_padded):
    ids, mask = left_padded([6, 4], 6, seed=9)
    steps = list(stream(model, ids, 10, attention_mask=mask, stop_token_ids=[]))
    assert torch.equal(
        torch.stack(steps, 1), generate(model, ids, 10, attention_mask=mask, stop_token_ids=[])
    )


def test_stats_report_time_to_first_token_and_speed(model, left_padded):
    ids, mask = left_padded([6, 3], 6, seed=10)
    _, stats = generate(model, ids, 8, attention_mask=mask, stop_token_ids=[], return_stats=True)
    assert [s.prompt_tokens for s in stats] == [6, 3]
    assert all(
        0 < s.ttft_s <= s.total_s and s.new_tokens == 8 and s.decode_tokens_per_s > 0 for s in stats
    )


def test_a_logits_processor_constrains_every_step(model, left_padded):
    ids, _ = left_padded([5], 5, seed=11)
    allowed = torch.tensor([7, 11])

    def only_7_or_11(new_ids, logits):
        masked = torch.full_like(logits, float("-inf"))
        masked[:, allowed] = logits[:, allowed]
        return masked

    out = generate(model, ids, 10, kg_constraint=only_7_or_11, stop_token_ids=[])
    assert set(out[0].tolist()) <= {7, 11}


def test_zero_new_tokens_returns_an_empty_batch(model, left_padded):
    ids, _ = left_padded([3, 3], 3)
    assert generate(model, ids, 0).shape == (2, 0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(max_new_tokens=200), "exceeds the model's context"),
        (dict(max_new_tokens=-1), "max_new_tokens must be >= 0"),
        (dict(kv_cache="int2"), "unknown KV-cache kind"),
        (dict(temperature=-1.0), "temperature must be >= 0"),
        (dict(top_p=0.0), "top_p must be in"),
        (dict(stop_strings=["."]), "stop strings need a tokenizer"),
    ],
    ids=[
        "too long",
        "negative budget",
        "bad cache",
        "bad temperature",
        "bad top_p",
        "stop strings",
    ],
)
def test_bad_options_raise_clear_errors(model, left_padded, kwargs, message):
    ids, _ = left_padded([4], 4)
    n = kwargs.pop("max_new_tokens", 4)
    with pytest.raises(EngineInputError, match=message):
        generate(model, ids, n, **kwargs)


@pytest.mark.parametrize(
    ("ids", "mask", "message"),
    [
        (torch.tensor([[1, 2, 300]]), None, "token id 300 is outside the model's vocabulary"),
        (torch.tensor([[1, -2, 3]]), None, "token id -2 is outside"),
        (torch.zeros(1, 0, dtype=torch.long), None, "the prompt is empty"),
        (torch.tensor([[1, 2, 3]]), torch.tensor([[1, 1, 0]]), "must be left-padded"),
        (torch.tensor([1, 2, 3]), None, "shape \\[batch, tokens\\]"),
    ],
    ids=["id too large", "negative id", "empty", "right padding", "1-d"],
)
def test_bad_prompts_raise_clear_errors(model, ids, mask, message):
    with pytest.raises(EngineInputError, match=message):
        generate(model, ids, 4, attention_mask=mask)


def test_a_prompt_longer_than_the_context_is_refused_by_the_model(model):
    too_long = torch.ones(1, model.config.max_seq_len + 1, dtype=torch.long)
    with pytest.raises(EngineInputError, match="exceed the context"):
        model(too_long)
