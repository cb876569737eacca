"""Hugging Face ``config.json`` <-> :class:`~engine.config.ModelConfig`, per model family.

Mixtral, Qwen2-MoE and OLMoE name the same quantities differently (``num_local_experts`` vs
``num_experts``, ``intermediate_size`` vs ``moe_intermediate_size``) and default them
differently (rope theta, top-k renormalisation, q/k/v biases); this module knows both the
``rope_theta`` and the ``rope_parameters`` / ``rope_scaling`` styles.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.config import ModelConfig
from engine.errors import CheckpointError, UnsupportedArchitecture

# model_type -> (HF config key for the expert count, expert width key, default rope theta)
_FAMILIES: dict[str, tuple[str, str, float]] = {
    "mixtral": ("num_local_experts", "intermediate_size", 1_000_000.0),
    "qwen2_moe": ("num_experts", "moe_intermediate_size", 10_000.0),
    "olmoe": ("num_experts", "intermediate_size", 10_000.0),
}


def config_from_hf(hf: dict[str, Any], where: str = "config.json") -> ModelConfig:
    """Translate a Hugging Face ``config.json`` dict of a supported MoE family."""
    family = hf.get("model_type")
    if family not in _FAMILIES:
        raise UnsupportedArchitecture(
            f"{where}: model_type {family!r} is not supported; the engine runs "
            f"{', '.join(sorted(_FAMILIES))}."
        )
    if hf.get("hidden_act", "silu") != "silu":
        raise UnsupportedArchitecture(
            f"{where}: activation {hf['hidden_act']!r} is not supported (silu only)."
        )
    n_experts_key, width_key, default_theta = _FAMILIES[family]
    rope = hf.get("rope_parameters") or hf.get("rope_scaling") or {}
    rope_type = rope.get("rope_type", rope.get("type", "default"))
    if rope_type != "default":
        raise UnsupportedArchitecture(
            f"{where}: rope type {rope_type!r} is not supported (default only)."
        )
    n_layers = hf["num_hidden_layers"]
    n_experts = hf.get(n_experts_key) or 0
    extra: dict[str, Any] = {}
    if family == "qwen2_moe":
        if hf.get("use_sliding_window"):
            raise UnsupportedArchitecture(
                f"{where}: Qwen2-MoE sliding-window layers are not supported."
            )
        step, only = hf.get("decoder_sparse_step", 1), set(hf.get("mlp_only_layers") or [])
        dense = [
            i for i in range(n_layers) if i in only or not (n_experts > 0 and (i + 1) % step == 0)
        ]
        extra = dict(
            shared_expert_size=hf.get("shared_expert_intermediate_size", 0),
            qkv_bias=hf.get("qkv_bias", True),
            norm_topk_prob=hf.get("norm_topk_prob", False),
            dense_layers=tuple(dense),
            dense_intermediate_size=hf.get("intermediate_size", 0),
        )
    elif family == "olmoe":
        bias = bool(hf.get("attention_bias", False))
        extra = dict(
            qk_norm=True,
            clip_qkv=hf.get("clip_qkv"),
            qkv_bias=bias,
            o_bias=bias,
            norm_topk_prob=hf.get("norm_topk_prob", False),
        )
    else:
        extra = dict(sliding_window=hf.get("sliding_window"))
    try:
        return ModelConfig(
            vocab_size=hf["vocab_size"],
            dim=hf["hidden_size"],
            n_layers=n_layers,
            n_heads=hf["num_attention_heads"],
            n_kv_heads=hf.get("num_key_value_heads"),
            head_dim=hf.get("head_dim"),
            intermediate_size=hf[width_key],
            n_experts=max(n_experts, 1),
            top_k=hf.get("num_experts_per_tok", 2),
            rope_theta=float(rope.get("rope_theta", hf.get("rope_theta", default_theta))),
            rms_norm_eps=hf.get("rms_norm_eps", 1e-6 if family == "qwen2_moe" else 1e-5),
            max_seq_len=hf.get("max_position_embeddings", 4096),
            tie_embeddings=bool(hf.get("tie_word_embeddings", False)),
            arch=family,
            bos_token_id=hf.get("bos_token_id"),
            eos_token_id=hf.get("eos_token_id") or [],
            pad_token_id=hf.get("pad_token_id"),
            **extra,
        )
    except KeyError as exc:
        raise CheckpointError(
            f"the config lacks the required key {exc.args[0]!r}.", location=where
        ) from None
    except (TypeError, ValueError) as exc:
        raise CheckpointError(f"the config is inconsistent: {exc}", location=where) from None


def read_hf_config(path: Path) -> dict[str, Any]:
    config_file = path / "config.json"
    if not path.is_dir():
        raise CheckpointError(f"checkpoint directory {path} does not exist.")
    if not config_file.is_file():
        raise CheckpointError(
            "no config.json found; a checkpoint needs config.json and *.safetensors.",
            location=str(path),
        )
    try:
        hf = json.loads(config_file.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointError(
            f"config.json is not valid JSON ({exc}).", location=str(config_file)
        ) from None
    if not isinstance(hf, dict):
        raise CheckpointError("config.json must hold a JSON object.", location=str(config_file))
    return hf


def config_to_hf(cfg: ModelConfig) -> dict[str, Any]:
    """A Mixtral ``config.json`` for an engine-trained model (the default model's format)."""
    if (
        cfg.arch != "mixtral"
        or cfg.shared_expert_size
        or cfg.dense_layers
        or cfg.qkv_bias
        or cfg.qk_norm
    ):
        raise ValueError("only Mixtral-style models can be saved by the engine.")
    return {
        "architectures": ["MixtralForCausalLM"],
        "model_type": "mixtral",
        "hidden_act": "silu",
        "vocab_size": cfg.vocab_size,
        "hidden_size": cfg.dim,
        "num_hidden_layers": cfg.n_layers,
        "num_attention_heads": cfg.n_heads,
        "num_key_value_heads": cfg.n_kv_heads,
        "head_dim": cfg.head_dim,
        "intermediate_size": cfg.intermediate_size,
        "num_local_experts": cfg.n_experts,
        "num_experts_per_tok": cfg.top_k,
        "rms_norm_eps": cfg.rms_norm_eps,
        "max_position_embeddings": cfg.max_seq_len,
        "rope_parameters": {"rope_type": "default", "rope_theta": cfg.rope_theta},
        "sliding_window": cfg.sliding_window,
        "tie_word_embeddings": cfg.tie_embeddings,
        "bos_token_id": cfg.bos_token_id,
        "eos_token_id": cfg.eos_token_id or None,
        "pad_token_id": cfg.pad_token_id,
    }
