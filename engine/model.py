"""Decoder-only Mixture-of-Experts transformer: the one architecture the engine runs.

Mixtral, Qwen2-MoE and OLMoE differ only in switches of :class:`~engine.config.ModelConfig`
(shared expert, q/k/v biases, QK-norm, top-k renormalisation); the project's default model is
a small Mixtral. Numerics follow the Hugging Face reference: routing softmax/top-k in fp32,
RMSNorm in fp32, rotary tables from fp32 positions, so fp32 logits agree to ~1e-6.

Dimension legend:
  B batch · T tokens in this call · S key slots visible (cache length after the write)
  D model width · H query heads · Hkv key/value heads · Dh head width · V vocabulary
  E experts · K experts per token · F expert width · N = B*T flattened tokens
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from engine.config import ModelConfig
from engine.cpu_decode import decode_step
from engine.errors import EngineInputError

if TYPE_CHECKING:
    from engine.kv_cache import KVCache


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: Tensor) -> Tensor:
        if x.dtype == torch.float32:
            return F.rms_norm(x, self.weight.shape, self.weight, self.eps)
        xf = x.float()  # the reference normalises low-precision inputs in fp32
        xf = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * xf.to(x.dtype)


def rope_inv_freq(cfg: ModelConfig, device: torch.device | str | None) -> Tensor:
    """Inverse rotary frequencies [Dh/2], computed in fp32 as the reference does."""
    return 1.0 / cfg.rope_theta ** (
        torch.arange(0, cfg.head_dim, 2, device=device).float() / cfg.head_dim
    )


def rope_table(length: int, inv_freq: Tensor, dtype: torch.dtype) -> Tensor:
    """Rotary table [L, 2, Dh] for positions 0..L-1: row 0 cos, row 1 sin with its first half
    negated, so that ``x·cos + roll(x, Dh/2)·sin`` is the rotate-half rotation. The angles are
    fp32 ``position · inv_freq`` as in the reference; the forward indexes the table instead of
    computing cos/sin per call."""
    freqs = torch.arange(length, device=inv_freq.device).float()[:, None] * inv_freq  # [L, Dh/2]
    emb = torch.cat((freqs, freqs), dim=-1)  # [L, Dh]
    sin = emb.sin()
    sin[:, : emb.shape[1] // 2].neg_()
    return torch.stack((emb.cos(), sin), dim=1)[:, :, None].to(dtype)  # [L, 2, 1, Dh]


def apply_rope(x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
    """Rotate x [..., Dh] by tables from :func:`rope_table` (``sin`` carries the rotate-half
    sign): x·cos + cat(-x2, x1)·|sin| computed as x·cos + roll(x, Dh/2)·sin."""
    return torch.addcmul(x * cos, x.roll(x.shape[-1] // 2, -1), sin)


class Attention(nn.Module):
    """Grouped-query self-attention with one fused q‖k‖v projection."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.n_heads, self.n_kv_heads, self.head_dim = cfg.n_heads, cfg.n_kv_heads, cfg.head_dim
        q_width, kv_width = cfg.n_heads * cfg.head_dim, cfg.n_kv_heads * cfg.head_dim
        self.splits = [q_width, kv_width, kv_width]
        self.wqkv = nn.Linear(cfg.dim, q_width + 2 * kv_width, bias=cfg.qkv_bias)
        self.wo = nn.Linear(q_width, cfg.dim, bias=cfg.o_bias)
        self.q_norm = RMSNorm(q_width, cfg.rms_norm_eps) if cfg.qk_norm else None
        self.k_norm = RMSNorm(kv_width, cfg.rms_norm_eps) if cfg.qk_norm else None
        self.clip_qkv = cfg.clip_qkv

    def forward(
        self,
        x: Tensor,
        B: int,
        rope: tuple[Tensor, Tensor],
        mask: Tensor | None,
        cache: KVCache | None,
        layer: int,
    ) -> Tensor:
        """x [N, D] (N = B·T rows, batch-major) -> [N, D]; rope: cos, sin [B, T, 1, Dh]."""
        T = x.shape[0] // B
        H, Hkv, Dh = self.n_heads, self.n_kv_heads, self.head_dim
        qkv = self.wqkv(x)  # [N, (H + 2Hkv)·Dh]
        if self.q_norm is not None or self.clip_qkv is not None:
            q, k, v = qkv.split(self.splits, dim=-1)
            if self.q_norm is not None:
                q, k = self.q_norm(q), self.k_norm(k)
            if self.clip_qkv is not None:
                q, k, v = (t.clamp(-self.clip_qkv, self.clip_qkv) for t in (q, k, v))
            qkv = torch.cat((q, k, v), dim=-1)
        if T == 1:  # [B, 1, h, Dh] is [B, h, 1, Dh] in memory: no transposes
            qk, v = qkv.view(B, H + 2 * Hkv, 1, Dh).split((H + Hkv, Hkv), dim=1)
            q, k = apply_rope(qk, *rope).split((H, Hkv), dim=1)  # one rotation for q and k
        else:
            qk, v = qkv.view(B, T, H + 2 * Hkv, Dh).split((H + Hkv, Hkv), dim=2)
            q, k = apply_rope(qk, *rope).split((H, Hkv), dim=2)
            q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)  # [B, h, T, Dh]
        if cache is None:
            out = F.scaled_dot_product_attention(
                q, k, v, attn_mask=mask, is_causal=mask is None and T > 1, enable_gqa=True
            )  # [B, H, T, Dh]
        else:
            out = cache.attend(layer, q, k, v, mask)  # [B, H, T, Dh]
        out = out.reshape(B, H * Dh) if T == 1 else out.transpose(1, 2).reshape(B * T, H * Dh)
        return self.wo(out)  # [N, D]


