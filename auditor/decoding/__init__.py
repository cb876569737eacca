"""KG-constrained generation on the auditor's side: from a prompt to the allowed surface forms
(entity linking, graph neighbourhood, verbalisation) and the engine constraint built from them;
the held-out evaluation of constrained generation lives in ``measure.evaluation.generation``.

Importing this package does not import torch; compiling a constraint does.
"""

from __future__ import annotations

from auditor.decoding.builder import BuiltConstraint, ConstraintBuilder
from auditor.decoding.slot import AnswerSlot, SlotBuilder

__all__ = ["AnswerSlot", "BuiltConstraint", "ConstraintBuilder", "SlotBuilder"]
