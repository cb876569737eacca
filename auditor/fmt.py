"""How figures are printed for people: in ``kgaudit audit``, batch summaries, the generation
evaluation's tables and the compliance report (HTML, PDF), so each figure reads the same
everywhere and tests can find it.

>>> pct(0.18181), pct(None), pct(None, none="–"), num(12345), num(None)
('18.2%', 'n/a', '–', '12,345', 'n/a')
"""

from __future__ import annotations


def pct(x: float | None, *, none: str = "n/a") -> str:
    """A share as a percentage with one decimal (``none`` when there is no value)."""
    return none if x is None else f"{x:.1%}"


def num(n: int | None) -> str:
    """A count with thousands separators."""
    return "n/a" if n is None else f"{n:,}"


__all__ = ["num", "pct"]
