"""Hugging Face checkpoints (``config.json`` + ``*.safetensors``) in and out of the engine.

Weights are mapped from the names as stored on disk — per expert, e.g. Mixtral
``block_sparse_moe.experts.{e}.w1.weight``, Qwen ``mlp.experts.{e}.gate_proj.weight`` — not
from ``transformers``' in-memory ``state_dict()``, which fuses the experts. Checkpoints that
store the experts already fused (``mlp.experts.gate_up_proj``) are read as well.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch
from torch import Tensor

from engine.config import ModelConfig
from engine.errors import CheckpointError, UnsupportedArchitecture
from engine.hf_config import config_from_hf, config_to_hf, read_hf_config
from engine.model import Transformer, rope_inv_freq

_EXPERT_NAMES = {"mixtral": ("w1", "w3", "w2")}  # gate, up, down; others use *_proj

Spec = list[tuple[str, int]]  # source tensors concatenated along dim 0, with their row counts


def tensor_specs(cfg: ModelConfig) -> dict[str, Spec | list[Spec]]:
    """Engine parameter name -> the on-disk tensors it is built from.

    A ``Spec`` is concatenated along dim 0; a list of specs (one per expert) is stacked.
    """
    D, F_, Dh = cfg.dim, cfg.intermediate_size, cfg.head_dim
    q_rows, kv_rows = cfg.n_heads * Dh, cfg.n_kv_heads * Dh
    gate, up, down = _EXPERT_NAMES.get(cfg.arch, ("gate_proj", "up_proj", "down_proj"))
    specs: dict[str, Spec | list[Spec]] = {
        "embed.weight": [("model.embed_tokens.weight", cfg.vocab_size)],
        "norm.weight": [("model.norm.weight", D)],
    }
    if not cfg.tie_embeddings:
        specs["lm_head.weight"] = [("lm_head.weight", cfg.vocab_size)]
    for i in range(cfg.n_layers):
        p, a, e = f"model.layers.{i}.", f"model.layers.{i}.self_attn.", f"layers.{i}."
        specs[e + "attn_norm.weight"] = [(p + "input_layernorm.weight", D)]
        specs[e + "ffn_norm.weight"] = [(p + "post_attention_layernorm.weight", D)]
        for kind in ["weight"] + (["bias"] if cfg.qkv_bias else []):
            specs[e + f"attn.wqkv.{kind}"] = [
                (a + f"q_proj.{kind}", q_rows),
                (a + f"k_proj.{kind}", kv_rows),
                (a + f"v_proj.{kind}", kv_rows),
            ]
        for kind in ["weight"] + (["bias"] if cfg.o_bias else []):
            specs[e + f"attn.wo.{kind}"] = [(a + f"o_proj.{kind}", D)]
        if cfg.qk_norm:
            specs[e + "attn.q_norm.weight"] = [(a + "q_norm.weight", q_rows)]
            specs[e + "attn.k_norm.weight"] = [(a + "k_norm.weight", kv_rows)]
        m = p + ("block_sparse_moe." if cfg.arch == "mixtral" else "mlp.")
        if not cfg.is_moe_layer(i):
            Fd = cfg.dense_intermediate_size
            specs[e + "ffn.w13.weight"] = [(m + "gate_proj.weight", Fd), (m + "up_proj.weight", Fd)]
            specs[e + "ffn.w2.weight"] = [(m + "down_proj.weight", D)]
            continue
        specs[e + "ffn.gate.weight"] = [(m + "gate.weight", cfg.n_experts)]
        x = m + "experts."
        specs[e + "ffn.w13"] = [
            [(x + f"{j}.{gate}.weight", F_), (x + f"{j}.{up}.weight", F_)]
            for j in range(cfg.n_experts)
        ]
        specs[e + "ffn.w2"] = [[(x + f"{j}.{down}.weight", D)] for j in range(cfg.n_experts)]
        if cfg.shared_expert_size:
            s, Fs = m + "shared_expert.", cfg.shared_expert_size
            specs[e + "ffn.shared.w13.weight"] = [
                (s + "gate_proj.weight", Fs),
                (s + "up_proj.weight", Fs),
            ]
            specs[e + "ffn.shared.w2.weight"] = [(s + "down_proj.weight", D)]
            specs[e + "ffn.shared_gate.weight"] = [(m + "shared_expert_gate.weight", 1)]
    return specs


def _fused_expert_names(param: str) -> list[str]:
    """Names under which a checkpoint may store all experts of a layer as one tensor."""
    layer = param.split(".")[1]
    fused = "gate_up_proj" if param.endswith("w13") else "down_proj"
    return [f"model.layers.{layer}.{mod}.experts.{fused}" for mod in ("mlp", "block_sparse_moe")]


def _open_shards(path: Path) -> dict[str, Any]:
    """Tensor name -> open safetensors handle holding it."""
    from safetensors import SafetensorError, safe_open

    files = sorted(path.glob("*.safetensors"))
    if not files:
        raise CheckpointError(
            "no *.safetensors weight files found (PyTorch .bin checkpoints are not supported).",
            location=str(path),
        )
    where: dict[str, Any] = {}
    for f in files:
        try:
            handle = safe_open(str(f), framework="pt")
            for key in handle.keys():  # noqa: SIM118 - safe_open handles are not mappings
                where[key] = (handle, f)
        except (SafetensorError, OSError) as exc:
            raise CheckpointError(
                f"the weights file is corrupt or unreadable ({exc}).", location=str(f)
            ) from None
    return where


def load_checkpoint(
    path: str | Path,
    *,
    dtype: torch.dtype = torch.float32,
    device: str | torch.device = "cpu",
    column_major: bool = False,
) -> Transformer:
    """Build a :class:`Transformer` from a Hugging Face MoE checkpoint directory.

    Tensors are copied one at a time into the preallocated parameters (peak memory: the model
    plus one tensor). ``column_major`` stores projection weights transposed in memory (see
    :func:`column_major_`), which speeds up small-batch matmuls on CPU.
    """
    path = Path(path)
    hf = read_hf_config(path)
    cfg = config_from_hf(hf, where=str(path / "config.json"))
    shards = _open_shards(path)

    def fetch(name: str) -> Tensor:
        if name not in shards:
            raise CheckpointError(f"the weights lack the tensor {name!r}.", location=str(path))
        handle, f = shards[name]
        try:
            return handle.get_tensor(name)
        except Exception as exc:  # safetensors raises several types for truncated data
            raise CheckpointError(
                f"tensor {name!r} cannot be read ({exc}).", location=str(f)
            ) from None

    def fill(target: Tensor, parts: Spec) -> None:
        """Copy the on-disk tensors, one at a time, into consecutive rows of ``target``."""
        row = 0
        for name, rows in parts:
            t = fetch(name)
            if t.shape[0] != rows or t.shape[1:] != target.shape[1:]:
                expected = (rows, *target.shape[1:])
                raise CheckpointError(
                    f"tensor {name!r} has shape {tuple(t.shape)}, config.json implies {expected}.",
                    location=str(path),
                )
            target[row : row + rows].copy_(t)
            row += rows

    with torch.device("meta"):
        model = Transformer(cfg)
    model = model.to(dtype=dtype).to_empty(device=device)  # uninitialised, filled below
    if cfg.tie_embeddings:  # to_empty allocates tied parameters separately: tie them again
        model.lm_head.weight = model.embed.weight
    if column_major:
        column_major_(model)
    params = dict(model.named_parameters(remove_duplicate=False))
    filled = set()
    with torch.no_grad():
        for name, spec in tensor_specs(cfg).items():
            target = params[name]
            if spec and isinstance(spec[0], list):  # one spec per expert
                fused = [n for n in _fused_expert_names(name) if n in shards]
                if fused:
                    fill(target, [(fused[0], cfg.n_experts)])
                else:
                    for expert, parts in enumerate(spec):
                        fill(target[expert], parts)  # type: ignore[arg-type]
            else:
                fill(target, spec)  # type: ignore[arg-type]
            filled.add(name)
    unfilled = set(params) - filled - ({"lm_head.weight"} if cfg.tie_embeddings else set())
    if unfilled:
        raise UnsupportedArchitecture(
            f"{path}: no mapping for the engine parameters {sorted(unfilled)}."
        )
    model.inv_freq = rope_inv_freq(cfg, device)
    return model.eval()


def column_major_(model: Transformer) -> None:
    """Store every projection weight transposed in memory (same shapes, same values).

    ``F.linear(x, W)`` multiplies by ``W.T``; with ``W`` column-major that operand is row-major
    and MKL runs its faster NN kernel. On the 2-core CPU (1 thread, same-run microbenchmark) the
    16k-vocabulary lm_head took 1.0 ms instead of 2.7 ms at batch 1, the expert matmuls 1.4-2x less.
    """
    with torch.no_grad():
        for name, p in model.named_parameters():
            if (p.dim() == 2 and not name.startswith("embed")) or p.dim() == 3:
                p.data = p.data.transpose(-1, -2).contiguous().transpose(-1, -2)


def save_checkpoint(
    model: Transformer, path: str | Path, *, extra_config: dict[str, Any] | None = None
) -> None:
    """Write ``config.json`` and ``model.safetensors`` that ``transformers`` can load too."""
    from safetensors.torch import save_file

    cfg, path = model.config, Path(path)
    path.mkdir(parents=True, exist_ok=True)
    sd = {k: v.detach().to("cpu") for k, v in model.state_dict().items()}
    out: dict[str, Tensor] = {}
    for name, spec in tensor_specs(cfg).items():
        groups = spec if spec and isinstance(spec[0], list) else [spec]
        parts = sd[name] if groups is spec else sd[name][None]
        for g, tensor in zip(groups, parts, strict=True):
            for (hf_name, _), piece in zip(g, tensor.split([r for _, r in g]), strict=True):  # type: ignore[misc]
                out[hf_name] = piece.contiguous()
    save_file(out, str(path / "model.safetensors"), metadata={"format": "pt"})
    hf = (
        config_to_hf(cfg)
        | {"dtype": str(model.dtype).removeprefix("torch.")}
        | (extra_config or {})
    )
    (path / "config.json").write_text(json.dumps(hf, indent=2) + "\n")
