"""``load_model``: a checkpoint directory or the name ``default`` -> a ready :class:`Transformer`.

The model carries its tokenizer (``model.tokenizer``, None when the checkpoint has no
``tokenizer.json``) and the directory it came from (``model.source``).
"""

from __future__ import annotations

from pathlib import Path

import torch

from engine.checkpoint import load_checkpoint
from engine.errors import CheckpointError
from engine.model import Transformer

DEFAULT_MODEL_DIR = Path(__file__).resolve().parent / "default_model"


def resolve_model_path(path_or_name: str | Path) -> Path:
    """The directory of a checkpoint given by path or by the name ``default``."""
    if str(path_or_name) == "default":
        if not (DEFAULT_MODEL_DIR / "model.safetensors").is_file():
            raise CheckpointError(
                "the default model has not been built; run 'kgaudit engine train'.",
                location=str(DEFAULT_MODEL_DIR),
            )
        return DEFAULT_MODEL_DIR
    return Path(path_or_name)


def load_model(
    path_or_name: str | Path,
    *,
    device: str | torch.device | None = None,
    dtype: torch.dtype | None = None,
) -> Transformer:
    """Load a Hugging Face MoE checkpoint directory, or ``"default"`` (the project's model).

    ``device`` defaults to CUDA when available, else CPU; ``dtype`` to bf16 on CUDA and fp32 on CPU.
    """
    from engine.tokenizer import Tokenizer

    path = resolve_model_path(path_or_name)
    device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
    dtype = dtype or (torch.bfloat16 if device.type == "cuda" else torch.float32)
    model = load_checkpoint(path, dtype=dtype, device=device, column_major=device.type == "cpu")
    if device.type == "cpu" and dtype == torch.float32:
        from engine.cpu_linear import use_onednn_

        use_onednn_(model)  # oneDNN GEMMs for batched rows (engine.cpu_linear)
    model.tokenizer = Tokenizer.from_dir(path) if (path / "tokenizer.json").is_file() else None
    model.source = path
    return model
