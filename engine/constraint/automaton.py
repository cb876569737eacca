"""The decode-time state machine of KG-constrained decoding.

Inputs (all strings arrive with their leading-space and case variants already spelt out):

* ``A`` — the *allowed* surface forms of one request (entity names and values of a graph
  neighbourhood) as a token-id trie of their canonical tokenizations, plus their suffixes after
  leading free words ("The Hague" → "Hague");
* the *global* forms of the domain (every entity name and value the graph could contribute),
  built the same way; a word-start token whose text begins one of them — in any tokenization —
  is an *opener*; so is any token starting with a digit;
* ``F`` — the *free* words (the frames the model writes around entities), as a token trie.

Span semantics (fail closed). Outside a span the model writes freely, except that an opener
starts a span (a number opens one even right after letters, "least20"): it is allowed only if it is the first token of a form in ``A``, or of a free
word. Inside a span only continuations in ``A`` are allowed; once a form is complete, a token
that does not continue the word (space, punctuation, EOS) closes it. An opener that also begins
a free word ("The", "No") starts a *pending* word, which must go on as a free word of ``F`` or
as an allowed form — an unknown continuation is masked, never "anything goes". Words that
begin with a token opening no form are free text and are not touched.

The state of a row is a small set of threads — ``("F", ws)`` free text (``ws``: the last
character was not alphanumeric, so the next token starts a word), ``("S", a)`` inside ``A`` at
node ``a``, ``("P", f)`` a pending word at node ``f`` of ``F`` — interned as an integer state
id. Each state's mask is a bitset over the logit width; the masks of the single-thread states
inside ``A`` are computed when the automaton is built (one packed int32 row per trie node), the
rest on first use; transitions are memoised, so a decode step costs one dict lookup per row.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from engine.constraint.masks import bits_to_row, pack_rows, row_to_bits
from engine.constraint.tokens import TokenVocab, encode_plain
from engine.constraint.trie import TokenTrie

Thread = tuple  # ("F", ws) | ("S", a_node) | ("P", f_node)
FREE_WS, FREE_IW, DEAD = 0, 1, 2  # fixed state ids; SPAN(a) singletons are 3 + a


def span_strings(forms: Iterable[str], free: set[str]) -> list[str]:
    """The forms, plus their suffixes after leading free words (" Hague" of "The Hague"),
    sorted (string-level twin of :meth:`SpanLexicon.span_sequences`).

    >>> span_strings(["The Hague", " euro"], {"The"})
    [' Hague', ' euro', 'The Hague']
    """
    out: set[str] = set()
    for form in forms:
        if not form.strip():
            continue
        out.add(form)
        words = form.split()
        for k in range(1, len(words)):
            if words[k - 1] not in free:
                break
            out.add(" " + " ".join(words[k:]))
    return sorted(out)


def intern_threads(
    ids: dict[Any, int], sets: list[Any], safe: list[bool], terminal: Any, threads: frozenset[Any]
) -> int:
    """The state id of a set of threads, added on first sight (shared by the span automaton
    and the answer-slot automaton): a state is safe to stop in when some thread has finished
    a span ("S" at a terminal node) or is outside one."""
    sid = ids.get(threads)
    if sid is None:
        sid = ids[threads] = len(sets)
        sets.append(threads)
        safe.append(any(th[0] != "S" or terminal[th[1]] for th in threads))
    return sid


class SpanLexicon:
    """Per tokenizer and domain: the global-form trie ``G``, the free-word trie ``F``."""

    def __init__(
        self,
        tokenizer: Any,
        vocab: TokenVocab,
        global_forms: Iterable[str],
        free_words: Iterable[str],
    ) -> None:
        self.tokenizer, self.vocab = tokenizer, vocab
        free = sorted(set(free_words))
        self.free = TokenTrie(self._encode(free))
        strings = span_strings(global_forms, {w.strip() for w in free})
        self.openers = self._prefix_tokens(strings)
        # canonical tokenizations of the global forms: where an allowed form could run on
        # into a longer known name ("Solomon Islands" -> "Solomon Islands Dollar")
        self.global_trie = TokenTrie(self._encode(strings))

    def _prefix_tokens(self, strings: list[str]) -> int:
        """Word-lead tokens whose text begins one of the (sorted) span strings, in whatever
        tokenization: " val" opens " valsartan" as its canonical first token " v" does."""
        texts, bits = self.vocab.texts, 0
        for t in self.vocab.ids(self.vocab.word_lead):
            s = texts[t]
            i = bisect_left(strings, s)
            if i < len(strings) and strings[i].startswith(s):
                bits |= 1 << t
        return bits

    def _encode(self, texts: Sequence[str]) -> list[list[int]]:
        seqs = encode_plain(self.tokenizer, texts) if texts else []
        return [s for s in seqs if s and max(s) < self.vocab.size]

    def span_sequences(self, forms: Sequence[str]) -> list[list[int]]:
        """Token sequences of the forms, plus each suffix that starts after leading free words
        (so that a form whose first words are free still opens a span at its first non-free
        word)."""
        out: list[list[int]] = []
        free, v = self.free, self.vocab
        lead, space, tail = v.lead_list, v.space_list, v.tail_list
        for seq in self._encode(forms):
            out.append(seq)
            node = free.child(0, seq[0])
            for i in range(1, len(seq)):
                tok = seq[i]
                if lead[tok] and (space[tok] or not tail[seq[i - 1]]):  # a word starts at i
                    if node is None or not free.terminal[node]:
                        break  # the previous word is not a free word: no more suffixes
                    out.append(seq[i:])
                    node = free.child(0, tok)
                else:
                    node = free.child(node, tok)
        return out


class SpanAutomaton:
    """The state machine for one request's allowed forms (see the module docstring)."""

    def __init__(
        self, lexicon: SpanLexicon, allowed_forms: Iterable[str], *, start_ws: bool = True
    ) -> None:
        self.lexicon, self.vocab = lexicon, lexicon.vocab
        self.forms = sorted(set(allowed_forms))
        self.allowed = TokenTrie(lexicon.span_sequences(self.forms))
        self.start = FREE_WS if start_ws else FREE_IW
        v, A, F, size = self.vocab, self.allowed, lexicon.free, lexicon.vocab.size
        opens = (lexicon.openers | A.children_bits(0) | v.digit) & v.word_lead
        forbidden = opens & ~A.children_bits(0) & ~(F.children_bits(0) & ~v.digit)
        free = (
            v.all & ~forbidden,  # ws: every word-lead token starts a word
            v.all & ~(forbidden & (v.space | v.digit)),  # in a word: space-led ones, or numbers
        )
        blank = sum(1 << i for i, t in enumerate(v.texts) if t and not t.strip())
        boundary = bits_to_row(v.boundary, size)
        self._free_rows = [bits_to_row(b, size) for b in free]
        self._free_bound = [r & boundary for r in self._free_rows]  # what may close a span
        in_word = opens & (v.space | v.digit)
        open_rows = [bits_to_row(opens | blank, size), bits_to_row(in_word | blank, size)]
        self._open_rows = open_rows  # what would open a span, allowed or not (bare spaces too)
        self._open_bound = [r & boundary for r in open_rows]
        # one allowed row per fixed state: free (ws), free (in a word), dead, each trie node
        n = len(A)
        allow = np.zeros((3 + n, size), dtype=bool)
        allow[FREE_WS], allow[FREE_IW], allow[DEAD] = (
            self._free_rows[0],
            self._free_rows[1],
            bits_to_row(v.special, size),
        )
        src = [3 + a for a in range(n) for _ in A.children[a]]
        dst = [t for a in range(n) for t in A.children[a]]
        if src:
            allow[src, dst] = True
        self._end_ws = [0 if a == 0 or not v.tail_list[A.token[a]] else 1 for a in range(n)]
        for a in range(n):
            if A.terminal[a]:
                allow[3 + a] |= self._free_bound[self._end_ws[a]]
        for a, extend in self._longer_names():
            allow[3 + a, extend] = False
        self._deny_table = ~allow  # [3 + N, V]
        self._fixed = 3 + n
        self.packed_table = pack_rows(allow)  # int32 [3 + N, W]: one packed mask per trie node
        self._sets: list[frozenset[Thread]] = [  # in the order of FREE_WS, FREE_IW, DEAD
            frozenset({("F", True)}),
            frozenset({("F", False)}),
            frozenset(),
            *(frozenset({("S", a)}) for a in range(n)),
        ]
        self._ids = {s: i for i, s in enumerate(self._sets)}
        self.safe = [True, True, True] + [bool(t) for t in A.terminal]
        self._deny: dict[int, np.ndarray] = {}  # composite states, built on first use
        self._pend: dict[int, np.ndarray] = {}  # allowed row of each pending free-word node
        self._intent: dict[int, Any] = {}
        self._precompute_intent(allow)
        self._trans: dict[int, int] = {}
        self._opens_any = lexicon.openers | v.digit

    def _longer_names(self) -> list[tuple[int, list[int]]]:
        """(complete allowed form's node, tokens that would run it on into a longer global
        form that is not allowed): a word-starting token after "Solomon Islands" that begins
        "Dollar" of "Solomon Islands Dollar" is masked there, unless it also starts a free
        word ("ibuprofen and ..." stays possible)."""
        return longer_names(self.allowed, self.lexicon, self.vocab)

    # -- masks -------------------------------------------------------------------------

    def _precompute_intent(self, allow: np.ndarray) -> None:
        """Span-intent rows of the free states and of every complete form (vectorised)."""
        floats = [r.astype(np.float32) for r in self._open_rows]
        bound = [r.astype(np.float32) for r in self._open_bound]
        for sid in (FREE_WS, FREE_IW):
            keep = self._open_rows[sid] & allow[sid]
            self._intent[sid] = (floats[sid], ~keep) if keep.any() else None
        term = [a for a in range(len(self.allowed)) if self.allowed.terminal[a]]
        if not term:
            return
        ends = [self._end_ws[a] for a in term]
        keep = allow[[3 + a for a in term]] & np.stack(self._open_bound)[ends]  # [T, V]
        has = keep.any(axis=1).tolist()
        deny = ~keep
        for i, a in enumerate(term):
            self._intent[3 + a] = (bound[ends[i]], deny[i]) if has[i] else None

    def deny_row(self, sid: int) -> np.ndarray:
        """bool [V], True where state ``sid`` forbids the token."""
        if sid < self._fixed:
            return self._deny_table[sid]
        row = self._deny.get(sid)
        if row is None:
            allow = np.zeros(self.vocab.size, dtype=bool)
            for th in self._sets[sid]:
                allow |= self._thread_allow(th)
            row = self._deny[sid] = ~allow
        return row

    def _thread_allow(self, th: Thread) -> np.ndarray:
        if th[0] == "F":
            return self._free_rows[0 if th[1] else 1]
        if th[0] == "S":
            return ~self._deny_table[3 + th[1]]
        row = self._pend.get(th[1])
        if row is None:
            F = self.lexicon.free
            row = bits_to_row(F.children_bits(th[1]), self.vocab.size)
            if F.terminal[th[1]]:
                row = row | self._free_bound[1]
            self._pend[th[1]] = row
        return row

    def mask_bits(self, sid: int) -> int:
        """Allowed tokens of ``sid`` as a bitset (tests, debugging)."""
        return row_to_bits(~self.deny_row(sid))

    def packed(self, sid: int) -> np.ndarray:
        """Allowed tokens of ``sid`` as one packed int32 row (XGrammar layout, LSB first)."""
        if sid < self._fixed:
            return self.packed_table[sid]
        return pack_rows(~self.deny_row(sid)[None])[0]

    def intent_rows(self, sid: int) -> tuple[np.ndarray, np.ndarray] | None:
        """For span intent: (float32 row [V], 1.0 where a token would open a span; deny row
        keeping only the allowed openers), or None when ``sid`` has no allowed opener."""
        hit = self._intent.get(sid, False)
        if hit is not False:
            return hit
        if sid < self._fixed:  # a node inside a form: no span can open there
            self._intent[sid] = None
            return None
        A, F = self.allowed, self.lexicon.free
        opener = np.zeros(self.vocab.size, dtype=bool)
        for th in self._sets[sid]:
            if th[0] == "F":
                opener |= self._open_rows[0 if th[1] else 1]
            elif th[0] == "S" and A.terminal[th[1]]:
                opener |= self._open_bound[self._end_ws[th[1]]]
            elif th[0] == "P" and F.terminal[th[1]]:
                opener |= self._open_bound[1]
        keep = opener & ~self.deny_row(sid)
        out = (opener.astype(np.float32), ~keep) if keep.any() else None
        self._intent[sid] = out
        return out

    def intent_openers(self, sid: int) -> np.ndarray | None:
        """The float32 row of :meth:`intent_rows` (1.0 on tokens that would open a span)."""
        r = self.intent_rows(sid)
        return None if r is None else r[0]

    def intent_deny(self, sid: int) -> np.ndarray | None:
        """The deny row of :meth:`intent_rows` (only the allowed openers stay)."""
        r = self.intent_rows(sid)
        return None if r is None else r[1]

    # -- transitions -------------------------------------------------------------------

    def step(self, sid: int, token: int) -> int:
        """The state after emitting ``token`` in state ``sid`` (memoised)."""
        key = sid * self.vocab.size + token
        nxt = self._trans.get(key)
        if nxt is None:
            threads: set[Thread] = set()
            if 0 <= token < self.vocab.size:
                for th in self._sets[sid]:
                    threads |= self._advance(th, token)
            nxt = self._trans[key] = self._intern(frozenset(threads))
        return nxt

    def run(self, tokens: Iterable[int], sid: int | None = None) -> int:
        sid = self.start if sid is None else sid
        for tok in tokens:
            sid = self.step(sid, tok)
        return sid

    def _intern(self, threads: frozenset[Thread]) -> int:
        return intern_threads(self._ids, self._sets, self.safe, self.allowed.terminal, threads)

    def _advance(self, th: Thread, t: int) -> set[Thread]:
        v, A = self.vocab, self.allowed
        if th[0] == "F":
            return self._open(t, th[1])
        if th[0] == "S":
            out: set[Thread] = set()
            nxt = A.child(th[1], t)
            if nxt is not None:
                out.add(("S", nxt))
            if A.terminal[th[1]] and v.is_(v.boundary, t):
                out |= self._open(t, self._end_ws[th[1]] == 0)
            return out
        F = self.lexicon.free
        out = set()
        f2 = F.child(th[1], t)
        if f2 is not None:
            out.add(("P", f2))
        if F.terminal[th[1]] and v.is_(v.boundary, t):
            out |= self._open(t, False)
        return out

    def _open(self, t: int, ws: bool) -> set[Thread]:
        """Threads after token ``t`` in free text (``ws``: at a word start)."""
        v = self.vocab
        after = ("F", not v.tail_list[t])
        if v.is_(v.special, t):
            return {("F", True)}
        if not (v.lead_list[t] and (ws or v.space_list[t] or v.is_(v.digit, t))):
            return {after}
        A, F = self.allowed, self.lexicon.free
        a = A.child(0, t)
        if a is None and not v.is_(self._opens_any, t):
            return {after}
        out: set[Thread] = set()
        if a is not None:
            out.add(("S", a))
        f = None if v.is_(v.digit, t) else F.child(0, t)
        if f is not None:
            out.add(("P", f))
        return out

    @property
    def n_states(self) -> int:
        return len(self._sets)


def longer_names(
    allowed: TokenTrie, lexicon: Any, vocab: TokenVocab
) -> list[tuple[int, list[int]]]:
    """(node of a complete form of ``allowed``, tokens that would run it on into a longer name
    of the lexicon's global trie that ``allowed`` does not hold), skipping tokens that also
    start a free word."""
    A, G, v = allowed, lexicon.global_trie, vocab
    free_start = lexicon.free.children_bits(0)
    out: list[tuple[int, list[int]]] = []
    stack = [(0, 0)]
    while stack:
        a, g = stack.pop()
        if a and A.terminal[a]:
            extend = [
                t
                for t in G.children[g]
                if t not in A.children[a] and v.is_(v.boundary, t) and not v.is_(free_start, t)
            ]
            if extend:
                out.append((a, extend))
        for t, a2 in A.children[a].items():
            g2 = G.children[g].get(t)
            if g2 is not None:
                stack.append((a2, g2))
    return out
