"""The embedded Mixture-of-Experts inference engine.

Public API (DESIGN.md)::

    from engine import load_model, generate
    model = load_model("default")            # or a Hugging Face MoE checkpoint directory
    new_ids = generate(model, input_ids, 32)  # LongTensor[B, N]

Importing ``engine`` is cheap: torch is imported when one of these names is first used.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "load_model": "engine.loader",
    "generate": "engine.generation",
    "stream": "engine.generation",
    "SamplingParams": "engine.sampler",
    "ModelConfig": "engine.config",
    "Tokenizer": "engine.tokenizer",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'engine' has no attribute {name!r}")
