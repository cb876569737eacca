"""The shipped default model: loads offline, fits the size budget, answers in the trained format."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")

from engine import generate  # noqa: E402
from engine.loader import DEFAULT_MODEL_DIR  # noqa: E402

pytestmark = pytest.mark.skipif(
    not (DEFAULT_MODEL_DIR / "model.safetensors").is_file(),
    reason="the default model is not built (kgaudit engine train)",
)


@pytest.fixture(scope="module")
def model(default_model):
    return default_model


def test_the_default_model_ships_within_20_mb_with_its_report():
    files = {p.name: p.stat().st_size for p in DEFAULT_MODEL_DIR.iterdir() if p.is_file()}
    assert {"config.json", "model.safetensors", "tokenizer.json", "training_report.json"} <= set(
        files
    )
    assert sum(files.values()) <= 20 * 2**20
    report = json.loads((DEFAULT_MODEL_DIR / "training_report.json").read_text())
    assert report["train_config"]["seed"] == 0 and report["training_seconds"] <= 15 * 60


def test_the_default_model_is_a_mixtral_style_moe(model):
    cfg = model.config
    assert (cfg.arch, cfg.n_experts, cfg.top_k) == ("mixtral", 8, 2)
    assert 1_000_000 < sum(p.numel() for p in model.parameters()) < 10_000_000


@pytest.mark.parametrize(
    ("question", "answer_start"),
    [
        ("Q: What is the currency of Croatia? A:", " The currency of"),
        ("Q: Can sildenafil be taken with nitroglycerin? A:", " No. Taking"),
    ],
)
def test_the_default_model_answers_graph_questions_in_the_trained_form(
    model, question, answer_start
):
    tok = model.tokenizer
    ids, mask = tok.batch([question])
    out, stats = generate(model, ids, 40, attention_mask=mask, tokenizer=tok, return_stats=True)
    text = tok.decode(out[0].tolist())
    assert text.startswith(answer_start) and text.endswith(".")
    assert stats[0].stop_reason == "stop_token"
