"""Checkpoint loading: config styles, on-disk names, round trips and clear errors."""

from __future__ import annotations

import json
import shutil

import pytest

torch = pytest.importorskip("torch")

from engine import load_model  # noqa: E402
from engine.checkpoint import save_checkpoint  # noqa: E402
from engine.errors import CheckpointError, EngineInputError, UnsupportedArchitecture  # noqa: E402
from engine.hf_config import config_from_hf  # noqa: E402
from knowledge_graphs.errors import DataError, UsageError  # noqa: E402

MIXTRAL = {
    "model_type": "mixtral",
    "vocab_size": 32,
    "hidden_size": 16,
    "num_hidden_layers": 1,
    "num_attention_heads": 2,
    "intermediate_size": 8,
    "num_local_experts": 2,
}


@pytest.mark.parametrize(
    ("extra", "theta"),
    [
        ({}, 1_000_000.0),
        ({"rope_theta": 5000.0}, 5000.0),
        ({"rope_parameters": {"rope_type": "default", "rope_theta": 250.0}}, 250.0),
        ({"rope_scaling": {"type": "default", "rope_theta": 77.0}}, 77.0),
    ],
    ids=["family default", "rope_theta", "rope_parameters", "legacy rope_scaling"],
)
def test_both_rope_config_styles_are_read(extra, theta):
    assert config_from_hf({**MIXTRAL, **extra}).rope_theta == theta


@pytest.mark.parametrize(
    ("hf", "error", "message"),
    [
        (
            {**MIXTRAL, "model_type": "llama"},
            UnsupportedArchitecture,
            "model_type 'llama' is not supported",
        ),
        ({**MIXTRAL, "hidden_act": "gelu"}, UnsupportedArchitecture, "activation 'gelu'"),
        (
            {**MIXTRAL, "rope_parameters": {"rope_type": "yarn", "factor": 4.0}},
            UnsupportedArchitecture,
            "rope type 'yarn'",
        ),
        (
            {k: v for k, v in MIXTRAL.items() if k != "hidden_size"},
            CheckpointError,
            "lacks the required key 'hidden_size'",
        ),
        ({**MIXTRAL, "num_attention_heads": 3}, CheckpointError, "not divisible"),
    ],
    ids=["llama", "gelu", "yarn", "missing key", "bad heads"],
)
def test_bad_configs_name_the_cause(hf, error, message):
    with pytest.raises(error, match=message):
        config_from_hf(hf)


def _copy(src, tmp_path):
    dst = tmp_path / "ckpt"
    shutil.copytree(src, dst)
    return dst


def _corrupt_weights(path):
    f = path / "model.safetensors"
    f.write_bytes(f.read_bytes()[:200])


def _drop_tensor(path):
    from safetensors.torch import load_file, save_file

    tensors = load_file(path / "model.safetensors")
    tensors.pop("model.layers.0.self_attn.q_proj.weight")
    save_file(tensors, path / "model.safetensors")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda p: shutil.rmtree(p), "does not exist"),
        (lambda p: (p / "config.json").unlink(), "no config.json"),
        (lambda p: (p / "config.json").write_text("{not json"), "not valid JSON"),
        (lambda p: (p / "model.safetensors").unlink(), "no \\*.safetensors"),
        (_corrupt_weights, "corrupt or unreadable"),
        (_drop_tensor, "lack the tensor 'model.layers.0.self_attn.q_proj.weight'"),
        (
            lambda p: (p / "config.json").write_text(
                json.dumps({**json.loads((p / "config.json").read_text()), "hidden_size": 64})
            ),
            "has shape",
        ),
    ],
    ids=[
        "missing dir",
        "no config",
        "bad json",
        "no weights",
        "truncated weights",
        "missing tensor",
        "shape mismatch",
    ],
)
def test_broken_checkpoints_raise_checkpoint_errors(hf_checkpoints, tmp_path, damage, message):
    path = _copy(hf_checkpoints["mixtral"][1], tmp_path)
    damage(path)
    with pytest.raises(CheckpointError, match=message) as info:
        load_model(path, device="cpu")
    assert isinstance(info.value, DataError) and isinstance(info.value, ValueError)


def test_engine_errors_are_usage_errors_and_value_errors():
    for cls in (CheckpointError, UnsupportedArchitecture, EngineInputError):
        assert issubclass(cls, UsageError) and issubclass(cls, ValueError)


def test_fused_expert_tensors_on_disk_are_read(hf_checkpoints, engine_models, tmp_path):
    from safetensors.torch import load_file, save_file

    path = _copy(hf_checkpoints["qwen2_moe"][1], tmp_path)
    tensors = load_file(path / "model.safetensors")
    for layer in (0, 2):
        p = f"model.layers.{layer}.mlp.experts."
        gate_up = [
            torch.cat(
                [tensors.pop(f"{p}{e}.gate_proj.weight"), tensors.pop(f"{p}{e}.up_proj.weight")]
            )
            for e in range(4)
        ]
        tensors[p + "gate_up_proj"] = torch.stack(gate_up)
        tensors[p + "down_proj"] = torch.stack(
            [tensors.pop(f"{p}{e}.down_proj.weight") for e in range(4)]
        )
    save_file(tensors, path / "model.safetensors")
    ids = torch.randint(0, 96, (1, 9))
    with torch.no_grad():
        assert torch.equal(load_model(path, device="cpu")(ids), engine_models["qwen2_moe"](ids))


def test_engine_checkpoints_load_in_transformers(engine_models, tmp_path):
    from transformers import MixtralForCausalLM

    model = engine_models["mixtral"]
    save_checkpoint(model, tmp_path)
    hf = MixtralForCausalLM.from_pretrained(tmp_path, attn_implementation="eager").eval()
    ids = torch.randint(0, 96, (2, 11))
    with torch.no_grad():
        assert (hf(ids).logits - model(ids)).abs().max() < 1e-4
        assert torch.equal(load_model(tmp_path, device="cpu")(ids), model(ids))


def test_the_default_name_without_a_built_model_says_how_to_build_it(monkeypatch, tmp_path):
    import engine.loader

    monkeypatch.setattr(engine.loader, "DEFAULT_MODEL_DIR", tmp_path / "missing")
    with pytest.raises(CheckpointError, match="kgaudit engine train"):
        load_model("default")


@pytest.mark.parametrize("tied", [True, False], ids=["tied embeddings", "separate lm_head"])
def test_engine_models_round_trip_through_disk(tmp_path, tied):
    from engine.config import named_config
    from engine.model import Transformer
    from engine.train.trainer import init_weights

    torch.manual_seed(0)
    model = Transformer(named_config("tiny", tie_embeddings=tied)).eval()
    init_weights(model)
    save_checkpoint(model, tmp_path)
    loaded = load_model(tmp_path, device="cpu")
    assert (loaded.lm_head.weight is loaded.embed.weight) == tied
    ids = torch.randint(0, 256, (2, 9))
    with torch.no_grad():
        assert (loaded(ids) - model(ids)).abs().max() < 1e-5