class FeedForward(nn.Module):
    """Dense SwiGLU MLP with a fused gate‖up projection: w2(silu(w1 x) * w3 x)."""

    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.hidden = hidden
        self.w13 = nn.Linear(dim, 2 * hidden, bias=False)  # rows [0, F) gate w1, [F, 2F) up w3
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        gate, up = self.w13(x).split(self.hidden, dim=-1)  # [N, F] x2
        return self.w2(F.silu(gate) * up)  # [N, D]


class MoEFeedForward(nn.Module):
    """Top-k routed SwiGLU experts, with Qwen2-MoE's sigmoid-gated shared expert if configured."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.top_k, self.norm_topk_prob = cfg.top_k, cfg.norm_topk_prob
        E, F_, D = cfg.n_experts, cfg.intermediate_size, cfg.dim
        self.gate = nn.Linear(D, E, bias=False)  # the router
        self.w13 = nn.Parameter(torch.empty(E, 2 * F_, D))  # [E, 2F, D] gate w1 ‖ up w3
        self.w2 = nn.Parameter(torch.empty(E, D, F_))  # [E, D, F]
        self.shared = FeedForward(D, cfg.shared_expert_size) if cfg.shared_expert_size else None
        self.shared_gate = nn.Linear(D, 1, bias=False) if cfg.shared_expert_size else None
        self.packed: list[tuple[Tensor, Tensor]] | None = None  # fp16 (w13, w2) per expert

    def route(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """Router logits [N, E] (fp32), top-k weights [N, K] (fp32) and expert ids [N, K].

        With renormalisation, softmax over the top-k logits equals softmax over all experts
        followed by top-k and renormalisation (softmax is monotonic), in two ops instead of four.
        """
        logits = F.linear(x, self.gate.weight)  # [N, E]
        if logits.dtype != torch.float32:
            logits = logits.float()
        if self.norm_topk_prob:
            top, ids = torch.topk(logits, self.top_k, dim=-1)  # [N, K]
            return logits, torch.softmax(top, dim=-1), ids
        weights, ids = torch.topk(torch.softmax(logits, dim=-1), self.top_k, dim=-1)  # [N, K]
        return logits, weights, ids

    def forward(self, x: Tensor, router_logits: list[Tensor] | None = None) -> Tensor:
        logits, weights, ids = self.route(x)  # x: [N, D]
        if router_logits is not None:
            router_logits.append(logits)
        if self.packed is not None:
            out = fp16_experts_forward(x, self.packed, weights.to(x.dtype), ids)
        elif x.device.type == "cpu" and not torch.is_grad_enabled():
            # CPU inference: the routing goes to the host once and the experts run straight
            # from it (no per-call checks or dispatch; kernels.moe_host)
            out = _host_routed()(x, self.w13, self.w2, weights.tolist(), ids.tolist())
        else:
            out = experts_forward(x, self.w13, self.w2, weights.to(x.dtype), ids)  # [N, D]
        if self.shared is not None:
            out = out + torch.sigmoid(self.shared_gate(x)) * self.shared(x)
        return out


def experts_forward(x: Tensor, w13: Tensor, w2: Tensor, weights: Tensor, ids: Tensor) -> Tensor:
    """Σ_k weights[n,k] · expert_{ids[n,k]}(x[n]) through the kernels package (Triton on CUDA,
    the PyTorch reference on CPU, which is also differentiable for training). ``kernels`` is
    imported on first use (it imports triton, which must not happen before tests configure it)."""
    global _fused_moe
    if _fused_moe is None:
        from kernels.fused_moe import fused_moe

        _fused_moe = fused_moe
    return _fused_moe(x, w13, w2, weights, ids)


_fused_moe = None


def _host_routed() -> Callable[..., Tensor]:
    """``kernels.moe_host.moe_host_routed``, imported on first use (as ``experts_forward``)."""
    global _moe_host
    if _moe_host is None:
        from kernels.moe_host import moe_host_routed

        _moe_host = moe_host_routed
    return _moe_host


_moe_host = None


class Block(nn.Module):
    def __init__(self, cfg: ModelConfig, layer: int) -> None:
        super().__init__()
        self.layer = layer
        self.attn_norm = RMSNorm(cfg.dim, cfg.rms_norm_eps)
        self.attn = Attention(cfg)
        self.ffn_norm = RMSNorm(cfg.dim, cfg.rms_norm_eps)
        self.ffn: MoEFeedForward | FeedForward = (
            MoEFeedForward(cfg)
            if cfg.is_moe_layer(layer)
            else FeedForward(cfg.dim, cfg.dense_intermediate_size)
        )
        self.moe = isinstance(self.ffn, MoEFeedForward)

    def forward(
        self,
        x: Tensor,
        B: int,
        rope: tuple[Tensor, Tensor],
        mask: Tensor | None,
        cache: KVCache | None,
        router_logits: list[Tensor] | None,
    ) -> Tensor:
        """x [N, D] -> [N, D] (N = B·T rows)."""
        h = x + self.attn(self.attn_norm(x), B, rope, mask, cache, self.layer)  # [N, D]
        y = self.ffn_norm(h)
        y = self.ffn(y, router_logits) if self.moe else self.ffn(y)
        return h + y


class Transformer(nn.Module):
    """``model(input_ids) -> logits [B, T, V]``; with a :class:`KVCache` it prefills or decodes."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.config = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.dim)
        self.layers = nn.ModuleList(Block(cfg, i) for i in range(cfg.n_layers))
        self.norm = RMSNorm(cfg.dim, cfg.rms_norm_eps)
        self.lm_head = nn.Linear(cfg.dim, cfg.vocab_size, bias=False)
        if cfg.tie_embeddings:
            self.lm_head.weight = self.embed.weight
        self.register_buffer("inv_freq", rope_inv_freq(cfg, None), persistent=False)  # [Dh/2]

    @property
    def device(self) -> torch.device:
        return self.embed.weight.device

    @property
    def dtype(self) -> torch.dtype:
        return self.embed.weight.dtype

    def forward(
        self,
        input_ids: Tensor,
        attention_mask: Tensor | None = None,
        *,
        cache: KVCache | None = None,
        last_only: bool = False,
        router_logits: list[Tensor] | None = None,
        return_hidden: bool = False,
    ) -> Tensor:
        """Logits [B, T, V] (or [B, 1, V] with ``last_only``); with ``return_hidden`` the
        final normalised hidden states [B, T, D] the lm_head would multiply instead.

        ``attention_mask`` [B, T] marks the real tokens of ``input_ids`` (1) and left padding (0).
        With a cache the call appends T tokens after those already cached; without one it is a
        full causal forward. ``router_logits``, when a list, receives each MoE layer's [N, E].
        """
        B, T = input_ids.shape
        if cache is None or T > 1:
            self.check_input(input_ids, cache)
        elif (
            router_logits is None
            and attention_mask is None
            and self.dtype == torch.float32
            and input_ids.device.type == "cpu"
            and not torch.is_grad_enabled()
        ):
            return decode_step(self, input_ids, cache, return_hidden)  # no module calls
        start = cache.length if cache is not None else 0
        positions, mask = self.positions_and_mask(B, T, start, attention_mask, cache)
        rope = self.rope_cache(start + T)[positions].unbind(2)  # cos, sin [B, T, 1, Dh]
        x = self.embed(input_ids).view(B * T, -1)  # [N, D]
        for block in self.layers:
            x = block(x, B, rope, mask, cache, router_logits)
        if cache is not None:
            cache.advance(T)
        if last_only and T > 1:
            x = x.view(B, T, -1)[:, -1]  # [B, D]
            T = 1
        x = self.norm(x)
        return x.view(B, T, -1) if return_hidden else self.lm_head(x).view(B, T, -1)  # [B, T, V]

    def rope_cache(self, length: int) -> Tensor:
        """The rotary table [L, 2, 1, Dh] (:func:`rope_table`) covering positions < ``length``,
        built once per model, device and dtype (grown in powers of two)."""
        table = self.__dict__.get("_rope_table")
        if (
            table is None
            or table.shape[0] < length
            or table.device != self.inv_freq.device
            or table.dtype != self.dtype
        ):
            n = max(length, 256, table.shape[0] * 2 if table is not None else 0)
            with torch.inference_mode(False), torch.no_grad():  # usable outside inference mode
                table = rope_table(1 << (n - 1).bit_length(), self.inv_freq, self.dtype)
            self.__dict__["_rope_table"] = table
        return table

    def check_input(self, input_ids: Tensor, cache: KVCache | None) -> None:
        if input_ids.dim() != 2:
            raise EngineInputError(
                f"input_ids must be a [batch, tokens] tensor, got shape {tuple(input_ids.shape)}."
            )
        if input_ids.dtype not in (torch.int64, torch.int32):
            raise EngineInputError(f"input_ids must hold integer token ids, got {input_ids.dtype}.")
        T = input_ids.shape[1]
        total = T + (cache.length if cache is not None else 0)
        limit = cache.max_len if cache is not None else self.config.max_seq_len
        if total > limit:
            raise EngineInputError(f"{total} tokens exceed the context of {limit} tokens.")
        if T and (int(input_ids.min()) < 0 or int(input_ids.max()) >= self.config.vocab_size):
            bad = int(input_ids.max()) if int(input_ids.min()) >= 0 else int(input_ids.min())
            raise EngineInputError(
                f"token id {bad} is outside the model's vocabulary of {self.config.vocab_size} ids."
            )

    def positions_and_mask(
        self, B: int, T: int, start: int, attention_mask: Tensor | None, cache: KVCache | None
    ) -> tuple[Tensor, Tensor | None]:
        """Rotary positions [B, T] and a boolean mask [B, 1, T, S] (None = plain causal)."""
        dev = self.device
        base = cache.next_pos if cache is not None else torch.zeros(B, dtype=torch.long, device=dev)
        if attention_mask is None:
            positions = base[:, None] if T == 1 else base[:, None] + torch.arange(T, device=dev)
            valid = None
        else:
            valid = attention_mask.to(device=dev, dtype=torch.bool)  # [B, T]
            positions = (base[:, None] + valid.long().cumsum(-1) - 1).masked_fill(~valid, 0)
        if cache is not None:
            cache.note_tokens(valid, positions)
            if not cache.has_padding and self.config.sliding_window is None:
                return positions, None if T == 1 else self._causal(T, start, None)
            if T == 1 and self.config.sliding_window is None:
                # a decode step sees every valid slot up to its own (which is valid)
                return positions, cache.key_valid[:, None, None, : start + 1]
            return positions, self._causal(T, start, cache.key_valid[:, : start + T])
        if valid is None and self.config.sliding_window is None:
            return positions, None
        return positions, self._causal(T, 0, valid)

    def _causal(self, T: int, start: int, key_valid: Tensor | None) -> Tensor:
        """Mask [B|1, 1, T, S]: query slot start+i sees key slots <= its own that are valid,
        within the sliding window; every query sees itself so padded rows stay finite."""
        dev = self.device
        q = torch.arange(start, start + T, device=dev)[:, None]  # [T, 1]
        k = torch.arange(start + T, device=dev)[None, :]  # [1, S]
        allowed = k <= q  # [T, S]
        if self.config.sliding_window is not None:
            allowed = allowed & (k > q - self.config.sliding_window)
        allowed = allowed[None, None]  # [1, 1, T, S]
        if key_valid is not None:
            allowed = (allowed & key_valid[:, None, None, :]) | (k == q)[None, None]
        return allowed


