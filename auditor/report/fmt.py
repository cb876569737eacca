"""How figures are printed in every rendered format (HTML, PDF), so tests can find them.

>>> pct(0.18181), pct(None), num(12345), score(0.5)
('18.2%', 'n/a', '12,345', '50.0%')
"""

from __future__ import annotations


def pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def num(n: int | None) -> str:
    return "n/a" if n is None else f"{n:,}"


def score(x: float | None) -> str:
    """A trust score or coverage, shown as a percentage like in ``kgaudit audit``."""
    return pct(x)


def label(name: str | None) -> str:
    """``numeric_error`` -> ``numeric error``."""
    return "unknown" if not name else name.replace("_", " ")


__all__ = ["label", "num", "pct", "score"]
