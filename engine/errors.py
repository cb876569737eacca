"""Errors the engine raises on purpose, placed in kgaudit's hierarchy (``knowledge_graphs.errors``).

Each is also a ``ValueError``, so library callers can catch the usual Python type while the CLI
maps them to exit code 2 and prints their one sentence::

    UsageError
    ├── EngineInputError         a prompt longer than the context, a token id outside the
    │                            vocabulary, an unknown option value (ValueError too)
    ├── UnsupportedArchitecture  a checkpoint of a model family the engine does not run
    └── DataError
        └── CheckpointError      a missing or corrupt config.json / *.safetensors / tokenizer.json
"""

from __future__ import annotations

from knowledge_graphs.errors import DataError, UsageError


class EngineInputError(UsageError, ValueError):
    """The caller passed an input the model cannot take."""


class UnsupportedArchitecture(UsageError, ValueError):
    """The checkpoint is of a model family the engine does not implement."""


class CheckpointError(DataError, ValueError):
    """A checkpoint file is missing, unreadable or inconsistent with its config."""


__all__ = ["CheckpointError", "EngineInputError", "UnsupportedArchitecture"]
