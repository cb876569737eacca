"""The KG constraint as a Hugging Face ``LogitsProcessor``, so it also constrains
``transformers`` models (``model.generate(..., logits_processor=LogitsProcessorList([p]))``).

``transformers`` passes the whole sequence (prompt + generated); the processor remembers the
prompt width at its first call and hands the generated part to :class:`KGConstraint`. Beam
search is not supported (one automaton state per row).
"""

from __future__ import annotations

from torch import Tensor
from transformers import LogitsProcessor

from engine.constraint.processor import KGConstraint


class KGLogitsProcessor(LogitsProcessor):
    """Wraps a :class:`KGConstraint` (one row per sequence of the batch)."""

    def __init__(self, constraint: KGConstraint) -> None:
        self.constraint = constraint
        self.prompt_len: int | None = None

    def __call__(self, input_ids: Tensor, scores: Tensor) -> Tensor:
        if self.prompt_len is None:
            self.prompt_len = input_ids.shape[1]
        new = input_ids[:, self.prompt_len :]
        out = scores.clone() if scores.requires_grad else scores
        return self.constraint(new, out)


__all__ = ["KGLogitsProcessor"]
