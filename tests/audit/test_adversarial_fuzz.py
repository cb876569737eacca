"""Hypothesis fuzzing of every extractor with a deadline (issue 14, "Also").

Texts are built from the pieces that made patterns backtrack (digit runs, separators, dots,
whitespace, currency signs, citations, markdown, mixed scripts), each repeated into runs of up
to 8,000 characters. Every extractor must answer each example within the deadline — generous
(a loaded 2-core machine; the linear code takes milliseconds), but far below what the
quadratic patterns took on a few thousand characters — and return spans inside the text.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditor.extract.assertion import is_negated
from auditor.extract.citations import find_citations
from auditor.extract.clauses import clause_spans
from auditor.extract.cues import find_frequencies, rate_direction
from auditor.extract.dates import find_dates
from auditor.extract.identifiers import find_identifiers
from auditor.extract.quantities import find_quantities
from auditor.extract.segment import split_sentences

PIECES = [
    "1",
    "9",
    "0.",
    "5",
    ",000",
    ",",
    ".",
    "..",
    " ",
    "\n",
    "\t",
    "$",
    "€",
    "%",
    "-",
    "–",
    " to ",
    " and ",
    " mg",
    " bps",
    " million",
    " dollars",
    "A. ",
    " v. ",
    "U.S. ",
    "(",
    ")",
    "!",
    "?",
    '"',
    "'",
    "|",
    "> ",
    "- ",
    "**",
    "`",
    "# ",
    "§ ",
    "347 U.S. 483 (1954)",
    "18 U.S.C. § 1341",
    "ISIN US0378331005 ",
    "DE89 3704 0044 0532 0130 00",
    "in July 2023 ",
    "since 2018 ",
    "twice daily ",
    "every 6 hours ",
    "not ",
    "é",
    "５",
    "١",
    "𝟕",
    "\u200b",
    "\u0301",
    " but ",
    "; ",
    ": ",
    " which ",
    "between 5 and 10 mg ",
    "Inc. ",
]
RUN = st.sampled_from(PIECES).flatmap(  # a piece repeated into a run of up to 8,000 chars
    lambda p: st.integers(1, max(1, 8_000 // len(p))).map(lambda n: p * n)
)
TEXT = st.lists(st.one_of(RUN, st.sampled_from(PIECES), st.text(max_size=20)), max_size=6).map(
    "".join
)
FUZZ = settings(
    deadline=timedelta(seconds=2),
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _spans(found: Any) -> list[tuple[int, int]]:
    if isinstance(found, bool | str) or found is None:
        return []
    out = []
    for item in found:
        if isinstance(item, tuple):
            out.append(item)
        elif hasattr(item, "start"):
            out.append((item.start, item.end))
    return out


EXTRACTORS: dict[str, Callable[[str], Any]] = {
    "quantities": find_quantities,
    "dates": find_dates,
    "frequencies": find_frequencies,
    "negation": is_negated,
    "direction": rate_direction,
    "sentences": split_sentences,
    "citations": find_citations,
    "identifiers": find_identifiers,
    "clauses": clause_spans,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(EXTRACTORS))
def test_extractors_answer_fast_on_adversarial_text(name: str) -> None:
    fn = EXTRACTORS[name]

    @FUZZ
    @given(TEXT)
    def run(text: str) -> None:
        for start, end in _spans(fn(text)):
            assert 0 <= start <= end <= len(text)

    run()