# --- fp16 weights for CPU decode (fbgemm) ------------------------------------------------------

WEIGHT_KINDS = ("fp", "fp16")


def fp16_weights_supported() -> bool:
    """True when this torch build has fbgemm's fp16-weight GEMM (x86-64 CPU builds)."""
    return hasattr(torch, "fbgemm_pack_gemm_matrix_fp16") and "fbgemm" in getattr(
        torch.backends.quantized, "supported_engines", ()
    )


def pack_fp16(weight: Tensor) -> Tensor:
    """Prepack a [out, in] weight in half precision for fbgemm's fp16 GEMM (which converts the
    weights to fp32 in registers and accumulates in fp32: the result equals an fp32 matmul
    with the fp16-rounded weights)."""
    with warnings.catch_warnings():  # the ATen entry points warn once that they are deprecated
        warnings.simplefilter("ignore")
        packed = torch.fbgemm_pack_gemm_matrix_fp16(weight.detach().float().contiguous())
        torch.fbgemm_linear_fp16_weight_fp32_activation(
            torch.zeros(1, weight.shape[1]), packed, None
        )
    return packed


def fp16_linear(x: Tensor, packed: Tensor, bias: Tensor | None = None) -> Tensor:
    """x [N, in] fp32 -> [N, out] fp32 through a :func:`pack_fp16` weight (one native op, a few
    microseconds of overhead, unlike the TorchBind ``quantized::linear_dynamic_fp16``)."""
    return torch.fbgemm_linear_fp16_weight_fp32_activation(x, packed, bias)


