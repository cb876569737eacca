"""News writes decisions in the present tense ("the ECB lifts its deposit rate to 4%"): such a
move is the level on the text's date, and "to a record-high 4.00 percent" names that level,
not a peak over an unbounded period."""

from __future__ import annotations

import pytest

from auditor import audit


@pytest.mark.parametrize(
    ("text", "as_of", "verdict"),
    [
        (
            "The ECB's 10th straight interest rate hike lifts the benchmark deposit rate to a "
            "record-high 4.00 percent.",
            "2023-09-14",
            "supported",
        ),
        ("The ECB lifts its deposit rate to 4.25 percent.", "2023-09-14", "contradicted"),
        ("The Fed holds the federal funds rate at 5.25%-5.50%.", "2023-10-01", "supported"),
        ("The Fed holds the federal funds rate at 5.50%-5.75%.", "2023-10-01", "contradicted"),
    ],
)
def test_a_present_tense_move_is_checked_on_the_texts_date(
    text: str, as_of: str, verdict: str
) -> None:
    claims = audit(text, domain="finance", as_of=as_of).claims
    assert [c.verdict for c in claims] == [verdict]


def test_a_peak_without_a_period_stays_unverifiable() -> None:
    claims = audit(
        "The federal funds rate peaked at 5.25%-5.50%.", domain="finance", as_of="2024-01-01"
    ).claims
    assert [c.verdict for c in claims] == ["unverifiable"]
    assert "peak or trough" in (claims[0].reason or "")


def test_a_move_size_then_its_level_are_two_values() -> None:
    text = (
        "The European Central Bank (ECB) lowered its deposit facility rate by 25 basis points "
        "to {level} per cent on 5 June 2025."
    )
    right = audit(text.format(level="2.00"), domain="finance", as_of="2025-06-06").claims
    assert [(c.verdict, c.object) for c in right] == [("supported", "2%")]
    wrong = audit(text.format(level="2.25"), domain="finance", as_of="2025-06-06").claims
    assert [(c.verdict, c.object) for c in wrong] == [("contradicted", "2.25%")]


def test_as_expected_asserts_what_happened() -> None:
    text = (
        "As expected, the Federal Reserve raised the target range for the federal funds rate "
        "by 25 basis points, or a quarter percent, to {r} on July 26, 2023."
    )
    right = audit(text.format(r="5.25% to 5.50%"), domain="finance", as_of="2023-07-27").claims
    assert [c.verdict for c in right] == ["supported"]
    wrong = audit(text.format(r="5.50% to 5.75%"), domain="finance", as_of="2023-07-27").claims
    assert "contradicted" in [c.verdict for c in wrong]
    forecast = audit(
        "Markets expect the Fed to cut the federal funds rate to 3.00%-3.25% in September 2025.",
        domain="finance",
        as_of="2025-01-27",
    ).claims
    assert {c.verdict for c in forecast} == {"unverifiable"}


def test_a_since_date_of_a_comment_clause_does_not_date_the_level() -> None:
    text = (
        "The ECB lowered its key deposit rate by 25 basis points to 2.0% on June 5, marking its "
        "eighth cut since June 2024."
    )
    claims = audit(text, domain="finance", as_of="2025-06-05").claims
    assert "contradicted" not in [c.verdict for c in claims]
