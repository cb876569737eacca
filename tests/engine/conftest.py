"""Shared fixtures: tiny random Hugging Face MoE checkpoints built locally with transformers."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

VOCAB = 96


def _hf_models() -> dict[str, tuple[type, object]]:
    from transformers import (
        MixtralConfig,
        MixtralForCausalLM,
        OlmoeConfig,
        OlmoeForCausalLM,
        Qwen2MoeConfig,
        Qwen2MoeForCausalLM,
    )

    common = dict(
        vocab_size=VOCAB,
        hidden_size=48,
        num_hidden_layers=2,
        num_attention_heads=4,
        max_position_embeddings=160,
        bos_token_id=None,
        eos_token_id=None,
        pad_token_id=0,
    )
    return {
        "mixtral": (
            MixtralForCausalLM,
            MixtralConfig(
                intermediate_size=64,
                num_key_value_heads=2,
                num_local_experts=4,
                num_experts_per_tok=2,
                rope_parameters={"rope_type": "default", "rope_theta": 10_000.0},
                **common,
            ),
        ),
        # a dense layer (mlp_only_layers), shared expert, q/k/v biases, no top-k renormalisation
        "qwen2_moe": (
            Qwen2MoeForCausalLM,
            Qwen2MoeConfig(
                intermediate_size=80,
                moe_intermediate_size=32,
                shared_expert_intermediate_size=56,
                num_key_value_heads=2,
                num_experts=4,
                num_experts_per_tok=2,
                norm_topk_prob=False,
                mlp_only_layers=[1],
                **{**common, "num_hidden_layers": 3},
            ),
        ),
        "olmoe": (
            OlmoeForCausalLM,
            OlmoeConfig(
                intermediate_size=32,
                num_key_value_heads=4,
                num_experts=4,
                num_experts_per_tok=2,
                clip_qkv=4.0,
                attention_bias=True,
                **common,
            ),
        ),
    }


@pytest.fixture(scope="session")
def hf_checkpoints(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[object, Path]]:
    """arch -> (transformers model in eval mode, eager attention, its saved directory)."""
    out = {}
    for name, (cls, cfg) in _hf_models().items():
        torch.manual_seed(1234)
        cfg._attn_implementation = "eager"
        model = cls(cfg).eval()
        with torch.no_grad():  # larger weights than the 0.02 default make routing decisive
            for p in model.parameters():
                if p.dim() >= 2:
                    p.normal_(0.0, 0.08)
        path = tmp_path_factory.mktemp(name)
        model.save_pretrained(path)
        out[name] = (model, path)
    return out


@pytest.fixture(scope="session")
def engine_models(hf_checkpoints: dict) -> dict[str, object]:
    from engine import load_model

    return {name: load_model(path, device="cpu") for name, (_, path) in hf_checkpoints.items()}


@pytest.fixture
def left_padded():
    """make(lengths, width, seed) -> random prompts of those lengths, left-padded with 0:
    ids, mask [B, width]."""

    def make(lengths: list[int], width: int, seed: int = 0) -> tuple[object, object]:
        g = torch.Generator().manual_seed(seed)
        ids = torch.randint(1, VOCAB, (len(lengths), width), generator=g)
        mask = torch.zeros_like(ids)
        for i, n in enumerate(lengths):
            mask[i, width - n :] = 1
        return ids.masked_fill(mask == 0, 0), mask

    return make


@pytest.fixture(scope="session")
def tiny_facts():
    """(facts, entities): three hand-made facts, one per domain."""
    from datetime import date

    from knowledge_graphs.model import Entity, Fact, Source

    src = Source("test")
    entities = {
        e.id: e
        for e in [
            Entity("drug:ibuprofen", "medical", "Drug", "Ibuprofen"),
            Entity("country:HR", "finance", "Country", "Croatia"),
            Entity("currency:EUR", "finance", "Currency", "Euro"),
            Entity("case:brown", "legal", "Case", "Brown v. Board of Education"),
        ]
    }
    facts = [
        Fact(
            "f1",
            "medical",
            "drug:ibuprofen",
            "maxDose",
            src,
            value=1200.0,
            unit="mg",
            qualifiers={"per": "day", "status": "otc", "population": "adult"},
        ),
        Fact(
            "f2",
            "finance",
            "country:HR",
            "currency",
            src,
            object="currency:EUR",
            valid_from=date(2023, 1, 1),
        ),
        Fact("f3", "legal", "case:brown", "citation", src, literal="347 U.S. 483"),
    ]
    return facts, entities


@pytest.fixture(scope="session")
def trained(tmp_path_factory, tiny_facts):
    """(directory, report, TrainConfig) of a tiny model trained on ``tiny_facts``."""
    from engine.train.trainer import TrainConfig, train

    out = tmp_path_factory.mktemp("tiny_model")
    cfg = TrainConfig(
        size="tiny",
        vocab_size=300,
        seq_len=32,
        batch_size=8,
        steps=120,
        lr=1e-2,
        warmup=10,
        max_minutes=5,
    )
    report = train(
        cfg, out, facts=tiny_facts[0], entities=tiny_facts[1], progress=False, log=lambda _: None
    )
    return out, report, cfg
