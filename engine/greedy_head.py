"""Exact greedy tokens from an fp32 lm_head that reads half the bytes: an fp16 screen, then
fp32 logits for the few tokens that can still win.

At batch 1 the fp32 lm_head of the bench model (16k × 256) is half of the bytes a decode step
reads. Greedy decoding needs only the argmax, so :class:`GreedyHead` computes the logits with
the weights rounded to fp16 (fbgemm, fp32 accumulation: half the bytes), bounds for every token
how far that can be from its fp32 logit, and recomputes in fp32 the logits of the tokens whose
bound reaches the best guaranteed logit. The result is the argmax of fp32 logits, not an
approximation:

  for hidden state x and token j with fp32 weights w_j and fp16-rounded weights ŵ_j = w_j + Δ_j,
  |screen_j − fp32_j| ≤ ‖x‖₂ · (‖Δ_j‖₂ + γ(‖w_j‖₂ + ‖ŵ_j‖₂)) = ‖x‖₂ · c_j  (Cauchy–Schwarz,
  γ = 2·D·2⁻²⁴ covers fp32 rounding of either sum in any order). With t = max_k (screen_k −
  ‖x‖₂c_k) ≤ max fp32 logit, a token with screen_j + ‖x‖₂c_j < t cannot be (or tie with) the
  argmax; the rest are the candidates.

The bound here takes the largest c_j for every token, so the candidates are the screened
logits within 2‖x‖₂·max c of the best one. They are usually one token (then it is the answer
without any fp32 product); when the ``TOP_K``-th screened logit is still in reach (or a value
is not finite) the step falls back to the full fp32 product. Ties break to the lowest id, as
``argmax`` does. The generation loop uses it for greedy decoding without logits processors or
repetition penalty on fp32 CPU models with fbgemm (``engine.generation``).

Shapes: B rows, D width, V vocabulary, C candidates.
"""

from __future__ import annotations

import math

import torch
from torch import Tensor

from engine.model import fp16_linear, fp16_weights_supported, pack_fp16

MIN_HEAD_BYTES = 4 << 20  # smaller fp32 heads are not worth a second copy
TOP_K = 8  # screened tokens examined per row; more candidates fall back to fp32


class GreedyHead:
    """Greedy next tokens [B] from final hidden states [B, D] for an fp32 lm_head [V, D]."""

    def __init__(self, weight: Tensor) -> None:
        self.weight = weight  # [V, D] fp32 (not copied)
        with torch.no_grad():
            w = weight.detach()
            self.packed = pack_fp16(w)
            gamma = 2.0 * w.shape[1] * 2.0**-24
            slack = 0.0
            for block in w.split(1024):  # [≤1024, D] at a time: no full-size temporaries
                w16 = block.half().float()
                c = torch.linalg.vector_norm(w16 - block, dim=1) + gamma * (
                    torch.linalg.vector_norm(block, dim=1) + torch.linalg.vector_norm(w16, dim=1)
                )  # c_j of the block
                slack = max(slack, float(c.max()))
            self.slack = slack * (1 + 1e-6)  # one c for all tokens (≥ every c_j)
        self.key = _key(weight)

    def __call__(self, x: Tensor) -> Tensor:
        screen = fp16_linear(x, self.packed)  # [B, V]
        k = min(TOP_K, screen.shape[1])
        vals, ids = torch.topk(screen, k, dim=-1)  # [B, k] best screened logits, descending
        reach = (torch.linalg.vector_norm(x, dim=-1) * (2 * self.slack)).tolist()  # [B]
        rows, picked = [], []
        for v, i, r in zip(vals.tolist(), ids.tolist(), reach, strict=True):
            lo = v[0] - r  # screened logits below this cannot win
            if not (math.isfinite(lo) and v[-1] < lo):  # k or more may win, or not finite
                return torch.mm(x, self.weight.t()).argmax(-1)  # the full fp32 product
            rows.append([t for t, s in zip(i, v, strict=True) if s >= lo])
        union = sorted({t for row in rows for t in row})
        if len(union) > 1:  # fp32 logits of the candidates, ties to the lowest id
            cand = torch.tensor(union, device=x.device)
            exact = torch.mm(x, self.weight.index_select(0, cand).t()).tolist()  # [B, C]
            col = {t: c for c, t in enumerate(union)}
            for b, row in enumerate(rows):
                picked.append(min(row, key=lambda t, e=exact[b]: (-e[col[t]], t)))
        else:
            picked = [row[0] for row in rows]
        return torch.tensor(picked, device=x.device)  # [B]


def _key(weight: Tensor) -> tuple[int, int, int]:
    version = 0 if weight.is_inference() else weight._version  # inference tensors have none
    return (id(weight), weight.data_ptr(), version)


def greedy_head(model: object) -> GreedyHead | None:
    """The model's :class:`GreedyHead` (made once and kept while the lm_head weight is
    unchanged), or None where it does not apply: not an fp32 CPU model with an ``nn.Linear``
    lm_head, no fbgemm, or a head under ``MIN_HEAD_BYTES``."""
    head = getattr(model, "lm_head", None)
    w = getattr(head, "weight", None)
    if (
        not isinstance(w, Tensor)
        or w.dtype != torch.float32
        or w.device.type != "cpu"
        or w.numel() * 4 < MIN_HEAD_BYTES
        or not fp16_weights_supported()
    ):
        return None
    held = model.__dict__.get("_greedy_head")  # type: ignore[attr-defined]
    if held is None or held.key != _key(w):
        held = model.__dict__["_greedy_head"] = GreedyHead(w)  # type: ignore[attr-defined]
    return held
