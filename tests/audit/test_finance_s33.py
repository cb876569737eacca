"""The federal funds rate named as "the federal funds rate target (range)" is the FOMC's
target range (issue 24 paraphrase invariance). Sentences written for this test; the range
5.25–5.50 % from 2023-07-27 is the graph's (FOMC statement of 2023-07-26)."""

from __future__ import annotations

import pytest

from auditor import audit


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        (
            "On July 26, 2023, the federal funds rate target was raised to 5.25%-5.50% by the FOMC.",
            "supported",
        ),
        (
            "In late July 2023 the fed funds rate target range was lifted to 5.25%-5.50%.",
            "supported",
        ),
        (
            "On July 26, 2023, the federal funds rate target was raised to 5.50%-5.75% by the FOMC.",
            "contradicted",
        ),
    ],
)
def test_rate_target_wording_names_the_target_range(text: str, verdict: str) -> None:
    r = audit(text, domain="finance", as_of="2023-08-15")
    got = [c.verdict for c in r.claims if c.subject == "rate:fed-funds-target"]
    assert got == [verdict], [(c.subject, c.verdict, c.reason) for c in r.claims]
