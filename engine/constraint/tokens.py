"""What the span automaton needs to know about each token id: its text and a few classes.

Token texts are recovered from the tokenizer's vocabulary, not by decoding ids one at a time
(single-id decoding drops SentencePiece's leading space): byte-level BPE symbols are mapped
back through GPT-2's byte table, ``▁`` (SentencePiece) becomes a space. Special tokens have
empty text and class ``special``.

Classes are Python ints used as bitsets over the logit width V (bit i = token i), so unions
and differences of token sets cost a few hundred nanoseconds.

>>> v = TokenVocab(["<s>", " ib", "uprofen", " 12", "00", ".", " the"], special={0})
>>> [v.texts[i] for i in v.ids(v.word_lead)]
[' ib', 'uprofen', ' 12', '00', ' the']
>>> [v.texts[i] for i in v.ids(v.digit)]
[' 12', '00']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def _byte_decoder() -> dict[str, int]:
    """GPT-2's byte-level alphabet (printable stand-ins for the 256 bytes), inverted."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
    bs += list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs, strict=True)}


def _wordish(ch: str) -> bool:
    """Alphanumeric, or part of a multi-byte character split across tokens (decoded as U+FFFD):
    such a piece may be a letter, so it never ends a word (and never starts a span)."""
    return ch.isalnum() or ch == "\ufffd"


def _symbol_text(symbol: str, byte_level: bool) -> str:
    if byte_level:
        table = _byte_decoder()
        if all(ch in table for ch in symbol):
            return bytes(table[ch] for ch in symbol).decode("utf-8", errors="replace")
        return symbol
    if symbol.startswith("<0x") and symbol.endswith(">") and len(symbol) == 6:
        return bytes([int(symbol[3:5], 16)]).decode("utf-8", errors="replace")  # byte fallback
    return symbol.replace("▁", " ")


class TokenVocab:
    """Token texts [V] and token classes (bitsets) for one tokenizer and one logit width."""

    def __init__(self, texts: Sequence[str], *, special: Iterable[int] = ()) -> None:
        self.texts = list(texts)
        self.size = len(self.texts)
        self.special_ids = frozenset(special)
        bits: dict[str, int] = dict.fromkeys(
            ("special", "space", "word_lead", "boundary", "tail_alnum", "digit"), 0
        )
        for i, text in enumerate(self.texts):
            b = 1 << i
            if i in self.special_ids or not text:
                bits["special"] |= b
                bits["boundary"] |= b
                continue
            body = text.lstrip(" ")
            if text[0] == " ":
                bits["space"] |= b
            if body and body[0].isalnum():
                bits["word_lead"] |= b
                if body[0].isdigit():
                    bits["digit"] |= b
            if not _wordish(text[0]):
                bits["boundary"] |= b
            if _wordish(text[-1]):
                bits["tail_alnum"] |= b
        self.all = (1 << self.size) - 1
        self.special: int = bits["special"]  # special tokens (EOS, padding, ...)
        self.space: int = bits["space"]  # text starts with a space
        self.word_lead: int = bits["word_lead"]  # first non-space character is alphanumeric
        self.boundary: int = bits["boundary"]  # first character is not alphanumeric
        self.tail_alnum: int = bits["tail_alnum"]  # last character is alphanumeric
        self.digit: int = bits["digit"]  # first non-space character is a digit
        # the same classes as per-token booleans, for loops over token sequences
        self.lead_list = [bool(self.word_lead >> i & 1) for i in range(self.size)]
        self.space_list = [bool(self.space >> i & 1) for i in range(self.size)]
        self.tail_list = [bool(self.tail_alnum >> i & 1) for i in range(self.size)]

    def ids(self, bitset: int) -> list[int]:
        """The token ids of a bitset, ascending."""
        out, i = [], 0
        while bitset:
            low = bitset & -bitset
            i = low.bit_length() - 1
            out.append(i)
            bitset ^= low
        return out

    def is_(self, cls: int, token: int) -> bool:
        return bool(cls >> token & 1)

    @classmethod
    def from_tokenizer(cls, tokenizer: Any, vocab_size: int | None = None) -> TokenVocab:
        """From an engine :class:`~engine.tokenizer.Tokenizer`, a ``tokenizers.Tokenizer`` or a
        ``transformers`` tokenizer; ``vocab_size`` is the model's logit width (ids past the
        tokenizer's vocabulary get empty text and count as special, so they stay masked out of
        spans)."""
        symbols, special, byte_level = _symbols(tokenizer)
        size = vocab_size if vocab_size is not None else len(symbols)
        texts = [
            "" if i in special or i >= len(symbols) else _symbol_text(symbols[i], byte_level)
            for i in range(size)
        ]
        special = set(special) | set(range(len(symbols), size))
        return cls(texts, special=special)


def _symbols(tokenizer: Any) -> tuple[list[str], set[int], bool]:
    """(symbol per id, special ids, byte-level?) from any of the supported tokenizers."""
    inner = getattr(tokenizer, "tok", None)  # engine.tokenizer.Tokenizer wraps tokenizers
    if inner is not None and hasattr(inner, "get_vocab_size"):
        tokenizer = inner
    if hasattr(tokenizer, "get_vocab_size"):  # tokenizers.Tokenizer
        n = tokenizer.get_vocab_size(with_added_tokens=True)
        symbols = [tokenizer.id_to_token(i) or "" for i in range(n)]
        added = getattr(tokenizer, "get_added_tokens_decoder", dict)()
        special = {i for i, t in added.items() if getattr(t, "special", True)}
        byte_level = "ByteLevel" in type(tokenizer.decoder).__name__ or any(
            s.startswith("Ġ") for s in symbols
        )
        return symbols, special, byte_level
    if hasattr(tokenizer, "convert_ids_to_tokens"):  # transformers
        n = len(tokenizer)
        symbols = [s or "" for s in tokenizer.convert_ids_to_tokens(list(range(n)))]
        special = set(getattr(tokenizer, "all_special_ids", []))
        byte_level = any(s.startswith("Ġ") for s in symbols)
        return symbols, special, byte_level
    raise TypeError(
        f"cannot read the vocabulary of a {type(tokenizer).__name__}; pass an engine Tokenizer, "
        "a tokenizers.Tokenizer or a transformers tokenizer."
    )


def encode_plain(tokenizer: Any, texts: Sequence[str]) -> list[list[int]]:
    """Token ids of each text without special tokens (batched where the tokenizer allows)."""
    inner = getattr(tokenizer, "tok", None)
    if inner is not None and hasattr(inner, "encode_batch"):
        tokenizer = inner
    if hasattr(tokenizer, "encode_batch"):  # tokenizers.Tokenizer
        return [e.ids for e in tokenizer.encode_batch(list(texts), add_special_tokens=False)]
    if hasattr(tokenizer, "convert_ids_to_tokens"):  # transformers
        return [list(x) for x in tokenizer(list(texts), add_special_tokens=False)["input_ids"]]
    return [list(tokenizer.encode(t, add_bos=False)) for t in texts]
