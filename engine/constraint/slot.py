"""The answer-slot automaton: graph-constrained reasoning for one question's answer.

From the question the caller knows the subject and the predicate asked about; it passes the
subject's names, the values (or objects) the graph holds for that subject and predicate, the
qualifiers an answer may repeat, and the "I don't know" phrases. The answer is free text in
which every *span* (a word that begins a name or value the graph knows, or a number — the
:class:`~engine.constraint.automaton.SpanLexicon` decides, as for :class:`SpanAutomaton`) must
be one of those forms, and which may only end (EOS, a new line) once it has named the subject
and given a value, or said it does not know:

* ``SUBJECT`` forms: the subject's names; ``VALUE`` forms: the graph's values for the asked
  predicate, allowed once the subject is named — except the ``echo`` forms, values the
  question itself states, which may come first ("Which drug is sold as Advil?" — "Advil is
  a brand name of ibuprofen");
* ``EXTRA`` forms: qualifiers (population, indication, severity) allowed anywhere;
* ``IDK`` forms: once one is complete, no span may open any more and the answer may end;
  it may start only while no value has been given;
* ``preferred`` forms (optional): the usual names among the subject and value forms, which
  span intent forces rather than, say, an ISO code.

Fail closed: a span that is none of these is masked, an unknown continuation is masked, and
with no subject or no value the only way to end is the "I don't know" path (``forced_idk``:
its first token is then the only one allowed at the start). Inside a span and before the
answer is complete, EOS, tokens holding a new line, and a colon after one of the
``turn_words`` ("A:", "Q:" start a new turn of the prompt format) are masked.

A state is a frozen set of threads, as in :class:`SpanAutomaton`, each carrying the *flags* of
what the answer has given so far: ``("F", ws, flags)`` free text, ``("S", node, flags)`` inside
the trie of all forms, ``("P", node, flags)`` a pending free word. Rows are built on first use
(``slot_masks.py``) and transitions memoised, so a decode step costs one dict lookup per row.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from engine.constraint.automaton import SpanLexicon, intern_threads
from engine.constraint.masks import bits_to_row
from engine.constraint.slot_masks import (
    ECHO,
    EXTRA,
    IDK,
    PREFERRED,
    SAID_IDK,
    SAID_SUBJECT,
    SAID_VALUE,
    SUBJECT,
    VALUE,
    SlotMasks,
    Thread,
)
from engine.constraint.trie import TokenTrie

__all__ = ["ECHO", "EXTRA", "IDK", "PREFERRED", "SUBJECT", "VALUE", "SlotAutomaton"]


class SlotAutomaton(SlotMasks):
    """State machine of one answer slot (see the module docstring); the interface
    :class:`~engine.constraint.processor.KGConstraint` drives: ``start``, ``step``, ``safe``,
    ``deny_row``, ``packed``, ``intent_rows``, ``vocab``."""

    def __init__(
        self,
        lexicon: SpanLexicon,
        subject_forms: Iterable[str],
        value_forms: Iterable[str],
        *,
        extra_forms: Iterable[str] = (),
        idk_forms: Iterable[str] = (),
        preferred_forms: Iterable[str] | None = None,
        echo_forms: Iterable[str] = (),
        turn_words: Iterable[str] = ("Q", "A"),
        start_ws: bool = True,
    ) -> None:
        self.lexicon, self.vocab = lexicon, lexicon.vocab
        v, size = self.vocab, self.vocab.size
        groups = {
            SUBJECT: sorted(set(subject_forms)),
            VALUE: sorted(set(value_forms)),
            EXTRA: sorted(set(extra_forms)),
            IDK: sorted(set(idk_forms)),
        }
        if preferred_forms is not None:
            groups[PREFERRED] = sorted(set(preferred_forms))
        groups[ECHO] = sorted(set(echo_forms) & set(value_forms))
        tagged = [(cat, seq) for cat, fs in groups.items() for seq in lexicon.span_sequences(fs)]
        self.allowed = TokenTrie(seq for _, seq in tagged)
        A = self.allowed
        self.through = [0] * len(A)  # categories of the forms through each node
        self.ends = [0] * len(A)  # categories of the forms ending at each node
        for cat, seq in tagged:
            node = 0
            for tok in seq:
                node = A.children[node][tok]
                self.through[node] |= cat
            self.ends[node] |= cat
        self.forced_idk = not (self.through_any(SUBJECT) and self.through_any(VALUE))
        self._opens = (lexicon.openers | A.children_bits(0) | v.digit) & v.word_lead
        self._free_first = lexicon.free.children_bits(0) & ~v.digit
        self._boundary = bits_to_row(v.boundary, size)
        blank = sum(1 << i for i, t in enumerate(v.texts) if t and not t.strip())
        newline = sum(1 << i for i, t in enumerate(v.texts) if "\n" in t)
        self._gate = bits_to_row(v.special | newline, size)  # what ends an answer
        colon = sum(1 << i for i, t in enumerate(v.texts) if t.startswith(":"))
        self._colon = bits_to_row(colon, size)
        self._turn_nodes = self._word_nodes(turn_words)  # "A" then ":" starts a new turn
        naming = self._opens & ~self._free_first  # begins a known form, not a free word
        rows = [
            bits_to_row(naming | blank, size),
            bits_to_row((naming & (v.space | v.digit)) | blank, size),
        ]
        # what shows the model is about to name something: at a word start / inside a word,
        # then the same after a complete form (where only a boundary token opens a new span)
        self._open_rows = [*rows, *(r & self._boundary for r in rows)]
        self._end_ws = [0 if a == 0 or not v.tail_list[A.token[a]] else 1 for a in range(len(A))]
        self._longer = dict(self._longer_names())
        self._sets: list[frozenset[Thread]] = []
        self._ids: dict[frozenset[Thread], int] = {}
        self.safe: list[bool] = []
        self.start = self._intern(frozenset({("F", start_ws, 0)}))
        self._rows: dict[Any, np.ndarray] = {}  # memoised allowed rows of threads
        self._deny: dict[int, np.ndarray] = {}
        self._intent: dict[int, Any] = {}
        self._intent_rows: dict[Any, Any] = {}
        self._intent_deny: dict[int, Any] = {}
        self._commit: dict[int, Any] = {}
        self._kids: dict[tuple[int, int], int] = {}
        self._bit_rows: dict[Any, np.ndarray] = {}
        self._trans: dict[int, int] = {}

    def _word_nodes(self, words: Iterable[str]) -> set[int]:
        """Free-word trie nodes where each of ``words`` (with a leading space or not) ends."""
        F = self.lexicon.free
        return {
            n
            for w in words
            for seq in self.lexicon._encode([w.strip(), " " + w.strip()])
            if (n := F.walk(seq)) is not None and F.terminal[n]
        }

    def through_any(self, cat: int) -> bool:
        return any(self.through[c] & cat for c in self.allowed.children[0].values())

    # -- what each thread may do ---------------------------------------------------------

    def _cats(self, flags: int) -> int:
        """Form categories a span may belong to, given what the answer has said."""
        if flags & SAID_IDK:
            return 0
        if self.forced_idk:
            return IDK
        if not flags & SAID_SUBJECT:  # the subject first; only a value the question states
            return SUBJECT | ECHO | EXTRA | (0 if flags & SAID_VALUE else IDK)
        if not flags & SAID_VALUE:  # named once: no repeating it where the value goes
            return VALUE | EXTRA | IDK
        return SUBJECT | VALUE | EXTRA

    def _complete(self, flags: int) -> bool:
        return bool(flags & SAID_IDK) or (flags & (SAID_SUBJECT | SAID_VALUE)) == (
            SAID_SUBJECT | SAID_VALUE
        )

    def _closed_flags(self, node: int, flags: int) -> int:
        said = self.ends[node] & self._cats(flags)
        return (
            flags
            | (SAID_SUBJECT if said & SUBJECT else 0)
            | (SAID_VALUE if said & (VALUE | ECHO) else 0)
            | (SAID_IDK if said & IDK else 0)
        )

    # -- transitions -----------------------------------------------------------------------

    def step(self, sid: int, token: int) -> int:
        """The state after emitting ``token`` in state ``sid`` (memoised)."""
        key = sid * self.vocab.size + token
        nxt = self._trans.get(key)
        if nxt is None:
            threads: set[Thread] = set()
            if 0 <= token < self.vocab.size:
                for th in self._sets[sid]:
                    if self._thread_row(th)[token]:
                        threads |= self._advance(th, token)
            nxt = self._trans[key] = self._intern(frozenset(threads))
        return nxt

    def run(self, tokens: Iterable[int], sid: int | None = None) -> int:
        sid = self.start if sid is None else sid
        for tok in tokens:
            sid = self.step(sid, tok)
        return sid

    def answered(self, sid: int) -> bool:
        """Whether the text so far names the subject and a value, or says it does not know
        (a complete form counts before the token that closes it)."""
        for kind, node, flags in self._sets[sid]:
            if kind == "S" and self.ends[node] & self._cats(flags):
                flags = self._closed_flags(node, flags)
            if self._complete(flags):
                return True
        return False

    def _intern(self, threads: frozenset[Thread]) -> int:
        return intern_threads(self._ids, self._sets, self.safe, self.allowed.terminal, threads)

    def _advance(self, th: Thread, t: int) -> set[Thread]:
        v, A, flags = self.vocab, self.allowed, th[2]
        if th[0] == "F":
            return self._open(t, th[1], flags)
        if th[0] == "S":
            out: set[Thread] = set()
            nxt = A.child(th[1], t)
            if nxt is not None and self.through[nxt] & self._cats(flags):
                out.add(("S", nxt, flags))
            if self.ends[th[1]] & self._cats(flags) and v.is_(v.boundary, t):
                closed = self._closed_flags(th[1], flags)
                out |= self._open(t, self._end_ws[th[1]] == 0, closed)
            return out
        F = self.lexicon.free
        out = set()
        f2 = F.child(th[1], t)
        if f2 is not None:
            out.add(("P", f2, flags))
        if F.terminal[th[1]] and v.is_(v.boundary, t):
            out |= self._open(t, False, flags)
        return out

    def _open(self, t: int, ws: bool, flags: int) -> set[Thread]:
        """Threads after token ``t`` in free text (``ws``: at a word start)."""
        v = self.vocab
        after = ("F", not v.tail_list[t], flags)
        if v.is_(v.special, t):
            return {("F", True, flags)}
        if not (v.lead_list[t] and (ws or v.space_list[t] or v.is_(v.digit, t))):
            return {after}
        a = self.allowed.child(0, t)
        if a is not None and not self.through[a] & self._cats(flags):
            a = None
        if a is None and not v.is_(self._opens, t):
            return {after}
        out: set[Thread] = set()
        if a is not None:
            out.add(("S", a, flags))
        f = None if v.is_(v.digit, t) else self.lexicon.free.child(0, t)
        if f is not None:
            out.add(("P", f, flags))
        return out

    @property
    def n_states(self) -> int:
        return len(self._sets)
