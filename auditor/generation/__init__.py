"""KG-constrained generation on the auditor's side: from a prompt to the allowed surface forms
(entity linking, graph neighbourhood, verbalisation) and the engine constraint built from them;
the held-out evaluation of constrained generation lives in ``auditor.evaluation.generation``.

Importing this package does not import torch; compiling a constraint does.
"""

from __future__ import annotations

from auditor.generation.builder import BuiltConstraint, ConstraintBuilder
from auditor.generation.slot import AnswerSlot, SlotBuilder

__all__ = ["AnswerSlot", "BuiltConstraint", "ConstraintBuilder", "SlotBuilder"]
