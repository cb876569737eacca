"""Values computed once per live object (or tuple of objects), keyed on identity.

Graphs, rule packs, indexes and tokenizers are neither hashable nor cheap to compare, so a
cache of what is derived from them is keyed on ``id()``. An id is reused once its object is
freed, so every hit is checked with ``is`` against the objects the value was built from, and
the cache holds those objects (they live as long as the cache does).

>>> cache = IdentityCache()
>>> rule = object()
>>> cache.get((rule,), lambda: "compiled") is cache.get((rule,), lambda: "again")
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class IdentityCache(Generic[V]):
    """A dict from object identities (plus hashable ``extra`` parts) to values.

    Reads and writes are single dict operations, atomic under the GIL; two threads missing at
    once may both build, and the later value is kept.
    """

    def __init__(self) -> None:
        self._values: dict[tuple[Any, ...], tuple[tuple[Any, ...], V]] = {}

    def get(self, objs: Sequence[Any], build: Callable[[], V], extra: Hashable = ()) -> V:
        """The value for ``objs`` (compared by identity) and ``extra``, built on a miss."""
        objs = tuple(objs)
        key = (*(id(o) for o in objs), extra)
        hit = self._values.get(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], objs, strict=True)):
            return hit[1]
        value = build()
        self._values[key] = (objs, value)
        return value

    def clear(self) -> None:
        self._values.clear()


__all__ = ["IdentityCache"]
