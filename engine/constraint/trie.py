"""A token-id trie: node 0 is the root, each edge one token id, ``terminal`` marks complete
sequences. Children sets are also kept as bitsets over the vocabulary for the masks.

>>> t = TokenTrie([[5, 7], [5, 9, 1], [3]])
>>> t.child(0, 5), t.child(t.child(0, 5), 9) is not None, t.child(0, 4)
(1, True, None)
>>> t.terminal[t.walk([5, 7])], t.terminal[t.walk([5])], t.walk([5, 8])
(True, False, None)
>>> sorted(t.children_ids(0))
[3, 5]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class TokenTrie:
    """Immutable after construction; ``len(trie)`` is the number of nodes."""

    __slots__ = ("_bits", "children", "depth", "terminal", "token")

    def __init__(self, sequences: Iterable[Sequence[int]] = ()) -> None:
        self.children: list[dict[int, int]] = [{}]
        self.terminal: list[bool] = [False]
        self.depth: list[int] = [0]
        self.token: list[int] = [-1]  # the token on the edge into each node (-1 for the root)
        for seq in sequences:
            self._add(seq)
        self._bits: list[int] | None = None

    def _add(self, seq: Sequence[int]) -> None:
        if not seq:
            return
        node = 0
        for tok in seq:
            nxt = self.children[node].get(tok)
            if nxt is None:
                nxt = len(self.children)
                self.children[node][tok] = nxt
                self.children.append({})
                self.terminal.append(False)
                self.depth.append(self.depth[node] + 1)
                self.token.append(tok)
            node = nxt
        self.terminal[node] = True

    def __len__(self) -> int:
        return len(self.children)

    def child(self, node: int | None, token: int) -> int | None:
        if node is None:
            return None
        return self.children[node].get(token)

    def walk(self, seq: Iterable[int], node: int = 0) -> int | None:
        """The node reached from ``node`` by ``seq``, or None if it leaves the trie."""
        cur: int | None = node
        for tok in seq:
            cur = self.child(cur, tok)
            if cur is None:
                return None
        return cur

    def children_ids(self, node: int) -> Iterable[int]:
        return self.children[node].keys()

    def children_bits(self, node: int) -> int:
        """The children of ``node`` as a bitset over token ids."""
        if self._bits is None:
            self._bits = [_bitset(c) for c in self.children]
        return self._bits[node]

    def sequences(self) -> list[list[int]]:
        """Every complete sequence (depth-first, children in insertion order)."""
        out: list[list[int]] = []
        stack: list[tuple[int, list[int]]] = [(0, [])]
        while stack:
            node, path = stack.pop()
            if self.terminal[node]:
                out.append(path)
            for tok, nxt in reversed(list(self.children[node].items())):
                stack.append((nxt, [*path, tok]))
        return out


def _bitset(ids: Iterable[int]) -> int:
    bits = 0
    for i in ids:
        bits |= 1 << i
    return bits