class Fp16Linear(nn.Module):
    """An ``nn.Linear`` whose weight lives prepacked in fp16 for fbgemm (CPU, inference only)."""

    def __init__(self, linear: nn.Linear) -> None:
        super().__init__()
        self.in_features, self.out_features = linear.in_features, linear.out_features
        self.packed = pack_fp16(linear.weight)
        self.bias = None if linear.bias is None else linear.bias.detach().float().contiguous()

    def forward(self, x: Tensor) -> Tensor:
        return fp16_linear(x, self.packed, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, fp16 weights"


def fp16_experts_forward(
    x: Tensor, packed: list[tuple[Tensor, Tensor]], weights: Tensor, ids: Tensor
) -> Tensor:
    """The routed experts with fp16 weights: Σ_k weights[n,k] · expert_{ids[n,k]}(x[n]).

    The grouping of ``kernels.fused_moe_reference`` without autograd: pairs grouped by expert
    on the host, one gate‖up and one down GEMM per active expert, fp32 weighted sum."""
    T, K = ids.shape
    flat = ids.reshape(-1).tolist()
    if T == 1:
        out = None
        for expert, w in zip(flat, weights.reshape(-1).tolist(), strict=True):
            p13, p2 = packed[expert]
            gate, up = fp16_linear(x, p13).chunk(2, dim=-1)  # [1, F] x2
            y = fp16_linear(F.silu(gate).mul_(up), p2)  # [1, D]
            out = y.mul_(w) if out is None else out.add_(y, alpha=w)
        return out  # type: ignore[return-value]
    order = sorted(range(len(flat)), key=flat.__getitem__)  # pairs grouped by expert
    idx = torch.tensor(order, device=x.device)
    tok = idx // K
    xs = x.index_select(0, tok)  # [P, D]
    ys, start = [], 0
    for i in range(1, len(order) + 1):
        if i == len(order) or flat[order[i]] != flat[order[start]]:
            p13, p2 = packed[flat[order[start]]]
            gate, up = fp16_linear(xs[start:i], p13).chunk(2, dim=-1)
            ys.append(fp16_linear(F.silu(gate).mul_(up), p2))
            start = i
    y = torch.cat(ys).mul_(weights.reshape(-1).index_select(0, idx)[:, None])  # [P, D]
    return torch.zeros_like(x).index_add_(0, tok, y)


def quantize_weights_(model: Transformer, kind: str) -> Transformer:
    """Convert an fp32 CPU model in place for inference with ``fp16`` weights (``fp`` leaves
    it unchanged): every projection, the experts and the lm_head are prepacked in half
    precision for fbgemm (:func:`pack_fp16`) and their fp32 copies freed; activations and
    accumulation stay fp32, and the embedding, the norms and the routers (the routing
    decisions) keep fp32 weights. Logits drift from the fp32 model's (``kgaudit bench engine``
    measures it); the converted model cannot be trained or saved."""
    if kind not in WEIGHT_KINDS:
        raise ValueError(f"unknown weight kind {kind!r}; choose one of {', '.join(WEIGHT_KINDS)}.")
    if kind == "fp":
        return model
    if model.device.type != "cpu" or model.dtype != torch.float32:
        raise ValueError("fp16 weights need an fp32 model on the CPU (fbgemm kernels).")
    if not fp16_weights_supported():
        raise ValueError("this torch build has no fbgemm fp16 GEMM (x86-64 CPU builds have it).")
    routers = {
        id(m)
        for mod in model.modules()
        if isinstance(mod, MoEFeedForward)
        for m in (mod.gate, mod.shared_gate)
        if m is not None
    }
    with torch.no_grad():
        for module in list(model.modules()):
            for name, child in list(module.named_children()):
                if isinstance(child, nn.Linear) and id(child) not in routers:
                    setattr(module, name, Fp16Linear(child))
            if isinstance(module, MoEFeedForward):
                module.packed = [
                    (pack_fp16(w13), pack_fp16(w2))
                    for w13, w2 in zip(module.w13, module.w2, strict=True)
                ]
                module.w13 = nn.Parameter(module.w13.new_empty(0, *module.w13.shape[1:]))
                module.w2 = nn.Parameter(module.w2.new_empty(0, *module.w2.shape[1:]))
    return model
