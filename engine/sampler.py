"""Next-token selection: repetition penalty, then temperature, top-k and top-p sampling.

The repetition penalty follows ``transformers`` (divide positive logits of seen tokens, multiply
negative ones). Sampling itself is ``kernels.sample_tokens`` (Triton on CUDA, its reference on
CPU), fed one uniform per row from the request's own seeded ``torch.Generator``, so a seeded
run is reproducible. Greedy decoding (temperature 0) is an argmax.

Shapes: B batch, V vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from engine.errors import EngineInputError


@dataclass(frozen=True)
class SamplingParams:
    temperature: float = 0.0  # 0 = greedy
    top_k: int = 0  # 0 = no limit
    top_p: float = 1.0
    repetition_penalty: float = 1.0  # > 1 discourages tokens already in the prompt or output
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.temperature < 0:
            raise EngineInputError(f"temperature must be >= 0, got {self.temperature}.")
        if self.top_k < 0:
            raise EngineInputError(f"top_k must be >= 0, got {self.top_k}.")
        if not 0.0 < self.top_p <= 1.0:
            raise EngineInputError(f"top_p must be in (0, 1], got {self.top_p}.")
        if self.repetition_penalty <= 0:
            raise EngineInputError(
                f"repetition_penalty must be > 0, got {self.repetition_penalty}."
            )

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0


class Sampler:
    """Holds one request batch's sampling state: the generator and the tokens seen so far."""

    def __init__(
        self, params: SamplingParams, batch_size: int, vocab_size: int, device: torch.device
    ) -> None:
        self.params = params
        self.generator: torch.Generator | None = None
        if not params.greedy:
            self.generator = torch.Generator(device=device)
            self.generator.manual_seed(params.seed if params.seed is not None else torch.seed())
        self.seen: Tensor | None = None
        if params.repetition_penalty != 1.0:
            self.seen = torch.zeros(
                batch_size, vocab_size, dtype=torch.bool, device=device
            )  # [B, V]

    def observe(self, ids: Tensor, mask: Tensor | None = None) -> None:
        """Mark token ids [B, T] (where mask [B, T] is set) as seen for the repetition penalty."""
        if self.seen is None:
            return
        if mask is not None:
            hits = torch.zeros_like(self.seen, dtype=torch.long).scatter_add_(1, ids, mask.long())
            self.seen |= hits > 0
        else:
            self.seen.scatter_(1, ids, True)

    def __call__(self, logits: Tensor) -> Tensor:
        """Next token ids [B] from logits [B, V]."""
        p = self.params
        logits = logits.float()
        if self.seen is not None:
            penalised = torch.where(
                logits > 0, logits / p.repetition_penalty, logits * p.repetition_penalty
            )
            logits = torch.where(self.seen, penalised, logits)
        if p.greedy:
            return logits.argmax(dim=-1)  # the first maximum, as kernels.sample_tokens picks
        from kernels import sample_tokens

        u = torch.rand(logits.shape[0], generator=self.generator, device=logits.device)  # [B]
        return sample_tokens(logits, u, temperature=p.temperature, top_p=p.top_p, top_k=p.top_k)
