"""The per-domain vocabularies behind the KG constraint: every form the graph could contribute
(which decides where a span starts) and the free words an answer is framed with.

* **Global forms of a domain**: the names of every entity that takes part in a fact of a
  relation the rule packs check or the default model was trained on, and the value forms of
  those facts (see :mod:`auditor.decoding.surface`).
* **Free words**: the words of the answer frames the default model learnt — its training
  verbalisations with every graph-derived string (names, values, dates, qualifiers) cut out —
  optionally plus the ``common_words`` most frequent English words (``wordfreq``) for models
  trained on ordinary prose.

Both are strings (with their variants); ``engine.constraint.SpanLexicon`` tokenizes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from auditor.decoding.surface import (
    all_variants,
    date_forms,
    edge_value_forms,
    entity_names,
    fact_value_forms,
    number_forms,
)
from knowledge_graphs.store import KnowledgeBase

_WORD = re.compile(r"[A-Za-z]+(?:['’][a-z]+)?")
# Qualifiers whose values are the frame's own closed vocabulary, not graph strings: a dose's
# period ("per day", "per week", "per dose") is written by every dose answer. Cutting it made
# "day" a non-free word whenever some frequency literal also said "a day", and the small
# model, denied "per day", wrote "per weekly".
FRAME_QUALIFIERS = frozenset({"per"})


def rule_relations(rules: Iterable[object]) -> set[str]:
    """The relations named by a domain's rule packs (``applies_to.relation``)."""
    return {r.applies_to.relation for r in rules if r.applies_to.relation}  # type: ignore[attr-defined]


def trained_relations() -> set[str]:
    """Predicates the default model's verbaliser has templates for."""
    from knowledge_graphs.verbalise import TEMPLATES

    return set(TEMPLATES)


def global_forms(kb: KnowledgeBase, domain: str, relations: set[str]) -> set[str]:
    """Every surface form (with variants) the graph of ``domain`` could contribute."""
    from knowledge_graphs.verbalise import Names

    display = Names(kb.entities)
    entities: set[str] = set()
    forms: set[str] = set()
    for f in kb.facts:
        if f.domain != domain or f.predicate not in relations:
            continue
        entities.add(f.subject)
        if f.object:
            entities.add(f.object)
            forms |= edge_value_forms(f)
        else:
            forms |= fact_value_forms(f)
    for eid in entities:
        e = kb.entities.get(eid)
        if e is not None:
            forms |= entity_names(e, display)
    return all_variants(forms)


@lru_cache(maxsize=4)
def frame_words(kb: KnowledgeBase) -> frozenset[str]:
    """Words of the default model's answer frames (graph-derived strings cut out)."""
    from knowledge_graphs.verbalise import Names, day, num, verbalise

    names = Names(kb.entities)
    facts = {f.id: f for f in kb.facts}
    words: set[str] = set()
    for v in verbalise(kb.facts, kb.entities):
        f = facts[v.fact_id]
        slots = {names(f.subject), v.key, f.literal or ""}
        if f.object:
            slots.add(names(f.object))
        slots |= {str(q) for k, q in f.qualifiers.items() if k not in FRAME_QUALIFIERS}
        for d in (f.valid_from, f.valid_to, f.date):
            if d is not None:
                slots |= {day(d), *date_forms(d)}
        for x in (f.value, f.value_max):
            if x is not None:
                slots |= {num(x), *number_forms(x)}
        if f.predicate == "brandName" and f.literal:
            slots.add(f.literal[:1].upper() + f.literal[1:])
        found = _WORD.findall(v.text)
        low = [w.lower() for w in found]
        cut = [False] * len(found)
        for slot in slots:
            sw = [w.lower() for w in _WORD.findall(slot)]
            for i in range(len(low) - len(sw) + 1 if sw else 0):
                if low[i : i + len(sw)] == sw:
                    cut[i : i + len(sw)] = [True] * len(sw)
        words |= {w for w, c in zip(found, cut, strict=True) if not c}
    return frozenset(w for w in words if len(w) > 1 or w in {"a", "A", "I"})


def free_words(kb: KnowledgeBase, common_words: int = 0) -> set[str]:
    """Frame words (and the ``common_words`` most frequent English words), with variants."""
    words = set(frame_words(kb))
    if common_words > 0:
        from wordfreq import top_n_list

        words |= {w for w in top_n_list("en", common_words) if _WORD.fullmatch(w)}
    return all_variants(words)
