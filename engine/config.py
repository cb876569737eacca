"""Model configuration: one dataclass for every MoE decoder the engine runs, plus named sizes.

The same :class:`ModelConfig` describes Mixtral, Qwen2-MoE and OLMoE checkpoints (the loader in
:mod:`engine.checkpoint` translates their ``config.json``) and the project's own default model.
Features that only one family has (a shared expert, q/k/v biases, QK-norm) are switched on by
fields that default to off.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

ARCHITECTURES = ("mixtral", "qwen2_moe", "olmoe")


@dataclass
class ModelConfig:
    """Sizes and switches of a decoder-only transformer with a top-k routed SwiGLU MoE."""

    vocab_size: int
    dim: int  # D, the residual stream width (HF hidden_size)
    n_layers: int
    n_heads: int  # H, query heads
    intermediate_size: int  # F, the width of one routed expert
    n_kv_heads: int | None = None  # Hkv, key/value heads (grouped-query attention); None = H
    head_dim: int | None = None  # Dh; None = D // H
    n_experts: int = 8  # E
    top_k: int = 2  # K
    norm_topk_prob: bool = True  # renormalise the K selected probabilities (Mixtral: always)
    shared_expert_size: int = 0  # Qwen2-MoE shared expert width (sigmoid-gated); 0 = none
    dense_layers: tuple[int, ...] = ()  # layers with a dense SwiGLU MLP instead of experts
    dense_intermediate_size: int = 0  # width of those dense MLPs
    qkv_bias: bool = False  # Qwen2-MoE
    o_bias: bool = False  # OLMoE attention_bias also biases the output projection
    qk_norm: bool = False  # OLMoE: RMSNorm over the whole q and k projections
    clip_qkv: float | None = None  # OLMoE: clamp q, k, v to [-c, c]
    rope_theta: float = 10_000.0
    rms_norm_eps: float = 1e-5
    max_seq_len: int = 2048  # HF max_position_embeddings: the longest context allowed
    sliding_window: int | None = None  # attend only to the last W positions (Mixtral option)
    tie_embeddings: bool = False
    arch: str = "mixtral"  # the Hugging Face family the weights are saved as
    bos_token_id: int | None = None
    eos_token_id: list[int] = field(default_factory=list)
    pad_token_id: int | None = None

    def __post_init__(self) -> None:
        if self.n_kv_heads is None:
            self.n_kv_heads = self.n_heads
        if self.head_dim is None:
            if self.dim % self.n_heads:
                raise ValueError(
                    f"hidden size {self.dim} is not divisible by the {self.n_heads} attention heads."
                )
            self.head_dim = self.dim // self.n_heads
        if self.n_heads % self.n_kv_heads:
            raise ValueError(
                f"{self.n_heads} query heads cannot be shared evenly by {self.n_kv_heads} "
                "key/value heads."
            )
        if self.head_dim % 2:
            raise ValueError(f"rotary embeddings need an even head width, got {self.head_dim}.")
        if not 1 <= self.top_k <= self.n_experts:
            raise ValueError(
                f"top-k routing needs 1 <= k <= experts, got k={self.top_k} "
                f"with {self.n_experts} experts."
            )
        if self.arch not in ARCHITECTURES:
            raise ValueError(
                f"unknown architecture {self.arch!r}; known: {', '.join(ARCHITECTURES)}."
            )
        self.dense_layers = tuple(sorted(set(self.dense_layers)))
        if self.dense_layers and self.dense_intermediate_size <= 0:
            raise ValueError("dense layers are listed but dense_intermediate_size is not set.")
        if isinstance(self.eos_token_id, int):
            self.eos_token_id = [self.eos_token_id]
        self.eos_token_id = list(self.eos_token_id or [])

    def is_moe_layer(self, layer: int) -> bool:
        return layer not in self.dense_layers

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["dense_layers"] = list(self.dense_layers)
        return d


# Named sizes. "default" is the project's trained model (see engine/train); "bench-20m" is the
# ~20M-parameter Mixtral-style model that `kgaudit bench engine` builds when given no checkpoint.
CONFIGS: dict[str, dict[str, Any]] = {
    "default": dict(
        vocab_size=2048,
        dim=128,
        n_layers=4,
        n_heads=4,
        n_kv_heads=2,
        intermediate_size=256,
        n_experts=8,
        top_k=2,
        max_seq_len=256,
        tie_embeddings=True,
        rope_theta=10_000.0,
    ),
    "bench-20m": dict(
        vocab_size=16_000,
        dim=256,
        n_layers=4,
        n_heads=8,
        n_kv_heads=4,
        intermediate_size=512,
        n_experts=8,
        top_k=2,
        max_seq_len=2048,
        rope_theta=1_000_000.0,
    ),
    "tiny": dict(
        vocab_size=256,
        dim=64,
        n_layers=2,
        n_heads=4,
        n_kv_heads=2,
        intermediate_size=96,
        n_experts=4,
        top_k=2,
        max_seq_len=256,
    ),
}


def named_config(name: str, **overrides: Any) -> ModelConfig:
    """Return a copy of a named configuration, with fields overridden."""
    if name not in CONFIGS:
        raise ValueError(f"unknown model size {name!r}; known: {', '.join(sorted(CONFIGS))}.")
    return ModelConfig(**{**CONFIGS[name], **overrides})
