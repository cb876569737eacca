"""The masks of the answer-slot automaton: what each thread may emit, the deny row of a state,
and the rows span intent uses (:class:`SlotMasks`, mixed into
:class:`engine.constraint.slot.SlotAutomaton`, whose ``__init__`` sets the tables these
methods read; the state machine itself is in ``slot.py``).

Rows are numpy bool rows over the logit width, built on first use and memoised (per thread,
per state, per trie node and category set).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.constraint.automaton import longer_names
from engine.constraint.masks import bits_to_row, pack_rows, row_to_bits

SUBJECT, VALUE, EXTRA, IDK = 1, 2, 4, 8  # form categories (bits)
PREFERRED = 16  # marks the forms span intent forces (a subject's or value's usual name)
ECHO = 32  # marks the values the question itself states (they may come before the subject)
SAID_SUBJECT, SAID_VALUE, SAID_IDK = 1, 2, 4  # flags of a thread
Thread = tuple  # ("F", ws, flags) | ("S", node, flags) | ("P", node, flags)


class SlotMasks:
    """Mask building for :class:`~engine.constraint.slot.SlotAutomaton` (a mixin)."""

    # set by SlotAutomaton.__init__, which also defines _cats, _complete and _closed_flags
    allowed: Any
    lexicon: Any
    vocab: Any
    through: list[int]
    ends: list[int]
    forced_idk: bool
    _sets: list[frozenset[Thread]]

    def _children(self, node: int, cats: int) -> int:
        """Children of ``node`` on the way to a form of ``cats``, as a bitset (memoised)."""
        key = (node, cats)
        bits = self._kids.get(key)
        if bits is None:
            bits = 0
            for tok, c in self.allowed.children[node].items():
                if self.through[c] & cats:
                    bits |= 1 << tok
            self._kids[key] = bits
        return bits

    def _row_of(self, key: Any, bits: int) -> np.ndarray:
        row = self._bit_rows.get(key)
        if row is None:
            row = self._bit_rows[key] = bits_to_row(bits, self.vocab.size)
        return row

    def _forced_openers(self, cat: int, ws: bool) -> np.ndarray:
        """First tokens of the ``cat`` forms span intent may force (inside a word only those
        led by a space or a digit): the preferred ones if there are any (a country's name
        rather than its ISO code), else all. A bool row (memoised)."""
        key = ("forced", cat, ws)
        row = self._bit_rows.get(key)
        if row is None:
            bits = 0
            for tok, c in self.allowed.children[0].items():
                if self.through[c] & cat and self.through[c] & PREFERRED:
                    bits |= 1 << tok
            bits = bits or self._children(0, cat)
            if not ws:
                bits &= self.vocab.space | self.vocab.digit
            row = self._row_of(key, bits)
        return row

    def _free_row(self, ws: bool, flags: int) -> np.ndarray:
        """Tokens allowed in free text: no opener of a form outside the allowed categories;
        nothing that ends the answer before it is complete; only the IDK path when forced."""
        key = ("F", ws, flags)
        row = self._rows.get(key)
        if row is None:
            v, cats = self.vocab, self._cats(flags)
            first = self._children(0, cats)
            if self.forced_idk and not flags & SAID_IDK:  # no IDK phrase given: end at once
                row = bits_to_row(first or v.special, v.size)
            else:
                forbidden = self._opens & ~first & ~self._free_first
                if not ws:
                    forbidden &= v.space | v.digit
                row = bits_to_row(v.all & ~forbidden, v.size)
                if not self._complete(flags):
                    row &= ~self._gate
            self._rows[key] = row
        return row

    def _thread_row(self, th: Thread) -> np.ndarray:
        row = self._rows.get(th)
        if row is not None:
            return row
        v, kind, node, flags = self.vocab, th[0], th[1], th[2]
        if kind == "F":
            row = self._free_row(node, flags)
        elif kind == "S":
            cats = self._cats(flags)
            if self.ends[node] & cats:
                closed = self._free_row(self._end_ws[node] == 0, self._closed_flags(node, flags))
                row = closed & self._boundary
                row[self._longer.get(node, [])] = False
            else:
                row = np.zeros(v.size, dtype=bool)
            kids = self.allowed.children[node]
            row[[t for t, c in kids.items() if self.through[c] & cats]] = True
        else:
            F = self.lexicon.free
            if F.terminal[node]:
                row = self._free_row(False, flags) & self._boundary
            else:
                row = np.zeros(v.size, dtype=bool)
            row[list(F.children[node])] = True
            if node in self._turn_nodes and not self._complete(flags):
                row = row & ~self._colon  # "A:" would start a new turn before the answer
        self._rows[th] = row
        return row

    def _longer_names(self) -> list[tuple[int, list[int]]]:
        """(node of a complete form, tokens that would run it on into a longer known name
        that is not allowed), as :meth:`SpanAutomaton._longer_names`."""
        return longer_names(self.allowed, self.lexicon, self.vocab)

    def deny_row(self, sid: int) -> np.ndarray:
        """bool [V], True where state ``sid`` forbids the token."""
        row = self._deny.get(sid)
        if row is None:
            threads = self._sets[sid]
            if not threads:  # dead (only reachable by forcing a masked token): end here
                allow = bits_to_row(self.vocab.special, self.vocab.size)
            else:
                allow = np.zeros(self.vocab.size, dtype=bool)
                for th in threads:
                    allow |= self._thread_row(th)
            row = self._deny[sid] = ~allow
        return row

    def _next_wanted(self, flags: int) -> int:
        """The category the answer needs next: the subject, then a value, then any."""
        if not flags & SAID_SUBJECT:
            return SUBJECT
        return VALUE if not flags & SAID_VALUE else SUBJECT | VALUE | EXTRA

    def commit_row(self, sid: int) -> np.ndarray | None:
        """Deny row keeping only the continuations of the spans open in ``sid`` (and, at a
        complete form, what closes it) — of the category the answer needs next when there
        are such spans: after span intent forced an opener, the name goes on as the name it
        was forced for ("Tanzania", not "Tanzanian Shilling"). None when no span is open."""
        hit = self._commit.get(sid, False)
        if hit is not False:
            return hit
        spans = [th for th in self._sets[sid] if th[0] == "S"]
        wanted = [th for th in spans if self.through[th[1]] & self._next_wanted(th[2])]
        spans = wanted or spans  # the subject (or value) the opener was forced for
        row = None
        if spans:
            allow = np.zeros(self.vocab.size, dtype=bool)
            for th in spans:
                allow |= self._thread_row(th)
            row = ~allow
        self._commit[sid] = row
        return row

    def mask_bits(self, sid: int) -> int:
        """Allowed tokens of ``sid`` as a bitset (tests, debugging)."""
        return row_to_bits(~self.deny_row(sid))

    def packed(self, sid: int) -> np.ndarray:
        """Allowed tokens of ``sid`` as one packed int32 row (XGrammar layout, LSB first)."""
        return pack_rows(~self.deny_row(sid)[None])[0]

    def _intent_threads(self, sid: int) -> list[tuple[int, bool, bool]]:
        """(flags once closed, at a word start, at the end of a form) of each thread of
        ``sid`` where a new span could open."""
        A, F = self.allowed, self.lexicon.free
        out = []
        for kind, node, flags in self._sets[sid]:
            if kind == "S" and A.terminal[node] and self.ends[node] & self._cats(flags):
                out.append((self._closed_flags(node, flags), self._end_ws[node] == 0, True))
            elif kind == "P" and F.terminal[node]:
                out.append((flags, False, True))
            elif kind == "F":
                out.append((flags, bool(node), False))
        return out

    def intent_openers(self, sid: int) -> np.ndarray | None:
        """For span intent: float32 row, 1.0 on the tokens that show the model is about to
        name something (a token that continues an open name does not count), or None where
        nothing will be forced (the answer is complete, or "I don't know" is forced)."""
        hit = self._intent.get(sid, False)
        if hit is not False:
            return hit
        kinds: set[int] = set()
        live = False
        for closed, ws, at_end in self._intent_threads(sid):
            kinds.add((0 if ws else 1) + (2 if at_end else 0))
            live = live or not (self._complete(closed) or self.forced_idk)
        going_on = 0
        for kind, node, flags in self._sets[sid]:
            if kind == "S":
                going_on |= self._children(node, self._cats(flags))
        # the row depends only on (which opener rows, what continues an open name): states
        # that share them share one row object, so the processor copies it less often
        key = ("intent", live, frozenset(kinds), going_on)
        out = self._intent_rows.get(key, False)
        if out is False:
            opener = np.zeros(self.vocab.size, dtype=bool)
            for k in kinds:
                opener |= self._open_rows[k]
            if going_on:
                opener &= ~self._row_of(("going", going_on), going_on)
            out = opener.astype(np.float32) if live and opener.any() else None
            self._intent_rows[key] = out
        self._intent[sid] = out
        return out

    def intent_deny(self, sid: int) -> np.ndarray | None:
        """For span intent: the deny row that keeps only the openers of the form the answer
        needs next — the subject until it is named, then a value ("I don't know" is never
        forced); None when no such opener is allowed in ``sid`` (memoised)."""
        hit = self._intent_deny.get(sid, False)
        if hit is not False:
            return hit
        wanted = np.zeros(self.vocab.size, dtype=bool)
        for closed, ws, _ in self._intent_threads(sid):
            if not (self._complete(closed) or self.forced_idk):
                wanted |= self._forced_openers(self._next_wanted(closed), ws)
        keep = wanted & ~self.deny_row(sid)
        out = self._intent_deny[sid] = ~keep if keep.any() else None
        return out

    def intent_rows(self, sid: int) -> tuple[np.ndarray, np.ndarray] | None:
        """(:meth:`intent_openers`, :meth:`intent_deny`), or None if either is None."""
        opener, deny = self.intent_openers(sid), self.intent_deny(sid)
        return None if opener is None or deny is None else (opener, deny)
