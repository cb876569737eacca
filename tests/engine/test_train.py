"""Training of the default model, end to end on a handful of hand-made facts (tiny size)."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")

from engine import generate, load_model  # noqa: E402
from engine.train.trainer import TrainConfig, load_balancing_loss, lr_at, train  # noqa: E402


def test_training_writes_a_loadable_checkpoint_and_a_report(trained):
    out, report, cfg = trained
    assert {p.name for p in out.iterdir()} >= {
        "config.json",
        "model.safetensors",
        "tokenizer.json",
        "training_report.json",
    }
    assert (
        json.loads((out / "training_report.json").read_text())["steps"]
        == report["steps"]
        == cfg.steps
    )
    assert report["final_train_loss"] < 1.0
    for key in ("held_out_perplexity", "fact_reproduction", "expert_load", "kv_cache_quality"):
        assert key in report


def test_the_trained_model_answers_a_training_question(trained):
    out, _, _ = trained
    model = load_model(out, device="cpu")
    tok = model.tokenizer
    ids, mask = tok.batch(["Q: What is the currency of Croatia? A:"])
    text = tok.decode(generate(model, ids, 48, attention_mask=mask, tokenizer=tok)[0].tolist())
    assert "Euro" in text


@pytest.mark.slow
def test_training_is_reproducible_with_a_fixed_seed(trained, tmp_path, tiny_facts):
    out, report, cfg = trained
    again = train(
        cfg,
        tmp_path,
        facts=tiny_facts[0],
        entities=tiny_facts[1],
        progress=False,
        log=lambda _: None,
    )
    assert again["final_train_loss"] == report["final_train_loss"]
    assert (tmp_path / "model.safetensors").read_bytes() == (out / "model.safetensors").read_bytes()


def test_balanced_routing_has_the_minimal_load_balancing_loss():
    balanced = torch.zeros(64, 8)  # uniform router: loss = E * sum(K/E * 1/E) = K
    skewed = torch.zeros(64, 8)
    skewed[:, 0] = 5.0
    assert float(load_balancing_loss([balanced], 2)) == pytest.approx(2.0)
    assert float(load_balancing_loss([skewed], 2)) > 2.0


def test_learning_rate_warms_up_then_decays():
    cfg = TrainConfig(steps=100, warmup=10, lr=1.0, min_lr=0.1)
    assert lr_at(0, cfg) == pytest.approx(0.1) and lr_at(9, cfg) == pytest.approx(1.0)
    assert lr_at(99, cfg) == pytest.approx(0.1, abs=1e-3)
