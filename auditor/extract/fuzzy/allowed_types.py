"""Which entity types a fuzzy link may take in a sentence, and the words rules already know.

A fuzzy candidate may only be of a type that a rule whose cue occurs in the sentence uses (as
subject or object); in a sentence without any cue, of a type some rule can take as subject
(it may be remembered as the subject of the next sentences). Words of the rules' cues
and examples ("contraindicated", "overruled", "dosed") are never a reason for a fuzzy look.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from auditor.extract.context import CompiledRule
from auditor.extract.segment import split_sentences


def rule_words(rules: Sequence[CompiledRule]) -> frozenset[str]:
    """Words of four letters or more in the rules' cues, titles, descriptions and examples."""
    parts: list[str] = []
    for cr in rules:
        r = cr.rule
        parts += [p.pattern for p in (*cr.cues, *cr.negative_cues)]
        parts += [r.title, r.description or "", *r.examples.fires, *r.examples.passes]
    return frozenset(re.findall(r"[a-z]{4,}", " ".join(parts).lower()))


class AllowedTypes:
    """Entity types the rules can use in the sentence around a position (computed lazily)."""

    def __init__(self, text: str, rules: Sequence[CompiledRule]) -> None:
        self.text = text
        self.rules = rules
        self._sentences: list[tuple[int, int, frozenset[str]]] | None = None
        self._subjects = frozenset().union(*(r.subject_types for r in rules)) if rules else None

    def at(self, pos: int) -> frozenset[str]:
        if self._sentences is None:
            self._sentences = [
                (s.start, s.end, self._types(s.text)) for s in split_sentences(self.text)
            ]
        for start, end, types in self._sentences:
            if start <= pos < end:
                return types
        return frozenset()

    def _types(self, sentence: str) -> frozenset[str]:
        cued = [r for r in self.rules if r.has_cue(sentence)]
        if cued:
            return frozenset().union(*(r.subject_types | r.object_types for r in cued))
        return self._subjects or frozenset()
