"""Per-sentence extraction results, and the compiled form of a rule the assembler uses."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from auditor.extract.assertion import denial_trigger, polarity
from auditor.extract.cues import Frequency
from auditor.extract.identifiers import Identifier
from auditor.extract.layout import Layout
from auditor.extract.segment import Sentence
from auditor.memo import IdentityCache
from auditor.types import CitationRef, DateRef, Mention, Quantity
from rules.schema import Rule

_CHANGE = re.compile(r"\bby\s*$|\b(?:increase|decrease|rise|cut|hike|reduction)\s+of\s*$", re.I)
_CHANGE_UNIT = re.compile(r"basis point|bps?\b|percentage point", re.I)
_LEVEL_OF = re.compile(r"\b(?:ratio|rate|range|level|threshold)\s+of\s*$", re.I)


@dataclass
class SentenceInfo:
    """What was found in one sentence (spans are offsets into the whole text)."""

    sentence: Sentence
    header: str  # text of a list header ("Maximum daily doses:") the sentence belongs to
    mentions: list[Mention] = field(default_factory=list)
    quantities: list[Quantity] = field(default_factory=list)
    dates: list[DateRef] = field(default_factory=list)
    citations: list[CitationRef] = field(default_factory=list)
    identifiers: list[Identifier] = field(default_factory=list)
    frequencies: list[Frequency] = field(default_factory=list)
    layout: Layout = field(default_factory=lambda: Layout("prose"))
    heading_mentions: list[list[Mention]] = field(default_factory=list)  # innermost first
    heading_questions: list[bool] = field(default_factory=list)  # innermost first: it asks
    document_mentions: list[Mention] = field(default_factory=list)  # every mention of the text
    previous_text: str = ""  # the sentence before, when in the same paragraph
    asked: str = ""  # the question this sentence answers (the line right before it)
    asked_mentions: list[Mention] = field(default_factory=list)

    @cached_property
    def change_quantities(self) -> frozenset[int]:
        """Start offsets of quantities that give the size of a change ("raised by 25 bp")."""
        return frozenset(q.start for q in self.quantities if is_change(self, q))

    @property
    def text(self) -> str:
        return self.sentence.text

    @property
    def cue_text(self) -> str:
        return f"{self.header} {self.sentence.text}" if self.header else self.sentence.text

    def mentions_of(self, types: set[str] | frozenset[str]) -> list[tuple[Mention, str]]:
        out = []
        for m in self.mentions:
            eid = m.of_type(types)
            if eid is not None:
                out.append((m, eid))
        return out


@dataclass(frozen=True)
class CompiledRule:
    rule: Rule
    cues: tuple[re.Pattern[str], ...]
    negative_cues: tuple[re.Pattern[str], ...]
    qualifiers: tuple[tuple[str, str, re.Pattern[str]], ...]
    subject_types: frozenset[str]
    object_types: frozenset[str]
    any_cue: re.Pattern[str] | None = None
    ignore_near: re.Pattern[str] | None = None

    def cue_match(self, text: str) -> re.Match[str] | None:
        if self.any_cue is None:
            return None
        return self.any_cue.search(text)

    def has_cue(self, text: str) -> bool:
        """A cue of the rule occurs, or (for a rule that reads denials) a denial trigger of
        its relation ("you can usually continue X during a short course of Y")."""
        if not self.cues or self.cue_match(text) is not None:
            return True
        return self.reads_denial and denial_trigger(text, self.rule.applies_to.relation)

    @property
    def reads_denial(self) -> bool:
        return self.rule.check.negation == "absence_cues"

    def polarity(self, text: str) -> str:
        """``denied`` / ``mitigated`` / ``affirmed`` (:func:`assertion.polarity`), with the
        pack's own denial cues; a rule that does not read denials always affirms."""
        if not self.reads_denial:
            return "affirmed"
        return polarity(text, self.rule.applies_to.relation, self.negative_cues)

    def qualifiers_in(self, text: str) -> dict[str, str]:
        found: dict[str, str] = {}
        for key, value, pat in self.qualifiers:
            if key not in found and pat.search(text):
                found[key] = value
        return found


def _word_pattern(cue: str) -> re.Pattern[str]:
    """Cues are regular expressions matched case-insensitively on word boundaries."""
    return re.compile(rf"(?<![\w]){cue}(?![\w])", re.I)


_COMPILED: IdentityCache[CompiledRule] = IdentityCache()


def compile_rule(rule: Rule) -> CompiledRule:
    """The compiled rule (memoised per rule object)."""
    return _COMPILED.get((rule,), lambda: _compile(rule))


def _compile(rule: Rule) -> CompiledRule:
    quals = tuple(
        (key, value, _word_pattern("(?:" + "|".join(pats) + ")"))
        for key, options in rule.qualifiers.items()
        for value, pats in options.items()
        if pats
    )
    return CompiledRule(
        rule=rule,
        cues=tuple(_word_pattern(c) for c in rule.cues),
        negative_cues=tuple(_word_pattern(c) for c in rule.negative_cues),
        qualifiers=quals,
        subject_types=frozenset(rule.applies_to.subject_types),
        object_types=frozenset(rule.applies_to.object_types),
        ignore_near=_word_pattern("(?:" + "|".join(rule.applies_to.ignore_values_near) + ")")
        if rule.applies_to.ignore_values_near
        else None,
        any_cue=_word_pattern("(?:" + "|".join(f"(?:{c})" for c in rule.cues) + ")")
        if rule.cues
        else None,
    )


def is_change(info: SentenceInfo, q: Quantity) -> bool:
    """ "raised rates by 25 bp", "an increase of 50 mg": the amount of a change, not a level."""
    base = info.sentence.start
    before = info.text[max(0, q.start - base - 20) : q.start - base]
    if _CHANGE_UNIT.search(q.text):
        return True
    return bool(_CHANGE.search(before)) and not _LEVEL_OF.search(before)
