"""XGrammar constraining the same model to the same allowed strings, for comparison.

The grammar is an alternation of the allowed surface forms (``root ::= "a" | "b" | ...``);
XGrammar's ``GrammarMatcher`` then fills the same int32 bitmask layout as the KG constraint.
XGrammar allows every tokenization of a string, the KG trie only the canonical one, so its
masks are a superset of ours along any canonical path (tests/constraint checks exactly that).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


def ebnf_string(text: str) -> str:
    """A double-quoted EBNF literal (backslash, quote and control characters escaped)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def alternation_ebnf(strings: Iterable[str], *, repeat: bool = False) -> str:
    """``root ::= "s1" | "s2" | ...`` over the distinct non-empty strings (sorted); with
    ``repeat`` one or more of them back to back (``root ::= item+``)."""
    alts = [ebnf_string(s) for s in sorted(set(strings)) if s]
    if not alts:
        raise ValueError("the alternation grammar needs at least one non-empty string.")
    if repeat:
        return "root ::= item+\nitem ::= " + " | ".join(alts)
    return "root ::= " + " | ".join(alts)


def tokenizer_info(tokenizer: Any, vocab_size: int, stop_ids: Sequence[int]) -> Any:
    """An ``xgrammar.TokenizerInfo`` for an engine Tokenizer or a transformers tokenizer."""
    import xgrammar as xgr

    hf = tokenizer
    inner = getattr(tokenizer, "tok", None)
    if inner is not None:  # engine.tokenizer.Tokenizer → transformers fast tokenizer
        from transformers import PreTrainedTokenizerFast

        hf = PreTrainedTokenizerFast(tokenizer_object=inner)
    return xgr.TokenizerInfo.from_huggingface(
        hf, vocab_size=vocab_size, stop_token_ids=list(stop_ids)
    )


class XGrammarAlternation:
    """A compiled alternation grammar and its matchers (one per batch row)."""

    def __init__(self, info: Any, strings: Iterable[str], *, repeat: bool = False) -> None:
        import xgrammar as xgr

        self._xgr = xgr
        self.info = info
        self.compiler = xgr.GrammarCompiler(info, max_threads=1, cache_enabled=False)
        self.grammar = self.compiler.compile_grammar(
            xgr.Grammar.from_ebnf(alternation_ebnf(strings, repeat=repeat))
        )

    def matchers(self, batch_size: int) -> list[Any]:
        return [self._xgr.GrammarMatcher(self.grammar) for _ in range(batch_size)]

    def allocate(self, batch_size: int) -> Any:
        return self._xgr.allocate_token_bitmask(batch_size, self.info.vocab_size)

    def apply_(self, logits: Any, bitmask: Any) -> None:
        self._xgr.apply_token_bitmask_inplace(logits, bitmask)
