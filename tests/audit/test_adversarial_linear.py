"""Every extractor runs in linear time on pathological inputs (issue 14, finding 1).

A long run of digits once made the money pattern backtrack in O(n²) with the GIL held (16,000
digits froze the server for 33 s). Each case times one extractor on an input of size n and 4n
(CPU time of this thread, best of several runs, so waiting for the CPU does not count): linear
code grows about 4x, quadratic code 16x. The bound, 8x, is a ratio measured in the same run,
never an absolute time.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from auditor.extract.assertion import is_negated
from auditor.extract.citations import find_citations
from auditor.extract.clauses import clause_spans
from auditor.extract.cues import find_frequencies
from auditor.extract.dates import find_dates
from auditor.extract.identifiers import find_identifiers
from auditor.extract.quantities import find_quantities
from auditor.extract.segment import split_sentences

N = 1_500
MAX_RATIO = 8.0  # linear: ~4x for 4x the input; quadratic: ~16x

SHAPES: dict[str, Callable[[int], str]] = {
    "digits": lambda n: "1" * n,
    "decimal percent": lambda n: "0." + "5" * n + "%",
    "dollar digits": lambda n: "$" + "9" * n,
    "thousands groups": lambda n: "1" + ",000" * (n // 4),
    "dots": lambda n: "." * n,
    "bangs": lambda n: "!" * n,
    "initials": lambda n: "A. " * (n // 3),
    "case names": lambda n: "A v. " * (n // 5),
    "spaces": lambda n: "a" + " " * n + "x",
    "newlines": lambda n: "a" + "\n" * n + "x",
    "number then spaces": lambda n: "5" + " " * n + "x",
}
EXTRACTORS: dict[str, Callable[[str], object]] = {
    "quantities": find_quantities,
    "dates": find_dates,
    "frequencies": find_frequencies,
    "negation": is_negated,
    "sentences": split_sentences,
    "citations": find_citations,
    "identifiers": find_identifiers,
    "clauses": clause_spans,
}
# the pairs that were quadratic before the fix, and a few that never were (kept as a net)
CASES = [
    ("quantities", "digits"),
    ("quantities", "decimal percent"),
    ("quantities", "thousands groups"),
    ("quantities", "number then spaces"),
    ("sentences", "dots"),
    ("sentences", "bangs"),
    ("sentences", "initials"),
    ("sentences", "case names"),
    ("citations", "digits"),
    ("citations", "dollar digits"),
    ("clauses", "spaces"),
    ("clauses", "newlines"),
    ("dates", "digits"),
    ("frequencies", "digits"),
    ("negation", "spaces"),
    ("identifiers", "digits"),
]


def cpu_seconds(fn: Callable[[str], object], text: str, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.thread_time()
        fn(text)
        best = min(best, time.thread_time() - t0)
    return max(best, 1e-6)


@pytest.mark.parametrize(("extractor", "shape"), CASES, ids=[f"{e}-{s}" for e, s in CASES])
def test_extractor_time_grows_linearly(extractor: str, shape: str) -> None:
    fn, make = EXTRACTORS[extractor], SHAPES[shape]
    fn(make(N))  # warm caches (compiled patterns, lazy imports)
    small, large = cpu_seconds(fn, make(N)), cpu_seconds(fn, make(4 * N))
    assert large / small < MAX_RATIO, (
        f"{extractor} on {shape}: {small * 1e3:.2f} ms at {N} chars, {large * 1e3:.2f} ms at "
        f"{4 * N} ({large / small:.1f}x for 4x the input)"
    )
