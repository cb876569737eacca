"""KG-constrained decoding: token tries of surface forms, a span automaton with one packed
bitmask per trie node, and the logits processors that apply it (engine and ``transformers``).

Building the allowed forms from a prompt (entity linking, graph neighbourhood, surface forms)
is the auditor's job (``auditor.decoding``); this package only sees strings and token ids.
See ``docs/constrained.md``.

    lexicon = SpanLexicon(tokenizer, TokenVocab.from_tokenizer(tokenizer, V), global_forms,
                          free_words)
    constraint = KGConstraint([SpanAutomaton(lexicon, allowed_forms)])
    new_ids = engine.generate(model, ids, 32, kg_constraint=constraint)
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "KGConstraint": "engine.constraint.processor",
    "KGLogitsProcessor": "engine.constraint.hf",
    "SlotAutomaton": "engine.constraint.slot",
    "SpanAutomaton": "engine.constraint.automaton",
    "SpanLexicon": "engine.constraint.automaton",
    "TokenTrie": "engine.constraint.trie",
    "TokenVocab": "engine.constraint.tokens",
    "XGrammarAlternation": "engine.constraint.xgrammar_baseline",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'engine.constraint' has no attribute {name!r}")
