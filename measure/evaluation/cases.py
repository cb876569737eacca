"""The labelled cases of the generated benchmark, and the sentence makers' contract.

A :class:`Case` is a short answer; each :class:`ExpectedClaim` says what a correct auditor
must answer for one of its sentences. The per-domain makers (``gen_*.py``) produce the
sentences; :mod:`measure.evaluation.benchmark` composes them into cases.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from knowledge_graphs.verbalise import num


@dataclass
class ExpectedClaim:
    sentence: str
    verdict: str  # supported | contradicted | unverifiable
    kind: str | None  # hallucination kind when injected, else None
    flagged: bool  # the answer-level label this claim implies (a hallucination)


@dataclass
class Case:
    id: str
    domain: str
    as_of: str
    text: str
    claims: list[ExpectedClaim] = field(default_factory=list)

    @property
    def hallucinated(self) -> bool:
        return any(c.flagged for c in self.claims)

    @property
    def kinds(self) -> list[str]:
        return sorted({c.kind for c in self.claims if c.kind})

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "hallucinated": self.hallucinated, "kinds": self.kinds}


# A sentence maker returns (sentence, expected verdict, kind or None, flagged) or None when the
# drawn fact does not support that variant.
Maker = Callable[[random.Random, bool, str | None], tuple[str, str, str | None, bool] | None]


def kinds(*names: str) -> Callable[[Maker], Maker]:
    """Declare which hallucination kinds a maker can inject."""

    def deco(fn: Maker) -> Maker:
        fn.kinds = names  # type: ignore[attr-defined]
        return fn

    return deco


def fmt_num(v: float) -> str:
    """A value as the benchmark's sentences write it: 1200.0 -> '1,200', 4.5 -> '4.5'."""
    return num(v, group_from=0)
